"""Arithmetic on the vector unit: integer and float binary ops by table (vector-vector,
vector-scalar, scalar-vector forms), float unary ops and roundings, NaN-propagating
maximum/minimum, fused multiply-add, fmod, rsqrt, |x| and extended multiplies.

Integer division and shifts keep the interpreters' semantics (division by zero is 0,
an out-of-range shift 0 or the sign) unless a constant operand makes the guard
unnecessary (`_needs_guard`)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, math
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.elementwise.program import Uniform, element_of_value
from tnpu.backend_riscv.elementwise.program_code import ProgramCode
from tnpu.backend_riscv.float_algorithms import fmod, round_to_integral
from tnpu.backend_riscv.storage import Constant
from tnpu.diagnostics import CompileError
from tnpu.dialects import tt
from tnpu.dialects.dispatch import entry_for
from tnpu.dialects.rvv import ops as rvv

_Binary = tuple[type[rvv.RvvInstruction], type[rvv.RvvInstruction], type[rvv.RvvInstruction] | None, bool]
"""(vector-vector op, vector-scalar op, vector-scalar op with the scalar on the left, commutative)."""

# Instruction tables by op class (see tnpu.dialects.dispatch).
_INT_BINARY: dict[type[Operation], _Binary] = {
    arith.AddiOp: (rvv.VaddVvOp, rvv.VaddVxOp, None, True),
    arith.SubiOp: (rvv.VsubVvOp, rvv.VsubVxOp, rvv.VrsubVxOp, False),
    arith.MuliOp: (rvv.VmulVvOp, rvv.VmulVxOp, None, True),
    arith.DivSIOp: (rvv.VdivVvOp, rvv.VdivVxOp, None, False),
    arith.DivUIOp: (rvv.VdivuVvOp, rvv.VdivuVxOp, None, False),
    arith.RemSIOp: (rvv.VremVvOp, rvv.VremVxOp, None, False),
    arith.RemUIOp: (rvv.VremuVvOp, rvv.VremuVxOp, None, False),
    arith.AndIOp: (rvv.VandVvOp, rvv.VandVxOp, None, True),
    arith.OrIOp: (rvv.VorVvOp, rvv.VorVxOp, None, True),
    arith.XOrIOp: (rvv.VxorVvOp, rvv.VxorVxOp, None, True),
    arith.ShLIOp: (rvv.VsllVvOp, rvv.VsllVxOp, None, False),
    arith.ShRSIOp: (rvv.VsraVvOp, rvv.VsraVxOp, None, False),
    arith.ShRUIOp: (rvv.VsrlVvOp, rvv.VsrlVxOp, None, False),
    arith.MaxSIOp: (rvv.VmaxVvOp, rvv.VmaxVxOp, None, True),
    arith.MinSIOp: (rvv.VminVvOp, rvv.VminVxOp, None, True),
    arith.MaxUIOp: (rvv.VmaxuVvOp, rvv.VmaxuVxOp, None, True),
    arith.MinUIOp: (rvv.VminuVvOp, rvv.VminuVxOp, None, True),
    tt.MulhiUIOp: (rvv.VmulhuVvOp, rvv.VmulhuVxOp, None, True),
}
_FLOAT_BINARY: dict[type[Operation], _Binary] = {
    arith.AddfOp: (rvv.VfaddVvOp, rvv.VfaddVfOp, None, True),
    arith.SubfOp: (rvv.VfsubVvOp, rvv.VfsubVfOp, rvv.VfrsubVfOp, False),
    arith.MulfOp: (rvv.VfmulVvOp, rvv.VfmulVfOp, None, True),
    arith.DivfOp: (rvv.VfdivVvOp, rvv.VfdivVfOp, rvv.VfrdivVfOp, False),
    arith.MaxnumfOp: (rvv.VfmaxVvOp, rvv.VfmaxVfOp, None, True),
    arith.MinnumfOp: (rvv.VfminVvOp, rvv.VfminVfOp, None, True),
    math.CopySignOp: (rvv.VfsgnjVvOp, rvv.VfsgnjVfOp, None, False),
}

_DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
_SHIFTS = (arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp)
_MASK_LOGIC = {arith.AndIOp: rvv.VmandMmOp, arith.OrIOp: rvv.VmorMmOp, arith.XOrIOp: rvv.VmxorMmOp,
               arith.AddiOp: rvv.VmxorMmOp, arith.SubiOp: rvv.VmxorMmOp}  # fmt: skip
_ROUNDINGS = {math.RoundEvenOp: "roundeven", math.TruncOp: "trunc", math.FloorOp: "floor",
              math.CeilOp: "ceil", math.RoundOp: "round"}  # fmt: skip
_FLOAT_UNARY = {math.SqrtOp: rvv.VfsqrtVOp, math.AbsFOp: rvv.VfabsVOp, arith.NegfOp: rvv.VfnegVOp}
_NAN_PROPAGATING = {arith.MaximumfOp: rvv.VfmaxVvOp, arith.MinimumfOp: rvv.VfminVvOp}
_FLOAT_ARITHMETIC = (_FLOAT_BINARY, _FLOAT_UNARY, _NAN_PROPAGATING, _ROUNDINGS)
"""The tables of float ops, which the vector unit lacks at the narrow floats' SEW."""


