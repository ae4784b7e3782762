"""A design space: a base NPU, axes of values, constraints; its points as `NPUConfig`s.

From the command line

    --base tpuv3 --vary systolic_array_rows=64,128,256 --vary dram_channels=8,16,32

or from a YAML file (`--space FILE`):

    base: tpuv3                       # a preset or an NPU YAML file
    axes:
      systolic_array_rows: [64, 128, 256]
      systolic_array_cols: [64, 128, 256]
      dram_channels: [8, 16, 32]
    constraints:                      # every point must satisfy each
      - systolic_array_rows == systolic_array_cols
    cost: total_macs * total_scratchpad_bytes   # the Pareto plot's cost proxy

The points are the axes' cartesian product, in axis order (the last axis
fastest), less those a constraint excludes.  An axis is a key of the NPU
description (docs/timing.md) and every value is validated by the NPU
config loader, so an unknown parameter or a value of the wrong type gets
that loader's one-line message.  A constraint or cost is an arithmetic
expression (`+ - * / // % **`, comparisons, `and`/`or`/`not`, `min`,
`max`) over the description's numeric keys and `EXPRESSION_NAMES`.

A point is identified by the hash of its canonical YAML (sorted keys, its
name left out), so two points, or two studies, that describe the same NPU
share an identity whatever they call it.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from tnpu.timing.npu_config import NPUConfig, NPUConfigError, load_npu_config, npu_config_from_mapping

DEFAULT_COST = "total_macs * total_scratchpad_bytes"
"""The Pareto plot's default cost proxy: every core's PEs times every core's scratchpad bytes."""

EXPRESSION_NAMES: dict[str, Callable[[NPUConfig], float]] = {
    "total_macs": lambda npu: npu.num_cores * npu.macs_per_cycle,
    "total_scratchpad_bytes": lambda npu: npu.num_cores * npu.scratchpad_bytes,
    "macs_per_cycle": lambda npu: npu.macs_per_cycle,
    "scratchpad_bytes": lambda npu: npu.scratchpad_bytes,
    "dram_bandwidth_gbps": lambda npu: npu.dram_channels * npu.dram_bandwidth_gbps_per_channel,
    "vector_width_f32": lambda npu: npu.vector_width(32),
}
"""Derived figures a constraint or cost may name, beside the description's numeric keys."""


class SpaceError(ValueError):
    """A space that cannot be explored; the message is one line."""


@dataclass(frozen=True)
class Point:
    """One configuration of the space: its varied values and the validated NPU."""

    values: tuple[tuple[str, Any], ...]
    """(axis, value) in axis order."""
    npu: NPUConfig
    config_hash: str

    @property
    def label(self) -> str:
        return ", ".join(f"{axis}={value}" for axis, value in self.values)


@dataclass(frozen=True)
class Space:
    base: NPUConfig
    axes: tuple[tuple[str, tuple[Any, ...]], ...]
    constraints: tuple[str, ...] = ()
    cost: str = DEFAULT_COST

    @property
    def axis_names(self) -> list[str]:
        return [name for name, _ in self.axes]

    def points(self) -> list[Point]:
        """Every point that satisfies the constraints; `SpaceError` if none does."""
        checks = [(text, _compile(text, "constraint")) for text in self.constraints]
        base = config_mapping(self.base)
        points = []
        combinations = list(itertools.product(*(values for _, values in self.axes)))
        for combination in combinations:
            values = tuple(zip(self.axis_names, combination))
            name = "+".join([self.base.name, *(f"{axis}={value}" for axis, value in values)])
            npu = npu_config_from_mapping(base | dict(values) | {"name": name}, name)
            if all(_evaluate(check, text, npu) for text, check in checks):
                points.append(Point(values, npu, config_hash(npu)))
        if not points:
            raise SpaceError(
                f"the constraints ({'; '.join(self.constraints)}) exclude every one of the "
                f"{len(combinations)} points"
            )
        return points

    def cost_of(self, npu: NPUConfig) -> float:
        return float(_evaluate(_compile(self.cost, "cost"), self.cost, npu))


def space_from_options(base: str, vary: Sequence[str], constraints: Sequence[str], cost: str | None) -> Space:
    """The space of `--base`, `--vary NAME=V1,V2,...` and `--constraint EXPR` options."""
    axes = []
    for item in vary:
        name, sep, values = item.partition("=")
        if not sep or not name.strip() or not values.strip():
            raise SpaceError(f"--vary '{item}' is not NAME=VALUE,VALUE,...")
        axes.append((name.strip(), [_literal(v.strip()) for v in values.split(",") if v.strip()]))
    return make_space(base, axes, constraints, cost or DEFAULT_COST, "--vary")


