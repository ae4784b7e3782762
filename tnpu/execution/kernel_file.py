"""A case for a kernel file that has no case directory: a `.ttir` file or a
`@triton.jit` function, with its grid and arguments given by the caller.

It is the case `tnpu run kernel.ttir --grid 4 --arg x=float32[1024] ...`
runs, built here so that a test or a script gets the same case without the
command line.  Arguments take the form of a case's `meta.json` (see `case`):
a tensor as `{"shape", "stride", "dtype"}` (torch dtype names), a scalar as
a number.  A `.ttir` kernel's signature is read from its `tt.func`; a Python
kernel needs one (`{"x": "*fp32", "BLOCK": "constexpr", ...}`, as `tnpu
ttir` takes it) and is compiled to TTIR in a temporary folder first.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from tnpu.dialects import tt
from tnpu.execution.case import Case, CaseError, bind_arguments
from tnpu.frontend import DEFAULT_TARGET, FrontendError, KernelSource, compile_to_ttir, load_jit_function
from tnpu.ir_helpers import kernel_function, parameter_names
from tnpu.ttir_import import import_ttir

_TRITON_FLOAT_NAMES = {"f16": "fp16", "f32": "fp32", "f64": "fp64", "bf16": "bf16"}


def case_from_kernel_file(
    path: Path,
    grid: Sequence[int],
    arguments: Mapping[str, object],
    *,
    function: str | None = None,
    signature: Mapping[str, str] | None = None,
    constexprs: Mapping[str, object] | None = None,
    target: tuple[str, int, int] = DEFAULT_TARGET,
) -> Case:
    """The case of the kernel in `path` launched on `grid` (1 to 3 sizes) with `arguments`.

    A `.py` file needs `function` (the `@triton.jit` function's name) and
    `signature`; for a `.ttir` file both come from its kernel.  Raises
    `CaseError` naming what is missing or wrong.
    """
    constexprs = dict(constexprs or {})
    if not path.is_file():
        raise CaseError(f"{path}: no such file")
    if not 1 <= len(grid) <= 3 or min(grid) <= 0:
        raise CaseError(f"grid: expected 1 to 3 positive integers, got {list(grid)}")
    kernel_py: Path | None
    if path.suffix == ".py":
        if not function or signature is None:
            raise CaseError("a .py kernel needs FILE.py:FUNCTION and a signature")
        signature = dict(signature)
        ttir_path, kernel_py = _compile(path, function, signature, constexprs, target), path
    else:
        function_op = kernel_function(import_ttir(path.read_text(), str(path)))
        function = function_op.sym_name.data
        signature = {
            name: _triton_type(parameter.type)
            for name, parameter in zip(parameter_names(function_op), function_op.body.blocks[0].args)
        }
        ttir_path, kernel_py = path, None
    runtime = [name for name, type_ in signature.items() if type_ != "constexpr"]
    if unknown := set(arguments) - set(signature):
        raise CaseError(f"argument '{sorted(unknown)[0]}' is not a parameter")
    if missing := [name for name in runtime if name not in arguments]:
        raise CaseError(f"no value for parameter '{missing[0]}' ({signature[missing[0]]})")
    ordered = [arguments[name] if name in arguments else constexprs.get(name) for name in signature]
    bound = bind_arguments(signature, constexprs, ordered, "arguments", tuple(grid))
    x, y, z = (*grid, *(1,) * (3 - len(grid)))
    return Case(
        name=path.stem, ttir_path=ttir_path, kernel_py=kernel_py, kernel_name=function,
        signature=signature, constexprs=constexprs, grid=(x, y, z), args=bound, launch_args=ordered,
    )  # fmt: skip


def _triton_type(type_: object) -> str:
    """A TTIR parameter type as Triton's signature spells it (`*fp32`, `i32`)."""
    if isinstance(type_, tt.PointerType):
        pointee = str(type_.pointee_type)
        return "*" + _TRITON_FLOAT_NAMES.get(pointee, pointee)
    return _TRITON_FLOAT_NAMES.get(str(type_), str(type_))


def _compile(
    path: Path, function: str, signature: dict[str, str], constexprs: dict[str, object], target: tuple[str, int, int]
) -> Path:
    """`function` of `path` compiled to TTIR, written to a fresh temporary folder."""
    try:
        source = KernelSource(load_jit_function(path, function), signature, constexprs)
        ttir = compile_to_ttir(source, target)
    except FrontendError as error:
        raise CaseError(str(error)) from None
    output = Path(tempfile.mkdtemp(prefix="tnpu-run-")) / "kernel.ttir"
    output.write_text(ttir)
    return output
