"""The case format: one kernel, with everything needed to run and check it.

A case is a directory holding

* `kernel.ttir` — the TTIR Triton printed (required unless `kernel.py` is
  there to compile);
* `kernel.py` — the `@triton.jit` kernel (optional; the oracle needs it);
* `meta.json` — how to launch it:
  - `kernel_name`: the jit function's name;
  - `signature`: every parameter in order, `NAME: TYPE` with Triton's type
    strings (`*fp32`, `*i64`, `i32`, `fp32`, `constexpr`, ...);
  - `constexprs`: the value of each constexpr parameter;
  - `grid_for_config0`: the grid, 1 to 3 positive integers (when Inductor's
    capture could not evaluate it, `grid_type` plus the launch arguments let
    Inductor's own grid function work it out);
  - `launches[0].args`: the leading parameters' values, in signature order:
    a tensor as `{"shape", "stride", "dtype"}` (torch dtype names), a scalar
    as a number; the remaining parameters must be constexprs;
  - `mutated_arg_names` (optional): the tensors the kernel writes;
  - `input_ranges` (optional): `{"NAME": [low, high]}`, the half-open range
    of an integer input's values, for inputs used as indices.

This is the layout of `test/fixtures/corpus/inductor`.  A kernel without a
case directory is described by the same fields on the command line
(`tnpu run kernel.ttir --grid 4 --arg x=float32[1024] ...`), see `kernel_file`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from tnpu.frontend import read_case_meta
from tnpu.timing.launch_binding import Launch


class CaseError(Exception):
    """A case that cannot be run as described; the message names the field."""


TENSOR_DTYPES: dict[str, np.dtype] = {
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "bool": np.dtype(np.bool_),
    "int8": np.dtype(np.int8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "uint8": np.dtype(np.uint8),
}
"""torch dtype name -> numpy dtype of tensor storage."""

POINTEE_DTYPES: dict[str, str] = {
    "fp16": "float16",
    "fp32": "float32",
    "fp64": "float64",
    "bf16": "bfloat16",
    "i1": "bool",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
}
"""Triton pointee type -> the torch dtype a tensor passed for it has."""

SCALAR_TYPES = {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32", "fp64"}


@dataclass(frozen=True)
class TensorArg:
    """A tensor argument: its view (shape, strides in elements) and dtype name."""

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    dtype: str

    @property
    def storage_size(self) -> int:
        """Elements of storage the view spans (from storage offset 0)."""
        if any(n == 0 for n in self.shape):
            return 0
        return 1 + sum((n - 1) * s for n, s in zip(self.shape, self.stride))

    @property
    def numpy_dtype(self) -> np.dtype:
        return TENSOR_DTYPES[self.dtype]


@dataclass(frozen=True)
class ScalarArg:
    value: int | float
    type: str


Arg = TensorArg | ScalarArg


@dataclass
class Case:
    name: str
    ttir_path: Path | None
    kernel_py: Path | None
    kernel_name: str
    signature: dict[str, str]
    constexprs: dict[str, Any]
    grid: tuple[int, int, int]
    args: dict[str, Arg]
    """The runtime (non-constexpr) parameters, in order: the TTIR kernel's arguments."""
    mutated: frozenset[str] = frozenset()
    input_ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    launch_args: list[Any] = field(default_factory=list)
    """Every positional launch argument (constexprs Inductor passes included)."""

    @property
    def tensors(self) -> dict[str, TensorArg]:
        return {n: a for n, a in self.args.items() if isinstance(a, TensorArg)}


def load_case(directory: Path) -> Case:
    """Read a case directory; `CaseError` names the first field that is wrong."""
    meta = read_case_meta(directory, ("kernel_name", "signature", "launches"), CaseError)
    where = str(directory / "meta.json")
    ttir = directory / "kernel.ttir"
    kernel_py = directory / "kernel.py"
    if not ttir.is_file() and not kernel_py.is_file():
        raise CaseError(f"{directory}: neither kernel.ttir nor kernel.py")
    signature = _signature(meta["signature"], where)
    constexprs = dict(meta.get("constexprs") or {})
    launches = meta["launches"]
    if not isinstance(launches, list) or not launches or not isinstance(launches[0], dict):
        raise CaseError(f"{where}: launches: expected a list of launches with 'args'")
    launch_args = launches[0].get("args")
    if not isinstance(launch_args, list):
        raise CaseError(f"{where}: launches[0].args: expected a list")
    grid = _grid(meta, signature, constexprs, launch_args, where)
    args = bind_arguments(signature, constexprs, launch_args, where, grid)
    mutated = meta.get("mutated_arg_names") or []
    if unknown := [n for n in mutated if n not in signature]:
        raise CaseError(f"{where}: mutated_arg_names: '{unknown[0]}' is not a parameter")
    return Case(
        name=directory.name,
        ttir_path=ttir if ttir.is_file() else None,
        kernel_py=kernel_py if kernel_py.is_file() else None,
        kernel_name=str(meta["kernel_name"]),
        signature=signature,
        constexprs=constexprs,
        grid=grid,
        args=args,
        mutated=frozenset(mutated),
        input_ranges=_input_ranges(meta.get("input_ranges") or {}, args, where),
        launch_args=launch_args,
    )


def case_launch(case: Case) -> Launch:
    """The grid, scalar arguments and buffer sizes the timer launches a case with."""
    args = list(case.args.values())
    return Launch(
        case.grid,
        [None if isinstance(arg, TensorArg) else arg.value for arg in args],
        {
            position: arg.storage_size * arg.numpy_dtype.itemsize
            for position, arg in enumerate(args)
            if isinstance(arg, TensorArg)
        },
    )


