"""Building RISC-V IR in program order: scalar helpers, variables, loops, branches, strip loops.

The lowering (`tile_to_rvv` and its op families) writes code as an assembly
programmer would, one instruction after the other, through a `Builder`;
every instruction is an op of xDSL's `riscv`/`rv64` or tnpu's `rvv`/`rvx`
dialects whose values have unallocated register types.

A register a loop updates (a pointer walked through rows, a counter) is a
`Var`: reading it gives its current SSA value, `set` gives it a new one.
`Builder.loop` and `Builder.branch` build their region first and find
afterwards which variables it changed: each becomes a value the loop
carries (its block argument, what `rvx.repeat_if` carries, its result) or a
result of the `rvx.if`, and the variable holds that result after it.  Code
never has to declare what a loop carries.

`StripLoop` is RVV's vector-length-agnostic loop (`vsetvli` at the head,
pointers advanced by `vl` at the end); its vector values are built as
groups of one register and given their LMUL when the loop closes, from
the loop's register pressure (`lmul.choose_lmul`).  `for_each_row` walks
the rows of a tile of any rank.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects import riscv, rv64
from xdsl.dialects.builtin import IntegerAttr
from xdsl.dialects.riscv import FloatRegisterType, IntRegisterType, Registers
from xdsl.dialects.riscv.attrs import ui6
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue

from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.lmul import choose_lmul
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv import rvx
from tnpu.dialects.rvv.types import MaskRegisterType, VectorGroupType, VectorRegisterType

SCRATCHPAD_BASE = Registers.S0
"""Holds the scratchpad's address for the whole kernel."""

Scalar = SSAValue | int
"""An integer register, or a constant the builder loads."""


def fits_imm12(value: int) -> bool:
    return -2048 <= value < 2048


class Var:
    """A register variable: code reads its current value and sets new ones.

    Its values are its own: a value that other code reads too (or a block
    argument, or a register given in advance) is copied first, so that a
    loop that changes the variable can make the variable's reads in it read
    its block argument without touching anyone else's.
    """

    def __init__(self, builder: Builder, value: SSAValue):
        self._builder = builder
        self._value = self._own(value)
        self._depth = len(builder.scopes)
        """Regions open when it was made, which cannot carry it: those opened since can."""

    @property
    def value(self) -> SSAValue:
        return self._value

    def set(self, value: SSAValue) -> None:
        value = self._own(value)
        for scope in self._builder.scopes[self._depth :]:
            scope.changed.setdefault(self, self._value)
        self._value = value

    def _own(self, value: SSAValue) -> SSAValue:
        held = self._builder.held
        if value.uses or value in held or not isinstance(value, OpResult) or value.type.is_allocated:  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
            value = self._builder.emit(copy_op(value, unallocated_type(value.type)))
        held.add(value)
        return value


@dataclass
class _Scope:
    """An open region: the variables set in it, with their values before it."""

    block: Block
    is_loop: bool
    is_hoist_barrier: bool = False
    """Whether `hoisted` code inside stays inside (a loop whose trips are independent)."""
    changed: dict[Var, SSAValue] = field(default_factory=dict)


@dataclass
class LoopControl:
    """How a trip of `Builder.loop` ends: `repeat_if` sets the branch back."""

    condition: tuple[str, SSAValue, SSAValue] | None = None

    def repeat_if(self, condition: str, lhs: SSAValue | Var, rhs: SSAValue | Var) -> None:
        self.condition = (condition, _value(lhs), _value(rhs))


def _value(value: SSAValue | Var) -> SSAValue:
    return value.value if isinstance(value, Var) else value


