"""An assembly writer for RV64GCV: lines, labels, scratch registers, strip loops.

Code is emitted op by op.  No value lives in a scalar register across tile
ops (values live in the scratchpad, see `storage`), so registers are only
needed for the duration of one op's loop nest: `AsmWriter.ints()` hands out
scratch registers and takes them back when the op is done.  An op that
asks for more than there are at once (`OutOfRegisters`) is refused by the
code generator, naming it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

from tnpu.backend_riscv.elements import Element, lmul_name

SCRATCHPAD_BASE = "s0"
"""Holds the scratchpad's address for the whole kernel."""

INT_SCRATCH = (
    "t0", "t1", "t2", "t3", "t4", "t5", "t6",
    "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
    "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
)  # fmt: skip
"""Integer registers an op may use; callee-saved ones are saved by the kernel."""

FLOAT_SCRATCH = tuple(f"ft{i}" for i in range(12)) + tuple(f"fa{i}" for i in range(8))

CALLEE_SAVED = frozenset(f"s{i}" for i in range(1, 12))


def fits_imm12(value: int) -> bool:
    return -2048 <= value < 2048


class OutOfRegisters(Exception):
    """An op's code needs more scratch registers of a class at once than there are."""


@dataclass
class RegisterPool:
    """Scratch registers of one class, handed out last-freed-first."""

    kind: str
    free: list[str]
    ever_used: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.size = len(self.free)

    def take(self, count: int) -> list[str]:
        if count > len(self.free):
            raise OutOfRegisters(f"needs more than the {self.size} {self.kind} registers at once")
        # Take from the front so caller-saved registers go first.
        taken, self.free = self.free[:count], self.free[count:]
        self.ever_used.update(taken)
        return taken

    def give_back(self, registers: Sequence[str]) -> None:
        self.free = list(registers) + self.free


class AsmWriter:
    """Collects the assembly of one function."""

    def __init__(self, symbol_prefix: str):
        self.lines: list[str] = []
        self._prefix = symbol_prefix
        self._label_numbers = itertools.count()
        self.int_pool = RegisterPool("integer", list(INT_SCRATCH))
        self.float_pool = RegisterPool("float", list(FLOAT_SCRATCH))

    # -- lines ----------------------------------------------------------------

    def emit(self, mnemonic: str, *operands: str | int) -> None:
        args = ", ".join(str(o) for o in operands)
        self.lines.append(f"    {mnemonic} {args}".rstrip())

    def comment(self, text: str) -> None:
        self.lines.append(f"    # {text}")

    def new_label(self, hint: str) -> str:
        return f".L{self._prefix}_{hint}{next(self._label_numbers)}"

    def place(self, label: str) -> None:
        self.lines.append(f"{label}:")

    # -- registers ------------------------------------------------------------

    def ints(self, count: int) -> AbstractContextManager[list[str]]:
        return _borrowed(self.int_pool, count)

    def floats(self, count: int) -> AbstractContextManager[list[str]]:
        return _borrowed(self.float_pool, count)

    def saved_registers_used(self) -> list[str]:
        return sorted(self.int_pool.ever_used & CALLEE_SAVED, key=lambda r: int(r[1:]))

    # -- common sequences -----------------------------------------------------

    def li(self, register: str, value: int) -> None:
        self.emit("li", register, value)

    def add_immediate(self, dest: str, source: str, value: int) -> None:
        """dest = source + value, for any 64-bit value (dest may be source)."""
        if fits_imm12(value):
            if value or dest != source:
                self.emit("addi", dest, source, value)
            return
        if dest == source:
            with self.ints(1) as (temp,):
                self.li(temp, value)
                self.emit("add", dest, source, temp)
        else:
            self.li(dest, value)
            self.emit("add", dest, source, dest)

    def scratch_address(self, dest: str, offset: int) -> None:
        """dest = address of a scratchpad byte offset."""
        self.add_immediate(dest, SCRATCHPAD_BASE, offset)

    def load_scalar(self, dest: str, offset: int, element: Element) -> None:
        """Load a scalar from the scratchpad into an integer register.

        Integers come out sign-extended (i1 zero-extended), floats as their
        bit pattern, zero-extended.
        """
        mnemonic = _INT_LOADS[(element.bits, element.is_mask or element.is_float)]
        if fits_imm12(offset):
            self.emit(mnemonic, dest, f"{offset}({SCRATCHPAD_BASE})")
        else:
            self.scratch_address(dest, offset)
            self.emit(mnemonic, dest, f"0({dest})")

    def store_scalar(self, source: str, offset: int, element: Element) -> None:
        mnemonic = {8: "sb", 16: "sh", 32: "sw", 64: "sd"}[element.bits]
        if fits_imm12(offset):
            self.emit(mnemonic, source, f"{offset}({SCRATCHPAD_BASE})")
        else:
            with self.ints(1) as (address,):
                self.scratch_address(address, offset)
                self.emit(mnemonic, source, f"0({address})")

    def vsetvli(self, vl: str, avl: str, element_bits: int, lmul_eighths: int) -> None:
        self.emit("vsetvli", vl, avl, f"e{element_bits}", lmul_name(lmul_eighths), "ta", "mu")

    def load_indices_as_i64(self, pointer: str, index_bits: int) -> None:
        """v16 := the `vl` integers of `index_bits` at `pointer`, sign-extended to 64 bits.

        Runs inside an e64/m8 strip loop (register groups keep SEW/LMUL = 8) and
        leaves vtype there; v8 is clobbered.
        """
        self.emit("vsetvli", "zero", "zero", f"e{index_bits}", lmul_name(index_bits), "ta", "mu")
        self.emit(f"vle{index_bits}.v", "v8", f"({pointer})")
        self.emit("vsetvli", "zero", "zero", "e64", "m8", "ta", "mu")
        if index_bits < 64:
            self.emit(f"vsext.vf{64 // index_bits}", "v16", "v8")
        else:
            self.emit("vmv.v.v", "v16", "v8")