def _signature(signature: Any, where: str) -> dict[str, str]:
    if not isinstance(signature, dict) or not signature:
        raise CaseError(f"{where}: signature: expected an object of NAME: TYPE")
    for name, type_ in signature.items():
        if type_ == "constexpr" or type_ in SCALAR_TYPES:
            continue
        if not (isinstance(type_, str) and type_.startswith("*") and type_[1:] in POINTEE_DTYPES):
            raise CaseError(f"{where}: signature: '{name}' has unknown type '{type_}'")
    return dict(signature)


def bind_arguments(
    signature: Mapping[str, str],
    constexprs: Mapping[str, Any],
    launch_args: Sequence[Any],
    where: str,
    grid: Sequence[int] = (),
) -> dict[str, Arg]:
    """Match launch arguments to the signature's parameters, checking each.

    Inductor's template launcher passes the grid after the kernel's own
    arguments; trailing arguments equal to `grid` are that, and ignored.
    """
    names = list(signature)
    extra = list(launch_args[len(names) :])
    if extra and extra != list(grid[: len(extra)]):
        raise CaseError(
            f"{where}: launches[0].args: {len(launch_args)} arguments for "
            f"{len(names)} parameters"
        )
    args: dict[str, Arg] = {}
    for index, name in enumerate(names):
        type_ = signature[name]
        field_name = f"launches[0].args[{index}] ({name})"
        if type_ == "constexpr":
            if name not in constexprs and index >= len(launch_args):
                raise CaseError(f"{where}: constexprs: no value for '{name}'")
            continue
        if index >= len(launch_args):
            raise CaseError(f"{where}: launches[0].args: no value for parameter '{name}' ({type_})")
        value = launch_args[index]
        if type_.startswith("*"):
            args[name] = _tensor_arg(value, type_, f"{where}: {field_name}")
        elif isinstance(value, bool) or not isinstance(value, int | float):
            raise CaseError(f"{where}: {field_name}: expected a number for {type_}, got {value!r}")
        else:
            args[name] = ScalarArg(value, type_)
    return args


def _tensor_arg(value: Any, type_: str, where: str) -> TensorArg:
    if not isinstance(value, dict) or not {"shape", "stride", "dtype"} <= value.keys():
        raise CaseError(f"{where}: expected a tensor {{shape, stride, dtype}} for {type_}")
    shape, stride, dtype = value["shape"], value["stride"], value["dtype"]
    if not (
        isinstance(shape, list)
        and isinstance(stride, list)
        and len(shape) == len(stride)
        and all(isinstance(n, int) and n >= 0 for n in shape)
        and all(isinstance(s, int) and s >= 0 for s in stride)
    ):
        raise CaseError(f"{where}: shape and stride must be equal-length lists of non-negative integers")
    expected = POINTEE_DTYPES[type_[1:]]
    if dtype != expected:
        raise CaseError(f"{where}: dtype '{dtype}' does not match the signature's {type_} ({expected})")
    return TensorArg(tuple(shape), tuple(stride), dtype)


def _grid(
    meta: Mapping[str, Any],
    signature: Mapping[str, str],
    constexprs: Mapping[str, Any],
    launch_args: Sequence[Any],
    where: str,
) -> tuple[int, int, int]:
    grid = meta.get("grid_for_config0")
    if isinstance(grid, str) and meta.get("grid_type"):
        grid = inductor_grid(meta, signature, constexprs, launch_args)
    if not (
        isinstance(grid, list)
        and 1 <= len(grid) <= 3
        and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in grid)
    ):
        raise CaseError(f"{where}: grid_for_config0: expected 1 to 3 positive integers, got {grid!r}")
    return (*grid, *(1,) * (3 - len(grid)))  # pyright: ignore[reportReturnType]


def inductor_grid(
    meta: Mapping[str, Any],
    signature: Mapping[str, str],
    constexprs: Mapping[str, Any],
    launch_args: Sequence[Any],
) -> Any:
    """The grid Inductor's launcher computes, from its grid type and the arguments.

    The corpus capture evaluated it without the constexpr numels (Inductor
    passes `xnumel = 1` as a constexpr), so a few cases record it as
    unavailable; Inductor's `GridExpr` with every number known gives it.
    """
    from torch._inductor.runtime.triton_heuristics import GridExpr

    numbers = {
        name: value
        for name, value in zip(signature, launch_args)
        if isinstance(value, int | float) and not isinstance(value, bool)
    }
    config = dict((meta.get("autotune_config_used") or {}).get("kwargs") or {})
    inductor_meta = {**(meta.get("inductor_meta") or {}), "grid_type": meta["grid_type"]}
    try:
        expression = GridExpr.from_meta(inductor_meta, config)
        return list(expression.eval_slow({**numbers, **constexprs, **config}))  # pyright: ignore[reportArgumentType]
    except Exception as error:  # Inductor raises NameError, KeyError, ...
        return f"unavailable: {type(error).__name__}: {error}"


def _input_ranges(ranges: Any, args: Mapping[str, Arg], where: str) -> dict[str, tuple[int, int]]:
    result = {}
    for name, bounds in dict(ranges).items():
        if name not in args or not isinstance(args[name], TensorArg):
            raise CaseError(f"{where}: input_ranges: '{name}' is not a tensor parameter")
        if not (isinstance(bounds, list) and len(bounds) == 2 and bounds[0] < bounds[1]):
            raise CaseError(f"{where}: input_ranges: '{name}' needs [low, high] with low < high")
        result[name] = (int(bounds[0]), int(bounds[1]))
    return result


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides of `shape`."""
    return tuple(math.prod(shape[i + 1 :]) for i in range(len(shape)))
