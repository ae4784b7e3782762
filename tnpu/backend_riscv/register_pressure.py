"""Vector register pressure of an elementwise program, before any code is emitted.

The pressure is the largest number of vector register groups held at
once while the program's ops run in order: every value held from its
definition (an input stream: from its first read) to its last use, plus,
during each op, what its instruction sequence takes for itself (the
selector declares it: `OpDemand`) and a temporary for every read of a
uniform value as a vector.  A group holds one value whatever its type, so
the count does not depend on LMUL, and the LMUL of a program is the
largest whose groups, less the one holding v0, are at least that many.

This is what `VectorRegisters` will hand out for the same program,
exactly: the allocator frees at the same last uses, and nothing is freed
in the middle of an op.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.vector_registers import last_uses, usable_groups

LMULS = (64, 32, 16, 8)
"""LMUL of the widest type, in eighths of a register, largest first (m8 down to m1)."""


@dataclass(frozen=True)
class OpDemand:
    """What an op's instruction sequence asks of the vector registers."""

    reads: Sequence[SSAValue] = ()
    """Values it reads into vector registers, once per read."""
    scratch: int = 0
    """Temporary groups it takes for itself."""


@dataclass(frozen=True)
class VectorPressure:
    groups: int
    """The most groups held at once."""
    at: Operation | None
    """The op during which that many are held first (None: while storing the outputs)."""

    def lmul(self) -> int | None:
        """The largest LMUL (eighths) whose usable groups hold the peak; None if even m1's do not."""
        return next((lmul for lmul in LMULS if self.groups <= usable_groups(lmul)), None)


def vector_pressure(
    ops: Sequence[Operation],
    outputs: Sequence[tuple[SSAValue, int]],
    streamed: Collection[SSAValue],
    uniform: Collection[SSAValue],
    demand: Callable[[Operation], OpDemand],
) -> VectorPressure:
    """The pressure of `ops`, then of storing each `(value, scratch groups)` of `outputs`.

    `streamed` values are loaded at their first read and held; `uniform`
    ones (and results that are uniform, such as constants) hold no group
    but take a temporary at each read; every other value is an op's result.
    """
    last = last_uses(ops, [value for value, _ in outputs])
    held: set[SSAValue] = set()
    peak, at = 0, None

    def step(op: Operation | None, reads: Sequence[SSAValue], scratch: int, results: int) -> None:
        nonlocal peak, at
        loads = {value for value in reads if value in streamed and value not in held}
        splats = sum(value in uniform for value in reads)
        live = len(held) + len(loads) + splats + scratch + results
        if live > peak:
            peak, at = live, op
        held.update(loads)

    for index, op in enumerate(ops):
        wanted = demand(op)
        results = [result for result in op.results if result not in uniform]
        step(op, wanted.reads, wanted.scratch, len(results))
        held.update(results)
        held.difference_update(
            value for value in (*op.operands, *results) if last.get(value, index) == index
        )
    for value, scratch in outputs:
        step(None, (value,), scratch, 0)
    return VectorPressure(peak, at)