@contextmanager
def _borrowed(pool: RegisterPool, count: int) -> Iterator[list[str]]:
    """`count` registers of `pool` for the duration of a `with` block."""
    registers = pool.take(count)
    try:
        yield registers
    finally:
        pool.give_back(registers)


_INT_LOADS = {
    (8, False): "lb", (8, True): "lbu",
    (16, False): "lh", (16, True): "lhu",
    (32, False): "lw", (32, True): "lwu",
    (64, False): "ld", (64, True): "ld",
}  # fmt: skip


@dataclass
class StripLoop:
    """A vector-length-agnostic loop: each trip handles `vl` of the remaining elements.

    ```
        <remaining = count>
    head:
        vsetvli vl, remaining, eN, mM, ta, mu
        <body>                    # pointers advanced by `advance`
        sub remaining, remaining, vl
        bnez remaining, head
    ```
    Use as `with StripLoop.over(asm, count, bits, lmul) as loop:`; the body
    reads `loop.vl`.  An empty count (a register holding 0) skips the loop.
    """

    asm: AsmWriter
    vl: str
    remaining: str
    head: str
    end: str
    advances: list[tuple[str, int | str]] = field(default_factory=list)

    def advance(self, pointer: str, step: int | str) -> None:
        """Move `pointer` past the elements this trip handled, at the end of the trip.

        `step` is the bytes per element: a power of two, or a register
        holding a stride.
        """
        self.advances.append((pointer, step))

    @staticmethod
    @contextmanager
    def over(
        asm: AsmWriter, count: int | str, element_bits: int, lmul_eighths: int
    ) -> Iterator[StripLoop]:
        with asm.ints(2) as (vl, remaining):
            loop = StripLoop(asm, vl, remaining, asm.new_label("strip"), asm.new_label("done"))
            if isinstance(count, int):
                asm.li(remaining, count)
            else:
                asm.emit("mv", remaining, count)
                asm.emit("blez", remaining, loop.end)
            asm.place(loop.head)
            asm.vsetvli(vl, remaining, element_bits, lmul_eighths)
            yield loop
            asm.emit("sub", remaining, remaining, vl)
            with asm.ints(1) as (bytes_done,):
                computed: int | str | None = None
                for pointer, step in sorted(loop.advances, key=lambda a: str(a[1])):
                    if step == 1:
                        asm.emit("add", pointer, pointer, vl)
                        continue
                    if step != computed:
                        if isinstance(step, str):
                            asm.emit("mul", bytes_done, vl, step)
                        else:
                            asm.emit("slli", bytes_done, vl, step.bit_length() - 1)
                        computed = step
                    asm.emit("add", pointer, pointer, bytes_done)
            asm.emit("bnez", remaining, loop.head)
            asm.place(loop.end)


