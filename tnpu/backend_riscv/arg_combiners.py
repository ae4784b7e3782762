"""Recognising Inductor's argmax/argmin combiner, which RVV reduces as a max/min plus a search.

Inductor reduces a value and its index with `triton_helpers.max_with_index`
(`min_with_index`), whose combiner is

    mask = a > b                     (a < b for min)
    equal = a == b
    mask |= a != a & !(b != b)       (floats: a NaN beats a number ...)
    equal |= a != a & b != b         (... and NaNs are equal)
    mask |= equal & (a_index < b_index)
    combined = where(mask, a, b), where(mask, a_index, b_index)

in tile IR a `cmpf ogt`/`olt`, a `cmpf oeq`, two `cmpf une` of an argument
with itself, `xori` with true, `andi`/`ori`s, a `cmpi slt` of the indices
and two `select`s (integers: `cmpi sgt`/`slt`, `cmpi eq`, no NaN parts).

When the indices are distinct and increase along the reduced axis (an
iota, `_indices_increase_along_rows`), that combiner is the maximum of a
total order: NaN above every number, numbers by value (-0.0 equal to
+0.0), ties to the lower index.  Whatever the order of the pairwise
combines, the result is the first position holding the row's NaN-aware
maximum (`arith.maximumf`'s class of values), its value and its index.
With repeated indices that is not so (a tie between -0.0 and +0.0 of one
index keeps whichever the tree put second), and the combiner is left to
the pairwise tree.

`arg_reduction` matches the combiner region of a `tile.reduce` of a value
and an index along the last axis, operands of commutative ops in either
order; it returns the op that reduces the values, or None.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, TensorType, i1
from xdsl.ir import Operation, SSAValue

from tnpu.dialects import tile
from tnpu.transforms.combiner_patterns import Pattern, commutative, is_value, select

_FLOAT_EXTREMES: dict[str, type[Operation]] = {"ogt": arith.MaximumfOp, "olt": arith.MinimumfOp}
_INTEGER_EXTREMES: dict[str, type[Operation]] = {"sgt": arith.MaxSIOp, "slt": arith.MinSIOp}


def _true(value: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, arith.ConstantOp) and op.value == IntegerAttr(1, i1)


def _compare(kind: type[arith.CmpfOp | arith.CmpiOp], predicate: str, lhs: SSAValue, rhs: SSAValue) -> Pattern:
    predicates = arith.CMPF_COMPARISON_OPERATIONS if kind is arith.CmpfOp else arith.CMPI_COMPARISON_OPERATIONS

    def matches(value: SSAValue) -> bool:
        op = value.owner
        return (
            isinstance(op, kind)
            and predicates[op.predicate.value.data] == predicate
            and (op.lhs, op.rhs) == (lhs, rhs)
        )

    return matches


def _and(left: Pattern, right: Pattern) -> Pattern:
    return commutative(arith.AndIOp, left, right)


def _or(left: Pattern, right: Pattern) -> Pattern:
    return commutative(arith.OrIOp, left, right)


def _beats(a: SSAValue, a_index: SSAValue, b: SSAValue, b_index: SSAValue, ordering: str, is_float: bool) -> Pattern:
    """Inductor's `mask`: (a, a_index) wins over (b, b_index) (the module docstring)."""
    if is_float:
        a_is_nan, b_is_nan = _compare(arith.CmpfOp, "une", a, a), _compare(arith.CmpfOp, "une", b, b)
        ordered = _or(_compare(arith.CmpfOp, ordering, a, b), _and(a_is_nan, commutative(arith.XOrIOp, b_is_nan, _true)))
        equal = _or(_compare(arith.CmpfOp, "oeq", a, b), _and(a_is_nan, b_is_nan))
    else:
        ordered = _compare(arith.CmpiOp, ordering, a, b)
        equal = _compare(arith.CmpiOp, "eq", a, b)
    return _or(ordered, _and(equal, _compare(arith.CmpiOp, "slt", a_index, b_index)))


def _combiner_extreme(op: tile.ReduceOp) -> type[Operation] | None:
    """The op reducing the values if `op`'s combiner is Inductor's, else None."""
    block = op.combiner.block
    a, a_index, b, b_index = block.args
    yielded = block.last_op
    assert isinstance(yielded, tile.YieldOp)
    value, index = yielded.values
    is_float = isinstance(a.type, AnyFloat)
    for ordering, extreme in (_FLOAT_EXTREMES if is_float else _INTEGER_EXTREMES).items():
        mask = _beats(a, a_index, b, b_index, ordering, is_float)
        picks_value = select(mask, is_value(a), is_value(b))
        picks_index = select(mask, is_value(a_index), is_value(b_index))
        if picks_value(value) and picks_index(index):
            return extreme
    return None


def _last_dimension(value: SSAValue) -> int | None:
    return value.type.get_shape()[-1] if isinstance(value.type, TensorType) else None


def _indices_increase_along_rows(value: SSAValue) -> bool:
    """Whether each row (along the last axis) of `value` is a run of an iota.

    An iota, seen through reshapes (of an iota alone: its row-major order
    is the iota's; else keeping the last dimension, so rows stay rows) and
    broadcasts that do not stretch the last dimension.
    """
    op = value.owner
    if isinstance(op, tile.IotaOp):
        return True
    if isinstance(op, tile.ReshapeOp) and _is_iota_reshaped(op.source):
        return True
    if isinstance(op, tile.ReshapeOp | tile.BroadcastOp):
        return _last_dimension(op.source) == _last_dimension(value) and _indices_increase_along_rows(op.source)
    return False


def _is_iota_reshaped(value: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, tile.IotaOp) or isinstance(op, tile.ReshapeOp) and _is_iota_reshaped(op.source)


def arg_reduction(op: tile.ReduceOp) -> type[Operation] | None:
    """The op reducing the values (`maximumf`, `minsi`, ...) of an argmax/argmin along the last
    axis with increasing indices, or None (the module docstring)."""
    if len(op.inputs) != 2 or not isinstance(op.inputs[0].type, TensorType):
        return None
    values, indices = op.inputs
    if op.axis.value.data != len(values.type.get_shape()) - 1 or not _indices_increase_along_rows(indices):  # pyright: ignore[reportAttributeAccessIssue]  # a shaped type, by the op's verifier
        return None
    return _combiner_extreme(op)
