"""The `welford-to-sums` pass: Inductor's Welford reduction as ordered sums in Chan's closed form.

Inductor reduces a mean, a sum of squared deviations (m2) and a weight
(a count) together with `triton_helpers.welford`, whose combiner
(`welford_combine`) is Chan et al.'s pairwise update:

    delta = mean_2 - mean_1          (0 where mean_1 == mean_2, in newer Inductors)
    new_weight = weight_1 + weight_2
    w2_over_w = where(new_weight == 0, 0, weight_2 / new_weight)
    mean_1 + delta * w2_over_w,  m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,  new_weight

in tile IR a `subf` (with the newer form, under a `select` on `cmpf oeq`
of the means), an `addf`, a `select` on `cmpf oeq` of the new weight
and zero, a `divf`, and `mulf`s and `addf`s.  However the combines are
grouped, exact arithmetic gives Chan's closed form

    W = sum w_i,  mean = sum(w_i * mean_i) / W,  m2 = sum m2_i + sum w_i * (mean_i - mean)^2

which this pass writes as three reductions whose combiner is one `addf`
(sums, as Inductor writes them), each reading the `tile.map` right
before it:

    W = reduce_add(weight)
    S = reduce_add(map(weight * mean))
    mean = map(select(W == 0, S, S / W))
    m2 = reduce_add(map(fma(weight, (mean_i - broadcast(mean))^2, m2_i)))

the row mean reshaped to a column and broadcast along the axis (a scalar,
for a 1-D reduction, read by the map as it is).  A target with an ordered
sum instruction computes each map inside its sum's strip loop (RISC-V:
`vfredosum`, the map's strips going straight into it); the results differ
from the pairwise tree's by rounding only:

* ordered, not unordered (`vfredusum`, whose order the implementation
  chooses, so it may change with VLEN): element order is the same at every
  VLEN, so the bits are too;
* each sum is of n terms in sequence, within gamma(n - 1) times the sum of
  the absolute terms of the exact one (Higham, §3.1), the bound the
  harness allows any sum-like reduction (`execution/tolerance.py`); the
  tree's, of depth log2 n, is usually a little closer.  m2 sums squared
  deviations from the final mean, the stable textbook form (no
  cancellation of large sums of squares), each term m2_i + w_i * d^2
  rounded once (`math.fma`);
* W == 0 (a row of padding: Inductor gives masked lanes mean 0, m2 0 and
  weight 0): the mean is sum(w_i * mean_i) itself, zero while every mean
  is finite, where the tree keeps the row's first mean (also zero for
  Inductor's padding); m2 is sum m2_i in both;
* a NaN propagates as in the tree: a NaN mean or weight makes the mean and
  m2 NaN (0 * NaN is NaN, so even a NaN mean of weight 0 does), a NaN
  weight the weight too, a NaN m2 only m2;
* infinities: the tree's answer depends on where they sit ([1, inf] gives
  mean inf and m2 inf, [1, inf, 2, 3] a NaN mean); here the mean is the
  infinity (NaN with both signs) and m2 NaN (inf - inf), as torch.var of
  data holding an infinity is NaN;
* sum(w_i * mean_i) can overflow where every mean is finite (W * |mean|
  beyond the type's largest value), which the tree does not.

Matches each `tile.reduce` of three f32 (or three f64) tiles along the last
axis whose combiner is exactly that update (operands of commutative ops in
either order); leaves every other reduction as it is; refuses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import Float32Type, Float64Type, FloatAttr, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.dialects import arith as tarith
from tnpu.dialects import tile
from tnpu.dialects.shapes import element_type_of
from tnpu.transforms.combiner_patterns import Pattern, commutative, is_value, select


def _zero(value: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, arith.ConstantOp) and isinstance(op.value, FloatAttr) and op.value.value.data == 0.0


def _equal(left: Pattern, right: Pattern) -> Pattern:
    compared = commutative(arith.CmpfOp, left, right)

    def matches(value: SSAValue) -> bool:
        op = value.owner
        return compared(value) and arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data] == "oeq"  # pyright: ignore[reportAttributeAccessIssue]  # a compare op, matched by isinstance on a tuple of classes

    return matches


def _of(kind: type[arith.SubfOp | arith.DivfOp], lhs: SSAValue, rhs: Pattern) -> Pattern:
    """A `kind` op (not commutative) of `lhs` and, second, a value matching `rhs`."""

    def matches(value: SSAValue) -> bool:
        op = value.owner
        return isinstance(op, kind) and op.lhs is lhs and rhs(op.rhs)

    return matches


def _either(first: Pattern, second: Pattern) -> Pattern:
    return lambda value: first(value) or second(value)


def _is_welford_combine(block: Block) -> bool:
    """Whether the combiner is `welford_combine` (the module docstring) of (mean, m2, weight) pairs."""
    mean_1, m2_1, weight_1, mean_2, m2_2, weight_2 = block.args
    yielded = block.last_op
    assert isinstance(yielded, tile.YieldOp)
    mean, m2, weight = yielded.values
    difference = _of(arith.SubfOp, mean_2, is_value(mean_1))
    delta = _either(difference, select(_equal(is_value(mean_1), is_value(mean_2)), _zero, difference))
    w2_over_w = select(_equal(is_value(weight), _zero), _zero, _of(arith.DivfOp, weight_2, is_value(weight)))
    squared_deviation = commutative(arith.MulfOp, commutative(arith.MulfOp, delta, delta), is_value(weight_1))
    return (
        commutative(arith.AddfOp, is_value(weight_1), is_value(weight_2))(weight)
        and commutative(arith.AddfOp, is_value(mean_1), commutative(arith.MulfOp, delta, w2_over_w))(mean)
        and commutative(
            arith.AddfOp,
            commutative(arith.AddfOp, is_value(m2_1), is_value(m2_2)),
            commutative(arith.MulfOp, squared_deviation, w2_over_w),
        )(m2)
    )


def _is_welford_reduction(op: tile.ReduceOp) -> bool:
    """Whether `op` reduces (mean, m2, weight) tiles of f32 or f64 along the last axis with
    Inductor's Welford combiner (the module docstring)."""
    types = {value.type for value in op.inputs}
    if len(op.inputs) != 3 or len(types) != 1:
        return False
    (tensor,) = types
    if not isinstance(tensor, TensorType) or not isinstance(tensor.element_type, Float32Type | Float64Type):
        return False
    return op.axis.value.data == len(tensor.get_shape()) - 1 and _is_welford_combine(op.combiner.block)