class Builder:
    """Appends ops to the current block; opens loops and branches."""

    def __init__(self, block: Block, zero: SSAValue, scratchpad: SSAValue):
        self.block = block
        self.root = block
        self.zero = zero
        self.scratchpad = scratchpad
        self.scopes: list[_Scope] = []
        self.held: set[SSAValue] = set()
        """Values a `Var` has held: another variable starting from one gets a copy."""
        self.v0: SSAValue | None = None
        """The mask v0 holds a copy of, if known."""
        self.v0_copy: SSAValue | None = None
        self.source: Operation | None = None
        """The op being lowered: diagnostics about the code built name it (`origins`)."""
        self.origins: dict[Operation, Operation] = {}
        self.stored: dict[int, tuple[Block, SSAValue, Element]] = {}
        """By scratchpad offset, the 64-bit value `store_scalar` last put there, and the
        block it did so in: a `load_scalar` of it later in that block reads the register."""

    # -- ops ------------------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        self.block.add_op(op)
        if self.source is not None:
            self.origins[op] = self.source
        return op

    def emit(self, op: Operation) -> SSAValue:
        """Append `op` and return its (only) result."""
        return self.insert(op).results[0]

    def var(self, value: SSAValue | int) -> Var:
        return Var(self, self.li(value) if isinstance(value, int) else value)

    # -- scalar helpers -------------------------------------------------------

    def li(self, value: int) -> SSAValue:
        return self.emit(rv64.LiOp(value))

    def scalar(self, value: Scalar | Var) -> SSAValue:
        return self.li(value) if isinstance(value, int) else _value(value)

    def add(self, lhs: SSAValue | Var, rhs: Scalar | Var) -> SSAValue:
        return self.emit(riscv.AddOp(_value(lhs), self.scalar(rhs)))

    def sub(self, lhs: SSAValue | Var, rhs: Scalar | Var) -> SSAValue:
        return self.emit(riscv.SubOp(_value(lhs), self.scalar(rhs)))

    def mul(self, lhs: SSAValue | Var, rhs: Scalar | Var) -> SSAValue:
        return self.emit(riscv.MulOp(_value(lhs), self.scalar(rhs)))

    def slli(self, value: SSAValue | Var, shift: int) -> SSAValue:
        return self.emit(rv64.SlliOp(_value(value), IntegerAttr(shift, ui6)))

    def mv(self, value: SSAValue | Var) -> SSAValue:
        return self.emit(riscv.MVOp(_value(value)))

    def add_immediate(self, value: SSAValue | Var, immediate: int) -> SSAValue:
        """value + immediate, for any 64-bit immediate (`addi` when it fits)."""
        if fits_imm12(immediate):
            return self.emit(riscv.AddiOp(_value(value), immediate)) if immediate else _value(value)
        return self.add(value, immediate)

    def advance(self, var: Var, step: Scalar) -> None:
        """var += step (a static step or a register)."""
        var.set(self.add_immediate(var, step) if isinstance(step, int) else self.add(var, step))

    def scratch_address(self, offset: int) -> SSAValue:
        """The address of a scratchpad byte offset (whatever is written through it, a
        scalar stored there before is read from memory again)."""
        self.stored.pop(offset, None)
        return self.add_immediate(self.scratchpad, offset)

    def load_scalar(self, offset: int, element: Element, base: SSAValue | None = None) -> SSAValue:
        """A scalar from offset(base) (the scratchpad by default) into an integer register.

        Integers come out sign-extended (i1 zero-extended), floats as their
        bit pattern, zero-extended.
        """
        if base is None and (stored := self.stored.get(offset)) and stored[0] is self.block and stored[2] == element:
            return stored[1]
        base = self.scratchpad if base is None else base
        if not fits_imm12(offset):
            base, offset = self.add_immediate(base, offset), 0
        load = _INT_LOADS[(element.bits, element.is_mask or element.is_float)]
        return self.emit(load(base, offset))

    def store_scalar(self, value: SSAValue, offset: int, element: Element, base: SSAValue | None = None) -> None:
        """value's low `element.bits` to offset(base) (the scratchpad by default).

        A 64-bit value stored in the scratchpad is remembered: loading it again
        in the same block gives the register back (a 64-bit load is exact)."""
        if base is None:
            self.stored.pop(offset, None)
            if element.bits == 64:
                self.stored[offset] = (self.block, value, element)
        base = self.scratchpad if base is None else base
        if not fits_imm12(offset):
            base, offset = self.add_immediate(base, offset), 0
        self.insert(_INT_STORES[element.bits](base, value, offset))

    def float_from_bits(self, bits: SSAValue, width: int) -> SSAValue:
        move = riscv.FMvWXOp if width == 32 else rvx.FMvDXOp
        return self.emit(move(bits, rd=FloatRegisterType.unallocated()))

    # -- vector helpers -------------------------------------------------------

    def vector(self, op: Operation) -> SSAValue:
        """Append a vector op; a result it writes to v0 replaces what v0 held."""
        result = self.emit(op)
        if isinstance(result.type, MaskRegisterType) and result.type.is_allocated:
            self.v0 = None
        return result

    def in_v0(self, mask: SSAValue) -> SSAValue:
        """A copy of `mask` in v0 (none if v0 holds it already) for a masked op."""
        if self.v0 is not mask or self.v0_copy is None:
            self.v0_copy = self.emit(rvv.Vmv1rVOp(mask, result_type=MaskRegisterType.group(1, 0)))
            self.v0 = mask
        return self.v0_copy

    # -- regions --------------------------------------------------------------

    @contextmanager
    def _region(self, is_loop: bool = False, is_hoist_barrier: bool = False) -> Iterator[_Scope]:
        scope = _Scope(Block(), is_loop, is_hoist_barrier)
        outer, self.block = self.block, scope.block
        self.scopes.append(scope)
        self.v0 = None
        try:
            yield scope
        finally:
            self.scopes.pop()
            self.block = outer
            self.v0 = None

    @contextmanager
    def loop(self, hoist_barrier: bool = False) -> Iterator[LoopControl]:
        """A do-while loop: the body runs, then again while its `repeat_if` holds.

        With `hoist_barrier`, code `hoisted` inside goes no further out than
        the innermost loop within it, and stays where it is if there is none."""
        control = LoopControl()
        with self._region(is_loop=True, is_hoist_barrier=hoist_barrier) as scope:
            yield control
        assert control.condition is not None, "a loop ends with repeat_if"
        changed = list(scope.changed.items())
        inside = _ops_in(scope.block)
        for var, before in changed:
            argument = scope.block.insert_arg(unallocated_type(before.type), len(scope.block.args))
            before.replace_uses_with_if(argument, lambda use: use.operation in inside)
            if var.value is before:
                var._value = argument
        condition, lhs, rhs = control.condition
        carried = [_unallocated(var.value, scope.block) for var, _ in changed]
        scope.block.add_op(rvx.RepeatIfOp(condition, lhs, rhs, carried))
        loop = self.insert(rvx.LoopOp([_unallocated(before, self.block) for _, before in changed], Region(scope.block)))
        for (var, _), result in zip(changed, loop.results):
            var.set(result)

    @contextmanager
    def branch(self, condition: str, lhs: SSAValue | Var, rhs: SSAValue | Var) -> Iterator[Callable[[], None]]:
        """Code run when `lhs condition rhs`; calling what it yields starts the code run otherwise."""
        lhs, rhs = _value(lhs), _value(rhs)
        blocks: list[Block] = []
        values: list[dict[Var, SSAValue]] = []
        befores: dict[Var, SSAValue] = {}
        region = self._region()
        scope = region.__enter__()

        def close() -> None:
            """End the region being built: note what it left in each variable, and reset them."""
            region.__exit__(None, None, None)
            blocks.append(scope.block)
            values.append({var: var.value for var in scope.changed})
            for var, before in scope.changed.items():
                befores.setdefault(var, before)
                var._value = before

        def otherwise() -> None:
            nonlocal scope, region
            close()
            region = self._region()
            scope = region.__enter__()

        try:
            yield otherwise
        finally:
            close()
        if len(blocks) == 1:
            blocks.append(Block())
            values.append({})
        changed = list(befores)
        for block, assigned in zip(blocks, values):
            block.add_op(rvx.YieldOp([_unallocated(assigned.get(var, befores[var]), block) for var in changed]))
        op = self.insert(rvx.IfOp(condition, lhs, rhs, [unallocated_type(befores[v].type) for v in changed],
                                  Region(blocks[0]), Region(blocks[1])))  # fmt: skip
        for var, result in zip(changed, op.results):
            var.set(result)

    @contextmanager
    def if_set(self, flag: SSAValue | None) -> Iterator[None]:
        """Code run when `flag` is not zero; always, when there is no flag."""
        if flag is None:
            yield
            return
        with self.branch("ne", flag, self.zero):
            yield

    @contextmanager
    def hoisted(self) -> Iterator[None]:
        """Code put before the innermost open loop (values the same on every trip)."""
        outer, self.block = self.block, self._loop_parent()
        v0 = self.v0
        try:
            yield
        finally:
            self.block = outer
            self.v0 = v0

    def _loop_parent(self) -> Block:
        """The block the innermost open loop will be appended to (the current block
        when a hoist barrier comes first)."""
        for index in reversed(range(len(self.scopes))):
            scope = self.scopes[index]
            if scope.is_hoist_barrier:
                return self.block
            if scope.is_loop:
                return self.scopes[index - 1].block if index else self.root
        return self.block