def space_from_yaml(path: Path) -> Space:
    """The space a YAML file describes (see the module docstring)."""
    try:
        data = yaml.safe_load(path.read_text())
    except OSError as error:
        raise SpaceError(f"{path}: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise SpaceError(f"{path}: not YAML: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise SpaceError(f"{path}: expected a mapping with base, axes, constraints, cost")
    if unknown := sorted(set(data) - {"base", "axes", "constraints", "cost"}):
        raise SpaceError(f"{path}: {unknown[0]}: unknown key (expected base, axes, constraints, cost)")
    axes = data.get("axes")
    if not isinstance(axes, dict) or not axes:
        raise SpaceError(f"{path}: axes: expected a mapping of parameter to a list of values")
    constraints = data.get("constraints") or []
    if not isinstance(constraints, list) or not all(isinstance(c, str) for c in constraints):
        raise SpaceError(f"{path}: constraints: expected a list of expressions")
    cost = data.get("cost", DEFAULT_COST)
    if not isinstance(cost, str):
        raise SpaceError(f"{path}: cost: expected an expression")
    base = data.get("base", "tpuv3")
    if isinstance(base, str) and base.endswith((".yaml", ".yml")):
        base = str(path.parent / base)
    listed = [(str(name), values if isinstance(values, list) else [values]) for name, values in axes.items()]
    return make_space(str(base), listed, constraints, cost, str(path))


def make_space(
    base: str, axes: Sequence[tuple[str, Sequence[Any]]], constraints: Sequence[str], cost: str, origin: str
) -> Space:
    """A validated space: each axis value checked by the NPU config loader, alone on the base."""
    try:
        base_npu = load_npu_config(base)
    except NPUConfigError as error:
        raise SpaceError(_first_line(error)) from None
    if not axes:
        raise SpaceError("no axis to vary: give --vary NAME=V1,V2,... or a --space file")
    names = [name for name, _ in axes]
    if repeated := [name for name in names if names.count(name) > 1]:
        raise SpaceError(f"{origin}: {repeated[0]}: varied twice")
    mapping = config_mapping(base_npu)
    for name, values in axes:
        if name == "name":
            raise SpaceError(f"{origin}: name: not a parameter (a point's name is made from its values)")
        if not values:
            raise SpaceError(f"{origin}: {name}: no values")
        if len(set(map(repr, values))) != len(values):
            raise SpaceError(f"{origin}: {name}: a value is listed twice")
        for value in values:
            try:
                npu_config_from_mapping(mapping | {name: value}, base_npu.name, origin)
            except NPUConfigError as error:
                raise SpaceError(_first_line(error)) from None
    for text in constraints:
        _evaluate(_compile(text, "constraint"), text, base_npu)
    _evaluate(_compile(cost, "cost"), cost, base_npu)
    return Space(base_npu, tuple((name, tuple(values)) for name, values in axes), tuple(constraints), cost)


def config_mapping(npu: NPUConfig) -> dict[str, Any]:
    """`npu` as the mapping of YAML keys the config loader reads back."""
    return {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in asdict(npu).items()
    }


def canonical_yaml(npu: NPUConfig) -> str:
    """The description as YAML with sorted keys and without its name: equal NPUs, equal text."""
    mapping = config_mapping(npu)
    del mapping["name"]
    return yaml.safe_dump(mapping, sort_keys=True, default_flow_style=False)


def config_hash(npu: NPUConfig) -> str:
    return hashlib.sha256(canonical_yaml(npu).encode()).hexdigest()


def _literal(text: str) -> Any:
    """A YAML scalar (`128`, `1.5`, `true`), as a YAML file would give it; else the text."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0]


# ---------------------------------------------------------------------------
# Expressions: a small arithmetic language over a configuration's figures
# ---------------------------------------------------------------------------

_BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}
_FUNCTIONS = {"min": min, "max": max, "log2": math.log2}


def _names(npu: NPUConfig) -> dict[str, float]:
    values = {
        f.name: getattr(npu, f.name)
        for f in fields(NPUConfig)
        if isinstance(getattr(npu, f.name), int | float)
    }
    return values | {name: figure(npu) for name, figure in EXPRESSION_NAMES.items()}


def _compile(text: str, what: str) -> ast.expr:
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise SpaceError(f"{what} '{text}': not an expression ({error.msg})") from None


def _evaluate(node: ast.expr, text: str, npu: NPUConfig) -> Any:
    names = _names(npu)

    def value(node: ast.expr) -> Any:
        match node:
            case ast.Constant(value=v) if isinstance(v, int | float):
                return v
            case ast.Name(id=name):
                if name not in names:
                    raise SpaceError(
                        f"'{text}': unknown name '{name}' (a numeric NPU key or one of "
                        f"{', '.join(EXPRESSION_NAMES)})"
                    )
                return names[name]
            case ast.BinOp(left=left, op=op, right=right) if type(op) in _BINARY:
                try:
                    return _BINARY[type(op)](value(left), value(right))
                except ZeroDivisionError:
                    raise SpaceError(f"'{text}': division by zero") from None
            case ast.UnaryOp(op=ast.USub(), operand=operand):
                return -value(operand)
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                return not value(operand)
            case ast.BoolOp(op=ast.And(), values=values):
                return all(value(v) for v in values)
            case ast.BoolOp(op=ast.Or(), values=values):
                return any(value(v) for v in values)
            case ast.Compare(left=left, ops=ops, comparators=comparators) if all(
                type(op) in _COMPARE for op in ops
            ):
                operands = [value(left), *map(value, comparators)]
                return all(
                    _COMPARE[type(op)](a, b) for op, a, b in zip(ops, operands, operands[1:])
                )
            case ast.Call(func=ast.Name(id=function), args=args, keywords=[]) if function in _FUNCTIONS:
                return _FUNCTIONS[function](*map(value, args))
        raise SpaceError(f"'{text}': '{ast.unparse(node)}' is not allowed (arithmetic and comparisons only)")

    return value(node)