Materialize = Callable[[str], None]
"""Code that puts a value into the given register."""

Bound = tuple[int | Materialize, int | Materialize]
"""A dimension's valid index range [low, high): static ints, or code computing them."""


@dataclass
class Cursor:
    """A byte address walked through a row nest: `start` plus index times stride, per dimension.

    A stride is static (an int) or a register holding it.
    """

    start: str
    strides: Sequence[int | str]


def for_each_row(
    asm: AsmWriter,
    shape: Sequence[int],
    cursors: Sequence[Cursor],
    row: Callable[[list[str], str | None], None],
    bounds: Sequence[Bound | None] | None = None,
) -> None:
    """Run `row(addresses, valid)` for every index of all dimensions but the last.

    `addresses` hold each cursor's address at the row's start; `valid` is a
    register that is 1 when every outer index lies within its bound (None
    when no bound applies).  Dimensions of size 1 cost no loop, and outer
    dimensions every cursor walks contiguously (stride = the next one's
    stride times its size, no bound) are one dimension.  Tiles of any rank
    are walked: a loop per dimension while registers last (`cursors + 1`
    each, and one more for a bounded dimension's flag), else one loop over
    all rows, each row's indices recovered from its number by division
    (`_rows_by_number`).
    """
    shape, cursors, bounds = _merge_contiguous(shape, cursors, bounds)
    nest = sum(len(cursors) + 1 for size in shape[:-1] if size != 1)
    nest += sum(1 for bound in bounds or () if bound)
    if nest <= len(asm.int_pool.free) // 2:
        _rows(asm, shape, cursors, [c.start for c in cursors], row, bounds, None, 0)
    else:
        _rows_by_number(asm, shape, cursors, row, bounds)


def _merge_contiguous(
    shape: Sequence[int], cursors: Sequence[Cursor], bounds: Sequence[Bound | None] | None
) -> tuple[list[int], list[Cursor], list[Bound | None] | None]:
    """The same row nest with each run of contiguous, unbounded outer dimensions made one."""
    shape = list(shape)
    strides = [list(c.strides) for c in cursors]
    bounds = list(bounds) if bounds else None
    for level in reversed(range(len(shape) - 1)):
        if shape[level] == 1 and (bounds is None or bounds[level] is None):
            del shape[level]
            for s in strides:
                del s[level]
            if bounds is not None:
                del bounds[level]
    level = len(shape) - 3
    while level >= 0:
        inner = level + 1
        contiguous = all(
            isinstance(s[level], int) and isinstance(s[inner], int)
            and s[level] == s[inner] * shape[inner]  # type: ignore[operator]
            for s in strides
        )
        if contiguous and (bounds is None or bounds[level] is None and bounds[inner] is None):
            shape[level:inner + 1] = [shape[level] * shape[inner]]
            for s in strides:
                del s[level]
            if bounds is not None:
                del bounds[level]
        level -= 1
    return shape, [Cursor(c.start, s) for c, s in zip(cursors, strides)], bounds


