"""Index tensors as affine functions of tile coordinates, and masks as boxes.

The pointer analysis of `ttir-to-tile` describes an integer tensor (an
address offset, a mask operand) by where its value comes from:

    value(i) = base + sum over digits k of stride[k] * digit[k](i)

Each tile dimension is split into one or more *digits* (a mixed-radix
decomposition of its coordinate, most significant first): a 256-wide
dimension read as `(4, 64)` has digits `i // 64` and `i % 64`.  Splitting is
what makes Inductor's `x0 = xindex % 64`, `x1 = xindex // 64` affine.  A DMA
descriptor is then the digit shape, the strides and the base; the loaded box
is reshaped (row-major, a no-op in memory) to the tile's shape.

A `Box` is the structured part of a mask: `lower[k] <= digit[k] < upper[k]`
for every digit.

A `QuasiAffine` index is an affine index plus quotient and remainder terms
(`x // m`, `x % m` that do not split into digits because they carry, as
`p % 7` over 512 lanes).  Terms are carried through sums and constant
products until they recombine, `c * (x % m) + c * m * (x // m) = c * x` for a
dividend proved non-negative, and leave an affine index; an access whose
offsets keep terms is a gather.

Every rule here is exact or refuses (returns None): a refused form is
computed on the vector unit instead, which is always correct.  Scalars are
`index` SSA values or Python ints; `IndexEmitter` builds them, folding
constants and tracking what each value is known to be a multiple of and
whether it is known non-negative.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from tnpu.dialects.arith import CmpiOp, SelectOp

Scalar = int | SSAValue
"""A compile-time integer, or an `index` SSA value."""


@dataclass(frozen=True)
class Linear:
    """`constant + sum(coefficient * atom)`: how an emitted index value was built."""

    terms: tuple[tuple[SSAValue, int], ...]
    constant: int

    @staticmethod
    def of(value: Scalar, forms: dict[SSAValue, Linear]) -> Linear:
        if isinstance(value, int):
            return Linear((), value)
        return forms.get(value, Linear(((value, 1),), 0))

    def plus(self, other: Linear) -> Linear:
        coefficients = dict(self.terms)
        for atom, coefficient in other.terms:
            coefficients[atom] = coefficients.get(atom, 0) + coefficient
        return Linear(
            tuple((a, c) for a, c in coefficients.items() if c),
            self.constant + other.constant,
        )

    def times(self, factor: int) -> Linear:
        if factor == 0:
            return Linear((), 0)
        return Linear(tuple((a, c * factor) for a, c in self.terms), self.constant * factor)


class IndexEmitter:
    """Emits `index` arithmetic, simplifying and remembering facts.

    Sums and products by constants are kept as linear forms over *atoms*
    (values the emitter cannot see through), so `-(-(x))` is `x` and
    `(a - b) + b` is `a`; the form is materialized into ops when needed.
    `multiple_of[v]` is a positive integer known to divide `v`;
    `non_negative` holds values known to be >= 0.  Facts about atoms
    (program ids, loop indices, scalar arguments) are given by the caller.
    """

    def __init__(
        self,
        builder: Builder,
        location: Callable[[], Attribute],
        check_non_negative: Callable[[SSAValue], None],
    ):
        self.builder = builder
        self.location = location
        self.check_non_negative = check_non_negative
        self.multiple_of: dict[SSAValue, int] = {}
        self.non_negative: set[SSAValue] = set()
        self.at_most: dict[SSAValue, int] = {}
        self.forms: dict[SSAValue, Linear] = {}

    # -- facts ------------------------------------------------------------

    def divisor(self, value: Scalar) -> int:
        """A positive integer known to divide `value` (0 is divisible by anything)."""
        form = Linear.of(value, self.forms)
        result = abs(form.constant) if form.constant else 0
        for atom, coefficient in form.terms:
            result = math.gcd(result, abs(coefficient) * self.multiple_of.get(atom, 1))
        return result or 1 << 62

    def is_non_negative(self, value: Scalar) -> bool:
        form = Linear.of(value, self.forms)
        return form.constant >= 0 and all(
            coefficient > 0 and atom in self.non_negative for atom, coefficient in form.terms
        )

    def require_non_negative(self, value: Scalar) -> bool:
        """Make `value >= 0` a known fact, checked at run time if not provable.

        Inductor's index expressions are non-negative; where the analysis
        cannot prove it, the check turns a wrong assumption into a failed
        launch instead of a wrong answer.  False for a negative constant.
        """
        if isinstance(value, int):
            return value >= 0
        if not self.is_non_negative(value):
            self.check_non_negative(value)
            self.non_negative.add(value)
            self.forms.pop(value, None)  # now an atom with a fact of its own
        return True

    def _record(self, value: SSAValue, divisor: int, non_negative: bool) -> SSAValue:
        if divisor > 1:
            self.multiple_of[value] = divisor
        if non_negative:
            self.non_negative.add(value)
        return value

    # -- emission ---------------------------------------------------------

    def _emit(self, op: Operation) -> SSAValue:
        op.location = self.location()  # pyright: ignore[reportAttributeAccessIssue]  # the location of an op is a LocationAttr
        self.builder.insert(op)
        return op.results[0]

    def materialize(self, value: Scalar) -> SSAValue:
        if isinstance(value, SSAValue):
            return value
        constant = self._emit(arith.ConstantOp(IntegerAttr(value, IndexType())))
        return self._record(constant, self.divisor(value), value >= 0)

    def cast(self, value: SSAValue, divisor: int = 1, non_negative: bool = False) -> SSAValue:
        """An integer scalar of any width as an `index` atom (sign-extended)."""
        if isinstance(value.type, IndexType):
            return value
        from tnpu.dialects.arith import IndexCastOp

        result = self._emit(IndexCastOp(value, IndexType()))
        return self._record(result, divisor, non_negative)

    def _from_linear(self, form: Linear) -> Scalar:
        """A value for a linear form: an int, an atom, or newly emitted ops."""
        if not form.terms:
            return form.constant
        if form.constant == 0 and len(form.terms) == 1 and form.terms[0][1] == 1:
            return form.terms[0][0]
        # Positive terms first, so that negative ones become subtractions.
        terms = sorted(form.terms, key=lambda term: term[1] < 0)
        result: SSAValue | None = None
        constant = form.constant
        if terms[0][1] < 0 and constant > 0:  # c - x rather than -x + c
            result, constant = self.materialize(constant), 0
        for atom, coefficient in terms:
            magnitude = abs(coefficient) if result is not None else coefficient
            term = atom
            if magnitude != 1:
                term = self._emit(arith.MuliOp(atom, self.materialize(magnitude)))
            if result is None:
                result = term
            elif coefficient < 0:
                result = self._emit(arith.SubiOp(result, term))
            else:
                result = self._emit(arith.AddiOp(result, term))
        assert result is not None
        if constant > 0:
            result = self._emit(arith.AddiOp(result, self.materialize(constant)))
        elif constant < 0:
            result = self._emit(arith.SubiOp(result, self.materialize(-constant)))
        self.forms[result] = form
        return self._record(result, self.divisor(result), self.is_non_negative(result))

    def add(self, a: Scalar, b: Scalar) -> Scalar:
        return self._from_linear(Linear.of(a, self.forms).plus(Linear.of(b, self.forms)))

    def sub(self, a: Scalar, b: Scalar) -> Scalar:
        return self.add(a, self.mul(b, -1))

    def mul(self, a: Scalar, b: Scalar) -> Scalar:
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            return self._from_linear(Linear.of(a, self.forms).times(b))
        result = self._emit(arith.MuliOp(self.materialize(a), b))
        return self._record(
            result,
            self.divisor(a) * self.divisor(b),
            self.is_non_negative(a) and self.is_non_negative(b),
        )

    def floordiv(self, a: Scalar, b: int) -> Scalar:
        """Floor division by a positive constant."""
        assert b > 0
        if isinstance(a, int):
            return a // b
        if b == 1:
            return a
        form = Linear.of(a, self.forms)
        if form.constant % b == 0 and all(c % b == 0 for _, c in form.terms):
            return self._from_linear(
                Linear(tuple((x, c // b) for x, c in form.terms), form.constant // b)
            )
        x, y = self.materialize(a), self.materialize(b)
        result = self._emit(arith.DivSIOp(x, y)) if self.is_non_negative(a) else self._floor_quotient(x, y)
        divisor = self.divisor(a) // b if self.divisor(a) % b == 0 else 1
        return self._record(result, divisor, self.is_non_negative(a))

    def _floor_quotient(self, x: SSAValue, y: SSAValue) -> SSAValue:
        """x / y rounded down, for a positive y: the truncated quotient, one less where the
        remainder is negative (divsi and remsi, which every consumer executes; the RISC-V
        backend has no floordivsi)."""
        quotient = self._emit(arith.DivSIOp(x, y))
        negative = self._emit(CmpiOp(self._emit(arith.RemSIOp(x, y)), self.materialize(0), "slt"))
        return self._emit(SelectOp(negative, self._emit(arith.SubiOp(quotient, self.materialize(1))), quotient))

    def mod(self, a: Scalar, b: int) -> Scalar:
        """`a mod b` for a non-negative `a` and a positive constant `b`."""
        assert b > 0 and self.is_non_negative(a)
        if isinstance(a, int):
            return a % b
        if self.divisor(a) % b == 0:
            return 0
        result = self._emit(arith.RemSIOp(self.materialize(a), self.materialize(b)))
        return self._record(result, math.gcd(self.divisor(a), b), True)

    def _known_at_most(self, value: Scalar) -> int | None:
        return value if isinstance(value, int) else self.at_most.get(value)

    def min(self, a: Scalar, b: Scalar) -> Scalar:
        if isinstance(a, int) and isinstance(b, int):
            return min(a, b)
        if isinstance(a, int):
            a, b = b, a
        limit = self._known_at_most(a)
        if isinstance(b, int) and limit is not None and limit <= b:
            return a  # already at most b
        result = self._emit(arith.MinSIOp(self.materialize(a), self.materialize(b)))
        bounds = [x for x in (limit, self._known_at_most(b)) if x is not None]
        if bounds:
            self.at_most[result] = min(bounds)
        return self._record(
            result,
            math.gcd(self.divisor(a), self.divisor(b)),
            self.is_non_negative(a) and self.is_non_negative(b),
        )

    def max(self, a: Scalar, b: Scalar) -> Scalar:
        if isinstance(a, int) and isinstance(b, int):
            return max(a, b)
        result = self._emit(arith.MaxSIOp(self.materialize(a), self.materialize(b)))
        return self._record(
            result,
            math.gcd(self.divisor(a), self.divisor(b)),
            self.is_non_negative(a) or self.is_non_negative(b),
        )

    def clamp(self, value: Scalar, low: int, high: int) -> Scalar:
        return self.min(self.max(value, low), high)

    def select_less_than_zero(self, value: Scalar, if_true: int, if_false: int) -> Scalar:
        """`value < 0 ? if_true : if_false`."""
        if isinstance(value, int):
            return if_true if value < 0 else if_false
        return self.select(self._emit(CmpiOp(value, self.materialize(0), "slt")), if_true, if_false)

    def select(self, condition: SSAValue, if_true: Scalar, if_false: Scalar) -> Scalar:
        """`condition ? if_true : if_false` for an i1 `condition`."""
        if if_true is if_false or (isinstance(if_true, int) and if_true == if_false):
            return if_true
        result = self._emit(
            SelectOp(condition, self.materialize(if_true), self.materialize(if_false))
        )
        return self._record(
            result, math.gcd(self.divisor(if_true), self.divisor(if_false)),
            self.is_non_negative(if_true) and self.is_non_negative(if_false),
        )


# ---------------------------------------------------------------------------
# Affine index tensors
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Digit:
    """One digit of a tile coordinate: `size` values, weighted by `stride`."""

    dim: int
    size: int
    stride: Scalar


@dataclass(frozen=True)
class AffineIndex:
    """`base + sum(stride[k] * digit[k])` over the digits of a tile of `shape`.

    Digits are listed dimension by dimension, most significant first; the
    sizes of a dimension's digits multiply to its extent.
    """

    shape: tuple[int, ...]
    digits: tuple[Digit, ...]
    base: Scalar

    @staticmethod
    def uniform(shape: Sequence[int], value: Scalar) -> AffineIndex:
        return AffineIndex(
            tuple(shape), tuple(Digit(d, n, 0) for d, n in enumerate(shape)), value
        )

    @staticmethod
    def iota(size: int, start: int) -> AffineIndex:
        return AffineIndex((size,), (Digit(0, size, 1),), start)

    @property
    def digit_shape(self) -> tuple[int, ...]:
        return tuple(d.size for d in self.digits)

    @property
    def strides(self) -> tuple[Scalar, ...]:
        return tuple(d.stride for d in self.digits)

    def is_uniform(self) -> bool:
        return all(d.stride == 0 for d in self.digits)

    def weights(self, dim: int) -> list[int]:
        """Coordinate weights of `dim`'s digits (least significant is 1)."""
        sizes = [d.size for d in self.digits if d.dim == dim]
        return [math.prod(sizes[k + 1 :]) for k in range(len(sizes))]