def unallocated_type(type_: Attribute) -> Attribute:
    """The type of a value in a register of the same file (and group size) not chosen yet."""
    if isinstance(type_, VectorGroupType):
        return type(type_).group(type_.registers)
    assert isinstance(type_, IntRegisterType | FloatRegisterType)
    return type(type_).unallocated()


def copy_op(value: SSAValue, result_type: Attribute) -> Operation:
    """A register-to-register copy of `value` into a value of `result_type`."""
    if isinstance(result_type, IntRegisterType):
        return riscv.MVOp(value, rd=result_type)
    if isinstance(result_type, FloatRegisterType):
        return riscv.FMvDOp(value, rd=result_type)
    assert isinstance(result_type, VectorGroupType)
    return rvv.WHOLE_REGISTER_MOVES[result_type.registers](value, result_type=result_type)


def _unallocated(value: SSAValue, block: Block) -> SSAValue:
    """`value`, or a copy at the end of `block` when it is in a register given in advance
    (a structured op carries values in registers allocation chooses)."""
    if not value.type.is_allocated:  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
        return value
    copy = copy_op(value, unallocated_type(value.type))
    block.add_op(copy)
    return copy.results[0]


def _ops_in(block: Block) -> set[Operation]:
    return {op for op in block.walk()}


_INT_LOADS = {
    (8, False): rvx.LbOp, (8, True): rvx.LbuOp,
    (16, False): rvx.LhOp, (16, True): rvx.LhuOp,
    (32, False): riscv.LwOp, (32, True): rvx.LwuOp,
    (64, False): rv64.LdOp, (64, True): rv64.LdOp,
}  # fmt: skip
_INT_STORES = {8: rvx.SbOp, 16: rvx.ShOp, 32: riscv.SwOp, 64: rv64.SdOp}


