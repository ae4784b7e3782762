"""Bad case descriptions fail with one line naming the field; good ones load."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from conftest import CORPUS, INDUCTOR_CASES, ROOT

from tnpu.execution.case import CaseError, load_case

ADAM = CORPUS / "inductor" / "adam_step__triton_poi_fused_add_copy__div_fma_mul_sqrt_0"


def broken_copy(tmp_path, edit):
    case = tmp_path / ADAM.name
    shutil.copytree(ADAM, case)
    meta = json.loads((case / "meta.json").read_text())
    edit(meta)
    (case / "meta.json").write_text(json.dumps(meta))
    return case


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda m: m["launches"][0]["args"].pop(), "no value for parameter 'xnumel'"),
        (lambda m: m["launches"][0]["args"].extend([5, 5]), "10 arguments for 9 parameters"),
        (lambda m: m["launches"][0]["args"][0].update(dtype="int64"), "args[0] (in_ptr0): dtype 'int64'"),
        (lambda m: m.update(grid_for_config0=[0, 1, 1]), "grid_for_config0"),
        (lambda m: m.update(grid_for_config0=[1, 1, 1, 1]), "grid_for_config0"),
        (lambda m: m["signature"].update(xnumel="q7"), "'xnumel' has unknown type 'q7'"),
        (lambda m: m.pop("kernel_name"), "missing field 'kernel_name'"),
        (lambda m: m.update(mutated_arg_names=["nope"]), "mutated_arg_names"),
    ],
)
def test_bad_meta_names_the_field(tmp_path, edit, field):
    with pytest.raises(CaseError) as error:
        load_case(broken_copy(tmp_path, edit))
    message = str(error.value)
    assert "\n" not in message and "meta.json" in message
    assert field.split(" for ")[0] in message


def test_every_corpus_case_loads_with_a_grid():
    for directory in INDUCTOR_CASES:
        case = load_case(directory)
        assert all(n >= 1 for n in case.grid), directory.name


def test_inductor_grid_is_derived_when_the_capture_lacks_it():
    case = load_case(CORPUS / "inductor" / "cross_entropy__triton_per_fused__log_softmax_nll_loss_forward_1")
    assert case.grid == (1, 1, 1)


def test_cli_reports_bad_meta_in_one_line(tmp_path):
    case = broken_copy(tmp_path, lambda m: (m.update(grid_for_config0="soon"), m.pop("grid_type")))
    run = subprocess.run(
        [sys.executable, "-m", "tnpu.tools.tnpu_main", "run", str(case)],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "grid_for_config0" in run.stderr


def test_a_rung_that_crashes_is_an_error_in_the_record(monkeypatch):
    """A compiler bug in one rung (here the backend running out of registers) is that
    rung's `error`; the other rungs still run and the record is still made."""
    from tnpu.compiler import kernel as compile_api
    from tnpu.execution import runner
    from tnpu.execution.runner import run_case

    def out_of_registers(kernel, lowered):
        raise RuntimeError("backend_riscv: out of scratch registers")

    monkeypatch.setattr(compile_api, "compile_kernel", out_of_registers)
    monkeypatch.setitem(runner.RUNGS, "oracle", _NoOracle())  # Triton's interpreter is not the point
    case = load_case(ROOT / "examples" / "vector_add")
    result = run_case(case, mode="qemu")
    statuses = {r.name: (r.status, r.message) for r in result.rungs}
    assert statuses["qemu"] == (
        "error", "internal error in backend_riscv: RuntimeError: backend_riscv: out of scratch registers"
    )
    assert statuses["ttir"][0] == statuses["tile"][0] == "ok"
    assert result.stage_reached == "tile" and result.match is True
    assert result.to_json()["error"].startswith("qemu: internal error")


class _NoOracle:
    modes = frozenset({"qemu"})

    def run(self, context):
        from tnpu.execution.rungs import RungResult

        return RungResult("oracle", "skipped", message="not needed")