def lower_by_table(code: ProgramCode, op: Operation) -> bool:
    """Lower `op` if one of this module's tables has it; False if none does."""
    if (mask_logic := entry_for(_MASK_LOGIC, op)) and element_of_value(op.results[0], op).is_mask:
        a, b = (code.vector_of(v).value for v in op.operands)
        code.define(op, code.mask(mask_logic, a, b))
        return True
    if entry := entry_for(_INT_BINARY, op):
        if element_of_value(op.results[0], op).is_mask:
            raise CompileError(
                op, "on i1 has no RVV lowering (booleans live in mask registers: and, or, xor, add, sub only)"
            )
        _binary(code, op, entry, code.int_register)
        return True
    if any(entry_for(table, op) for table in _FLOAT_ARITHMETIC):
        if narrow := element_of_value(op.results[0], op).half_float:
            raise CompileError(op, f"{narrow} arithmetic needs extension to f32 first")
    if entry := entry_for(_FLOAT_BINARY, op):
        _binary(code, op, entry, code.float_register)
        return True
    if unary := entry_for(_FLOAT_UNARY, op):
        source = code.vector_of(op.operands[0])
        code.sew(source.element.bits)
        code.define(op, code.vector(unary, source.value))
        return True
    if nan_propagating := entry_for(_NAN_PROPAGATING, op):
        _nan_propagating(code, op, nan_propagating)
        return True
    if kind := entry_for(_ROUNDINGS, op):
        x = code.vector_of(op.operands[0]).value
        bits = element_of_value(op.operands[0], op).bits
        code.sew(bits)
        code.define(op, round_to_integral(code, kind, x, bits))
        return True
    return False


def _binary(code: ProgramCode, op: Operation, entry: _Binary, scalar: Callable[[SSAValue], SSAValue]) -> None:
    vector_vector, vector_scalar, scalar_vector, commutative = entry
    lhs, rhs = op.operands
    element = element_of_value(op.results[0], op)
    if _needs_guard(op, code.uniforms.get(rhs), element):
        return _guarded_binary(code, op, vector_vector, element)
    code.sew(element.bits)
    if rhs in code.uniforms:
        result = code.vector(vector_scalar, code.vector_of(lhs).value, scalar(rhs))
    elif lhs in code.uniforms and (commutative or scalar_vector):
        result = code.vector(vector_scalar if commutative else scalar_vector, code.vector_of(rhs).value, scalar(lhs))  # pyright: ignore[reportArgumentType]
    else:
        a, b = code.vector_of(lhs).value, code.vector_of(rhs).value
        code.sew(element.bits)
        result = code.vector(vector_vector, a, b)
    code.define(op, result)


