"""`tnpu run CASE --exec qemu --config tpuv3` compiles the case once.

Through `tnpu`'s own entry point, with the passes' `apply` counted: every
rung reads the run's one compiled kernel, so tnpu-to-tile (and
ttir-to-tile inside it) runs once, expand-math once per target (RISC-V's
native set, then tpuv3's), widen-half-floats once (RISC-V), and the
backend compiles and links one ELF, run at all three VLENs.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import CORPUS

from tnpu.backend_riscv import codegen, qemu_launch
from tnpu.backend_riscv.target import NATIVE_MATH
from tnpu.compiler import kernel
from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.lowering.ttir_to_tile import TTIRToTilePass
from tnpu.timing.npu_config import load_npu_config
from tnpu.tools.tnpu_main import main
from tnpu.transforms.expand_math import ExpandMathPass
from tnpu.transforms.widen_half_floats import WidenHalfFloatsPass

SOFTMAX = CORPUS / "inductor" / "softmax__triton_per_fused__softmax_0"


def test_one_run_lowers_once_and_expands_math_once_per_target(monkeypatch, capsys):
    calls: Counter[str] = Counter()
    native_sets: list[tuple[str, ...]] = []

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            if name == "expand-math":
                native_sets.append(tuple(sorted(args[0].native)))
            return function(*args, **kwargs)

        return wrapper

    for cls in (TnpuToTilePipeline, TTIRToTilePass, ExpandMathPass, WidenHalfFloatsPass):
        monkeypatch.setattr(cls, "apply", counted(cls.name, cls.apply))
    monkeypatch.setattr(kernel, "lower_kernel", counted("tile-to-rvv", codegen.lower_kernel))
    monkeypatch.setattr(kernel, "compile_kernel", counted("codegen", codegen.compile_kernel))
    build_elf = counted("build_elf", qemu_launch.build_elf)
    monkeypatch.setattr(kernel, "build_elf", build_elf)
    monkeypatch.setattr(qemu_launch, "build_elf", build_elf)

    with pytest.raises(SystemExit) as exit_:
        main(["run", str(SOFTMAX), "--exec", "qemu", "--config", "tpuv3", "--json"])
    record = json.loads(capsys.readouterr().out)

    assert exit_.value.code == 0 and record["match"] is True, record["error"]
    rungs = {rung["name"]: rung for rung in record["rungs"]}
    assert [rungs[name]["status"] for name in ("oracle", "ttir", "tile", "qemu", "timing")] == ["ok"] * 5
    assert rungs["qemu"]["vlens"] == ["128", "256", "512"]
    assert calls == {
        "tnpu-to-tile": 1, "ttir-to-tile": 1, "expand-math": 2, "widen-half-floats": 1,
        "tile-to-rvv": 1, "codegen": 1, "build_elf": 1,
    }  # fmt: skip
    tpuv3 = tuple(sorted(n.removeprefix("math.") for n in load_npu_config("tpuv3").vpu_native_math_ops))
    assert native_sets == [tuple(sorted(NATIVE_MATH)), tpuv3]
