"""The `rvv` dialect: RVV 1.0 instructions as ops on register-typed values.

Operands and results are `!rvv.reg` groups, `!rvv.mask` masks and xDSL's
`!riscv.reg`/`!riscv.freg` scalars; immediates are attributes.  An op's
assembly is `mnemonic rd, operands...` in RVV's operand order (`vsub.vv
vd, vs2, vs1` computes vs2 - vs1: an op's `lhs` is vs2).  Ops that write
part of their destination and keep the rest (a masked op under the `mu`
policy, a multiply-accumulate) name the value they update (`passthru`,
`acc`); register allocation gives it the result's register (`tied`).

Instructions that differ only in their mnemonic share a format class and
are made by a one-line factory (`_vv("vadd")` is `rvv.vadd.vv`); the
selector (`tnpu.backend_riscv`) picks them by class.  `vsetvli` sets the
element width and LMUL of the ops after it: the IR keeps program order,
and no pass reorders these ops.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TypeVar

from xdsl.backend.assembly_printer import AssemblyPrinter, OneLineAssemblyPrintable
from xdsl.dialects.builtin import I32, IntegerAttr, i32
from xdsl.dialects.riscv import FloatRegisterType, IntRegisterType
from xdsl.dialects.riscv.attrs import ImmediateI32
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from tnpu.dialects.rvv.types import MaskRegisterType, VectorGroupType, VectorRegisterType

_VECTOR_OR_MASK = VectorRegisterType | MaskRegisterType


def lmul_name(eighths: int) -> str:
    """vsetvli's LMUL operand for a group of `eighths`/8 registers (mf8 ... m8)."""
    return f"m{eighths // 8}" if eighths >= 8 else f"mf{8 // eighths}"


def register_name(value: SSAValue) -> str:
    """The assembly name of a value's register."""
    type_ = value.type
    assert isinstance(type_, IntRegisterType | FloatRegisterType | VectorGroupType), type_
    return type_.register_name


class RvvInstruction(IRDLOperation, OneLineAssemblyPrintable, ABC):
    """An instruction: `mnemonic arg, arg, ...`, args from `assembly_line_args`."""

    def assembly_instruction_name(self) -> str:
        return Dialect.split_name(self.name)[1]

    @abstractmethod
    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        raise NotImplementedError()

    def tied(self) -> Sequence[tuple[int, int]]:
        """(operand index, result index) pairs that must share a register: the result
        updates the operand."""
        return ()

    def result_may_overlap_operands(self) -> bool:
        """Whether RVV lets the result take the register of an operand read here: when
        both have one element width (a widening, narrowing or mask-producing op may not)."""
        return False

    def assembly_line(self) -> str | None:
        arguments = ", ".join(
            register_name(a) if isinstance(a, SSAValue) else str(a) for a in self.assembly_line_args()
        )
        return AssemblyPrinter.assembly_line(self.assembly_instruction_name(), arguments)


def _masked_suffix(mask: SSAValue | None) -> tuple[str, ...]:
    return ("v0.t",) if mask is not None else ()


def _verify_mask_in_v0(op: Operation, mask: SSAValue | None) -> None:
    if mask is None:
        return
    type_ = mask.type
    assert isinstance(type_, MaskRegisterType)
    if type_.is_allocated and type_.register_name != "v0":
        raise VerifyException(f"{op.name}: a mask operand is read from v0, not {type_.register_name}")


def _immediate(value: int | IntegerAttr) -> IntegerAttr:
    return value if isinstance(value, IntegerAttr) else IntegerAttr(value, i32)


# -- configuration --------------------------------------------------------------


@irdl_op_definition
class VsetvliOp(RvvInstruction):
    """vl := min(avl, VLMAX) for SEW `sew` and LMUL `lmul` (eighths of a register); tail
    agnostic, mask undisturbed.  Starts each trip of a strip loop."""

    name = "rvv.vsetvli"
    avl = operand_def(IntRegisterType)
    vl = result_def(IntRegisterType)
    sew = prop_def(IntegerAttr[I32])
    lmul = prop_def(IntegerAttr[I32])

    assembly_format = "$avl `sew` $sew `eighths` $lmul attr-dict `:` functional-type(operands, results)"

    def __init__(self, avl: SSAValue | Operation, sew: int, lmul: int, vl: IntRegisterType | None = None):
        super().__init__(
            operands=[avl],
            result_types=[vl or IntRegisterType.unallocated()],
            properties={"sew": _immediate(sew), "lmul": _immediate(lmul)},
        )

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.vl, self.avl, f"e{self.sew.value.data}", lmul_name(self.lmul.value.data), "ta", "mu"