def _guarded_binary(code: ProgramCode, op: Operation, vector_vector: type[rvv.RvvInstruction], element: Element) -> None:
    """Division by zero gives 0; a shift by the width or more gives 0 (or the sign).

    These are the interpreters' (and Triton's interpreter's) semantics;
    RVV itself gives -1 or the dividend, and shifts by the low bits.
    """
    a, b = (code.vector_of(v).value for v in op.operands)
    code.sew(element.bits)
    if isinstance(op, arith.ShRSIOp):
        amount = code.vector(rvv.VminuVxOp, b, code.int_constant(element.bits - 1))
        return code.define(op, code.vector(rvv.VsraVvOp, a, amount))
    result = code.vector(vector_vector, a, b)
    if isinstance(op, _DIVISIONS):
        outside = code.mask_in_v0(rvv.VmseqViOp, b, 0)
    else:
        outside = code.mask_in_v0(rvv.VmsgtuVxOp, b, code.int_constant(element.bits - 1))
    code.define(op, code.vector(rvv.VmergeVimOp, result, 0, outside))


def _nan_propagating(code: ProgramCode, op: Operation, vector_vector: type[rvv.RvvInstruction]) -> None:
    """maximumf/minimumf: RVV's vfmax/vfmin return the non-NaN operand; IEEE maximum returns NaN."""
    a, b = (code.vector_of(v) for v in op.operands)
    code.sew(a.element.bits)
    result = code.vector(vector_vector, a.value, b.value)
    for operand in (a, b):
        nan = code.mask_in_v0(rvv.VmfneVvOp, operand.value, operand.value)
        result = code.vector(rvv.VmergeVvmOp, result, operand.value, nan)
    code.define(op, result)


def fma(code: ProgramCode, op: Operation) -> None:
    a, b, c = (code.vector_of(v) for v in op.operands)
    code.sew(c.element.bits)
    copy = code.vector(rvv.VmvVVOp, c.value)
    code.define(op, code.b.vector(rvv.VfmaccVvOp(copy, a.value, b.value)))


def absi(code: ProgramCode, op: Operation) -> None:
    x = code.vector_of(op.operands[0])
    code.sew(x.element.bits)
    negated = code.vector(rvv.VrsubViOp, x.value, 0)
    code.define(op, code.vector(rvv.VmaxVvOp, negated, x.value))


def rsqrt(code: ProgramCode, op: Operation) -> None:
    x = code.vector_of(op.operands[0])
    bits = x.element.bits
    code.sew(bits)
    root = code.vector(rvv.VfsqrtVOp, x.value)
    code.define(op, code.vector(rvv.VfrdivVfOp, root, code.float_constant(1.0, bits)))


def remf(code: ProgramCode, op: Operation) -> None:
    """C fmod: x - trunc(x / y) * y, in f64 for f32 operands so the quotient is exact enough."""
    x, y = (code.vector_of(v) for v in op.operands)
    if x.element.bits == 32:
        code.sew(32)
        wide_x = code.vector(rvv.VfwcvtFFVOp, x.value)
        wide_y = code.vector(rvv.VfwcvtFFVOp, y.value)
        code.sew(64)
        quotient = fmod(code, wide_x, wide_y)
        code.sew(32)
        code.define(op, code.vector(rvv.VfncvtFFWOp, quotient))
    else:
        code.sew(64)
        code.define(op, fmod(code, x.value, y.value))


def multiply_extended(code: ProgramCode, op: Operation) -> None:
    """Low and high halves of the double-width product."""
    a, b = (code.vector_of(v).value for v in op.operands)
    code.sew(element_of_value(op.results[0], op).bits)
    high = rvv.VmulhuVvOp if isinstance(op, arith.MulUIExtendedOp) else rvv.VmulhVvOp
    code.define(op, code.vector(rvv.VmulVvOp, a, b), 0)
    code.define(op, code.vector(high, a, b), 1)


def _needs_guard(op: Operation, rhs: Uniform | None, element: Element) -> bool:
    """Whether a division or shift needs the guards of `_guarded_binary` (its right
    operand is not a constant known to be a nonzero divisor or a shift within the width)."""
    if not isinstance(op, _DIVISIONS + _SHIFTS):
        return False
    if not isinstance(rhs, Constant):
        return True
    if isinstance(op, _DIVISIONS):
        return rhs.bits == 0
    return not 0 <= rhs.bits < element.bits