def _dim_boundaries(index: AffineIndex, dim: int) -> set[int]:
    return set(index.weights(dim))


def common_boundaries(extent: int, boundaries: set[int]) -> list[int] | None:
    """Digit weights (most significant first) splitting at every boundary, if nested."""
    ordered = sorted(boundaries | {1})
    for small, large in zip(ordered, ordered[1:]):
        if large % small:
            return None
    if extent % ordered[-1]:
        return None
    return list(reversed(ordered))


def refine(
    index: AffineIndex, weights_by_dim: dict[int, list[int]], emit: IndexEmitter
) -> AffineIndex:
    """Split digits so each dimension has digits at exactly the given weights."""
    digits: list[Digit] = []
    for dim, extent in enumerate(index.shape):
        target = weights_by_dim[dim]
        own = [d for d in index.digits if d.dim == dim]
        if extent == 1:  # a single digit of size 1: nothing to split
            digits.extend(own)
            continue
        own_weights = index.weights(dim)
        for weight, digit in zip(own_weights, own):
            top = weight * digit.size
            for w in target:
                if weight <= w < top:
                    next_up = min([t for t in [top, *target] if t > w])
                    digits.append(
                        Digit(dim, next_up // w, emit.mul(digit.stride, w // weight))
                    )
        assert math.prod(d.size for d in digits if d.dim == dim) == extent
    return replace(index, digits=tuple(digits))


def unify(
    indices: Sequence[AffineIndex], emit: IndexEmitter
) -> list[AffineIndex] | None:
    """The indices refined to one common digit split, or None if none exists."""
    shape = indices[0].shape
    weights: dict[int, list[int]] = {}
    for dim, extent in enumerate(shape):
        boundaries: set[int] = set()
        for index in indices:
            boundaries |= _dim_boundaries(index, dim)
        common = common_boundaries(extent, boundaries)
        if common is None:
            return None
        weights[dim] = common
    if all(
        [w for w in weights[d]] == i.weights(d) for i in indices for d in range(len(shape))
    ):
        return list(indices)
    return [refine(index, weights, emit) for index in indices]


def add(a: AffineIndex, b: AffineIndex, emit: IndexEmitter) -> AffineIndex | None:
    unified = unify([a, b], emit)
    if unified is None:
        return None
    a, b = unified
    return AffineIndex(
        a.shape,
        tuple(
            Digit(x.dim, x.size, emit.add(x.stride, y.stride))
            for x, y in zip(a.digits, b.digits)
        ),
        emit.add(a.base, b.base),
    )


def scale(a: AffineIndex, factor: Scalar, emit: IndexEmitter) -> AffineIndex:
    return AffineIndex(
        a.shape,
        tuple(Digit(d.dim, d.size, emit.mul(d.stride, factor)) for d in a.digits),
        emit.mul(a.base, factor),
    )


def expand_dims(a: AffineIndex, axis: int) -> AffineIndex:
    shape = list(a.shape)
    shape.insert(axis, 1)
    digits = [Digit(d.dim + (d.dim >= axis), d.size, d.stride) for d in a.digits]
    position = sum(1 for d in a.digits if d.dim < axis)
    digits.insert(position, Digit(axis, 1, 0))
    return AffineIndex(tuple(shape), tuple(digits), a.base)


def broadcast(a: AffineIndex, shape: Sequence[int]) -> AffineIndex:
    """Stretch size-1 dimensions: their single digit gets the new size and stride 0."""
    digits: list[Digit] = []
    for dim, (old, new) in enumerate(zip(a.shape, shape)):
        if old == new:
            digits.extend(d for d in a.digits if d.dim == dim)
        else:
            digits.append(Digit(dim, new, 0))
    return AffineIndex(tuple(shape), tuple(digits), a.base)


def _split_for_granule(
    a: AffineIndex, granule: int, emit: IndexEmitter
) -> AffineIndex | None:
    """Split digits with constant stride so every digit either has a stride that is
    a multiple of `granule` or stays below it."""
    weights: dict[int, list[int]] = {dim: a.weights(dim) for dim in range(len(a.shape))}
    for dim in range(len(a.shape)):
        boundaries = set(weights[dim])
        for weight, digit in zip(a.weights(dim), [d for d in a.digits if d.dim == dim]):
            stride = digit.stride
            if not isinstance(stride, int) or stride <= 0 or stride % granule == 0:
                continue
            if granule % stride or stride * digit.size <= granule:
                continue
            boundaries.add(weight * (granule // stride))
        common = common_boundaries(a.shape[dim], boundaries)
        if common is None:
            return None
        weights[dim] = common
    return refine(a, weights, emit)


def divmod_constant(
    a: AffineIndex, m: int, emit: IndexEmitter
) -> tuple[AffineIndex, AffineIndex] | None:
    """`(a // m, a % m)` for a non-negative `a` and constant `m > 0`, if affine.

    Digits whose stride is a multiple of `m` go to the quotient; the rest
    (after splitting digits at multiples of `m`) must together stay below the
    room the base's remainder leaves, so adding them never carries into the
    quotient.  The base's own quotient and remainder are scalar operations.
    """
    if m <= 0 or not emit.require_non_negative(a.base):
        return None
    if any(not isinstance(d.stride, int) or d.stride < 0 for d in a.digits):
        return None
    split = _split_for_granule(a, m, emit)
    if split is None:
        return None
    low_span = sum(
        d.stride * (d.size - 1) for d in split.digits if d.stride % m  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
    )
    base_remainder = emit.mod(a.base, m)
    if isinstance(base_remainder, int):
        room = m - base_remainder
    else:  # the base is a multiple of g, so its remainder is at most m - g
        room = math.gcd(emit.divisor(a.base), m)
    if low_span >= room:
        return None
    quotient = AffineIndex(
        a.shape,
        tuple(
            Digit(d.dim, d.size, 0 if d.stride % m else d.stride // m)  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
            for d in split.digits
        ),
        emit.floordiv(a.base, m),
    )
    remainder = AffineIndex(
        a.shape,
        tuple(
            Digit(d.dim, d.size, d.stride if d.stride % m else 0)  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
            for d in split.digits
        ),
        base_remainder,
    )
    return quotient, remainder


# ---------------------------------------------------------------------------
# Boxes: the structured part of a mask
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """`lower[k] <= digit[k] < upper[k]` for every digit of `view`."""

    view: AffineIndex
    lower: tuple[Scalar, ...]
    upper: tuple[Scalar, ...]

    @staticmethod
    def full(view: AffineIndex) -> Box:
        return Box(view, tuple(0 for _ in view.digits), view.digit_shape)

    @staticmethod
    def when(view: AffineIndex, condition_negative: Scalar, emit: IndexEmitter) -> Box:
        """All of `view` if `condition_negative < 0`, nothing otherwise."""
        box = Box.full(view)
        if not view.digits:
            return box
        upper = list(box.upper)
        upper[0] = emit.select_less_than_zero(condition_negative, view.digits[0].size, 0)
        return replace(box, upper=tuple(upper))


@dataclass(frozen=True)
class _DigitBound:
    """`e < 0` exactly where digit `k` is below `bound` (`below`) or at least `bound`."""

    k: int
    bound: Scalar
    below: bool


def _sign_split(e: AffineIndex, emit: IndexEmitter) -> _DigitBound | None:
    """Where `e < 0`, as a bound on one digit, if it is one.

    With one varying digit `j` of stride `s`: `base + s*j < 0` bounds `j`
    above (s > 0) or below (s < 0).  With several, it still is when one major
    digit's stride `s` divides the base and the other digits together stay
    below `s`: their sum cannot change the sign of the multiple of `s`.
    """
    varying = [k for k, d in enumerate(e.digits) if d.stride != 0]
    if not varying or any(not isinstance(e.digits[k].stride, int) for k in varying):
        return None
    strides = {k: e.digits[k].stride for k in varying}
    if len(varying) > 1:
        major = max(varying, key=lambda k: abs(strides[k]))  # pyright: ignore[reportArgumentType]  # a Scalar stride known to be an int here
        s = strides[major]
        others = [k for k in varying if k != major]
        if s <= 0 or emit.divisor(e.base) % s:  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
            return None
        if any(strides[k] < 0 for k in others):  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
            return None
        if sum(strides[k] * (e.digits[k].size - 1) for k in others) >= s:  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
            return None
        varying = [major]
    (k,) = varying
    s = strides[k]
    assert isinstance(s, int)
    size = e.digits[k].size
    if s > 0:  # base + s*j < 0  <=>  j < floor((-base - 1) / s) + 1
        bound = emit.add(emit.floordiv(emit.sub(-1, e.base), s), 1)
        return _DigitBound(k, emit.clamp(bound, 0, size), below=True)
    # base + s*j < 0  <=>  j >= floor(base / -s) + 1
    bound = emit.add(emit.floordiv(e.base, -s), 1)
    return _DigitBound(k, emit.clamp(bound, 0, size), below=False)


def _digit_box(e: AffineIndex, k: int, lower: Scalar, upper: Scalar) -> Box:
    box = Box.full(e)
    return Box(
        e,
        box.lower[:k] + (lower,) + box.lower[k + 1 :],
        box.upper[:k] + (upper,) + box.upper[k + 1 :],
    )


def less_than_zero(e: AffineIndex, emit: IndexEmitter) -> Box | None:
    """The box where `e < 0`, if it is one."""
    if e.is_uniform():
        return Box.when(e, e.base, emit)
    split = _sign_split(e, emit)
    if split is None:
        return None
    size = e.digits[split.k].size
    if split.below:
        return _digit_box(e, split.k, 0, split.bound)
    return _digit_box(e, split.k, split.bound, size)


def at_least_zero(e: AffineIndex, emit: IndexEmitter) -> Box | None:
    """The box where `e >= 0`, if it is one: the complement along the same digit."""
    if e.is_uniform():
        return Box.when(e, emit.sub(-1, e.base), emit)  # -1 - base < 0 <=> base >= 0
    split = _sign_split(e, emit)
    if split is None:
        return None
    size = e.digits[split.k].size
    if split.below:
        return _digit_box(e, split.k, split.bound, size)
    return _digit_box(e, split.k, 0, split.bound)


def intersect(a: Box, b: Box, emit: IndexEmitter) -> Box | None:
    views = unify([a.view, b.view], emit)
    if views is None:
        return None
    a_refined, b_refined = refine_box(a, views[0], emit), refine_box(b, views[1], emit)
    if a_refined is None or b_refined is None:
        return None
    return Box(
        views[0],
        tuple(emit.max(x, y) for x, y in zip(a_refined.lower, b_refined.lower)),
        tuple(emit.min(x, y) for x, y in zip(a_refined.upper, b_refined.upper)),
    )


def refine_box(box: Box, view: AffineIndex, emit: IndexEmitter) -> Box | None:
    """The same box over a finer digit split of its view, if it stays a box.

    An old digit bounded by `[l, u)` splits into sub-digits; the most
    significant has `q` values of the old digit per step.  The bounds stay a
    box when the digit was unbounded, or when `l` and `u` are multiples of `q`:
    then the top sub-digit gets `[l/q, u/q)` and the others are unbounded.
    """
    if view.digits == box.view.digits:
        return box
    lower: list[Scalar] = []
    upper: list[Scalar] = []
    for dim in range(len(view.shape)):
        old = [
            (k, w)
            for (k, d), w in zip(
                ((k, d) for k, d in enumerate(box.view.digits) if d.dim == dim),
                box.view.weights(dim),
            )
        ]
        new = [d for d in view.digits if d.dim == dim]
        if view.shape[dim] == 1:  # one digit of size 1 on both sides
            ((k_only, _),) = old
            lower.append(box.lower[k_only])
            upper.append(box.upper[k_only])
            continue
        for digit, weight in zip(new, view.weights(dim)):
            k_old, w_old = next(
                (k, w) for k, w in old if w <= weight < w * box.view.digits[k].size
            )
            size_old = box.view.digits[k_old].size
            low, high = box.lower[k_old], box.upper[k_old]
            is_top = weight * digit.size == w_old * size_old
            if (low == 0 and high == size_old) or not is_top:
                lower.append(0)
                upper.append(digit.size)
                continue
            q = weight // w_old
            if emit.divisor(low) % q or emit.divisor(high) % q:
                return None
            lower.append(emit.floordiv(low, q))
            upper.append(emit.floordiv(high, q))
    return Box(view, tuple(lower), tuple(upper))


# ---------------------------------------------------------------------------
# Shape transformations of indices and boxes
# ---------------------------------------------------------------------------


def permute(a: AffineIndex, order: Sequence[int]) -> AffineIndex:
    """Result dimension `d` is source dimension `order[d]` (as `tt.trans`)."""
    digits = [
        Digit(new_dim, digit.size, digit.stride)
        for new_dim, old_dim in enumerate(order)
        for digit in a.digits
        if digit.dim == old_dim
    ]
    return AffineIndex(tuple(a.shape[d] for d in order), tuple(digits), a.base)


def _digit_order(a: AffineIndex, order: Sequence[int]) -> list[int]:
    """Positions of `a`'s digits in the order `permute(a, order)` lists them."""
    return [k for old_dim in order for k, d in enumerate(a.digits) if d.dim == old_dim]


def box_permute(box: Box, order: Sequence[int]) -> Box:
    positions = _digit_order(box.view, order)
    return Box(
        permute(box.view, order),
        tuple(box.lower[k] for k in positions),
        tuple(box.upper[k] for k in positions),
    )


def box_expand_dims(box: Box, axis: int) -> Box:
    position = sum(1 for d in box.view.digits if d.dim < axis)
    return Box(
        expand_dims(box.view, axis),
        box.lower[:position] + (0,) + box.lower[position:],
        box.upper[:position] + (1,) + box.upper[position:],
    )


def _unit_free(shape: Sequence[int]) -> list[int]:
    return [size for size in shape if size != 1]


def _regroup_units(digits: Sequence[Digit], old: Sequence[int], new: Sequence[int]) -> list[list[int]]:
    """For each dimension of `new`, the positions in `digits` of the `old` dimension
    it is (none for a dimension of size 1): `old` and `new` differ only in those."""
    sources = [d for d, size in enumerate(old) if size != 1]
    groups, next_source = [], iter(sources)
    for size in new:
        dim = None if size == 1 else next(next_source)
        groups.append([k for k, digit in enumerate(digits) if digit.dim == dim])
    return groups


def reshape_units(a: AffineIndex, shape: Sequence[int]) -> AffineIndex | None:
    """`a` over `shape` when the two differ only in dimensions of size 1 (a reshape
    that moves no element, as Triton's descriptor rewrite emits); else None."""
    if _unit_free(a.shape) != _unit_free(shape):
        return None
    digits: list[Digit] = []
    for dim, positions in enumerate(_regroup_units(a.digits, a.shape, shape)):
        if not positions:
            digits.append(Digit(dim, 1, 0))
        digits.extend(replace(a.digits[k], dim=dim) for k in positions)
    return AffineIndex(tuple(shape), tuple(digits), a.base)


def box_reshape_units(box: Box, shape: Sequence[int]) -> Box | None:
    """`box` over `shape` (as `reshape_units`), if the dimensions of size 1 it drops
    are unbounded: a bound there may empty the box."""
    view = reshape_units(box.view, shape)
    if view is None:
        return None
    groups = _regroup_units(box.view.digits, box.view.shape, shape)
    kept = {k for positions in groups for k in positions}
    dropped = [k for k in range(len(box.view.digits)) if k not in kept]
    if any((box.lower[k], box.upper[k]) != (0, 1) for k in dropped):
        return None
    lower: list[Scalar] = []
    upper: list[Scalar] = []
    for positions in groups:
        lower.extend([box.lower[k] for k in positions] or [0])
        upper.extend([box.upper[k] for k in positions] or [1])
    return Box(view, tuple(lower), tuple(upper))


def box_broadcast(box: Box, shape: Sequence[int], emit: IndexEmitter) -> Box:
    """Stretch size-1 dimensions; their bounds (0 or 1) scale to the new size."""
    lower: list[Scalar] = []
    upper: list[Scalar] = []
    for dim, (old, new) in enumerate(zip(box.view.shape, shape)):
        positions = [k for k, d in enumerate(box.view.digits) if d.dim == dim]
        if old == new:
            lower.extend(box.lower[k] for k in positions)
            upper.extend(box.upper[k] for k in positions)
        else:
            (k,) = positions
            lower.append(emit.mul(box.lower[k], new))
            upper.append(emit.mul(box.upper[k], new))
    return Box(broadcast(box.view, shape), tuple(lower), tuple(upper))


# ---------------------------------------------------------------------------
# Quotient and remainder terms: quasi-affine indices
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DivMod:
    """`dividend // divisor` (`remainder` False) or `dividend % divisor` (True), kept
    whole because it is not affine over the tile's digits (the digits carry)."""

    dividend: QuasiAffine
    divisor: int
    remainder: bool
    signed: bool
    """`divsi`/`remsi` (truncating) or `divui`/`remui`: they differ on a negative
    dividend, so they are different terms."""


@dataclass(frozen=True)
class QuasiAffine:
    """`affine + sum(coefficient * term)`: an affine index plus quotient and remainder
    terms, over the same tile shape.

    A term's value is not affine, but a sum of terms can be: for `x >= 0` and
    `m > 0`, `x = m * (x // m) + x % m`, so `c * (x % m) + c * m * (x // m)` is
    `c * x` (`recombine`).  Inductor's convolution template reads its input at
    `n * s_n + h * s_h + w * s_w` with `w = p % W`, `h = (p // W) % H`,
    `n = (p // W) // H`; in a dense tensor (`s_h = W * s_w`, `s_n = H * s_h`)
    that recombines to `p * s_w`, a strided box, though `p % W` alone is not one.

    The identity needs `x // m` and `x % m` to be a matching pair: `divsi` and
    `remsi` (both truncate) are one for any `x`, but `divui`/`remui` of a
    negative `x`, or a floor quotient with a truncated remainder, are not.
    The rule asks for more than it needs and is simpler to trust: `x` must be
    *proved* non-negative (no run-time check), where every kind of quotient
    and remainder agree.  Where it is not, the terms stay, the form has terms
    left, and the access is a gather: always correct.
    """

    affine: AffineIndex
    terms: tuple[tuple[int, DivMod], ...] = ()

    @property
    def shape(self) -> tuple[int, ...]:
        return self.affine.shape


def _map_quasi(
    q: QuasiAffine, transform: Callable[[AffineIndex], AffineIndex | None]
) -> QuasiAffine | None:
    """A shape transformation applied to the affine part and every term's dividend."""
    new_affine = transform(q.affine)
    if new_affine is None:
        return None
    terms: list[tuple[int, DivMod]] = []
    for coefficient, term in q.terms:
        dividend = _map_quasi(term.dividend, transform)
        if dividend is None:
            return None
        terms.append((coefficient, replace(term, dividend=dividend)))
    return QuasiAffine(new_affine, tuple(terms))


def quasi_expand_dims(q: QuasiAffine, axis: int) -> QuasiAffine | None:
    return _map_quasi(q, lambda a: expand_dims(a, axis))


def quasi_broadcast(q: QuasiAffine, shape: Sequence[int]) -> QuasiAffine | None:
    return _map_quasi(q, lambda a: broadcast(a, shape))


def quasi_permute(q: QuasiAffine, order: Sequence[int]) -> QuasiAffine | None:
    return _map_quasi(q, lambda a: permute(a, order))


def quasi_reshape_units(q: QuasiAffine, shape: Sequence[int]) -> QuasiAffine | None:
    return _map_quasi(q, lambda a: reshape_units(a, shape))


def _affine_non_negative(a: AffineIndex, emit: IndexEmitter) -> bool:
    """Every value of `a` is >= 0: a non-negative base and non-negative strides
    (digits are >= 0)."""
    return emit.is_non_negative(a.base) and all(
        emit.is_non_negative(d.stride) for d in a.digits
    )


def quasi_non_negative(q: QuasiAffine, emit: IndexEmitter) -> bool:
    """Proved: every value of `q` is >= 0.  A quotient or remainder of a
    non-negative dividend by a positive constant is non-negative."""
    return _affine_non_negative(q.affine, emit) and all(
        coefficient > 0 and quasi_non_negative(term.dividend, emit)
        for coefficient, term in q.terms
    )


def quasi_scale(q: QuasiAffine, factor: Scalar, emit: IndexEmitter) -> QuasiAffine | None:
    """`q * factor`; a non-constant factor only when `q` has no terms."""
    if q.terms and not isinstance(factor, int):
        return None
    terms = () if factor == 0 else tuple((c * factor, t) for c, t in q.terms)  # pyright: ignore[reportOperatorIssue]  # a Scalar stride known to be an int here
    return QuasiAffine(scale(q.affine, factor, emit), terms)


def quasi_add(a: QuasiAffine, b: QuasiAffine, emit: IndexEmitter) -> QuasiAffine | None:
    """`a + b`, its terms merged and recombined where they make a whole dividend."""
    affine_sum = add(a.affine, b.affine, emit)
    if affine_sum is None:
        return None
    coefficients: dict[DivMod, int] = {}
    for coefficient, term in (*a.terms, *b.terms):
        coefficients[term] = coefficients.get(term, 0) + coefficient
    return _recombine(affine_sum, coefficients, emit)


def _recombine(
    affine_part: AffineIndex, coefficients: dict[DivMod, int], emit: IndexEmitter
) -> QuasiAffine | None:
    """Replace `c * (x % m) + c * m * (x // m)` by `c * x` for every proved `x >= 0`,
    until no pair is left (a recombined `x` may hold terms that pair in turn)."""
    result = QuasiAffine(affine_part, ())
    while True:
        live = {t: c for t, c in coefficients.items() if c}
        pair = next(
            (
                (rem, quo)
                for rem in live
                if rem.remainder
                for quo in live
                if not quo.remainder
                and quo.divisor == rem.divisor
                and quo.signed == rem.signed
                and quo.dividend == rem.dividend
                and live[quo] == live[rem] * rem.divisor
                and quasi_non_negative(rem.dividend, emit)
            ),
            None,
        )
        if pair is None:
            return QuasiAffine(result.affine, tuple((c, t) for t, c in live.items()))
        rem, quo = pair
        whole = quasi_scale(rem.dividend, live[rem], emit)
        assert whole is not None  # an int coefficient
        del live[rem], live[quo]
        affine_sum = add(result.affine, whole.affine, emit)
        if affine_sum is None:
            return None
        result = QuasiAffine(affine_sum, ())
        for coefficient, term in whole.terms:
            live[term] = live.get(term, 0) + coefficient
        coefficients = live


def quasi_divmod(
    q: QuasiAffine, m: int, signed: bool, emit: IndexEmitter
) -> tuple[QuasiAffine, QuasiAffine] | None:
    """`(q // m, q % m)` for a constant `m > 0`: affine where `divmod_constant` proves
    it, else one term each (for the matching `divsi`/`remsi` or `divui`/`remui`)."""
    if m <= 0:
        return None
    if not q.terms:
        parts = divmod_constant(q.affine, m, emit)
        if parts is not None:
            return QuasiAffine(parts[0]), QuasiAffine(parts[1])
    zero = AffineIndex.uniform(q.shape, 0)
    return (
        QuasiAffine(zero, ((1, DivMod(q, m, remainder=False, signed=signed)),)),
        QuasiAffine(zero, ((1, DivMod(q, m, remainder=True, signed=signed)),)),
    )