@irdl_op_definition
class VsetvliKeepOp(RvvInstruction):
    """Another SEW (and LMUL in proportion), the same vl: `vsetvli zero, zero, ...`."""

    name = "rvv.vsetvli_keep"
    sew = prop_def(IntegerAttr[I32])
    lmul = prop_def(IntegerAttr[I32])

    assembly_format = "`sew` $sew `eighths` $lmul attr-dict"

    def __init__(self, sew: int, lmul: int):
        super().__init__(properties={"sew": _immediate(sew), "lmul": _immediate(lmul)})

    def assembly_instruction_name(self) -> str:
        return "vsetvli"

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return "zero", "zero", f"e{self.sew.value.data}", lmul_name(self.lmul.value.data), "ta", "mu"


@irdl_op_definition
class VsetivliOp(RvvInstruction):
    """vl := `avl` (a 5-bit immediate): `vsetivli zero, avl, ...`."""

    name = "rvv.vsetivli"
    avl = prop_def(IntegerAttr[I32])
    sew = prop_def(IntegerAttr[I32])
    lmul = prop_def(IntegerAttr[I32])

    assembly_format = "$avl `sew` $sew `eighths` $lmul attr-dict"

    def __init__(self, avl: int, sew: int, lmul: int):
        super().__init__(properties={"avl": _immediate(avl), "sew": _immediate(sew), "lmul": _immediate(lmul)})

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return "zero", self.avl.value.data, f"e{self.sew.value.data}", lmul_name(self.lmul.value.data), "ta", "mu"


# -- arithmetic: vector op vector / scalar / immediate ---------------------------


class _BinaryBase(RvvInstruction, ABC):
    """vd := lhs op rhs, optionally under the mask in v0 (inactive elements keep `passthru`)."""

    def result_may_overlap_operands(self) -> bool:
        return not self.name.endswith((".wi", ".wx"))

    def _maskable(self) -> tuple[SSAValue | None, SSAValue | None]:
        return self.mask, self.passthru  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines

    def tied(self) -> Sequence[tuple[int, int]]:
        mask, passthru = self._maskable()
        return ((len(self.operands) - 1, 0),) if passthru is not None else ()

    def verify_(self) -> None:
        mask, passthru = self._maskable()
        if (mask is None) != (passthru is None):
            raise VerifyException(f"{self.name}: a masked op names both its mask and the value it keeps")
        _verify_mask_in_v0(self, mask)


