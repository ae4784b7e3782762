"""Conversions on the vector unit: integer resizes, int/float conversions, float
resizes among fp8, f16, bf16, f32 and f64 (each rounding once), i1 to and from
numbers, and bitcasts; the algorithms themselves are in `float_algorithms`."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.elementwise.program import element_of_value
from tnpu.backend_riscv.elementwise.program_code import ProgramCode
from tnpu.backend_riscv.float_algorithms import (
    f32_to_half,
    f64_to_f32_round_to_odd,
    float_to_int,
    half_to_f32,
    int_resize,
    int_to_f32_round_to_odd,
    int_to_float,
)
from tnpu.diagnostics import CompileError
from tnpu.dialects.rvv import ops as rvv

_SIGNED_CASTS = (arith.ExtSIOp, arith.IndexCastOp, arith.SIToFPOp, arith.FPToSIOp)


def cast(code: ProgramCode, op: Operation) -> None:
    source_value, result_value = op.operands[0], op.results[0]
    source_element, result_element = element_of_value(source_value, op), element_of_value(result_value, op)
    signed = isinstance(op, _SIGNED_CASTS)
    if isinstance(op, arith.BitcastOp):  # the same bits: the same register
        return code.define(op, code.vector_of(source_value).value)
    if source_element.is_float and result_element.is_float:
        return code.define(op, _float_resize(code, source_value, source_element, result_element))
    if source_element.is_mask:
        return code.define(op, _from_mask_cast(code, op, result_element, signed))
    if result_element.is_mask:
        if source_element.is_float:
            raise CompileError(op, "float to i1 conversion")
        source = code.vector_of(source_value)
        code.sew(source.element.bits)
        low_bit = code.vector(rvv.VandViOp, source.value, 1)
        return code.define(op, code.mask(rvv.VmsneViOp, low_bit, 0))
    source = code.vector_of(source_value).value
    if not source_element.is_float and not result_element.is_float:
        result = int_resize(code, source, source_element.bits, result_element.bits, signed)
    elif result_element.half_float:
        single = int_to_f32_round_to_odd(code, source, source_element.bits, signed)
        result = f32_to_half(code, single, result_element.half_float)
    elif not source_element.is_float:
        result = int_to_float(code, source, source_element.bits, result_element.bits, signed)
    elif source_element.half_float:
        single = half_to_f32(code, source, source_element.half_float)
        result = float_to_int(code, single, 32, result_element.bits, signed)
    else:
        result = float_to_int(code, source, source_element.bits, result_element.bits, signed)
    code.define(op, result)


def _from_mask_cast(code: ProgramCode, op: Operation, result_element: Element, signed: bool) -> SSAValue:
    """i1 to an integer or float: true is -1 signed and 1 unsigned, false is 0."""
    mask, true_value = code.vector_of(op.operands[0]), -1 if signed else 1
    if not result_element.is_float:
        return code.from_mask(mask, true_value, result_element.bits)
    bits = 32 if result_element.half_float else result_element.bits
    number = code.vector(rvv.VfcvtFXVOp, code.from_mask(mask, true_value, bits))
    if result_element.half_float:
        return f32_to_half(code, number, result_element.half_float)
    return number


def _float_resize(code: ProgramCode, source_value: SSAValue, source_element: Element, result_element: Element) -> SSAValue:
    """extf/truncf between any two of the fp8 formats, f16, bf16, f32 and f64, each rounding once.

    16- and 8-bit floats pass through f32 (exact when widening); f64 narrows
    to one of them through f32 rounded to odd, so the result is rounded once.
    """
    source, source_bits = code.vector_of(source_value).value, source_element.bits
    if source_element.half_float:
        source, source_bits = half_to_f32(code, source, source_element.half_float), 32
    if result_element.half_float:
        if source_bits == 64:
            source = f64_to_f32_round_to_odd(code, source)
        return f32_to_half(code, source, result_element.half_float)
    if result_element.bits == source_bits:
        return source
    if result_element.bits == 2 * source_bits:
        code.sew(source_bits)
        return code.vector(rvv.VfwcvtFFVOp, source)
    code.sew(result_element.bits)
    return code.vector(rvv.VfncvtFFWOp, source)
