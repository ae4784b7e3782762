"""Recognising Inductor's Welford combiner, which RVV reduces in two ordered sums per row.

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

which `vector_unit._welford_reduce` computes in two passes over the row:
the sums of w_i and w_i * mean_i, then that of m2_i + w_i * (mean_i - mean)^2,
each an ordered sum (`vfredosum`) chained across strips.  The results
differ from the pairwise tree's by rounding only:

* ordered, not unordered (`vfredusum`, whose order the implementation
  chooses, so it may change with VLEN): element order is the same at every
  VLEN, so the bits are too;
* each sum is of n terms in sequence, within gamma(n - 1) times the sum of
  the absolute terms of the exact one (Higham, §3.1), the bound the
  harness allows any sum-like reduction (`execution/tolerance.py`); the
  tree's, of depth log2 n, is usually a little closer.  The second pass
  sums squared deviations from the final mean, the stable textbook form
  (no cancellation of large sums of squares);
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

`welford_reduction` matches a `tile.reduce` of three f32 (or three f64)
tiles along the last axis, operands of commutative ops in either order.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, FloatAttr, TensorType
from xdsl.ir import Block, SSAValue

from tnpu.backend_riscv.combiner_patterns import Pattern, commutative, is_value
from tnpu.dialects import tile


def _zero(value: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, arith.ConstantOp) and isinstance(op.value, FloatAttr) and op.value.value.data == 0.0


def _equal(left: Pattern, right: Pattern) -> Pattern:
    compared = commutative(arith.CmpfOp, left, right)

    def matches(value: SSAValue) -> bool:
        op = value.owner
        return compared(value) and arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data] == "oeq"

    return matches


def _of(kind: type[arith.SubfOp | arith.DivfOp], lhs: SSAValue, rhs: Pattern) -> Pattern:
    """A `kind` op (not commutative) of `lhs` and, second, a value matching `rhs`."""

    def matches(value: SSAValue) -> bool:
        op = value.owner
        return isinstance(op, kind) and op.lhs is lhs and rhs(op.rhs)

    return matches


def _select(condition: Pattern, on_true: Pattern, on_false: Pattern) -> Pattern:
    def matches(value: SSAValue) -> bool:
        op = value.owner
        return isinstance(op, arith.SelectOp) and condition(op.cond) and on_true(op.lhs) and on_false(op.rhs)

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
    delta = _either(difference, _select(_equal(is_value(mean_1), is_value(mean_2)), _zero, difference))
    w2_over_w = _select(_equal(is_value(weight), _zero), _zero, _of(arith.DivfOp, weight_2, is_value(weight)))
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


def welford_reduction(op: tile.ReduceOp) -> bool:
    """Whether `op` reduces (mean, m2, weight) tiles of f32 or f64 along the last axis with
    Inductor's Welford combiner (the module docstring)."""
    types = {value.type for value in op.inputs}
    if len(op.inputs) != 3 or len(types) != 1:
        return False
    (tensor,) = types
    if not isinstance(tensor, TensorType) or not isinstance(tensor.element_type, Float32Type | Float64Type):
        return False
    return op.axis.value.data == len(tensor.get_shape()) - 1 and _is_welford_combine(op.combiner.block)