class _VectorScalarBase(_BinaryBase, ABC):
    """The fields after `lhs` and `rhs`, which each format declares (IRDL orders a
    subclass's fields before its bases')."""

    mask = opt_operand_def(MaskRegisterType)
    passthru = opt_operand_def(VectorRegisterType)
    rd = result_def(VectorRegisterType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$lhs `,` $rhs (`masked` `(` $mask^ `:` type($mask) `,` $passthru `:` type($passthru) `)`)? attr-dict "
        "`:` `(` type($lhs) `,` type($rhs) `)` `->` type($rd)"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, *, result_type: Attribute,
                 mask: SSAValue | None = None, passthru: SSAValue | None = None):  # fmt: skip
        super().__init__(operands=[lhs, rhs, mask, passthru], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.lhs, self.rhs, *_masked_suffix(self.mask)  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines


class VectorVectorOp(_VectorScalarBase, ABC):
    lhs = operand_def(VectorRegisterType)
    rhs = operand_def(VectorRegisterType)


class VectorIntOp(_VectorScalarBase, ABC):
    lhs = operand_def(VectorRegisterType)
    rhs = operand_def(IntRegisterType)


class VectorFloatOp(_VectorScalarBase, ABC):
    lhs = operand_def(VectorRegisterType)
    rhs = operand_def(FloatRegisterType)


class VectorImmediateOp(_BinaryBase, ABC):
    lhs = operand_def(VectorRegisterType)
    immediate = prop_def(IntegerAttr[I32])
    mask = opt_operand_def(MaskRegisterType)
    passthru = opt_operand_def(VectorRegisterType)
    rd = result_def(VectorRegisterType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$lhs `,` custom<ImmediateI32>($immediate) (`masked` `(` $mask^ `:` type($mask) `,` $passthru `:` "
        "type($passthru) `)`)? attr-dict `:` type($lhs) `->` type($rd)"
    )
    custom_directives = (ImmediateI32,)

    def __init__(self, lhs: SSAValue, immediate: int, *, result_type: Attribute,
                 mask: SSAValue | None = None, passthru: SSAValue | None = None):  # fmt: skip
        super().__init__(
            operands=[lhs, mask, passthru], result_types=[result_type],
            properties={"immediate": _immediate(immediate)},
        )  # fmt: skip

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.lhs, self.immediate.value.data, *_masked_suffix(self.mask)


def _vv(stem: str, suffix: str = "vv") -> type[VectorVectorOp]:
    return irdl_op_definition(type(f"{stem}.{suffix}", (VectorVectorOp,), {"name": f"rvv.{stem}.{suffix}"}))


def _vx(stem: str, suffix: str = "vx") -> type[VectorIntOp]:
    return irdl_op_definition(type(f"{stem}.{suffix}", (VectorIntOp,), {"name": f"rvv.{stem}.{suffix}"}))


def _vf(stem: str) -> type[VectorFloatOp]:
    return irdl_op_definition(type(f"{stem}.vf", (VectorFloatOp,), {"name": f"rvv.{stem}.vf"}))


def _vi(stem: str, suffix: str = "vi") -> type[VectorImmediateOp]:
    return irdl_op_definition(type(f"{stem}.{suffix}", (VectorImmediateOp,), {"name": f"rvv.{stem}.{suffix}"}))


VaddVvOp, VaddVxOp = _vv("vadd"), _vx("vadd")
VsubVvOp, VsubVxOp, VrsubVxOp, VrsubViOp = _vv("vsub"), _vx("vsub"), _vx("vrsub"), _vi("vrsub")
VmulVvOp, VmulVxOp = _vv("vmul"), _vx("vmul")
VmulhVvOp, VmulhuVvOp, VmulhuVxOp = _vv("vmulh"), _vv("vmulhu"), _vx("vmulhu")
VdivVvOp, VdivVxOp, VdivuVvOp, VdivuVxOp = _vv("vdiv"), _vx("vdiv"), _vv("vdivu"), _vx("vdivu")
VremVvOp, VremVxOp, VremuVvOp, VremuVxOp = _vv("vrem"), _vx("vrem"), _vv("vremu"), _vx("vremu")
VandVvOp, VandVxOp, VandViOp = _vv("vand"), _vx("vand"), _vi("vand")
VorVvOp, VorVxOp, VorViOp = _vv("vor"), _vx("vor"), _vi("vor")
VxorVvOp, VxorVxOp = _vv("vxor"), _vx("vxor")
VsllVvOp, VsllVxOp, VsllViOp = _vv("vsll"), _vx("vsll"), _vi("vsll")
VsrlVvOp, VsrlVxOp, VsrlViOp = _vv("vsrl"), _vx("vsrl"), _vi("vsrl")
VsraVvOp, VsraVxOp = _vv("vsra"), _vx("vsra")
VnsrlWiOp, VnsrlWxOp = _vi("vnsrl", "wi"), _vx("vnsrl", "wx")
VmaxVvOp, VmaxVxOp, VminVvOp, VminVxOp = _vv("vmax"), _vx("vmax"), _vv("vmin"), _vx("vmin")
VmaxuVvOp, VmaxuVxOp, VminuVvOp, VminuVxOp = _vv("vmaxu"), _vx("vmaxu"), _vv("vminu"), _vx("vminu")
VfaddVvOp, VfaddVfOp = _vv("vfadd"), _vf("vfadd")
VfsubVvOp, VfsubVfOp, VfrsubVfOp = _vv("vfsub"), _vf("vfsub"), _vf("vfrsub")
VfmulVvOp, VfmulVfOp = _vv("vfmul"), _vf("vfmul")
VfdivVvOp, VfdivVfOp, VfrdivVfOp = _vv("vfdiv"), _vf("vfdiv"), _vf("vfrdiv")
VfmaxVvOp, VfmaxVfOp, VfminVvOp, VfminVfOp = _vv("vfmax"), _vf("vfmax"), _vv("vfmin"), _vf("vfmin")
VfsgnjVvOp, VfsgnjVfOp = _vv("vfsgnj"), _vf("vfsgnj")

# Reductions: vd[0] := op(lhs[0..vl), rhs[0]).
VfredosumVsOp, VfredmaxVsOp, VfredminVsOp = _vv("vfredosum", "vs"), _vv("vfredmax", "vs"), _vv("vfredmin", "vs")
VredsumVsOp, VredmaxVsOp, VredminVsOp = _vv("vredsum", "vs"), _vv("vredmax", "vs"), _vv("vredmin", "vs")
VredmaxuVsOp, VredminuVsOp = _vv("vredmaxu", "vs"), _vv("vredminu", "vs")
VredandVsOp, VredorVsOp, VredxorVsOp = _vv("vredand", "vs"), _vv("vredor", "vs"), _vv("vredxor", "vs")


# -- one operand ---------------------------------------------------------------


class _OneSourceOp(RvvInstruction, ABC):
    """rd := op(source), a register group of each (subclasses say which kinds)."""

    source = operand_def(VectorRegisterType)
    rd = result_def(VectorRegisterType)

    assembly_format = "$source attr-dict `:` functional-type(operands, results)"

    def __init__(self, source: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.source


class VectorUnaryOp(_OneSourceOp, ABC):
    """vd := op(source): conversions, extensions, sqrt, abs, copies."""

    def result_may_overlap_operands(self) -> bool:
        return not self.assembly_instruction_name().startswith(("vfw", "vfn", "vsext", "vzext"))


def _unary(mnemonic: str) -> type[VectorUnaryOp]:
    return irdl_op_definition(type(mnemonic, (VectorUnaryOp,), {"name": f"rvv.{mnemonic}"}))


VfsqrtVOp, VfabsVOp, VfnegVOp, VmvVVOp = _unary("vfsqrt.v"), _unary("vfabs.v"), _unary("vfneg.v"), _unary("vmv.v.v")
VfcvtFXVOp, VfcvtFXuVOp = _unary("vfcvt.f.x.v"), _unary("vfcvt.f.xu.v")
VfcvtXFVOp, VfcvtXuFVOp = _unary("vfcvt.x.f.v"), _unary("vfcvt.xu.f.v")
VfwcvtFFVOp, VfwcvtXFVOp, VfwcvtXuFVOp = _unary("vfwcvt.f.f.v"), _unary("vfwcvt.x.f.v"), _unary("vfwcvt.xu.f.v")
VfncvtFFWOp, VfncvtRodFFWOp = _unary("vfncvt.f.f.w"), _unary("vfncvt.rod.f.f.w")
VfncvtFXWOp, VfncvtFXuWOp = _unary("vfncvt.f.x.w"), _unary("vfncvt.f.xu.w")
VfncvtXFWOp, VfncvtXuFWOp = _unary("vfncvt.x.f.w"), _unary("vfncvt.xu.f.w")
VsextVf2Op, VsextVf4Op, VsextVf8Op = _unary("vsext.vf2"), _unary("vsext.vf4"), _unary("vsext.vf8")
VzextVf2Op, VzextVf4Op, VzextVf8Op = _unary("vzext.vf2"), _unary("vzext.vf4"), _unary("vzext.vf8")


class WholeRegisterMoveOp(_OneSourceOp, ABC):
    """A copy of whole registers, whatever vl and SEW (`vmv<n>r.v`)."""

    source = operand_def(_VECTOR_OR_MASK)
    rd = result_def(_VECTOR_OR_MASK)


def _whole_move(registers: int) -> type[WholeRegisterMoveOp]:
    name = f"vmv{registers}r.v"
    return irdl_op_definition(
        type(name, (WholeRegisterMoveOp,), {"name": f"rvv.{name}"})
    )


Vmv1rVOp, Vmv2rVOp, Vmv4rVOp, Vmv8rVOp = (_whole_move(n) for n in (1, 2, 4, 8))
WHOLE_REGISTER_MOVES = {1: Vmv1rVOp, 2: Vmv2rVOp, 4: Vmv4rVOp, 8: Vmv8rVOp}


@irdl_op_definition
class VidVOp(RvvInstruction):
    """vd[i] := i."""

    name = "rvv.vid.v"
    rd = result_def(VectorRegisterType)
    assembly_format = "attr-dict `:` type($rd)"

    def __init__(self, *, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return (self.rd,)


class SplatOp(RvvInstruction, ABC):
    """vd := a scalar in every element (`vmv.v.x`, `vfmv.v.f`) or in element 0 (`vmv.s.x`)."""

    source = operand_def(IntRegisterType | FloatRegisterType)
    rd = result_def(VectorRegisterType)
    assembly_format = "$source attr-dict `:` functional-type(operands, results)"

    def __init__(self, source: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.source


VmvVXOp = irdl_op_definition(type("vmv.v.x", (SplatOp,), {"name": "rvv.vmv.v.x"}))
VfmvVFOp = irdl_op_definition(type("vfmv.v.f", (SplatOp,), {"name": "rvv.vfmv.v.f"}))
VmvSXOp = irdl_op_definition(type("vmv.s.x", (SplatOp,), {"name": "rvv.vmv.s.x"}))


@irdl_op_definition
class VmvViOp(RvvInstruction):
    """vd := an immediate in every element."""

    name = "rvv.vmv.v.i"
    immediate = prop_def(IntegerAttr[I32])
    rd = result_def(VectorRegisterType)
    assembly_format = "custom<ImmediateI32>($immediate) attr-dict `:` type($rd)"
    custom_directives = (ImmediateI32,)

    def __init__(self, immediate: int, *, result_type: Attribute):
        super().__init__(result_types=[result_type], properties={"immediate": _immediate(immediate)})

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.immediate.value.data


class ToScalarOp(RvvInstruction, ABC):
    """An integer register from a vector: element 0 (`vmv.x.s`), the first set bit
    of a mask or -1 (`vfirst.m`), the count of set bits (`vcpop.m`)."""

    source = operand_def(_VECTOR_OR_MASK)
    rd = result_def(IntRegisterType)
    assembly_format = "$source attr-dict `:` functional-type(operands, results)"

    def __init__(self, source: SSAValue):
        super().__init__(operands=[source], result_types=[IntRegisterType.unallocated()])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.source


VmvXSOp = irdl_op_definition(type("vmv.x.s", (ToScalarOp,), {"name": "rvv.vmv.x.s"}))
VfirstMOp = irdl_op_definition(type("vfirst.m", (ToScalarOp,), {"name": "rvv.vfirst.m"}))
VcpopMOp = irdl_op_definition(type("vcpop.m", (ToScalarOp,), {"name": "rvv.vcpop.m"}))


# -- multiply-accumulate ---------------------------------------------------------


class MultiplyAccumulateOp(RvvInstruction, ABC):
    """vd := acc updated with lhs * rhs (the result is `acc`'s register): `vfmacc`,
    `vmacc` (acc + lhs*rhs), `vfnmsub` (rhs - lhs*acc)."""

    acc = operand_def(VectorRegisterType)
    lhs = operand_def(VectorRegisterType | IntRegisterType | FloatRegisterType)
    rhs = operand_def(VectorRegisterType)
    rd = result_def(VectorRegisterType)
    assembly_format = "$acc `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)"

    def __init__(self, acc: SSAValue, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[acc, lhs, rhs], result_types=[acc.type])

    def tied(self) -> Sequence[tuple[int, int]]:
        return ((0, 0),)

    def result_may_overlap_operands(self) -> bool:
        return True

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.lhs, self.rhs


VfmaccVvOp = irdl_op_definition(type("vfmacc.vv", (MultiplyAccumulateOp,), {"name": "rvv.vfmacc.vv"}))
VfmaccVfOp = irdl_op_definition(type("vfmacc.vf", (MultiplyAccumulateOp,), {"name": "rvv.vfmacc.vf"}))
VmaccVxOp = irdl_op_definition(type("vmacc.vx", (MultiplyAccumulateOp,), {"name": "rvv.vmacc.vx"}))
VfnmsubVvOp = irdl_op_definition(type("vfnmsub.vv", (MultiplyAccumulateOp,), {"name": "rvv.vfnmsub.vv"}))


# -- compares and masks ------------------------------------------------------------


class CompareOp(RvvInstruction, ABC):
    """md := lhs compared with rhs, element by element (a mask)."""

    def __init__(self, lhs: SSAValue, rhs: SSAValue | int, *, result_type: Attribute):
        if isinstance(rhs, int):
            super().__init__(operands=[lhs], result_types=[result_type], properties={"immediate": _immediate(rhs)})
        else:
            super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        rhs = self.rhs if hasattr(self, "rhs") else self.immediate.value.data  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines
        return self.rd, self.lhs, rhs  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines


class CompareVectorOp(CompareOp, ABC):
    lhs = operand_def(VectorRegisterType)
    rhs = operand_def(VectorRegisterType)
    rd = result_def(MaskRegisterType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"


class CompareIntOp(CompareOp, ABC):
    lhs = operand_def(VectorRegisterType)
    rhs = operand_def(IntRegisterType)
    rd = result_def(MaskRegisterType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"


class CompareFloatOp(CompareOp, ABC):
    lhs = operand_def(VectorRegisterType)
    rhs = operand_def(FloatRegisterType)
    rd = result_def(MaskRegisterType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"


class CompareImmediateOp(CompareOp, ABC):
    lhs = operand_def(VectorRegisterType)
    immediate = prop_def(IntegerAttr[I32])
    rd = result_def(MaskRegisterType)
    assembly_format = "$lhs `,` custom<ImmediateI32>($immediate) attr-dict `:` functional-type(operands, results)"
    custom_directives = (ImmediateI32,)


def _compare(mnemonic: str, base: type[CompareOp]) -> type[CompareOp]:
    return irdl_op_definition(type(mnemonic, (base,), {"name": f"rvv.{mnemonic}"}))


VmseqVvOp, VmseqVxOp, VmseqViOp = (_compare("vmseq.vv", CompareVectorOp), _compare("vmseq.vx", CompareIntOp),
                                   _compare("vmseq.vi", CompareImmediateOp))  # fmt: skip
VmsneVvOp, VmsneVxOp, VmsneViOp = (_compare("vmsne.vv", CompareVectorOp), _compare("vmsne.vx", CompareIntOp),
                                   _compare("vmsne.vi", CompareImmediateOp))  # fmt: skip
VmsltVvOp, VmsltVxOp = _compare("vmslt.vv", CompareVectorOp), _compare("vmslt.vx", CompareIntOp)
VmsleVvOp, VmsleVxOp = _compare("vmsle.vv", CompareVectorOp), _compare("vmsle.vx", CompareIntOp)
VmsltuVvOp, VmsltuVxOp = _compare("vmsltu.vv", CompareVectorOp), _compare("vmsltu.vx", CompareIntOp)
VmsleuVvOp, VmsleuVxOp = _compare("vmsleu.vv", CompareVectorOp), _compare("vmsleu.vx", CompareIntOp)
VmsgtVxOp, VmsgtuVxOp = _compare("vmsgt.vx", CompareIntOp), _compare("vmsgtu.vx", CompareIntOp)
VmsgeuVxOp = _compare("vmsgeu.vx", CompareIntOp)
"""An assembler pseudo-instruction: vmsltu.vx then vmnot.m."""
VmfeqVvOp, VmfeqVfOp = _compare("vmfeq.vv", CompareVectorOp), _compare("vmfeq.vf", CompareFloatOp)
VmfneVvOp, VmfneVfOp = _compare("vmfne.vv", CompareVectorOp), _compare("vmfne.vf", CompareFloatOp)
VmfltVvOp, VmfltVfOp = _compare("vmflt.vv", CompareVectorOp), _compare("vmflt.vf", CompareFloatOp)
VmfleVvOp, VmfleVfOp = _compare("vmfle.vv", CompareVectorOp), _compare("vmfle.vf", CompareFloatOp)
VmfgtVfOp, VmfgeVfOp = _compare("vmfgt.vf", CompareFloatOp), _compare("vmfge.vf", CompareFloatOp)


class MaskLogicOp(RvvInstruction, ABC):
    """md := lhs op rhs, bit by bit (`vmand.mm`, `vmandn.mm` = lhs & ~rhs, ...)."""

    lhs = operand_def(MaskRegisterType)
    rhs = operand_def(MaskRegisterType)
    rd = result_def(MaskRegisterType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.lhs, self.rhs


def _mask_logic(stem: str) -> type[MaskLogicOp]:
    return irdl_op_definition(type(f"{stem}.mm", (MaskLogicOp,), {"name": f"rvv.{stem}.mm"}))


VmandMmOp, VmorMmOp, VmxorMmOp = _mask_logic("vmand"), _mask_logic("vmor"), _mask_logic("vmxor")
VmandnMmOp, VmornMmOp, VmxnorMmOp = _mask_logic("vmandn"), _mask_logic("vmorn"), _mask_logic("vmxnor")


@irdl_op_definition
class VmnotMOp(_OneSourceOp):
    """md := ~source."""

    name = "rvv.vmnot.m"
    source = operand_def(MaskRegisterType)
    rd = result_def(MaskRegisterType)


class MaskConstantOp(RvvInstruction, ABC):
    """md := all ones (`vmset.m`) or all zeros (`vmclr.m`)."""

    rd = result_def(MaskRegisterType)
    assembly_format = "attr-dict `:` type($rd)"

    def __init__(self, *, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return (self.rd,)


VmsetMOp = irdl_op_definition(type("vmset.m", (MaskConstantOp,), {"name": "rvv.vmset.m"}))
VmclrMOp = irdl_op_definition(type("vmclr.m", (MaskConstantOp,), {"name": "rvv.vmclr.m"}))


class MergeOp(RvvInstruction, ABC):
    """vd := on_true where the mask in v0 is set, else on_false."""

    def result_may_overlap_operands(self) -> bool:
        return True

    def verify_(self) -> None:
        _verify_mask_in_v0(self, self.mask)  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        on_true = self.on_true if hasattr(self, "on_true") else self.immediate.value.data  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines
        return self.rd, self.on_false, on_true, "v0"  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines


class _MergeRegisterOp(MergeOp, ABC):
    """The fields after `on_false` and `on_true`, which each form declares."""

    mask = operand_def(MaskRegisterType)
    rd = result_def(VectorRegisterType)
    assembly_format = "$on_false `,` $on_true `,` $mask attr-dict `:` functional-type(operands, results)"

    def __init__(self, on_false: SSAValue, on_true: SSAValue, mask: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[on_false, on_true, mask], result_types=[result_type])


@irdl_op_definition
class VmergeVvmOp(_MergeRegisterOp):
    name = "rvv.vmerge.vvm"
    on_false = operand_def(VectorRegisterType)
    on_true = operand_def(VectorRegisterType)


@irdl_op_definition
class VmergeVxmOp(_MergeRegisterOp):
    name = "rvv.vmerge.vxm"
    on_false = operand_def(VectorRegisterType)
    on_true = operand_def(IntRegisterType)


@irdl_op_definition
class VmergeVimOp(MergeOp):
    name = "rvv.vmerge.vim"
    on_false = operand_def(VectorRegisterType)
    immediate = prop_def(IntegerAttr[I32])
    mask = operand_def(MaskRegisterType)
    rd = result_def(VectorRegisterType)
    assembly_format = (
        "$on_false `,` custom<ImmediateI32>($immediate) `,` $mask attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (ImmediateI32,)

    def __init__(self, on_false: SSAValue, immediate: int, mask: SSAValue, *, result_type: Attribute):
        super().__init__(
            operands=[on_false, mask], result_types=[result_type], properties={"immediate": _immediate(immediate)}
        )


# -- memory ------------------------------------------------------------------------


class _MemoryOp(RvvInstruction, ABC):
    def _address(self) -> str:
        return f"({register_name(self.base)})"  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines

    def verify_(self) -> None:
        mask = getattr(self, "mask", None)
        _verify_mask_in_v0(self, mask)
        passthru = getattr(self, "passthru", False)
        if passthru is not False and (mask is None) != (passthru is None):
            raise VerifyException(f"{self.name}: a masked load names both its mask and the value it keeps")

    def tied(self) -> Sequence[tuple[int, int]]:
        passthru = getattr(self, "passthru", None)
        return ((len(self.operands) - 1, 0),) if passthru is not None else ()


class UnitStrideLoadOp(_MemoryOp, ABC):
    """vd := `vl` elements at base (masked: inactive elements keep `passthru`)."""

    base = operand_def(IntRegisterType)
    mask = opt_operand_def(MaskRegisterType)
    passthru = opt_operand_def(VectorRegisterType)
    rd = result_def(VectorRegisterType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect())
    assembly_format = (
        "$base (`masked` `(` $mask^ `:` type($mask) `,` $passthru `:` type($passthru) `)`)? attr-dict "
        "`:` type($base) `->` type($rd)"
    )

    def __init__(self, base: SSAValue, *, result_type: Attribute,
                 mask: SSAValue | None = None, passthru: SSAValue | None = None):  # fmt: skip
        super().__init__(operands=[base, mask, passthru], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self._address(), *_masked_suffix(self.mask)


class _SecondAddressLoadOp(_MemoryOp, ABC):
    """vd := elements from base and `index` (a stride register or a vector of offsets);
    the format declares `base` and `index` (IRDL orders a subclass's fields first)."""

    mask = opt_operand_def(MaskRegisterType)
    passthru = opt_operand_def(VectorRegisterType)
    rd = result_def(VectorRegisterType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect())
    assembly_format = (
        "$base `,` $index (`masked` `(` $mask^ `:` type($mask) `,` $passthru `:` type($passthru) `)`)? attr-dict "
        "`:` `(` type($base) `,` type($index) `)` `->` type($rd)"
    )

    def __init__(self, base: SSAValue, index: SSAValue, *, result_type: Attribute,
                 mask: SSAValue | None = None, passthru: SSAValue | None = None):  # fmt: skip
        super().__init__(operands=[base, index, mask, passthru], result_types=[result_type])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self._address(), self.index, *_masked_suffix(self.mask)  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines


class StridedLoadOp(_SecondAddressLoadOp, ABC):
    """vd := `vl` elements from base, `index` (a register) bytes apart."""

    base = operand_def(IntRegisterType)
    index = operand_def(IntRegisterType)


@irdl_op_definition
class Vluxei64VOp(_SecondAddressLoadOp):
    """vd[i] := the element at base + index[i] (64-bit byte offsets)."""

    name = "rvv.vluxei64.v"
    base = operand_def(IntRegisterType)
    index = operand_def(VectorRegisterType)


class UnitStrideStoreOp(_MemoryOp, ABC):
    """`vl` elements of value to base (masked: only the active ones)."""

    value = operand_def(VectorRegisterType)
    base = operand_def(IntRegisterType)
    mask = opt_operand_def(MaskRegisterType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$value `,` $base (`masked` $mask^ `:` type($mask))? attr-dict `:` type($value) `,` type($base)"

    def __init__(self, value: SSAValue, base: SSAValue, *, mask: SSAValue | None = None):
        super().__init__(operands=[value, base, mask])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.value, self._address(), *_masked_suffix(self.mask)


class _SecondAddressStoreOp(_MemoryOp, ABC):
    """`vl` elements of value to base and `index` (a stride register or a vector of offsets)."""

    mask = opt_operand_def(MaskRegisterType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = (
        "$value `,` $base `,` $index (`masked` $mask^ `:` type($mask))? attr-dict "
        "`:` type($value) `,` type($base) `,` type($index)"
    )

    def __init__(self, value: SSAValue, base: SSAValue, index: SSAValue, *, mask: SSAValue | None = None):
        super().__init__(operands=[value, base, index, mask])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.value, self._address(), self.index, *_masked_suffix(self.mask)  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines


class StridedStoreOp(_SecondAddressStoreOp, ABC):
    """`vl` elements of value to base, `index` (a register) bytes apart."""

    value = operand_def(VectorRegisterType)
    base = operand_def(IntRegisterType)
    index = operand_def(IntRegisterType)


@irdl_op_definition
class Vsoxei64VOp(_SecondAddressStoreOp):
    """value[i] to base + index[i], in element order (the last write to a place wins)."""

    name = "rvv.vsoxei64.v"
    value = operand_def(VectorRegisterType)
    base = operand_def(IntRegisterType)
    index = operand_def(VectorRegisterType)


_MemoryOpT = TypeVar("_MemoryOpT", bound=_MemoryOp)


def _memory(kind: type[_MemoryOpT], stem: str, eew: int) -> type[_MemoryOpT]:
    name = f"{stem}{eew}.v"
    return irdl_op_definition(type(name, (kind,), {"name": f"rvv.{name}"}))  # pyright: ignore[reportReturnType]  # an op class made with type()


_EEWS = (8, 16, 32, 64)
UNIT_STRIDE_LOADS = {eew: _memory(UnitStrideLoadOp, "vle", eew) for eew in _EEWS}
STRIDED_LOADS = {eew: _memory(StridedLoadOp, "vlse", eew) for eew in _EEWS}
UNIT_STRIDE_STORES = {eew: _memory(UnitStrideStoreOp, "vse", eew) for eew in _EEWS}
STRIDED_STORES = {eew: _memory(StridedStoreOp, "vsse", eew) for eew in _EEWS}
"""The memory ops by element width in bits (`vle32.v` is UNIT_STRIDE_LOADS[32])."""


def _ops_of(namespace: dict[str, object]) -> list[type[IRDLOperation]]:
    found: list[type[IRDLOperation]] = []
    for value in namespace.values():
        candidates = value.values() if isinstance(value, dict) else (value,)
        for candidate in candidates:
            if isinstance(candidate, type) and issubclass(candidate, RvvInstruction) and hasattr(candidate, "name") \
                    and "." in str(getattr(candidate, "name", "")) and candidate not in found:  # fmt: skip
                found.append(candidate)
    return found


RVV = Dialect("rvv", _ops_of(dict(globals())), [VectorRegisterType, MaskRegisterType])  # pyright: ignore[reportArgumentType]  # list is invariant; these are all ops