def _sum(values: SSAValue, axis: IntegerAttr, result_type: Attribute) -> SSAValue:
    """`values` summed along `axis`: a `tile.reduce` whose combiner is one `addf`."""
    element = element_type_of(values.type)
    combiner = Block(arg_types=[element, element])
    with ImplicitBuilder(combiner) as (total, value):
        tile.YieldOp(arith.AddfOp(total, value))
    reduce = tile.ReduceOp.create(
        operands=[values], result_types=[result_type], properties={"axis": axis}, regions=[Region(combiner)]
    )
    return reduce.results[0]


def _elementwise(inputs: Sequence[SSAValue], formula: Callable[..., SSAValue]) -> SSAValue:
    """`formula` of each element of `inputs` (tiles of one shape and type, and scalars of that type):
    a `tile.map`, or the formula's ops themselves if every input is a scalar."""
    tiles = [value.type for value in inputs if isinstance(value.type, TensorType)]
    if not tiles:
        return formula(*inputs)
    body = Block(arg_types=[element_type_of(value.type) for value in inputs])
    with ImplicitBuilder(body) as elements:
        tile.YieldOp(formula(*elements))
    return tile.MapOp(inputs, tiles[:1], Region(body)).results[0]


def _along_last_axis(row_values: SSAValue, shape: Sequence[int]) -> SSAValue:
    """Each row's value repeated along the last axis of `shape` (a reshape to a column and a
    `tile.broadcast`); a scalar, the value of a 1-D tile's one row, as it is."""
    if not isinstance(row_values.type, TensorType):
        return row_values
    element = row_values.type.element_type
    column = tile.ReshapeOp(row_values, TensorType(element, [*shape[:-1], 1]))
    return tile.BroadcastOp(column.result, TensorType(element, shape)).result


def _mean(weighted_sum: SSAValue, weight: SSAValue) -> SSAValue:
    """The weighted sum over the weight, or the sum itself where the weight is 0."""
    zero = arith.ConstantOp(FloatAttr(0.0, weight.type))  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
    unweighted = tarith.CmpfOp(weight, zero, "oeq")
    return tarith.SelectOp(unweighted, weighted_sum, arith.DivfOp(weighted_sum, weight)).result


def _weighted_squared_deviation(weight: SSAValue, mean: SSAValue, row_mean: SSAValue, m2: SSAValue) -> SSAValue:
    """m2 + weight * (mean - row mean)^2, rounded once."""
    deviation = arith.SubfOp(mean, row_mean)
    return math.FmaOp(weight, arith.MulfOp(deviation, deviation), m2).result


class WelfordAsOrderedSums(RewritePattern):
    """A `tile.reduce` with Inductor's Welford combiner along the last axis is Chan's closed form
    of three sums (module docstring), each map right before the sum that alone reads it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.ReduceOp, rewriter: PatternRewriter) -> None:
        if not _is_welford_reduction(op):
            return
        means, m2s, weights = op.inputs
        axis, reduced, shape = op.axis, op.results_[0].type, means.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]  # a shaped type, by the op's verifier
        with ImplicitBuilder(rewriter):
            weight = _sum(weights, axis, reduced)
            weighted_sum = _sum(_elementwise([weights, means], lambda w, m: arith.MulfOp(w, m).result), axis, reduced)
            mean = _elementwise([weighted_sum, weight], _mean)
            spread = _along_last_axis(mean, shape)
            m2 = _sum(_elementwise([weights, means, spread, m2s], _weighted_squared_deviation), axis, reduced)
        rewriter.replace(op, [], [mean, m2, weight])


@dataclass(frozen=True)
class WelfordToSumsPass(ModulePass):
    """Inductor's Welford reductions along the last axis as ordered sums in Chan's closed form (module docstring)."""

    name = "welford-to-sums"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(WelfordAsOrderedSums(), apply_recursively=False).rewrite_module(op)
