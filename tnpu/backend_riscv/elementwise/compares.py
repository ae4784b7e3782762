"""Comparisons and selects on the vector unit: icmp/fcmp predicates as RVV compares
(mirrored or negated where RVV lacks a form), compares of masks as mask logic,
the unordered fcmp predicates from two compares, and select as a merge."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation

from tnpu.backend_riscv.elementwise.program import element_of_value
from tnpu.backend_riscv.elementwise.program_code import ProgramCode
from tnpu.dialects.rvv import ops as rvv

_Compare = tuple[type[rvv.CompareOp], type[rvv.CompareOp] | None, type[rvv.CompareOp] | None]
"""(vector-vector, vector-scalar, vector-scalar with the scalar on the left) compares."""

# Comparisons, as (compares, swap operands, negate result) of a basic form; RVV has no
# vmsge.vx or vmslt.vf-with-the-scalar-first, so those mirror to a "greater" form.
_ICMP: dict[str, tuple[_Compare, bool, bool]] = {
    "eq": ((rvv.VmseqVvOp, rvv.VmseqVxOp, rvv.VmseqVxOp), False, False),
    "ne": ((rvv.VmsneVvOp, rvv.VmsneVxOp, rvv.VmsneVxOp), False, False),
    "slt": ((rvv.VmsltVvOp, rvv.VmsltVxOp, rvv.VmsgtVxOp), False, False),
    "sle": ((rvv.VmsleVvOp, rvv.VmsleVxOp, None), False, False),
    "sgt": ((rvv.VmsltVvOp, rvv.VmsltVxOp, rvv.VmsgtVxOp), True, False),
    "sge": ((rvv.VmsleVvOp, rvv.VmsleVxOp, None), True, False),
    "ult": ((rvv.VmsltuVvOp, rvv.VmsltuVxOp, rvv.VmsgtuVxOp), False, False),
    "ule": ((rvv.VmsleuVvOp, rvv.VmsleuVxOp, None), False, False),
    "ugt": ((rvv.VmsltuVvOp, rvv.VmsltuVxOp, rvv.VmsgtuVxOp), True, False),
    "uge": ((rvv.VmsleuVvOp, rvv.VmsleuVxOp, None), True, False),
}
_FLT = (rvv.VmfltVvOp, rvv.VmfltVfOp, rvv.VmfgtVfOp)
_FLE = (rvv.VmfleVvOp, rvv.VmfleVfOp, rvv.VmfgeVfOp)
_FCMP: dict[str, tuple[_Compare, bool, bool]] = {
    "oeq": ((rvv.VmfeqVvOp, rvv.VmfeqVfOp, rvv.VmfeqVfOp), False, False),
    "une": ((rvv.VmfneVvOp, rvv.VmfneVfOp, rvv.VmfneVfOp), False, False),
    "olt": (_FLT, False, False), "ole": (_FLE, False, False),
    "ogt": (_FLT, True, False), "oge": (_FLE, True, False),
    "ult": (_FLE, True, True), "ule": (_FLT, True, True),
    "ugt": (_FLE, False, True), "uge": (_FLT, False, True),
}  # fmt: skip
_MASK_COMPARE = {  # vmandn.mm vd, x, y = x & ~y;  vmorn.mm vd, x, y = x | ~y
    "eq": (rvv.VmxnorMmOp, False), "ne": (rvv.VmxorMmOp, False),
    "ult": (rvv.VmandnMmOp, True), "ugt": (rvv.VmandnMmOp, False),
    "ule": (rvv.VmornMmOp, True), "uge": (rvv.VmornMmOp, False),
    "slt": (rvv.VmandnMmOp, False), "sgt": (rvv.VmandnMmOp, True),
    "sle": (rvv.VmornMmOp, False), "sge": (rvv.VmornMmOp, True),
}  # fmt: skip


def compare(code: ProgramCode, op: Operation) -> None:
    kind = "f" if isinstance(op, arith.CmpfOp) else "x"
    names = arith.CMPF_COMPARISON_OPERATIONS if kind == "f" else arith.CMPI_COMPARISON_OPERATIONS
    predicate = names[op.predicate.value.data]  # pyright: ignore[reportAttributeAccessIssue]  # a compare op, matched by isinstance on a tuple of classes
    lhs, rhs = op.operands
    if kind == "f" and predicate in ("one", "ueq", "ord", "uno", "true", "false"):
        return _fcmp_compound(code, op, predicate)
    if element_of_value(lhs, op).is_mask:
        a, b = (code.vector_of(v).value for v in op.operands)
        logic, swap = _MASK_COMPARE[predicate]
        return code.define(op, code.mask(logic, *((b, a) if swap else (a, b))))
    (vector_vector, vector_scalar, scalar_vector), swap, negate = (_FCMP if kind == "f" else _ICMP)[predicate]
    if swap:
        lhs, rhs = rhs, lhs
    scalar = code.float_register if kind == "f" else code.int_register
    element = element_of_value(lhs, op)
    if rhs in code.uniforms:
        a = code.vector_of(lhs).value
        code.sew(element.bits)
        result = code.mask(vector_scalar, a, scalar(rhs))  # pyright: ignore[reportArgumentType]
    elif lhs in code.uniforms and scalar_vector is not None:
        b = code.vector_of(rhs).value
        code.sew(element.bits)
        result = code.mask(scalar_vector, b, scalar(lhs))
    else:
        a, b = code.vector_of(lhs).value, code.vector_of(rhs).value
        code.sew(element.bits)
        result = code.mask(vector_vector, a, b)
    if negate:
        result = code.mask(rvv.VmnotMOp, result)
    code.define(op, result)


def _fcmp_compound(code: ProgramCode, op: Operation, predicate: str) -> None:
    if predicate in ("true", "false"):
        return code.define(op, code.mask(rvv.VmsetMOp if predicate == "true" else rvv.VmclrMOp))
    a, b = (code.vector_of(v) for v in op.operands)
    code.sew(a.element.bits)
    if predicate in ("one", "ueq"):
        less = code.mask(rvv.VmfltVvOp, a.value, b.value)
        greater = code.mask(rvv.VmfltVvOp, b.value, a.value)
        result = code.mask(rvv.VmorMmOp, less, greater)
    else:
        a_number = code.mask(rvv.VmfeqVvOp, a.value, a.value)
        b_number = code.mask(rvv.VmfeqVvOp, b.value, b.value)
        result = code.mask(rvv.VmandMmOp, a_number, b_number)
    if predicate in ("ueq", "uno"):
        result = code.mask(rvv.VmnotMOp, result)
    code.define(op, result)


def select(code: ProgramCode, op: Operation) -> None:
    condition, on_true, on_false = op.operands
    element = element_of_value(op.results[0], op)
    mask = code.vector_of(condition)
    t, f = code.vector_of(on_true).value, code.vector_of(on_false).value
    if element.is_mask:
        kept = code.mask(rvv.VmandMmOp, t, mask.value)
        other = code.mask(rvv.VmandnMmOp, f, mask.value)
        return code.define(op, code.mask(rvv.VmorMmOp, kept, other))
    in_v0 = code.in_v0(mask)
    code.sew(element.bits)
    code.define(op, code.vector(rvv.VmergeVvmOp, f, t, in_v0))
