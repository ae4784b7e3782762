"""Patterns that recognise how a combiner region computes a value (`arg_combiners`, `welford_to_sums`).

A pattern is a predicate on an SSA value that looks at the op defining it
and, through patterns for its operands, at the ops before; patterns of
commutative ops accept their operands in either order.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

Pattern = Callable[[SSAValue], bool]
"""Whether a value is computed as the pattern says."""


def is_value(expected: SSAValue) -> Pattern:
    return lambda value: value is expected


def commutative(kind: type[Operation], left: Pattern, right: Pattern) -> Pattern:
    """A `kind` op of a value matching `left` and one matching `right`, in either order."""

    def matches(value: SSAValue) -> bool:
        op = value.owner
        if not isinstance(op, kind):
            return False
        lhs, rhs = op.operands
        return left(lhs) and right(rhs) or left(rhs) and right(lhs)

    return matches


def select(condition: Pattern, on_true: Pattern, on_false: Pattern) -> Pattern:
    """An `arith.select` of a value matching `on_true` where one matching `condition` holds,
    else one matching `on_false` (its operands checked first, the condition, often the
    larger pattern, last)."""

    def matches(value: SSAValue) -> bool:
        op = value.owner
        return isinstance(op, arith.SelectOp) and on_true(op.lhs) and on_false(op.rhs) and condition(op.cond)

    return matches
