"""Bad case descriptions fail with one line naming the field; good ones load."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from conftest import CORPUS, INDUCTOR_CASES

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