def _rows(asm, shape, cursors, addresses, row, bounds, valid, level) -> None:  # noqa: ANN001
    if level == len(shape) - 1:
        row(addresses, valid)
        return
    bound = bounds[level] if bounds else None
    size = shape[level]
    if size == 1:
        with asm.ints(1 if bound else 0) as flag:
            if bound:
                _index_in_bound(asm, flag[0], "zero", bound, valid)
            _rows(asm, shape, cursors, addresses, row, bounds, flag[0] if bound else valid, level + 1)
        return
    with asm.ints(len(cursors) + 1) as (counter, *walking):
        head = asm.new_label("row")
        asm.li(counter, 0)
        for register, address in zip(walking, addresses):
            asm.emit("mv", register, address)
        asm.place(head)
        with asm.ints(1 if bound else 0) as flag:
            if bound:
                _index_in_bound(asm, flag[0], counter, bound, valid)
            _rows(asm, shape, cursors, walking, row, bounds, flag[0] if bound else valid, level + 1)
        for register, cursor in zip(walking, cursors):
            stride = cursor.strides[level]
            if isinstance(stride, int):
                asm.add_immediate(register, register, stride)
            else:
                asm.emit("add", register, register, stride)
        asm.emit("addi", counter, counter, 1)
        with asm.ints(1) as (limit,):
            asm.li(limit, size)
            asm.emit("blt", counter, limit, head)


def _rows_by_number(asm, shape, cursors, row, bounds) -> None:  # noqa: ANN001
    """One loop over the rows; row r's outer indices are the mixed-radix digits of r.

    Registers: the row number, the cursors' addresses and four more,
    whatever the rank.
    """
    outer = shape[:-1]
    with asm.ints(len(cursors) + 2) as (number, rest, *addresses):
        head = asm.new_label("rows")
        asm.li(number, 0)
        asm.place(head)
        for register, cursor in zip(addresses, cursors):
            asm.emit("mv", register, cursor.start)
        asm.emit("mv", rest, number)
        with asm.ints(2 if bounds and any(bounds) else 0) as flags:
            valid = None
            for level in reversed(range(len(outer))):
                if outer[level] == 1 and not (bounds and bounds[level]):
                    continue
                with asm.ints(2) as (digit, temp):
                    asm.li(temp, outer[level])
                    asm.emit("remu", digit, rest, temp)
                    asm.emit("divu", rest, rest, temp)
                    for register, cursor in zip(addresses, cursors):
                        stride = cursor.strides[level]
                        if isinstance(stride, int):
                            if stride == 0:
                                continue
                            asm.li(temp, stride)
                            stride = temp
                        with asm.ints(1) as (step,):
                            asm.emit("mul", step, digit, stride)
                            asm.emit("add", register, register, step)
                    bound = bounds[level] if bounds else None
                    if bound:
                        _index_in_bound(asm, flags[0], digit, bound, valid)
                        if valid is None:
                            valid = flags[1]
                        asm.emit("mv", valid, flags[0])
            row(addresses, valid)
        asm.emit("addi", number, number, 1)
        with asm.ints(1) as (limit,):
            asm.li(limit, math.prod(outer))
            asm.emit("blt", number, limit, head)


def _index_in_bound(asm: AsmWriter, flag: str, index: str, bound: Bound, outer: str | None) -> None:
    """flag = low <= index < high (and outer, if given)."""
    low, high = bound
    with asm.ints(1) as (temp,):
        _value(asm, temp, low)
        asm.emit("slt", flag, index, temp)
        asm.emit("xori", flag, flag, 1)
        _value(asm, temp, high)
        asm.emit("slt", temp, index, temp)
        asm.emit("and", flag, flag, temp)
    if outer is not None:
        asm.emit("and", flag, flag, outer)


def _value(asm: AsmWriter, register: str, value: int | Materialize) -> None:
    if isinstance(value, int):
        asm.li(register, value)
    else:
        value(register)
