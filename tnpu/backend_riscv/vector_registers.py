"""Vector register allocation for one elementwise program.

The instruction selector (`elementwise.py`) asks for register groups here
and never counts them: `VectorRegisters` owns the free list of groups
aligned for the program's LMUL (`v0` kept for masks), which value holds
which group, the temporaries of the op being selected, and freeing each
value after its last use (`last_uses`, from the program, not from the
order code happens to read values in).  The program's LMUL was chosen
from `register_pressure`, so a group is always free; running out means the
estimate and the selector disagree, which is a bug in the backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.elements import Element


def last_uses(ops: Sequence[Operation], outputs: Sequence[SSAValue]) -> dict[SSAValue, int]:
    """The index of the op that uses each value last; outputs are used after every op."""
    last: dict[SSAValue, int] = {}
    for index, op in enumerate(ops):
        for operand in op.operands:
            last[operand] = index
    for value in outputs:
        last[value] = len(ops)
    return last


def usable_groups(lmul_eighths: int) -> int:
    """Register groups of `lmul_eighths` (of the widest type) besides the one holding v0."""
    return 32 // (lmul_eighths // 8) - 1


@dataclass
class VectorValue:
    """A value in a vector register group (a mask in one register)."""

    register: str
    element: Element


class VectorRegisters:
    """The register groups of one program at one LMUL, handed out last-freed-first."""

    def __init__(self, lmul_eighths: int, last_use: dict[SSAValue, int]):
        group = lmul_eighths // 8
        self.free = [f"v{i}" for i in range(group, 32, group)]
        self.last_use = last_use
        self.held: dict[SSAValue, VectorValue] = {}
        self.temps: list[str] = []
        self.in_v0: VectorValue | None = None
        """The mask value v0 holds a copy of, if any."""

    def _take(self) -> str:
        if not self.free:
            raise RuntimeError("backend_riscv: the register-pressure estimate was too low")
        return self.free.pop(0)

    def _give(self, register: str) -> None:
        if self.in_v0 is not None and self.in_v0.register == register:
            self.in_v0 = None
        self.free.insert(0, register)

    def temp(self) -> str:
        """A group for the op being selected, free again after it."""
        register = self._take()
        self.temps.append(register)
        return register

    def define(self, value: SSAValue, element: Element) -> VectorValue:
        """A group holding `value` until its last use."""
        vector = VectorValue(self._take(), element)
        self.held[value] = vector
        return vector

    def release_after(self, op: Operation, index: int) -> None:
        """Free the op's temporaries, its operands it used last, and its unused results."""
        self.release_temps()
        # In operand order: a set of SSA values iterates in address order, and
        # the order registers are freed in decides which the next value gets.
        for operand in dict.fromkeys(op.operands):
            if self.last_use.get(operand) == index:
                self._drop(operand)
        for result in op.results:
            if result not in self.last_use:
                self._drop(result)

    def release_temps(self) -> None:
        for register in self.temps:
            self._give(register)
        self.temps = []

    def release_all(self) -> None:
        for value in list(self.held):
            self._drop(value)

    def _drop(self, value: SSAValue) -> None:
        if (vector := self.held.pop(value, None)) is not None:
            self._give(vector.register)
