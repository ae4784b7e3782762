"""@triton.jit kernels as cases run through every rung: what the execution and RISC-V tests share.

`kernel_case` compiles a kernel of a kernels file (by default
test/execution/language_kernels.py) to TTIR and makes it a case;
`check_every_rung` runs it through every rung of `tnpu run --exec qemu`
and asserts that all succeed and match.  A test module that takes the
module-scoped `oracle` fixture imports it from here (and names it in
`__all__`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tnpu.execution.case import Case, bind_arguments, contiguous_strides
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import RunResult, run_case
from tnpu.frontend import DEFAULT_TARGET, KernelSource, compile_to_ttir, load_jit_function

KERNELS = Path(__file__).resolve().parent / "execution" / "language_kernels.py"
"""The kernels `kernel_case` compiles unless told otherwise."""
EVERY_RUNG = [("oracle", "ok"), ("ttir", "ok"), ("tile", "ok"), ("qemu", "ok")]
POINTER = {"float16": "*fp16", "bfloat16": "*bf16", "float32": "*fp32", "float64": "*fp64",
           "int8": "*i8", "int16": "*i16", "int32": "*i32", "int64": "*i64", "bool": "*i1"}  # fmt: skip


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    with Oracle(cache_dir=tmp_path_factory.mktemp("oracle-cache")) as process:
        yield process


def tensor(dtype: str, *shape: int) -> dict[str, Any]:
    return {"shape": list(shape), "stride": list(contiguous_strides(shape)), "dtype": dtype}


def kernel_case(
    directory: Path, function: str, arguments: dict[str, Any], constexprs: dict[str, Any],
    grid: tuple[int, ...], input_ranges: dict[str, tuple[int, int]] | None = None,
    kernels: Path = KERNELS, target: tuple[str, int, int] = DEFAULT_TARGET,
) -> Case:
    """The case of `function` in `kernels` (language_kernels.py) compiled for `target`,
    launched on `arguments` (tensors and scalars)."""
    signature = {
        name: POINTER[value["dtype"]] if isinstance(value, dict) else ("fp32" if isinstance(value, float) else "i32")
        for name, value in arguments.items()
    } | dict.fromkeys(constexprs, "constexpr")
    ttir = directory / f"{function}.ttir"
    source = KernelSource(load_jit_function(kernels, function), signature, constexprs)
    ttir.write_text(compile_to_ttir(source, target))
    launch = [arguments.get(name, constexprs.get(name)) for name in signature]
    full_grid = (*grid, *(1,) * (3 - len(grid)))
    return Case(
        name=function, ttir_path=ttir, kernel_py=kernels, kernel_name=function, signature=signature,
        constexprs=constexprs, grid=full_grid, args=bind_arguments(signature, constexprs, launch, function),  # type: ignore[arg-type]
        input_ranges=input_ranges or {}, launch_args=launch,
    )


def check_every_rung(case: Case, oracle: Oracle, config: str | None = None) -> None:
    """Every rung (and, with an NPU `config`, the timer) succeeds, and the results match."""
    result = run_case(case, mode="qemu", oracle=oracle, config=config)
    timing = [("timing", "ok")] if config is not None else []
    assert [(r.name, r.status) for r in result.rungs] == EVERY_RUNG + timing, result.error
    assert result.match, result.mismatch
    assert result.stage_reached == "compare"


def check_against_the_ttir_interpreter(case: Case, oracle: Oracle, fault: str) -> RunResult:
    """A kernel with an oracle fault: the oracle is skipped, naming it, and the TTIR interpreter is the reference."""
    result = run_case(case, mode="qemu", oracle=oracle)
    assert [(r.name, r.status) for r in result.rungs] == [("oracle", "skipped"), *EVERY_RUNG[1:]], result.error
    assert result.oracle_fault == fault and result.reference == "ttir"
    assert result.match and result.error is None and result.stage_reached == "compare", result.mismatch
    return result
