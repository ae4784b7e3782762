"""Every tolerance of the harness: rungs against a float64 evaluation, within a bound the computation derives.

A rung's float result differs from the exact one by the rounding errors of
the operations that made it, and by nothing else if the code is right.
So every rung is compared with one evaluation of the same kernel on the
same inputs in float64 (`float64_reference`: the TTIR interpreter on the
kernel with every f16/bf16/f32 type widened to f64), element by element,
within a bound on the rounding error of the computation as written,
followed through the kernel op by op (`ErrorBounds`, first-order forward
error analysis in the unit roundoff `u` of each value's own type):

* a pointwise op adds the error of its operands as it propagates them
  (measured by evaluating the op on operands moved by their bounds, so
  every op needs no formula of its own) and its own rounding, `ULPS` units
  in the last place of its result: half an ulp for the correctly rounded
  IEEE operations, `TRANSCENDENTAL_ULPS` for the math library's functions
  (tnpu's expand-math and CUDA's libdevice document at most that);
* `tt.dot` of inner length K adds `|A| e_B + e_A |B| + e_C` and
  `gamma(K + 1) (|A| |B| + |C|)`, with `gamma(n) = n u / (1 - n u)`: the
  standard bound of a sum of n terms in any order, proportional to the
  accumulation length times the sum of the absolute terms (Higham,
  Accuracy and Stability of Numerical Algorithms, §3.1).  A K loop of
  dots is that bound per block plus the rounding of each accumulation;
* a sum-like `tt.reduce` or `tt.scan` adds `gamma(n - 1)` times the sum of
  the absolute terms; a max-like one passes on its largest operand bound;
* loads and stores carry bounds through a shadow of memory; data movement
  (splat, broadcast, reshape, transpose, join, gather, ...) moves bounds
  as it moves values.

Each value keeps the range of its own type, not float64's wider one
(`ErrorBounds.in_range`): rounding to a type moves a value by half an ulp,
which the bounds cover, except past the type's largest finite number,
where it gives an infinity, in every rung.  So a value of a narrower type
(f16, bf16, f32) whose magnitude, moved by its bound either way, is at
least `OVERFLOW` (the largest finite number plus half an ulp there) is that
infinity in the evaluation too, and later ops compute on it; one whose
bound reaches across `OVERFLOW` may be finite or infinite in a rung, and
its bound is infinite.  (Integers need no such care: the evaluation
computes them in their own types, wrapping on truncation as the rungs do.)

A float output matches when both are NaN, both the same infinity, its
bound is infinite (the evaluation cannot tell what it should be), or
`|rung - reference| <= bound + ulp/2` (the last half ulp: the rounding of
a value stored as it is); each comparison reports its worst margin,
`|rung - reference| / (bound + ulp/2)`, which is at most 1 for a match.
Integers and booleans are compared exactly with the reference rung: a
float comparison within its bound of a threshold may decide an integer
either way, which the bounds do not model.

Where no float64 evaluation exists (a bitcast of floats, an op the
bounds do not follow, a kernel the TTIR interpreter cannot run) floats are
compared with the reference rung within the per-dtype `FALLBACK`
tolerances, as every run was before: `|a - b| <= atol + rtol |b|`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import arith, math, scf
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    ModuleOp,
    TensorType,
    f64,
)
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import IsTerminator

from tnpu.dialects import tt
from tnpu.dialects.arith import RemFOp
from tnpu.interpreters.kernel import ResultListener, run_kernel
from tnpu.interpreters.memory import Memory
from tnpu.interpreters.tt import launch_of
from tnpu.interpreters.values import as_value

FALLBACK: dict[np.dtype, tuple[float, float]] = {
    np.dtype(np.float64): (1e-9, 1e-12),
    np.dtype(np.float32): (1e-4, 1e-5),
    np.dtype(np.float16): (1e-2, 1e-3),
    np.dtype(ml_dtypes.bfloat16): (2e-2, 1e-2),
}
"""dtype -> (rtol, atol), between two rungs where no float64 evaluation exists."""

UNIT_ROUNDOFF: dict[type[Attribute], float] = {
    Float16Type: 2.0**-11,
    BFloat16Type: 2.0**-8,
    Float32Type: 2.0**-24,
    Float64Type: 2.0**-53,
}
"""u of each float type: half its ulp at 1."""


def _overflow(finfo: Any) -> float:
    """The largest finite number plus half an ulp there, `(2 - u) 2^emax`: the smallest
    magnitude that rounds to infinity (to nearest, ties to even)."""
    u = 2.0 ** -(finfo.nmant + 1)
    return float(finfo.max) + u * 2.0 ** (finfo.maxexp - 1)


OVERFLOW: dict[type[Attribute], float] = {
    Float16Type: _overflow(np.finfo(np.float16)),
    BFloat16Type: _overflow(ml_dtypes.finfo(ml_dtypes.bfloat16)),
    Float32Type: _overflow(np.finfo(np.float32)),
}
"""The smallest magnitude each narrower float type rounds to infinity (f16: 65520)."""

WIDENED = frozenset(np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64))
"""The storage dtypes of the float types the evaluation computes in float64 (ml_dtypes'
bfloat16 is not of numpy's kind "f"; its float8 types, which are, keep their format)."""

CORRECTLY_ROUNDED_ULPS = 0.5
TRANSCENDENTAL_ULPS = 4.0
"""The ulps of a math library function (CUDA documents at most 4 for the f32 ones tnpu uses)."""

_CORRECTLY_ROUNDED = (
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, RemFOp, arith.NegfOp,
    arith.MaximumfOp, arith.MinimumfOp, arith.MaxnumfOp, arith.MinnumfOp, arith.ExtFOp,
    arith.TruncFOp, arith.SIToFPOp, arith.UIToFPOp, arith.SelectOp, arith.ConstantOp,
    math.SqrtOp, math.AbsFOp, math.FmaOp, math.CopySignOp, math.FloorOp, math.CeilOp,
    math.RoundOp, math.RoundEvenOp, math.TruncOp, tt.PreciseSqrtOp, tt.PreciseDivFOp, tt.ClampFOp,
)  # fmt: skip
_MOVES = (
    tt.SplatOp, tt.BroadcastOp, tt.ExpandDimsOp, tt.ReshapeOp, tt.TransOp, tt.JoinOp, tt.CatOp,
    tt.SplitOp, tt.GatherOp, tt.UnsplatOp,
)  # fmt: skip
"""Ops that move values without computing: their bounds move the same way."""
_NO_FLOAT64 = (tt.BitcastOp, arith.BitcastOp, tt.FpToFpOp, tt.ElementwiseInlineAsmOp)
"""Ops whose meaning depends on the float format: no float64 evaluation of them exists."""


class NoReference(Exception):
    """No float64 evaluation with bounds exists for the kernel; one line."""


@dataclass
class Reference:
    """The float64 evaluation: each written float buffer's values and error bounds."""

    values: dict[str, np.ndarray]
    bounds: dict[str, np.ndarray]


@dataclass
class Comparison:
    match: bool
    max_abs_err: float
    """Largest |a - b| over finite elements of float outputs (0 for exact types)."""
    mismatches: int
    compared: int
    first_mismatch: str | None
    """`name[index]: got vs want (bound)` of the first element out of tolerance."""
    worst_margin: float | None = None
    """Largest |rung - reference| / bound, against a float64 reference (None: none used)."""
    first_buffer: str | None = None
    """The buffer of `first_mismatch` (compared with the float64 evaluation if it is one of
    its `values`, else with the reference rung)."""


def gamma(n: int, u: float) -> float:
    """`n u / (1 - n u)`: the relative error bound of n roundings of unit roundoff u."""
    return n * u / (1 - n * u) if n * u < 1 else np.inf


def float64_reference(
    module: ModuleOp, kernel: str, names: Sequence[str], arguments: Sequence[Any], grid: Sequence[int]
) -> Reference:
    """The kernel evaluated in float64 on `arguments` (storages as arrays, floats widened;
    parameters called `names`), with the error bound of every float element of a buffer;
    `NoReference` if none exists."""
    widened, original = widen_to_float64(module)
    floats = [isinstance(argument, np.ndarray) and argument.dtype in WIDENED for argument in arguments]
    wide_arguments = [argument.astype(np.float64) if wide else argument for argument, wide in zip(arguments, floats)]
    bounds = ErrorBounds(original)
    try:
        result = run_kernel(widened, wide_arguments, grid, kernel=kernel, listener=bounds.attach)
    except NoReference:
        raise
    except Exception as error:  # a kernel the interpreter cannot run in float64
        raise NoReference(f"the float64 evaluation failed: {' '.join(str(error).split())[:200]}") from None
    buffers = [name for name, argument in zip(names, arguments) if isinstance(argument, np.ndarray)]
    return Reference(
        {name: result.buffers[name] for name, wide in zip(names, floats) if wide},
        {name: bounds.stored(buffers.index(name)) for name, wide in zip(names, floats) if wide},
    )


def widen_to_float64(module: ModuleOp) -> tuple[ModuleOp, dict[SSAValue, Attribute]]:
    """A clone of `module` with every float type f64, and each widened value's original type."""
    widened = module.clone()
    original: dict[SSAValue, Attribute] = {}
    for old, op in zip(module.walk(), widened.walk()):
        if isinstance(op, _NO_FLOAT64):
            raise NoReference(f"'{op.name}' depends on the float format: no float64 evaluation")
        for old_value, value in zip(_values(old), _values(op)):
            original[value] = old_value.type
            value._type = _wide(value.type)
        for name, attribute in list(op.properties.items()):
            op.properties[name] = _wide_attribute(attribute)
    return widened, original


def _values(op: Operation) -> list[SSAValue]:
    return [*op.results, *(arg for region in op.regions for block in region.blocks for arg in block.args)]


def _wide(type_: Attribute) -> Attribute:
    if isinstance(type_, Float16Type | BFloat16Type | Float32Type):
        return f64
    if isinstance(type_, TensorType):
        return TensorType(_wide(type_.element_type), type_.get_shape())
    if isinstance(type_, tt.PointerType):
        return tt.PointerType(_wide(type_.pointee_type), type_.address_space.data)
    return type_


def _wide_attribute(attribute: Attribute) -> Attribute:
    if isinstance(attribute, FloatAttr) and attribute.type != _wide(attribute.type):
        return FloatAttr(attribute.value.data, f64)
    if isinstance(attribute, DenseIntOrFPElementsAttr) and attribute.type != _wide(attribute.type):
        return DenseIntOrFPElementsAttr.from_list(_wide(attribute.type), list(attribute.get_values()))  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
    if isinstance(attribute, FunctionType):
        return FunctionType.from_lists([_wide(t) for t in attribute.inputs], [_wide(t) for t in attribute.outputs])
    return attribute


class ErrorBounds(ResultListener):
    """Follows a bound on the rounding error of every float value as the TTIR interpreter runs
    the widened kernel, and keeps each value in its type's range (see the module
    docstring); `stored(i)` is argument i's bounds."""

    def __init__(self, original: dict[SSAValue, Attribute]):
        self.original = original
        self.bounds: dict[SSAValue, Any] = {}
        self.arguments: list[list[Any]] = []
        self.inside_combine = 0
        self.shadow: Memory | None = None
        self.interpreter: Interpreter | None = None
        self.evaluating = False
        self.ranged: tuple[Operation, tuple[Any, ...]] | None = None
        """The last op's results, each in its type's range, for `results` to hand on."""

    def attach(self, interpreter: Interpreter) -> ErrorBounds:
        self.interpreter = interpreter
        return self

    def _attached(self) -> Interpreter:
        assert self.interpreter is not None, "the bounds are attached to an interpreter before it runs"
        return self.interpreter

    def stored(self, buffer: int) -> np.ndarray:
        """The bounds of the elements of the kernel's `buffer`-th pointer argument (f64)."""
        if self.shadow is None:  # nothing was loaded or stored
            return np.zeros(launch_of(self._attached()).memory.buffers[buffer].size // 8)
        shadow = self.shadow.buffers[buffer]
        return shadow.data[: shadow.size].view(np.float64).copy()

    # -- the listener -----------------------------------------------------------

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        if self.evaluating:
            return
        if isinstance(op, tt.ReduceOp | tt.ScanOp):
            self.inside_combine += 1
        if self.inside_combine and not isinstance(op, tt.ReduceOp | tt.ScanOp):
            return
        self.arguments.append(list(args))
        if isinstance(op, scf.ForOp):
            for arg, operand in zip(op.body.block.args[1:], op.iter_args):
                self.bounds[arg] = self.bound(operand)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp):
            self._yield(op)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        if self.evaluating:
            return
        if isinstance(op, tt.ReduceOp | tt.ScanOp):
            self.inside_combine -= 1
        if self.inside_combine:
            return
        args = self.arguments.pop()
        if isinstance(op, scf.ForOp | scf.IfOp | scf.WhileOp | scf.YieldOp | scf.ConditionOp):
            return  # results were bound when the region yielded
        floats = [r for r in op.results if _is_float(r.type)]
        if isinstance(op, tt.StoreOp):
            self._store(op, args)
        if not floats:
            return
        bounds = self._bounds_of(op, args, results)
        values = list(results)
        for index, (result, bound) in enumerate(zip(op.results, bounds)):
            if _is_float(result.type):
                values[index], self.bounds[result] = self.in_range(result, results[index], bound)
        self.ranged = (op, tuple(values))

    def results(self, op: Operation, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """`op`'s results in their types' ranges, as `did_interpret_op` left them."""
        ranged, self.ranged = self.ranged, None
        return ranged[1] if ranged is not None and ranged[0] is op else values

    # -- rules ------------------------------------------------------------------

    def in_range(self, result: SSAValue, value: Any, bound: Any) -> tuple[Any, Any]:
        """`result`'s `value` and `bound` in the range of its original type: +-inf where its
        magnitude, moved by the bound either way, is at least the type's `OVERFLOW` (the
        bound 0: the rungs' value is that infinity too); an infinite bound where the
        bound reaches across it (a rung's value may be finite or infinite)."""
        type_ = self.original.get(result, result.type)
        limit = OVERFLOW.get(type(type_.element_type if isinstance(type_, TensorType) else type_))
        if limit is None:
            return value, bound
        magnitude = np.abs(np.asarray(value, np.float64))
        with np.errstate(invalid="ignore"):
            over = magnitude - bound >= limit
            under = magnitude + bound < limit
        if np.all(under):
            return value, bound
        across = ~(over | under | np.isnan(magnitude))
        value = as_value(np.where(magnitude >= limit, np.copysign(np.inf, value), value), result.type)
        return value, np.where(across, np.inf, np.where(over, 0.0, bound))

    def bound(self, value: SSAValue) -> Any:
        return self.bounds.get(value, 0.0) if _is_float(value.type) else 0.0

    def _bounds_of(self, op: Operation, args: list[Any], results: tuple[Any, ...]) -> list[Any]:
        if isinstance(op, arith.ConstantOp):
            return [0.0]
        if isinstance(op, tt.LoadOp):
            return [self._load(op, args)]
        if isinstance(op, tt.DotOp):
            return [self._dot(op, args, results[0])]
        if isinstance(op, tt.ReduceOp | tt.ScanOp):
            return self._accumulation(op, args, results)
        if isinstance(op, _MOVES):
            return list(self._evaluate(op, [self.bound(v) if _is_float(v.type) else a for v, a in zip(op.operands, args)]))
        if op.dialect_name() in ("arith", "math") or isinstance(op, tt.ClampFOp | tt.PreciseSqrtOp | tt.PreciseDivFOp | tt.ExternElementwiseOp | tt.MulhiUIOp):
            return [self._pointwise(op, args, results)]
        raise NoReference(f"'{op.name}' has float results the error bounds do not follow")

    def _pointwise(self, op: Operation, args: list[Any], results: tuple[Any, ...]) -> Any:
        exact = np.asarray(results[0], np.float64)
        propagated = np.zeros(np.shape(exact))
        for index, operand in enumerate(op.operands):
            bound = self.bound(operand)
            if not _is_float(operand.type) or not np.any(bound):
                continue
            # How far the op moves its result when this operand moves by its bound.
            moved = [self._moved(op, args, index, sign * np.asarray(bound)) for sign in (1.0, -1.0)]
            with np.errstate(invalid="ignore"):
                change = np.maximum(*(np.where(m == exact, 0.0, np.abs(m - exact)) for m in moved))
            # A result that becomes NaN where it was not is unbounded.
            change = np.where(np.isnan(change) & ~np.isnan(exact), np.inf, np.nan_to_num(change, posinf=np.inf))
            propagated = propagated + change
        ulps = CORRECTLY_ROUNDED_ULPS if isinstance(op, _CORRECTLY_ROUNDED) else TRANSCENDENTAL_ULPS
        return propagated + ulps * _ulp(exact, self._u(op.results[0]))

    def _moved(self, op: Operation, args: list[Any], index: int, shift: np.ndarray) -> np.ndarray:
        moved = list(args)
        with np.errstate(all="ignore"):
            moved[index] = np.asarray(args[index], np.float64) + shift
            return np.asarray(self._evaluate(op, moved)[0], np.float64)

    def _dot(self, op: tt.DotOp, args: list[Any], result: Any) -> Any:
        a, b, c = (np.asarray(x, np.float64) for x in args)
        e_a, e_b, e_c = (self.bound(v) for v in op.operands)
        inner = a.shape[-1]
        absolute = np.abs(a) @ np.abs(b) + np.abs(c)
        propagated = np.abs(a) @ np.broadcast_to(e_b, b.shape) + np.broadcast_to(e_a, a.shape) @ np.abs(b) + e_c
        return propagated + gamma(inner + 1, self._u(op.results[0])) * absolute

    def _accumulation(self, op: tt.ReduceOp | tt.ScanOp, args: list[Any], results: tuple[Any, ...]) -> list[Any]:
        axis = op.axis.value.data
        combine = [o for o in op.regions[0].block.ops if not o.has_trait(IsTerminator)]
        summing = any(isinstance(o, arith.AddfOp | arith.SubfOp) for o in combine)
        bounds = []
        for operand, arg, result in zip(op.operands, args, op.results):
            if not _is_float(result.type):
                bounds.append(0.0)
                continue
            terms = np.abs(np.asarray(arg, np.float64))
            terms[~np.isfinite(terms)] = 0.0  # an infinite term makes an infinite or NaN sum, exact or wrong
            e = np.broadcast_to(self.bound(operand), terms.shape)
            count = terms.shape[axis]
            if isinstance(op, tt.ScanOp):
                if op.reverse.value.data:
                    terms, e = np.flip(terms, axis), np.flip(e, axis)
                bound = np.cumsum(e, axis) + gamma(count, self._u(result)) * np.cumsum(terms, axis) if summing else np.maximum.accumulate(e, axis)
                bounds.append(np.flip(bound, axis) if op.reverse.value.data else bound)
            elif summing:
                bounds.append(e.sum(axis) + gamma(count - 1, self._u(result)) * terms.sum(axis))
            else:
                bounds.append(e.max(axis))
        return bounds

    # -- memory and control flow ---------------------------------------------------

    def _memory(self) -> Memory:
        if self.shadow is None:
            self.shadow = Memory()
            for buffer in launch_of(self._attached()).memory.buffers:
                self.shadow.allocate(buffer.name, np.zeros(buffer.size, np.uint8))
        return self.shadow

    def _load(self, op: tt.LoadOp, args: list[Any]) -> Any:
        pointers, mask = args[0], args[1] if op.mask is not None else None
        return self._memory().load(pointers, mask, np.dtype(np.float64), 0.0)

    def _store(self, op: tt.StoreOp, args: list[Any]) -> None:
        if not _is_float(op.value.type):
            return
        mask = args[2] if op.mask is not None else None
        self._memory().store(args[0], self.bound(op.value), mask, np.dtype(np.float64))

    def _yield(self, op: Operation) -> None:
        parent = op.parent_op()
        bounds = [self.bound(v) for v in op.operands]
        assert parent is not None, "a terminator has a parent op"
        if isinstance(op, scf.ConditionOp):
            assert isinstance(parent, scf.WhileOp)
            bounds = bounds[1:]
            targets = [list(parent.after_region.block.args), list(parent.results)]
        elif isinstance(parent, scf.ForOp):
            targets = [list(parent.body.block.args[1:]), list(parent.results)]
        elif isinstance(parent, scf.WhileOp):
            targets = [list(parent.before_region.block.args)]
        else:
            targets = [list(parent.results)]
        for values in targets:
            for value, bound in zip(values, bounds):
                self.bounds[value] = bound

    def _evaluate(self, op: Operation, args: list[Any]) -> tuple[Any, ...]:
        self.evaluating = True
        try:
            return self._attached().run_op(op, tuple(args))
        finally:
            self.evaluating = False

    def _u(self, value: SSAValue) -> float:
        type_ = self.original.get(value, value.type)
        element = type_.element_type if isinstance(type_, TensorType) else type_
        return UNIT_ROUNDOFF.get(type(element), UNIT_ROUNDOFF[Float64Type])


def _is_float(type_: Attribute) -> bool:
    element = type_.element_type if isinstance(type_, TensorType) else type_
    return isinstance(element, Float16Type | BFloat16Type | Float32Type | Float64Type)


def _ulp(values: np.ndarray, u: float) -> np.ndarray:
    """An ulp of each value in a type of unit roundoff u (2u at 1), at least that of the
    smallest normal number; none for an infinity or NaN, which are exact or wrong."""
    tiny = {2.0**-11: 2.0**-14, 2.0**-8: 2.0**-126, 2.0**-24: 2.0**-126}.get(u, 2.0**-1022)
    magnitude = np.abs(values)
    return np.where(np.isfinite(magnitude), 2 * u * np.maximum(magnitude, tiny), 0.0)


# -- comparing ---------------------------------------------------------------------


def compare_to_reference(
    reference: Reference, actual: Mapping[str, np.ndarray], exact: Mapping[str, np.ndarray]
) -> Comparison:
    """`actual`'s float buffers against the float64 `reference` within its bounds; the
    others exactly against `exact` (the reference rung's)."""
    comparison = compare_between_rungs({n: exact[n] for n in exact if n not in reference.values},
                                       {n: actual[n] for n in exact if n not in reference.values})
    worst = 0.0
    for name, want in reference.values.items():
        got = actual[name].astype(np.float64)
        bound = reference.bounds[name] + _ulp(want, _storage_u(actual[name].dtype)) / 2
        both_nan = np.isnan(want) & np.isnan(got)
        same_infinity = np.isinf(want) & (want == got)
        unbounded = np.isinf(bound)  # the evaluation cannot tell what the value should be
        with np.errstate(invalid="ignore"):
            difference = np.abs(got - want)
            margin = np.where(both_nan | same_infinity | unbounded, 0.0, np.where(np.isnan(difference), np.inf, difference / bound))
        bad = margin > 1
        finite = np.isfinite(difference)
        comparison.compared += want.size
        comparison.max_abs_err = max(comparison.max_abs_err, float(difference[finite].max(initial=0.0)))
        worst = max(worst, float(margin.max(initial=0.0)))
        if np.any(bad):
            comparison.match = False
            comparison.mismatches += int(np.count_nonzero(bad))
            if comparison.first_mismatch is None:
                index = int(np.argmax(bad))
                comparison.first_buffer = name
                comparison.first_mismatch = f"{name}[{index}]: {got[index]} vs {want[index]} (bound {bound[index]:.3g})"
    comparison.worst_margin = worst
    return comparison


def _storage_u(dtype: np.dtype) -> float:
    return {np.dtype(np.float16): 2.0**-11, np.dtype(ml_dtypes.bfloat16): 2.0**-8,
            np.dtype(np.float32): 2.0**-24}.get(dtype, 2.0**-53)  # fmt: skip


def compare_between_rungs(expected: Mapping[str, np.ndarray], actual: Mapping[str, np.ndarray]) -> Comparison:
    """`actual` against the reference rung's `expected`: floats within `FALLBACK`, others exactly."""
    max_abs_err = 0.0
    mismatches = compared = 0
    first: str | None = None
    first_buffer: str | None = None
    for name, want in expected.items():
        got = actual[name]
        bad, error = _mismatched(want, got)
        compared += want.size
        max_abs_err = max(max_abs_err, error)
        if np.any(bad):
            mismatches += int(np.count_nonzero(bad))
            if first is None:
                index = int(np.argmax(bad))
                first, first_buffer = f"{name}[{index}]: {got[index]} vs {want[index]}", name
    return Comparison(mismatches == 0, max_abs_err, mismatches, compared, first, first_buffer=first_buffer)


def _mismatched(expected: np.ndarray, actual: np.ndarray) -> tuple[np.ndarray, float]:
    """A mask of elements out of tolerance, and the largest finite |difference|."""
    if expected.dtype not in FALLBACK:
        return expected != actual, 0.0
    rtol, atol = FALLBACK[expected.dtype]
    want = expected.astype(np.float64)
    got = actual.astype(np.float64)
    both_nan = np.isnan(want) & np.isnan(got)
    same_infinity = np.isinf(want) & (want == got)
    finite = np.isfinite(want) & np.isfinite(got)
    with np.errstate(invalid="ignore"):
        difference = np.abs(got - want)
    close = finite & (difference <= atol + rtol * np.abs(want))
    largest = float(np.max(difference[finite])) if np.any(finite) else 0.0
    return ~(both_nan | same_infinity | close), largest
