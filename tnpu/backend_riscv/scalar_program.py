"""Scalar programs: a run of integer `arith` ops outside tile ops, in integer registers.

Every kernel starts with index arithmetic on scalars (the program id times
the block size, compares, selects, minima, casts).  A run of such ops, every
one of which `lowers_to_scalar_code`, becomes RV64IM code: each value in an
integer register, operands read from their scratchpad slots or set as
constants (immediates where one fits), the results other ops read stored
back to their slots.  Any other run (a float op, `mului_extended`, a
bitcast) stays a one-element vector program (`elementwise`).

A register holds an integer as `Builder.load_scalar` reads it from its
slot: sign-extended from its width to 64 bits, an i1 as 0 or 1.  Every op
keeps that form: 32-bit arithmetic uses the `w` instructions, which
sign-extend their result; 8- and 16-bit results are sign-extended by a
shift pair; unsigned divisions and logical right shifts see their operands
zero-extended first.  Unsigned compares need no extension, as sign
extension keeps the unsigned order.

The semantics are the interpreters' (as `elementwise` keeps them on
vectors): division by zero gives 0, a shift by the width or more gives 0
(an arithmetic right shift: the sign), and the minimum divided by -1 is the
minimum, as RISC-V's `div` gives it.  A constant divisor other than 0, or a
constant shift within the width, needs no guard.  The target has no Zbb,
so minima, maxima and selects are branch-free masks (`_select`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, riscv, rv64
from xdsl.dialects.builtin import IntegerAttr
from xdsl.dialects.riscv.abstract_ops import RdRsImmIntegerOperation, RdRsRsIntegerOperation
from xdsl.dialects.riscv.attrs import ui6
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.builder import Builder, fits_imm12
from tnpu.backend_riscv.elements import Element, element_of
from tnpu.backend_riscv.storage import Constant, Scalar
from tnpu.dialects.dispatch import entry_for

_RegisterOp = type[RdRsRsIntegerOperation]

_WRAPPING: dict[type[Operation], tuple[_RegisterOp, _RegisterOp, _RegisterOp]] = {
    arith.AddiOp: (riscv.AddOp, riscv.AddwOp, riscv.XorOp),
    arith.SubiOp: (riscv.SubOp, riscv.SubwOp, riscv.XorOp),
    arith.MuliOp: (riscv.MulOp, riscv.MulwOp, riscv.AndOp),
}
"""Arithmetic that wraps at the width: (64-bit op, 32-bit `w` op, the op on i1's one bit)."""

_BITWISE: dict[type[Operation], tuple[_RegisterOp, type[RdRsImmIntegerOperation]]] = {
    arith.AndIOp: (riscv.AndOp, riscv.AndiOp),
    arith.OrIOp: (riscv.OrOp, riscv.OriOp),
    arith.XOrIOp: (riscv.XorOp, riscv.XoriOp),
}
"""Bitwise ops (register, immediate forms), which keep sign-extended operands sign-extended."""

_DIVISIONS: dict[type[Operation], tuple[_RegisterOp, _RegisterOp, bool]] = {
    arith.DivSIOp: (riscv.DivOp, riscv.DivwOp, True),
    arith.DivUIOp: (riscv.DivuOp, riscv.DivuwOp, False),
    arith.RemSIOp: (riscv.RemOp, riscv.RemwOp, True),
    arith.RemUIOp: (riscv.RemuOp, riscv.RemuwOp, False),
}
"""(64-bit op, 32-bit `w` op, signed)."""

_LEFT = "left"
_ARITHMETIC = "arithmetic"
_LOGICAL = "logical"
_SHIFTS: dict[type[Operation], str] = {arith.ShLIOp: _LEFT, arith.ShRSIOp: _ARITHMETIC, arith.ShRUIOp: _LOGICAL}

_MIN_MAX: dict[type[Operation], tuple[_RegisterOp, bool]] = {
    arith.MaxSIOp: (riscv.SltOp, True),
    arith.MinSIOp: (riscv.SltOp, False),
    arith.MaxUIOp: (riscv.SltuOp, True),
    arith.MinUIOp: (riscv.SltuOp, False),
}
"""(the less-than op, whether the larger operand is kept)."""

_ORDERINGS: dict[str, tuple[bool, bool, bool]] = {
    "slt": (True, False, False), "sgt": (True, True, False),
    "sle": (True, True, True), "sge": (True, False, True),
    "ult": (False, False, False), "ugt": (False, True, False),
    "ule": (False, True, True), "uge": (False, False, True),
}  # fmt: skip
"""Each ordering predicate as a less-than: (signed, swap the operands, negate the result)."""

_CASTS: dict[type[Operation], bool] = {
    arith.ExtSIOp: True,
    arith.ExtUIOp: False,
    arith.TruncIOp: True,
    arith.IndexCastOp: True,
}
"""Integer resizes, and whether a widening one extends the sign."""


@dataclass
class ScalarProgram:
    """Integer ops run once, on values in registers."""

    ops: Sequence[Operation]
    inputs: Mapping[SSAValue, Scalar | Constant]
    """The places of the values the ops read and do not compute."""
    outputs: Sequence[tuple[SSAValue, Scalar]]
    """The slots of the values other code reads."""


def lowers_to_scalar_code(op: Operation) -> bool:
    """Whether `op` is integer arithmetic this module lowers to scalar code."""
    elements = [element_of(value.type) for value in (*op.operands, *op.results)]
    if len(op.results) != 1 or any(e is None or e.is_float for e in elements):
        return False
    if isinstance(op, arith.CmpiOp | arith.SelectOp):
        return True
    if any(entry_for(table, op) is not None for table in (_CASTS, _BITWISE, _WRAPPING)):
        return True
    on_bits = elements[-1].is_mask  # pyright: ignore[reportOptionalMemberAccess]
    return not on_bits and any(entry_for(table, op) is not None for table in (_DIVISIONS, _SHIFTS, _MIN_MAX))


def emit_scalar_program(b: Builder, program: ScalarProgram) -> None:
    """Emit `program`'s ops in order, then store its outputs to their slots."""
    _ScalarLowering(b, program).run()


def _element(value: SSAValue) -> Element:
    element = element_of(value.type)
    assert element is not None, "lowers_to_scalar_code admits integer types only"
    return element


class _ScalarLowering:
    """Instruction selection for one program: each op's `riscv`/`rv64` ops."""

    def __init__(self, b: Builder, program: ScalarProgram):
        self.b = b
        self.program = program
        self.registers: dict[SSAValue, SSAValue] = {}
        """The register holding each value read or computed so far."""

    def run(self) -> None:
        for op in self.program.ops:
            self.b.source = op
            self.registers[op.results[0]] = self._lower(op)
        for value, slot in self.program.outputs:
            self.b.store_scalar(self._x(value), slot.offset, slot.element)

    # -- operands -------------------------------------------------------------

    def _x(self, value: SSAValue) -> SSAValue:
        """`value` in an integer register, read from its place once."""
        if value not in self.registers:
            place = self.program.inputs[value]
            if isinstance(place, Constant):
                self.registers[value] = self.b.li(place.bits) if place.bits else self.b.zero
            else:
                self.registers[value] = self.b.load_scalar(place.offset, place.element)
        return self.registers[value]

    def _immediate(self, value: SSAValue) -> int | None:
        """`value`'s bits if it is a constant that fits a 12-bit immediate."""
        place = self.program.inputs.get(value)
        if isinstance(place, Constant) and fits_imm12(place.bits):
            return place.bits
        return None

    def _emit(self, op: type[Operation], *operands: SSAValue | int) -> SSAValue:
        return self.b.emit(op(*operands))

    def _shift_immediate(self, op: type[Operation], value: SSAValue, amount: int) -> SSAValue:
        return self.b.emit(op(value, IntegerAttr(amount, ui6)))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

    # -- forms ------------------------------------------------------------------

    def _sign_extend(self, value: SSAValue, element: Element) -> SSAValue:
        """The low `element.bits` of `value`, sign-extended (i1: its low bit)."""
        if element.is_mask:
            return self._emit(riscv.AndiOp, value, 1)
        if element.bits == 64:
            return value
        if element.bits == 32:
            return self._emit(riscv.SextWOp, value)
        spare = 64 - element.bits
        return self._shift_immediate(rv64.SraiOp, self._shift_immediate(rv64.SlliOp, value, spare), spare)

    def _zero_extend(self, value: SSAValue, element: Element) -> SSAValue:
        """The low `element.bits` of `value`, zero-extended (an i1 is already)."""
        if element.is_mask or element.bits == 64:
            return value
        if element.bits == 8:
            return self._emit(riscv.AndiOp, value, 255)
        spare = 64 - element.bits
        return self._shift_immediate(rv64.SrliOp, self._shift_immediate(rv64.SlliOp, value, spare), spare)

    def _select(self, condition: SSAValue, on_true: SSAValue, on_false: SSAValue) -> SSAValue:
        """condition (0 or 1) ? on_true : on_false, without a branch: f ^ ((t ^ f) & -condition)."""
        everywhere = self._emit(riscv.SubOp, self.b.zero, condition)
        difference = self._emit(riscv.AndOp, self._emit(riscv.XorOp, on_true, on_false), everywhere)
        return self._emit(riscv.XorOp, on_false, difference)

    def _zero_unless(self, value: SSAValue, condition: SSAValue) -> SSAValue:
        """value where condition (0 or 1) is set, else 0."""
        return self._emit(riscv.AndOp, value, self._emit(riscv.SubOp, self.b.zero, condition))

    # -- ops ------------------------------------------------------------------

    def _lower(self, op: Operation) -> SSAValue:
        element = _element(op.results[0])
        if entry := entry_for(_WRAPPING, op):
            return self._wrapping(op, entry, element)
        if entry := entry_for(_BITWISE, op):
            return self._bitwise(op, entry)
        if entry := entry_for(_DIVISIONS, op):
            return self._division(op, entry, element)
        if kind := entry_for(_SHIFTS, op):
            return self._shift(op, kind, element)
        if entry := entry_for(_MIN_MAX, op):
            less, keeps_larger = entry
            a, b = (self._x(v) for v in op.operands)
            a_less = self._emit(less, a, b)
            return self._select(a_less, b, a) if keeps_larger else self._select(a_less, a, b)
        if isinstance(op, arith.CmpiOp):
            return self._compare(op)
        if isinstance(op, arith.SelectOp):
            condition, on_true, on_false = (self._x(v) for v in op.operands)
            if on_false is self.b.zero:  # Inductor's masks: a value or 0
                return self._zero_unless(on_true, condition)
            return self._select(condition, on_true, on_false)
        signed = entry_for(_CASTS, op)
        assert signed is not None, f"{op.name} is not selected (see lowers_to_scalar_code)"
        return self._resize(self._x(op.operands[0]), _element(op.operands[0]), element, signed)

    def _wrapping(self, op: Operation, entry: tuple[_RegisterOp, _RegisterOp, _RegisterOp], element: Element) -> SSAValue:
        """addi/subi/muli, wrapping at the width (on i1: xor, xor, and)."""
        full, word, on_bit = entry
        lhs, rhs = op.operands
        if element.is_mask:
            return self._emit(on_bit, self._x(lhs), self._x(rhs))
        a = self._x(lhs)
        if element.bits == 32:  # xDSL 0.75 registers no addiw: li and addw, as short
            return self._emit(word, a, self._x(rhs))
        if (addend := self._addend(op)) is not None:
            return self._sign_extend(self._emit(riscv.AddiOp, a, addend), element)
        b = self._x(rhs)
        return self._sign_extend(self._emit(full, a, b), element)

    def _addend(self, op: Operation) -> int | None:
        """The constant an addi or subi adds, if an `addi` immediate holds it."""
        immediate = self._immediate(op.operands[1])
        if immediate is None or isinstance(op, arith.MuliOp):
            return None
        if isinstance(op, arith.SubiOp):
            return -immediate if fits_imm12(-immediate) else None
        return immediate

    def _bitwise(self, op: Operation, entry: tuple[_RegisterOp, type[RdRsImmIntegerOperation]]) -> SSAValue:
        register_form, immediate_form = entry
        lhs, rhs = op.operands
        if (immediate := self._immediate(rhs)) is not None:
            return self._emit(immediate_form, self._x(lhs), immediate)
        return self._emit(register_form, self._x(lhs), self._x(rhs))

    def _division(self, op: Operation, entry: tuple[_RegisterOp, _RegisterOp, bool], element: Element) -> SSAValue:
        """Division by zero gives 0 (RISC-V gives -1 or the dividend)."""
        full, word, signed = entry
        dividend, divisor = self._x(op.operands[0]), self._x(op.operands[1])
        if element.bits == 32:
            quotient = self._emit(word, dividend, divisor)
        else:
            if not signed:
                dividend, divisor = self._zero_extend(dividend, element), self._zero_extend(divisor, element)
            quotient = self._sign_extend(self._emit(full, dividend, divisor), element)
        constant = self.program.inputs.get(op.operands[1])
        if isinstance(constant, Constant) and constant.bits != 0:
            return quotient
        return self._zero_unless(quotient, self._emit(riscv.SnezOp, self._x(op.operands[1])))

    def _shift(self, op: Operation, kind: str, element: Element) -> SSAValue:
        """A shift by the width or more gives 0 (an arithmetic right shift: the sign);
        RISC-V shifts by the amount's low bits."""
        value, amount = op.operands
        constant = self.program.inputs.get(amount)
        within_width = isinstance(constant, Constant) and 0 <= constant.bits < element.bits
        if within_width and (kind == _ARITHMETIC or element.bits != 32):  # xDSL 0.75 cannot build slliw/srliw
            return self._shift_by(kind, self._x(value), constant.bits, element)  # pyright: ignore[reportAttributeAccessIssue, reportOptionalMemberAccess]
        x, count = self._x(value), self._x(amount)
        if kind == _ARITHMETIC:
            within = self._emit(riscv.SltiuOp, count, element.bits)  # a negative amount is huge unsigned
            clamped = self._select(within, count, self.b.li(element.bits - 1))
            return self._emit(riscv.SraOp, x, clamped)  # x is sign-extended: a 64-bit shift keeps it so
        shifted = self._shift_by_register(kind, x, count, element)
        if within_width:
            return shifted
        return self._zero_unless(shifted, self._emit(riscv.SltiuOp, count, element.bits))

    def _shift_by_register(self, kind: str, x: SSAValue, count: SSAValue, element: Element) -> SSAValue:
        """A left or logical right shift by `count`, which is right when it is within the width."""
        if element.bits == 32:
            return self._emit(riscv.SllwOp if kind == _LEFT else riscv.SrlwOp, x, count)
        if kind == _LEFT:
            return self._sign_extend(self._emit(riscv.SllOp, x, count), element)
        return self._sign_extend(self._emit(riscv.SrlOp, self._zero_extend(x, element), count), element)

    def _shift_by(self, kind: str, x: SSAValue, amount: int, element: Element) -> SSAValue:
        """A shift by a constant within the width (not a 32-bit left or logical one, see `_shift`)."""
        if kind == _ARITHMETIC:
            return self._shift_immediate(rv64.SraiOp, x, amount)
        if kind == _LEFT:
            return self._sign_extend(self._shift_immediate(rv64.SlliOp, x, amount), element)
        shifted = self._shift_immediate(rv64.SrliOp, self._zero_extend(x, element), amount)
        return shifted if amount else self._sign_extend(shifted, element)

    def _compare(self, op: arith.CmpiOp) -> SSAValue:
        """A compare as 0 or 1: eq/ne through xor, orderings as one less-than."""
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        lhs, rhs = op.operands
        if predicate in ("eq", "ne"):
            immediate = self._immediate(rhs)
            if immediate is not None:
                difference = self._emit(riscv.XoriOp, self._x(lhs), immediate) if immediate else self._x(lhs)
            else:
                difference = self._emit(riscv.XorOp, self._x(lhs), self._x(rhs))
            return self._emit(riscv.SeqzOp if predicate == "eq" else riscv.SnezOp, difference)
        signed, swap, negate = _ORDERINGS[predicate]
        if signed and _element(lhs).is_mask:
            swap = not swap  # true is -1 as a signed i1, below false, but held as 1
        if swap:
            lhs, rhs = rhs, lhs
        immediate = self._immediate(rhs)
        if immediate is not None:
            less = self._emit(riscv.SltiOp if signed else riscv.SltiuOp, self._x(lhs), immediate)
        else:
            less = self._emit(riscv.SltOp if signed else riscv.SltuOp, self._x(lhs), self._x(rhs))
        return self._emit(riscv.XoriOp, less, 1) if negate else less

    def _resize(self, x: SSAValue, source: Element, result: Element, signed: bool) -> SSAValue:
        """extsi/extui/trunci/index_cast: an i1 widens to -1 (signed) or 1."""
        if result.is_mask or result.bits < source.bits:
            return self._sign_extend(x, result)
        if source.is_mask:
            return self._emit(riscv.SubOp, self.b.zero, x) if signed else x
        return x if signed else self._zero_extend(x, source)