# -- strip loops ------------------------------------------------------------------


@dataclass
class StripLoop:
    """A vector-length-agnostic loop: each trip handles `vl` of the remaining elements.

    ```
        <remaining = count>        (a register count: skipped when not positive)
    head:
        vsetvli vl, remaining, e<widest>, m<LMUL>, ta, mu
        <body>                     (pointers advanced by `advance` at the end)
        sub remaining, remaining, vl
        bnez remaining, head
    ```
    Vector values of the body are groups of `vector_type()` (one register
    while the body is built; the loop's LMUL once it closes); `sew(bits)`
    switches the element width at the same `vl`; `repeat_while` ends a
    search at the strip where it finds what it looks for.
    """

    builder: Builder
    vl: SSAValue
    widest: int
    advances: list[tuple[Var, Scalar]] = field(default_factory=list)
    current_bits: int = 0
    repeat_condition: tuple[str, SSAValue | Var, SSAValue | Var] | None = None

    def repeat_while(self, condition: str, lhs: SSAValue | Var, rhs: SSAValue | Var) -> None:
        """Repeat while `lhs condition rhs` holds, instead of while elements remain.

        For a search whose target the caller knows is there: the condition
        must fail by the last strip, as past it vl is 0 and the loop would
        not end.
        """
        self.repeat_condition = (condition, lhs, rhs)

    def advance(self, pointer: Var, step: Scalar) -> None:
        """Move `pointer` past the elements this trip handled, at the end of the trip.

        `step` is the bytes per element (an int), or a register holding a stride.
        """
        self.advances.append((pointer, step))

    def sew(self, bits: int) -> None:
        """Elements of `bits` from here on, at the same vl (SEW/LMUL stays constant)."""
        if bits != self.current_bits:
            self.builder.insert(rvv.VsetvliKeepOp(bits, 8 * bits // self.widest))
            self.current_bits = bits

    @staticmethod
    def vector_type() -> VectorRegisterType:
        return VectorRegisterType.group(1)

    @staticmethod
    def mask_type() -> MaskRegisterType:
        return MaskRegisterType.group(1)

    def _finish(self) -> None:
        b = self.builder
        computed: Scalar | None = None
        bytes_done: SSAValue | None = None
        for pointer, step in sorted(self.advances, key=lambda a: str(a[1]) if isinstance(a[1], int) else "~"):
            if isinstance(step, int) and step == 1:
                pointer.set(b.add(pointer, self.vl))
                continue
            if not (step is computed or isinstance(step, int) and step == computed):
                bytes_done = b.mul(self.vl, step) if isinstance(step, SSAValue) else b.slli(self.vl, step.bit_length() - 1)
                computed = step
            assert bytes_done is not None
            pointer.set(b.add(pointer, bytes_done))

    @staticmethod
    @contextmanager
    def over(b: Builder, count: Scalar | Var, widest: int) -> Iterator[StripLoop]:
        """`with StripLoop.over(b, count, widest_bits) as loop:` — the body reads `loop.vl`."""
        if isinstance(count, int):
            remaining = b.var(count)
            with StripLoop._loop(b, remaining, widest) as loop:
                yield loop
            return
        count = _value(count)
        with b.branch("lt", b.zero, count):
            with StripLoop._loop(b, b.var(count), widest) as loop:
                yield loop

    @staticmethod
    @contextmanager
    def _loop(b: Builder, remaining: Var, widest: int) -> Iterator[StripLoop]:
        with b.loop() as control:
            vl = b.emit(rvv.VsetvliOp(remaining.value, widest, 8))
            strip = StripLoop(b, vl, widest, current_bits=widest)
            yield strip
            remaining.set(b.sub(remaining, vl))
            strip._finish()
            control.repeat_if(*(strip.repeat_condition or ("ne", remaining, b.zero)))
        loop = b.block.last_op
        assert isinstance(loop, rvx.LoopOp)
        choose_lmul(loop, b.origins)


# -- rows of a tile -------------------------------------------------------------------

Bound = tuple[Scalar | Callable[[], SSAValue], Scalar | Callable[[], SSAValue]]
"""A dimension's valid index range [low, high): static ints, registers, or code computing them."""


@dataclass
class Cursor:
    """A byte address walked through a row nest: `start` plus index times stride, per dimension.

    A stride is static (an int) or a register holding it.
    """

    start: SSAValue
    strides: Sequence[Scalar]


NESTED_LOOP_REGISTERS = 10
"""Row nests that hold at most this many registers (a counter and an address per
cursor per level, a flag per bounded level) are nested loops; larger ones walk
one loop over the row numbers."""


def for_each_row(
    b: Builder,
    shape: Sequence[int],
    cursors: Sequence[Cursor],
    row: Callable[[list[SSAValue], SSAValue | None], None],
    bounds: Sequence[Bound | None] | None = None,
) -> None:
    """Run `row(addresses, valid)` for every index of all dimensions but the last.

    `addresses` hold each cursor's address at the row's start; `valid` is a
    register that is 1 when every outer index lies within its bound (None
    when no bound applies).  Dimensions of size 1 cost no loop, and outer
    dimensions every cursor walks contiguously (stride = the next one's
    stride times its size, no bound) are one dimension.  Tiles of any rank
    are walked: a loop per dimension while the nest is small
    (`NESTED_LOOP_REGISTERS`), else one loop over all rows, each row's
    indices recovered from its number by division (`_rows_by_number`).
    """
    shape, cursors, bounds = _merge_contiguous(shape, cursors, bounds)
    nest = sum(len(cursors) + 1 for size in shape[:-1] if size != 1)
    nest += sum(1 for bound in bounds or () if bound)
    if nest <= NESTED_LOOP_REGISTERS:
        _rows(b, shape, cursors, [c.start for c in cursors], row, bounds, None, 0)
    else:
        _rows_by_number(b, shape, cursors, row, bounds)


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
            and s[level] == s[inner] * shape[inner]  # pyright: ignore[reportOperatorIssue]
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


def _rows(b: Builder, shape, cursors, addresses, row, bounds, valid, level) -> None:
    if level == len(shape) - 1:
        row(addresses, valid)
        return
    bound = bounds[level] if bounds else None
    size = shape[level]
    if size == 1:
        flag = _index_in_bound(b, b.zero, bound, valid) if bound else valid
        _rows(b, shape, cursors, addresses, row, bounds, flag, level + 1)
        return
    counter = b.var(0)
    walking = [b.var(address) for address in addresses]
    limit = b.li(size)
    with b.loop() as loop:
        flag = _index_in_bound(b, counter.value, bound, valid) if bound else valid
        _rows(b, shape, cursors, [w.value for w in walking], row, bounds, flag, level + 1)
        for register, cursor in zip(walking, cursors):
            b.advance(register, cursor.strides[level])
        counter.set(b.emit(riscv.AddiOp(counter.value, 1)))
        loop.repeat_if("lt", counter, limit)


def _rows_by_number(b: Builder, shape, cursors, row, bounds) -> None:
    """One loop over the rows; row r's outer indices are the mixed-radix digits of r."""
    outer = shape[:-1]
    number = b.var(0)
    limit = b.li(math.prod(outer))
    with b.loop() as loop:
        addresses = [c.start for c in cursors]
        rest = number.value
        valid = None
        for level in reversed(range(len(outer))):
            if outer[level] == 1 and not (bounds and bounds[level]):
                continue
            radix = b.li(outer[level])
            digit = b.emit(riscv.RemuOp(rest, radix))
            rest = b.emit(riscv.DivuOp(rest, radix))
            for index, cursor in enumerate(cursors):
                stride = cursor.strides[level]
                if stride == 0:
                    continue
                addresses[index] = b.add(addresses[index], b.mul(digit, stride))
            bound = bounds[level] if bounds else None
            if bound:
                valid = _index_in_bound(b, digit, bound, valid)
        row(addresses, valid)
        number.set(b.emit(riscv.AddiOp(number.value, 1)))
        loop.repeat_if("lt", number, limit)


def _index_in_bound(b: Builder, index: SSAValue, bound: Bound, outer: SSAValue | None) -> SSAValue:
    """low <= index < high (and outer, if given), as 0 or 1."""
    low, high = bound
    flag = b.emit(riscv.XoriOp(b.emit(riscv.SltOp(index, bound_value(b, low))), 1))
    flag = b.emit(riscv.AndOp(flag, b.emit(riscv.SltOp(index, bound_value(b, high)))))
    if outer is not None:
        flag = b.emit(riscv.AndOp(flag, outer))
    return flag


def bound_value(b: Builder, value: Scalar | Callable[[], SSAValue]) -> SSAValue:
    if isinstance(value, int):
        return b.li(value)
    return value() if callable(value) else value


def clamped(b: Builder, value: Scalar | Callable[[], SSAValue], low: int, high: int) -> SSAValue:
    """min(max(value, low), high)."""
    if isinstance(value, int):
        return b.li(min(max(value, low), high))
    result = b.var(bound_value(b, value))
    low_bound = b.li(low)
    with b.branch("lt", result, low_bound):
        result.set(low_bound)
    high_bound = b.li(high)
    with b.branch("lt", high_bound, result):
        result.set(high_bound)
    return result.value


def int_register() -> IntRegisterType:
    return IntRegisterType.unallocated()
