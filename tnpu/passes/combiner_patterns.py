"""Patterns that recognise how a combiner region computes a value (`arg_combiners`, `welford_to_sums`).

A pattern is a predicate on an SSA value that looks at the op defining it
and, through patterns for its operands, at the ops before; patterns of
commutative ops accept their operands in either order.
"""

from __future__ import annotations

from collections.abc import Callable

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
