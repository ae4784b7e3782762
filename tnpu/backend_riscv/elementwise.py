"""Elementwise programs on RVV: a fused `tile.map` body, kept in vector registers.

An `ElementwiseProgram` is a straight-line list of scalar `arith`/`math` ops
applied to every element: values streamed from the scratchpad (`Stream`:
a tile, or a strided slice of one), uniform values (scalar slots and
constants, the same for every element) and results streamed back.  It
lowers to one strip-mined loop; inside a trip every intermediate value is
a vector register group, so a fused body never goes through memory.

Scalar ops outside any tile op are one-element programs: one instruction
table serves tiles and scalars alike.

Register groups: all values share one SEW/LMUL ratio, set by the widest
element type, so `vl` is the same for every type in the body; the largest
LMUL whose register pressure fits (tried from m8 down) wins.  `v0` is kept
for masks.  Uniform values are hoisted into integer (bits) and float
registers before the loop while registers last.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from xdsl.dialects import arith, math
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.asm import AsmWriter, StripLoop
from tnpu.backend_riscv.elements import Element, element_of, lmul_name
from tnpu.backend_riscv.storage import Constant, Scalar, constant_bits
from tnpu.diagnostics import CompileError
from tnpu.dialects import tt
from tnpu.dialects.arith import RemFOp
from tnpu.dialects.dispatch import entry_for
from tnpu.dialects.shapes import element_type_of


@dataclass(frozen=True)
class Stream:
    """Elements read or written one trip at a time.

    The first element is at scratchpad `offset` (plus `base` elements, a
    register, if given); consecutive elements are `stride` bytes apart
    (None: contiguous).
    """

    element: Element
    offset: int
    base: str | None = None
    stride: int | None = None


Uniform = Scalar | Constant


@dataclass
class ElementwiseProgram:
    """Scalar ops applied to `count` elements (an int, or a register holding it)."""

    ops: Sequence[Operation]
    inputs: dict[SSAValue, Stream | Uniform]
    outputs: Sequence[tuple[SSAValue, Stream]]
    count: int | str
    anchor: Operation
    """The op diagnostics name."""


class OutOfVectorRegisters(Exception):
    pass


def emit_elementwise(asm: AsmWriter, program: ElementwiseProgram) -> None:
    """Emit `program` as one strip-mined loop with the largest LMUL that fits."""
    widest = _widest_bits(program)
    for lmul in (64, 32, 16, 8):
        try:
            _ElementwiseLowering(asm.fork(), program, widest, lmul).run()
        except OutOfVectorRegisters:
            continue
        _ElementwiseLowering(asm, program, widest, lmul).run()
        return
    raise CompileError(
        program.anchor, "body needs more than 31 live vector registers (no spilling)"
    )


def _element(value: SSAValue, anchor: Operation) -> Element:
    element = element_of(element_type_of(value.type))
    if element is None:
        raise CompileError(anchor, f"element type {value.type} has no RVV lowering")
    return element


def _widest_bits(program: ElementwiseProgram) -> int:
    """The widest lane any value (or an op's internal step) of the program needs."""
    values = [*program.inputs, *(v for op in program.ops for v in op.results)]
    widths = [
        _element(v, program.anchor).bits
        for v in values
        if not _element(v, program.anchor).is_mask
    ]
    if any(isinstance(op, RemFOp) for op in program.ops):
        widths.append(64)  # f32 fmod runs in f64
    if any(_converts_half_float(op, program.anchor) for op in program.ops):
        widths.append(32)  # 16-bit floats convert through f32
    return max(widths, default=8)


def _converts_half_float(op: Operation, anchor: Operation) -> bool:
    """Whether `op` is a conversion from or to f16/bf16 (which goes through f32)."""
    if not isinstance(op, _CONVERSIONS):
        return False
    return any(_element(value, anchor).half_float for value in (*op.operands, *op.results))


@dataclass
class _Vec:
    register: str
    element: Element


@dataclass
class _Pending:
    """A stream: an input not yet loaded in this trip, or an output.

    `pointer` is None for a one-element program, whose streams are
    addressed where used rather than holding a register each.
    """

    stream: Stream
    pointer: str | None
    stride: str | None


_CMPI = arith.CMPI_COMPARISON_OPERATIONS
_CMPF = arith.CMPF_COMPARISON_OPERATIONS

# Instruction tables by op class (see tnpu.dialects.dispatch).
# op -> (mnemonic, commutative, mnemonic with the uniform operand first)
_INT_BINARY: dict[type[Operation], tuple[str, bool, str | None]] = {
    arith.AddiOp: ("vadd", True, None),
    arith.SubiOp: ("vsub", False, "vrsub"),
    arith.MuliOp: ("vmul", True, None),
    arith.DivSIOp: ("vdiv", False, None),
    arith.DivUIOp: ("vdivu", False, None),
    arith.RemSIOp: ("vrem", False, None),
    arith.RemUIOp: ("vremu", False, None),
    arith.AndIOp: ("vand", True, None),
    arith.OrIOp: ("vor", True, None),
    arith.XOrIOp: ("vxor", True, None),
    arith.ShLIOp: ("vsll", False, None),
    arith.ShRSIOp: ("vsra", False, None),
    arith.ShRUIOp: ("vsrl", False, None),
    arith.MaxSIOp: ("vmax", True, None),
    arith.MinSIOp: ("vmin", True, None),
    arith.MaxUIOp: ("vmaxu", True, None),
    arith.MinUIOp: ("vminu", True, None),
    tt.MulhiUIOp: ("vmulhu", True, None),
}
_FLOAT_BINARY: dict[type[Operation], tuple[str, bool, str | None]] = {
    arith.AddfOp: ("vfadd", True, None),
    arith.SubfOp: ("vfsub", False, "vfrsub"),
    arith.MulfOp: ("vfmul", True, None),
    arith.DivfOp: ("vfdiv", False, "vfrdiv"),
    arith.MaxnumfOp: ("vfmax", True, None),
    arith.MinnumfOp: ("vfmin", True, None),
    math.CopySignOp: ("vfsgnj", False, None),
}
_CONVERSIONS = (arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.FPToUIOp, arith.ExtFOp,
                arith.TruncFOp)  # fmt: skip
_SIGNED_CASTS = (arith.ExtSIOp, arith.IndexCastOp, arith.SIToFPOp, arith.FPToSIOp)
_DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
_SHIFTS = (arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp)
_MASK_LOGIC = {arith.AndIOp: "vmand.mm", arith.OrIOp: "vmor.mm", arith.XOrIOp: "vmxor.mm",
               arith.AddiOp: "vmxor.mm", arith.SubiOp: "vmxor.mm"}  # fmt: skip
_ROUNDINGS = {math.RoundEvenOp: "roundeven", math.TruncOp: "trunc", math.FloorOp: "floor",
              math.CeilOp: "ceil", math.RoundOp: "round"}  # fmt: skip
_FLOAT_UNARY = {math.SqrtOp: "vfsqrt.v", math.AbsFOp: "vfabs.v", arith.NegfOp: "vfneg.v"}
_NAN_PROPAGATING = {arith.MaximumfOp: "vfmax", arith.MinimumfOp: "vfmin"}

# Comparisons, as (mnemonic stem, swap operands, negate result) of a basic form.
_ICMP = {
    "eq": ("eq", False, False), "ne": ("ne", False, False),
    "slt": ("lt", False, False), "sle": ("le", False, False),
    "sgt": ("lt", True, False), "sge": ("le", True, False),
    "ult": ("ltu", False, False), "ule": ("leu", False, False),
    "ugt": ("ltu", True, False), "uge": ("leu", True, False),
}  # fmt: skip
_MIRRORED = {
    "x": {"eq": "eq", "ne": "ne", "lt": "gt", "ltu": "gtu"},
    "f": {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge"},
}
"""Vector-scalar compares with the scalar on the left, by mirroring (RVV has no vmsge.vx)."""
_MASK_COMPARE = {  # vmandn.mm vd, x, y = x & ~y;  vmorn.mm vd, x, y = x | ~y
    "eq": ("vmxnor.mm", False), "ne": ("vmxor.mm", False),
    "ult": ("vmandn.mm", True), "ugt": ("vmandn.mm", False),
    "ule": ("vmorn.mm", True), "uge": ("vmorn.mm", False),
    "slt": ("vmandn.mm", False), "sgt": ("vmandn.mm", True),
    "sle": ("vmorn.mm", False), "sge": ("vmorn.mm", True),
}  # fmt: skip
_FCMP = {
    "oeq": ("eq", False, False), "une": ("ne", False, False),
    "olt": ("lt", False, False), "ole": ("le", False, False),
    "ogt": ("lt", True, False), "oge": ("le", True, False),
    "ult": ("le", True, True), "ule": ("lt", True, True),
    "ugt": ("le", False, True), "uge": ("lt", False, True),
}  # fmt: skip


class _ElementwiseLowering:
    def __init__(self, asm: AsmWriter, program: ElementwiseProgram, widest: int, lmul: int):
        self.asm = asm
        self.program = program
        self.widest = widest
        self.lmul = lmul
        """LMUL of the widest type, in eighths of a register."""
        group = lmul // 8
        self.free_groups = [f"v{i}" for i in range(group, 32, group)]
        self.values: dict[SSAValue, _Vec | _Pending | Uniform] = {}
        self.hoisted_x: dict[SSAValue, str] = {}
        self.hoisted_f: dict[SSAValue, str] = {}
        self.current_bits = widest
        self.mask_in_v0: _Vec | None = None
        self.last_use = self._last_uses()
        self.op_temps: list[str] = []
        self.op_scope = ExitStack()

    # -- driver ---------------------------------------------------------------

    def _last_uses(self) -> dict[SSAValue, int]:
        last: dict[SSAValue, int] = {}
        for index, op in enumerate(self.program.ops):
            for operand in op.operands:
                last[operand] = index
        for value, _ in self.program.outputs:
            last[value] = len(self.program.ops)
        return last

    def run(self) -> None:
        asm, program = self.asm, self.program
        with ExitStack() as scope:
            for value, source in program.inputs.items():
                if isinstance(source, Stream):
                    self.values[value] = self._open_stream(scope, source)
                else:
                    self.values[value] = source
            for op in program.ops:
                if isinstance(op, arith.ConstantOp):
                    element = _element(op.results[0], op)
                    bits = constant_bits(op.properties["value"], element)  # type: ignore[arg-type]
                    if bits is None:
                        raise CompileError(op, "only scalar constants can be used in a body")
                    self.values[op.results[0]] = Constant(bits, element)
            self._hoist_uniforms(scope)
            outputs = [
                (value, self._open_stream(scope, stream))
                for value, stream in program.outputs
            ]
            with StripLoop.over(asm, program.count, self.widest, self.lmul) as loop:
                for pending in [*self.values.values(), *(o for _, o in outputs)]:
                    if isinstance(pending, _Pending) and pending.pointer is not None:
                        loop.advance(pending.pointer, pending.stride or pending.stream.element.bytes)
                for index, op in enumerate(program.ops):
                    if not isinstance(op, arith.ConstantOp):
                        self._lower(op)
                    self._release_dead(op, index)
                for value, out in outputs:
                    self._store(value, out)
                    self._release_temps()
                self._release_all()

    def _open_stream(self, scope: ExitStack, stream: Stream) -> _Pending:
        if self.program.count == 1:
            return _Pending(stream, None, None)
        asm = self.asm
        (pointer,) = scope.enter_context(asm.ints(1))
        asm.scratch_address(pointer, stream.offset)
        if stream.base is not None:
            with asm.ints(1) as (bytes_,):
                asm.emit("slli", bytes_, stream.base, stream.element.log2_bytes)
                asm.emit("add", pointer, pointer, bytes_)
        stride = None
        if stream.stride is not None:
            (stride,) = scope.enter_context(asm.ints(1))
            asm.li(stride, stream.stride)
        return _Pending(stream, pointer, stride)

    def _hoist_uniforms(self, scope: ExitStack) -> None:
        """Put uniform values in registers before the loop, keeping some registers free."""
        asm = self.asm
        for value, source in self.values.items():
            if not isinstance(source, Scalar | Constant):
                continue
            if len(asm.int_pool.free) > 10:
                (register,) = scope.enter_context(asm.ints(1))
                self._materialize_bits(register, source)
                self.hoisted_x[value] = register
            if source.element.fpu and len(asm.float_pool.free) > 6:
                (fregister,) = scope.enter_context(asm.floats(1))
                self._materialize_float(fregister, value, source)
                self.hoisted_f[value] = fregister

    def _release_temps(self) -> None:
        for register in self.op_temps:
            self._give_group(register)
        self.op_temps = []
        self.op_scope.close()
        self.op_scope = ExitStack()

    def _release_dead(self, op: Operation, index: int) -> None:
        self._release_temps()
        # In operand order: a set of SSA values iterates in address order, and
        # the order registers are freed in decides which the next value gets.
        for operand in dict.fromkeys(op.operands):
            if self.last_use.get(operand) == index:
                self._drop(operand)
        for result in op.results:
            if result not in self.last_use:
                self._drop(result)

    def _drop(self, value: SSAValue) -> None:
        held = self.values.get(value)
        if isinstance(held, _Vec):
            self._give_group(held.register)
            del self.values[value]

    def _release_all(self) -> None:
        for value in list(self.values):
            self._drop(value)

    # -- registers ------------------------------------------------------------

    def _take_group(self) -> str:
        if not self.free_groups:
            raise OutOfVectorRegisters
        return self.free_groups.pop(0)

    def _give_group(self, register: str) -> None:
        if self.mask_in_v0 is not None and self.mask_in_v0.register == register:
            self.mask_in_v0 = None
        self.free_groups.insert(0, register)

    def _temp(self) -> str:
        register = self._take_group()
        self.op_temps.append(register)
        return register

    def _int_temp(self) -> str:
        (register,) = self.op_scope.enter_context(self.asm.ints(1))
        return register

    def _float_temp(self) -> str:
        (register,) = self.op_scope.enter_context(self.asm.floats(1))
        return register

    def _sew(self, bits: int) -> None:
        if bits != self.current_bits:
            eighths = self.lmul * bits // self.widest
            self.asm.emit("vsetvli", "zero", "zero", f"e{bits}", lmul_name(eighths), "ta", "mu")
            self.current_bits = bits

    def _define(self, value: SSAValue, register: str) -> _Vec:
        vec = _Vec(register, _element(value, self.program.anchor))
        self.values[value] = vec
        return vec

    def _result(self, op: Operation, index: int = 0) -> str:
        return self._define(op.results[index], self._take_group()).register

    # -- operands -------------------------------------------------------------

    def _is_uniform(self, value: SSAValue) -> bool:
        return isinstance(self.values.get(value), Scalar | Constant)

    def _materialize_bits(self, register: str, source: Uniform) -> None:
        if isinstance(source, Constant):
            self.asm.li(register, source.bits)
        else:
            self.asm.load_scalar(register, source.offset, source.element)

    def _materialize_float(self, register: str, value: SSAValue, source: Uniform) -> None:
        move = "fmv.w.x" if source.element.bits == 32 else "fmv.d.x"
        if value in self.hoisted_x:
            self.asm.emit(move, register, self.hoisted_x[value])
            return
        with self.asm.ints(1) as (bits,):
            self._materialize_bits(bits, source)
            self.asm.emit(move, register, bits)

    def _x(self, value: SSAValue) -> str:
        """A uniform value's bits in an integer register."""
        if value in self.hoisted_x:
            return self.hoisted_x[value]
        register = self._int_temp()
        self._materialize_bits(register, self.values[value])  # type: ignore[arg-type]
        return register

    def _f(self, value: SSAValue) -> str:
        """A uniform float in a float register."""
        if value in self.hoisted_f:
            return self.hoisted_f[value]
        register = self._float_temp()
        self._materialize_float(register, value, self.values[value])  # type: ignore[arg-type]
        return register

    def _v(self, value: SSAValue) -> _Vec:
        """A value in a vector register group (masks in a mask register)."""
        held = self.values[value]
        if isinstance(held, _Vec):
            return held
        if isinstance(held, _Pending):
            return self._load(value, held)
        element = held.element
        register = self._temp()
        self._sew(element.bits)
        self.asm.emit("vmv.v.x", register, self._x(value))
        if element.is_mask:
            self.asm.emit("vmsne.vi", register, register, 0)
        return _Vec(register, element)

    def _address(self, pending: _Pending) -> str:
        """The stream's pointer, or for a one-element program its element's address."""
        if pending.pointer is not None:
            return pending.pointer
        register = self._int_temp()
        self.asm.scratch_address(register, pending.stream.offset)
        if pending.stream.base is not None:
            with self.asm.ints(1) as (bytes_,):
                self.asm.emit("slli", bytes_, pending.stream.base, pending.stream.element.log2_bytes)
                self.asm.emit("add", register, register, bytes_)
        return register

    def _load(self, value: SSAValue, pending: _Pending) -> _Vec:
        element = pending.stream.element
        register = self._take_group()
        self._sew(element.bits)
        address = self._address(pending)
        if pending.stride is None:
            self.asm.emit(f"vle{element.bits}.v", register, f"({address})")
        else:
            self.asm.emit(f"vlse{element.bits}.v", register, f"({address})", pending.stride)
        if element.is_mask:
            self.asm.emit("vmsne.vi", register, register, 0)
        return self._define(value, register)

    def _store(self, value: SSAValue, out: _Pending) -> None:
        element = out.stream.element
        vec = self._v(value)
        register = vec.register
        self._sew(element.bits)
        if element.is_mask:
            self._into_v0(vec)
            register = self._temp()
            self.asm.emit("vmv.v.i", register, 0)
            self.asm.emit("vmerge.vim", register, register, 1, "v0")
        address = self._address(out)
        if out.stride is None:
            self.asm.emit(f"vse{element.bits}.v", register, f"({address})")
        else:
            self.asm.emit(f"vsse{element.bits}.v", register, f"({address})", out.stride)

    def _into_v0(self, mask: _Vec) -> None:
        if self.mask_in_v0 is not mask:
            self.asm.emit("vmv1r.v", "v0", mask.register)
            self.mask_in_v0 = mask

    def _clobber_v0(self) -> None:
        self.mask_in_v0 = None

    # -- ops ------------------------------------------------------------------

    def _lower(self, op: Operation) -> None:
        if op.regions:
            raise CompileError(op, "ops with regions cannot be vectorized in a body")
        if (mask_logic := entry_for(_MASK_LOGIC, op)) and _element(op.results[0], op).is_mask:
            return self._mask_logic(op, mask_logic)
        if entry := entry_for(_INT_BINARY, op):
            return self._binary(op, entry, "x")
        if entry := entry_for(_FLOAT_BINARY, op):
            return self._binary(op, entry, "f")
        if mnemonic := entry_for(_FLOAT_UNARY, op):
            return self._unary(op, mnemonic)
        if mnemonic := entry_for(_NAN_PROPAGATING, op):
            return self._nan_propagating(op, mnemonic)
        if kind := entry_for(_ROUNDINGS, op):
            return self._round(op, kind)
        handler = entry_for(_HANDLERS, op)
        if handler is None:
            raise CompileError(op, "has no RVV lowering (run expand-math for math functions)")
        handler(self, op)

    def _binary(self, op: Operation, entry: tuple[str, bool, str | None], scalar_kind: str) -> None:
        mnemonic, commutative, reversed_mnemonic = entry
        lhs, rhs = op.operands
        element = _element(op.results[0], op)
        if element.half_float:
            raise CompileError(op, f"{element.half_float} arithmetic needs extension to f32 first")
        if isinstance(op, _DIVISIONS + _SHIFTS) and not self._safe_divisor_or_shift(op, rhs, element):
            return self._guarded_binary(op, mnemonic, element)
        scalar = self._f if scalar_kind == "f" else self._x
        self._sew(element.bits)
        if self._is_uniform(rhs):
            a = self._v(lhs).register
            self.asm.emit(f"{mnemonic}.v{scalar_kind}", self._result(op), a, scalar(rhs))
        elif self._is_uniform(lhs) and (commutative or reversed_mnemonic):
            b = self._v(rhs).register
            name = mnemonic if commutative else reversed_mnemonic
            self.asm.emit(f"{name}.v{scalar_kind}", self._result(op), b, scalar(lhs))
        else:
            a, b = self._v(lhs).register, self._v(rhs).register
            self._sew(element.bits)
            self.asm.emit(f"{mnemonic}.vv", self._result(op), a, b)

    def _safe_divisor_or_shift(self, op: Operation, rhs: SSAValue, element: Element) -> bool:
        """Whether a constant right operand needs none of the guards below."""
        held = self.values.get(rhs)
        if not isinstance(held, Constant):
            return False
        if isinstance(op, _DIVISIONS):
            return held.bits != 0
        return 0 <= held.bits < element.bits

    def _guarded_binary(self, op: Operation, mnemonic: str, element: Element) -> None:
        """Division by zero gives 0; a shift by the width or more gives 0 (or the sign).

        These are the interpreters' (and Triton's interpreter's) semantics;
        RVV itself gives -1 or the dividend, and shifts by the low bits.
        """
        a, b = (self._v(v).register for v in op.operands)
        self._sew(element.bits)
        result = self._result(op)
        if isinstance(op, arith.ShRSIOp):
            amount = self._temp()
            with self.asm.ints(1) as (limit,):
                self.asm.li(limit, element.bits - 1)
                self.asm.emit("vminu.vx", amount, b, limit)
            self.asm.emit("vsra.vv", result, a, amount)
            return
        self.asm.emit(f"{mnemonic}.vv", result, a, b)
        if isinstance(op, _DIVISIONS):
            self.asm.emit("vmseq.vi", "v0", b, 0)
        else:
            with self.asm.ints(1) as (limit,):
                self.asm.li(limit, element.bits - 1)
                self.asm.emit("vmsgtu.vx", "v0", b, limit)
        self.asm.emit("vmerge.vim", result, result, 0, "v0")
        self._clobber_v0()

    def _mask_logic(self, op: Operation, mnemonic: str) -> None:
        a, b = (self._v(v).register for v in op.operands)
        self.asm.emit(mnemonic, self._result(op), a, b)

    def _unary(self, op: Operation, mnemonic: str) -> None:
        source = self._v(op.operands[0])
        self._sew(source.element.bits)
        self.asm.emit(mnemonic, self._result(op), source.register)

    def _nan_propagating(self, op: Operation, mnemonic: str) -> None:
        """maximumf/minimumf: RVV's vfmax/vfmin return the non-NaN operand; IEEE maximum returns NaN."""
        a, b = (self._v(v) for v in op.operands)
        self._sew(a.element.bits)
        result = self._result(op)
        self.asm.emit(f"{mnemonic}.vv", result, a.register, b.register)
        for operand in (a, b):
            self.asm.emit("vmfne.vv", "v0", operand.register, operand.register)
            self.asm.emit("vmerge.vvm", result, result, operand.register, "v0")
        self._clobber_v0()

    def _round(self, op: Operation, kind: str) -> None:
        """Round to an integral float without touching frm (one sequence per rounding).

        trunc converts towards zero; floor/ceil step the truncation by one
        where it went the wrong way; round (half away from zero) steps
        where the dropped fraction is at least one half; roundeven adds and
        subtracts 2^(mantissa bits) in the default round-to-nearest-even
        mode.  Magnitudes of 2^(mantissa bits) and above (and NaN, inf) are
        already integral and are kept; the sign is copied back so -0.5
        rounds to -0.0.
        """
        x = self._v(op.operands[0]).register
        bits = _element(op.operands[0], op).bits
        self._sew(bits)
        result = self._result(op)
        limit = self._float_constant(2.0**23 if bits == 32 else 2.0**52, bits)
        if kind == "roundeven":
            self.asm.emit("vfabs.v", result, x)
            self.asm.emit("vfadd.vf", result, result, limit)
            self.asm.emit("vfsub.vf", result, result, limit)
        else:
            self._toward_zero("vfcvt.x.f.v", result, x)
            self.asm.emit("vfcvt.f.x.v", result, result)
        if kind in ("floor", "ceil"):
            one = self._float_constant(1.0, bits)
            if kind == "floor":
                self.asm.emit("vmflt.vv", "v0", x, result)
                self.asm.emit("vfsub.vf", result, result, one, "v0.t")
            else:
                self.asm.emit("vmflt.vv", "v0", result, x)
                self.asm.emit("vfadd.vf", result, result, one, "v0.t")
        elif kind == "round":
            fraction, step = self._temp(), self._temp()
            self.asm.emit("vfsub.vv", fraction, x, result)
            self.asm.emit("vfabs.v", fraction, fraction)
            self.asm.emit("vmfge.vf", "v0", fraction, self._float_constant(0.5, bits))
            self.asm.emit("vfmv.v.f", step, self._float_constant(1.0, bits))
            self.asm.emit("vfsgnj.vv", step, step, x)
            self.asm.emit("vfadd.vv", result, result, step, "v0.t")
        self.asm.emit("vfsgnj.vv", result, result, x)
        magnitude = self._temp()
        self.asm.emit("vfabs.v", magnitude, x)
        self.asm.emit("vmflt.vf", "v0", magnitude, limit)
        self.asm.emit("vmerge.vvm", result, x, result, "v0")
        self._clobber_v0()

    def _toward_zero(self, mnemonic: str, dest: str, source: str) -> None:
        """A float-to-integer conversion rounding toward zero, through frm.

        The static-rounding forms (vfcvt.rtz.*) would do, but qemu 7.2
        aborts on them (decode_save_opc assertion); frm is restored after.
        """
        saved = self._int_temp()
        self.asm.emit("fsrmi", saved, 1)
        self.asm.emit(mnemonic, dest, source)
        self.asm.emit("fsrm", saved)

    def _float_constant(self, value: float, bits: int) -> str:
        """A float register holding `value` for the current op."""
        register, pattern = self._float_temp(), self._int_temp()
        self.asm.li(pattern, _f32_bits(value) if bits == 32 else _f64_bits(value))
        self.asm.emit("fmv.w.x" if bits == 32 else "fmv.d.x", register, pattern)
        return register

    def _fma(self, op: Operation) -> None:
        a, b, c = (self._v(v) for v in op.operands)
        self._sew(c.element.bits)
        result = self._result(op)
        self.asm.emit("vmv.v.v", result, c.register)
        self.asm.emit("vfmacc.vv", result, a.register, b.register)

    def _absi(self, op: Operation) -> None:
        x = self._v(op.operands[0])
        self._sew(x.element.bits)
        result = self._result(op)
        self.asm.emit("vrsub.vi", result, x.register, 0)
        self.asm.emit("vmax.vv", result, result, x.register)

    def _rsqrt(self, op: Operation) -> None:
        x = self._v(op.operands[0])
        bits = x.element.bits
        self._sew(bits)
        result = self._result(op)
        self.asm.emit("vfsqrt.v", result, x.register)
        self.asm.emit("vfrdiv.vf", result, result, self._float_constant(1.0, bits))

    def _remf(self, op: Operation) -> None:
        """C fmod: x - trunc(x / y) * y, in f64 for f32 operands so the quotient is exact enough."""
        x, y = (self._v(v) for v in op.operands)
        bits = x.element.bits
        result = self._result(op)
        if bits == 32:
            wide_x, wide_y, quotient = self._temp(), self._temp(), self._temp()
            self._sew(32)
            self.asm.emit("vfwcvt.f.f.v", wide_x, x.register)
            self.asm.emit("vfwcvt.f.f.v", wide_y, y.register)
            self._sew(64)
            self._fmod_into(quotient, wide_x, wide_y)
            self._sew(32)
            self.asm.emit("vfncvt.f.f.w", result, quotient)
        else:
            self._sew(64)
            self._fmod_into(result, x.register, y.register)

    def _fmod_into(self, out: str, x: str, y: str) -> None:
        """out = fmod(x, y) at the current (f64) SEW; out may not alias x or y.

        x - trunc(x/y)*y, with trunc keeping quotients of 2^52 and more
        (already integral), the result taking the sign of x, and a finite x
        returned unchanged by an infinite y, as C's fmod does.
        """
        asm = self.asm
        truncated, magnitude = self._temp(), self._temp()
        infinity = self._float_constant(float("inf"), 64)
        asm.emit("vfdiv.vv", out, x, y)
        self._toward_zero("vfcvt.x.f.v", truncated, out)
        asm.emit("vfcvt.f.x.v", truncated, truncated)
        asm.emit("vfsgnj.vv", truncated, truncated, out)
        asm.emit("vfabs.v", magnitude, out)
        asm.emit("vmflt.vf", "v0", magnitude, self._float_constant(2.0**52, 64))
        asm.emit("vmerge.vvm", out, out, truncated, "v0")
        asm.emit("vfnmsub.vv", out, y, x)
        asm.emit("vfsgnj.vv", out, out, x)
        asm.emit("vfabs.v", magnitude, y)
        asm.emit("vmfeq.vf", "v0", magnitude, infinity)
        asm.emit("vfabs.v", magnitude, x)
        asm.emit("vmflt.vf", truncated, magnitude, infinity)
        asm.emit("vmand.mm", "v0", "v0", truncated)
        asm.emit("vmerge.vvm", out, out, x, "v0")
        self._clobber_v0()

    def _compare(self, op: Operation, table: dict[str, tuple[str, bool, bool]], names: list[str], kind: str) -> None:
        predicate = names[op.predicate.value.data]  # type: ignore[attr-defined]
        lhs, rhs = op.operands
        if kind == "f" and predicate in ("one", "ueq", "ord", "uno", "true", "false"):
            return self._fcmp_compound(op, predicate)
        if _element(lhs, op).is_mask:
            return self._mask_compare(op, predicate)
        stem, swap, negate = table[predicate]
        if swap:
            lhs, rhs = rhs, lhs
        result = self._result(op)
        prefix = "vmf" if kind == "f" else "vms"
        scalar = self._f if kind == "f" else self._x
        element = _element(lhs, op)
        if self._is_uniform(rhs):
            a = self._v(lhs).register
            self._sew(element.bits)
            self.asm.emit(f"{prefix}{stem}.v{kind}", result, a, scalar(rhs))
        elif self._is_uniform(lhs) and stem in _MIRRORED[kind]:
            # a < b  ==  b > a, which has a vector-scalar form.
            mirrored = _MIRRORED[kind][stem]
            b = self._v(rhs).register
            self._sew(element.bits)
            self.asm.emit(f"{prefix}{mirrored}.v{kind}", result, b, scalar(lhs))
        else:
            a, b = self._v(lhs).register, self._v(rhs).register
            self._sew(element.bits)
            self.asm.emit(f"{prefix}{stem}.vv", result, a, b)
        if negate:
            self.asm.emit("vmnot.m", result, result)

    def _fcmp_compound(self, op: Operation, predicate: str) -> None:
        result = self._result(op)
        if predicate in ("true", "false"):
            self.asm.emit("vmset.m" if predicate == "true" else "vmclr.m", result)
            return
        a, b = (self._v(v) for v in op.operands)
        self._sew(a.element.bits)
        other = self._temp()
        if predicate in ("one", "ueq"):
            self.asm.emit("vmflt.vv", result, a.register, b.register)
            self.asm.emit("vmflt.vv", other, b.register, a.register)
            self.asm.emit("vmor.mm", result, result, other)
        else:
            self.asm.emit("vmfeq.vv", result, a.register, a.register)
            self.asm.emit("vmfeq.vv", other, b.register, b.register)
            self.asm.emit("vmand.mm", result, result, other)
        if predicate in ("ueq", "uno"):
            self.asm.emit("vmnot.m", result, result)

    def _mask_compare(self, op: Operation, predicate: str) -> None:
        """Comparisons of i1 values: true is 1 unsigned and -1 signed."""
        a, b = (self._v(v).register for v in op.operands)
        mnemonic, swap = _MASK_COMPARE[predicate]
        self.asm.emit(mnemonic, self._result(op), *((b, a) if swap else (a, b)))

    def _select(self, op: Operation) -> None:
        condition, on_true, on_false = op.operands
        element = _element(op.results[0], op)
        mask = self._v(condition)
        if element.is_mask:
            t, f = self._v(on_true).register, self._v(on_false).register
            result, other = self._result(op), self._temp()
            self.asm.emit("vmand.mm", result, t, mask.register)
            self.asm.emit("vmandn.mm", other, f, mask.register)
            self.asm.emit("vmor.mm", result, result, other)
            return
        t, f = self._v(on_true).register, self._v(on_false).register
        self._into_v0(mask)
        self._sew(element.bits)
        self.asm.emit("vmerge.vvm", self._result(op), f, t, "v0")

    def _from_mask(self, mask: _Vec, true_value: int, bits: int, dest: str) -> None:
        """dest = true_value where the mask is set, 0 elsewhere, as `bits`-bit integers."""
        self._into_v0(mask)
        self._sew(bits)
        self.asm.emit("vmv.v.i", dest, 0)
        self.asm.emit("vmerge.vim", dest, dest, true_value, "v0")

    def _int_resize(
        self, source: str, from_bits: int, to_bits: int, signed: bool, dest: str | None = None
    ) -> str:
        """Sign/zero-extend or truncate integers into `dest` (or a temporary); returns it."""
        if to_bits > from_bits:
            register = dest or self._temp()
            self._sew(to_bits)
            extend = "vsext" if signed else "vzext"
            self.asm.emit(f"{extend}.vf{to_bits // from_bits}", register, source)
            return register
        if to_bits == from_bits:
            if dest is None:
                return source
            self._sew(to_bits)
            self.asm.emit("vmv.v.v", dest, source)
            return dest
        while from_bits > to_bits:
            from_bits //= 2
            register = dest if (dest and from_bits == to_bits) else self._temp()
            self._sew(from_bits)
            self.asm.emit("vnsrl.wi", register, source, 0)
            source = register
        return source

    def _cast(self, op: Operation) -> None:
        source_value, result_value = op.operands[0], op.results[0]
        source_element, result_element = _element(source_value, op), _element(result_value, op)
        signed = isinstance(op, _SIGNED_CASTS)
        if isinstance(op, arith.BitcastOp):
            source = self._v(source_value)
            self._sew(result_element.bits)
            self.asm.emit("vmv.v.v", self._result(op), source.register)
            return
        if source_element.is_float and result_element.is_float:
            return self._float_resize(op, source_element, result_element)
        if source_element.is_mask:
            return self._from_mask_cast(op, result_element, signed)
        if result_element.is_mask:
            if source_element.is_float:
                raise CompileError(op, "float to i1 conversion")
            source = self._v(source_value)
            self._sew(source.element.bits)
            low_bit = self._temp()
            self.asm.emit("vand.vi", low_bit, source.register, 1)
            self.asm.emit("vmsne.vi", self._result(op), low_bit, 0)
            return
        source = self._v(source_value).register
        if not source_element.is_float and not result_element.is_float:
            self._int_resize(source, source_element.bits, result_element.bits, signed, self._result(op))
        elif result_element.half_float:
            single = self._int_to_f32_round_to_odd(source, source_element.bits, signed)
            self._f32_to_half(single, result_element.half_float, self._result(op))
        elif not source_element.is_float:
            self._int_to_float(op, source, source_element.bits, result_element.bits, signed)
        elif source_element.half_float:
            single = self._half_to_f32(source, source_element.half_float)
            self._float_to_int(op, single, 32, result_element.bits, signed)
        else:
            self._float_to_int(op, source, source_element.bits, result_element.bits, signed)

    def _from_mask_cast(self, op: Operation, result_element: Element, signed: bool) -> None:
        """i1 to an integer or float: true is -1 signed and 1 unsigned, false is 0."""
        mask, true_value = self._v(op.operands[0]), -1 if signed else 1
        if not result_element.is_float:
            self._from_mask(mask, true_value, result_element.bits, self._result(op))
            return
        bits = 32 if result_element.half_float else result_element.bits
        number = self._temp() if result_element.half_float else self._result(op)
        self._from_mask(mask, true_value, bits, number)
        self.asm.emit("vfcvt.f.x.v", number, number)
        if result_element.half_float:
            self._f32_to_half(number, result_element.half_float, self._result(op))

    def _int_to_float(self, op: Operation, source: str, from_bits: int, to_bits: int, signed: bool) -> None:
        x = "x" if signed else "xu"
        if from_bits > to_bits:
            narrowed = self._int_resize(source, from_bits, 2 * to_bits, signed)
            self._sew(to_bits)
            self.asm.emit(f"vfncvt.f.{x}.w", self._result(op), narrowed)
            return
        widened = self._int_resize(source, from_bits, to_bits, signed)
        self._sew(to_bits)
        self.asm.emit(f"vfcvt.f.{x}.v", self._result(op), widened)

    def _int_to_f32_round_to_odd(self, source: str, from_bits: int, signed: bool) -> str:
        """An integer as f32 rounded to odd (a temporary at SEW 32).

        Rounding to odd first and to nearest even second rounds once: f32
        keeps more than two bits beyond a 16-bit float's mantissa.  Integers
        of 16 bits or fewer convert exactly; wider ones are truncated (frm =
        RTZ), converted back and, where that lost bits, get the sticky low bit.
        """
        x = "x" if signed else "xu"
        single = self._temp()
        if from_bits <= 16:
            widened = self._int_resize(source, from_bits, 32, signed)
            self._sew(32)
            self.asm.emit(f"vfcvt.f.{x}.v", single, widened)
            return single
        back = self._temp()
        self._sew(32)
        if from_bits == 32:
            self._toward_zero(f"vfcvt.f.{x}.v", single, source)
            self.asm.emit(f"vfcvt.{x}.f.v", back, single)
        else:
            self._toward_zero(f"vfncvt.f.{x}.w", single, source)
            self.asm.emit(f"vfwcvt.{x}.f.v", back, single)
            self._sew(64)
        self.asm.emit("vmsne.vv", "v0", back, source)
        self._clobber_v0()
        self._sew(32)
        self.asm.emit("vor.vi", single, single, 1, "v0.t")
        return single

    def _float_to_int(self, op: Operation, source: str, from_bits: int, to_bits: int, signed: bool) -> None:
        """Truncate, saturating (RVV does); NaN gives 0, as in the interpreters."""
        self._convert_float_to_int(op, source, from_bits, to_bits, signed)
        self._sew(from_bits)
        self.asm.emit("vmfne.vv", "v0", source, source)
        self._clobber_v0()
        self._sew(to_bits)
        result = self.values[op.results[0]].register  # type: ignore[union-attr]
        self.asm.emit("vmerge.vim", result, result, 0, "v0")

    def _convert_float_to_int(
        self, op: Operation, source: str, from_bits: int, to_bits: int, signed: bool
    ) -> None:
        x = "x" if signed else "xu"
        if to_bits == 2 * from_bits:
            self._sew(from_bits)
            self._toward_zero(f"vfwcvt.{x}.f.v", self._result(op), source)
        elif to_bits == from_bits:
            self._sew(from_bits)
            self._toward_zero(f"vfcvt.{x}.f.v", self._result(op), source)
        else:
            # Narrow to half the width (saturating), then clamp to the result's range.
            half, bits = self._temp(), from_bits // 2
            self._sew(bits)
            self._toward_zero(f"vfncvt.{x}.f.w", half, source)
            if to_bits < bits:
                bound = self._int_temp()
                if signed:
                    self.asm.li(bound, (1 << (to_bits - 1)) - 1)
                    self.asm.emit("vmin.vx", half, half, bound)
                    self.asm.li(bound, -(1 << (to_bits - 1)))
                    self.asm.emit("vmax.vx", half, half, bound)
                else:
                    self.asm.li(bound, (1 << to_bits) - 1)
                    self.asm.emit("vminu.vx", half, half, bound)
            self._int_resize(half, bits, to_bits, signed, self._result(op))

    def _float_resize(self, op: Operation, source_element: Element, result_element: Element) -> None:
        """extf/truncf between any two of f16, bf16, f32 and f64, each rounding once.

        16-bit floats pass through f32 (exact when widening); f64 narrows to
        a 16-bit float through f32 rounded to odd, so the result is rounded once.
        """
        source, source_bits = self._v(op.operands[0]).register, source_element.bits
        if source_element.half_float:
            source, source_bits = self._half_to_f32(source, source_element.half_float), 32
        if result_element.half_float:
            if source_bits == 64:
                source = self._f64_to_f32_round_to_odd(source)
            return self._f32_to_half(source, result_element.half_float, self._result(op))
        if result_element.bits == source_bits:
            self._sew(32)
            self.asm.emit("vmv.v.v", self._result(op), source)
        elif result_element.bits == 2 * source_bits:
            self._sew(source_bits)
            self.asm.emit("vfwcvt.f.f.v", self._result(op), source)
        else:
            self._sew(result_element.bits)
            self.asm.emit("vfncvt.f.f.w", self._result(op), source)

    def _f64_to_f32_round_to_odd(self, source: str) -> str:
        """An f64 as f32 rounded to odd, in a temporary; a NaN keeps its sign and top payload
        (quieted, as numpy's f64 to f32 does), where RVV would give the canonical NaN."""
        asm = self.asm
        single, nan, constant = self._temp(), self._temp(), self._int_temp()
        self._sew(32)
        asm.emit("vfncvt.rod.f.f.w", single, source)
        asm.emit("vnsrl.wi", nan, source, 29)
        asm.li(constant, 0x7FFFFF)
        asm.emit("vand.vx", nan, nan, constant)
        asm.li(constant, 0x7FC00000)
        asm.emit("vor.vx", nan, nan, constant)
        sign = self._temp()
        asm.li(constant, 63)
        asm.emit("vnsrl.wx", sign, source, constant)
        asm.emit("vsll.vi", sign, sign, 31)
        asm.emit("vor.vv", nan, nan, sign)
        self._sew(64)
        asm.emit("vmfne.vv", "v0", source, source)
        self._clobber_v0()
        self._sew(32)
        asm.emit("vmerge.vvm", single, single, nan, "v0")
        return single

    def _half_to_f32(self, source: str, kind: str) -> str:
        """A 16-bit float widened to f32 (exactly), in a temporary at SEW 32.

        bf16 is the top half of an f32.  f16 moves its exponent and mantissa
        into place and multiplies by 2^112, which rebiases normal numbers and
        normalises subnormal ones exactly; inf and NaN (payload kept, as
        numpy does) are set apart, and the sign is put back.
        """
        single = self._temp()
        self._sew(32)
        self.asm.emit("vzext.vf2", single, source)
        if kind == "bf16":
            self.asm.emit("vsll.vi", single, single, 16)
            return single
        sign, constant = self._temp(), self._int_temp()
        self.asm.li(constant, 0x8000)
        self.asm.emit("vand.vx", sign, single, constant)
        self.asm.emit("vxor.vv", single, single, sign)
        self.asm.emit("vsll.vi", sign, sign, 16)
        self.asm.li(constant, 0x7C00)
        self.asm.emit("vmsgeu.vx", "v0", single, constant)
        self._clobber_v0()
        self.asm.emit("vsll.vi", single, single, 13)
        self.asm.emit("vfmul.vf", single, single, self._float_constant(2.0**112, 32))
        self.asm.li(constant, 0x7F800000)
        self.asm.emit("vor.vx", single, single, constant, "v0.t")
        self.asm.emit("vor.vv", single, single, sign)
        return single

    def _f32_to_half(self, source: str, kind: str, dest: str) -> None:
        """An f32 rounded to the nearest even 16-bit float, into `dest` (SEW 16).

        On the bits: bf16 adds 0x7fff plus the kept low bit and keeps the
        top half (NaN becomes the quiet NaN).  f16 rebiases normal results
        the same way, rounds subnormal ones by adding 0.5 on the FPU (whose
        ulp is then f16's smallest subnormal), saturates to infinity from
        65536 on (the rounding carries smaller values there itself), and
        keeps a NaN's top payload bits, never turning it into an infinity,
        as numpy does.
        """
        if kind == "bf16":
            return self._f32_to_bf16(source, dest)
        asm = self.asm
        magnitude, rounded, subnormal, constant = self._temp(), self._temp(), self._temp(), self._int_temp()
        self._sew(32)
        asm.emit("vsll.vi", magnitude, source, 1)
        asm.emit("vsrl.vi", magnitude, magnitude, 1)
        asm.emit("vsrl.vi", rounded, magnitude, 13)
        asm.emit("vand.vi", rounded, rounded, 1)
        asm.li(constant, 0xFFF - 0x38000000)
        asm.emit("vadd.vx", rounded, rounded, constant)
        asm.emit("vadd.vv", rounded, rounded, magnitude)
        asm.emit("vsrl.vi", rounded, rounded, 13)
        asm.emit("vfadd.vf", subnormal, magnitude, self._float_constant(0.5, 32))
        asm.li(constant, 0x3F000000)
        asm.emit("vsub.vx", subnormal, subnormal, constant)
        asm.li(constant, 0x38800000)
        asm.emit("vmsltu.vx", "v0", magnitude, constant)
        asm.emit("vmerge.vvm", rounded, rounded, subnormal, "v0")
        asm.li(constant, 0x47800000)
        asm.emit("vmsgeu.vx", "v0", magnitude, constant)
        asm.li(constant, 0x7C00)
        asm.emit("vmerge.vxm", rounded, rounded, constant, "v0")
        nan = subnormal
        asm.emit("vsrl.vi", nan, magnitude, 13)
        asm.li(constant, 0x3FF)
        asm.emit("vand.vx", nan, nan, constant)
        asm.li(constant, 1)
        asm.emit("vmaxu.vx", nan, nan, constant)
        asm.li(constant, 0x7C00)
        asm.emit("vor.vx", nan, nan, constant)
        asm.emit("vmfne.vv", "v0", source, source)
        self._clobber_v0()
        asm.emit("vmerge.vvm", rounded, rounded, nan, "v0")
        asm.emit("vsrl.vi", magnitude, source, 16)
        asm.li(constant, 0x8000)
        asm.emit("vand.vx", magnitude, magnitude, constant)
        asm.emit("vor.vv", rounded, rounded, magnitude)
        self._sew(16)
        asm.emit("vnsrl.wi", dest, rounded, 0)

    def _f32_to_bf16(self, source: str, dest: str) -> None:
        """Round to nearest even on the bits: x + 0x7fff + ((x >> 16) & 1), top half.

        A NaN becomes the quiet NaN with its sign, as ml_dtypes makes it.
        """
        asm = self.asm
        self._sew(32)
        rounding, nan, constant = self._temp(), self._temp(), self._int_temp()
        asm.emit("vsrl.vi", rounding, source, 16)
        asm.emit("vand.vi", rounding, rounding, 1)
        asm.li(constant, 0x7FFF)
        asm.emit("vadd.vx", rounding, rounding, constant)
        asm.emit("vadd.vv", rounding, rounding, source)
        asm.emit("vsrl.vi", rounding, rounding, 16)
        asm.emit("vsrl.vi", nan, source, 16)
        asm.li(constant, 0x8000)
        asm.emit("vand.vx", nan, nan, constant)
        asm.li(constant, 0x7FC0)
        asm.emit("vor.vx", nan, nan, constant)
        asm.emit("vmfne.vv", "v0", source, source)
        self._clobber_v0()
        asm.emit("vmerge.vvm", rounding, rounding, nan, "v0")
        self._sew(16)
        asm.emit("vnsrl.wi", dest, rounding, 0)

    def _multiply_extended(self, op: Operation) -> None:
        """Low and high halves of the double-width product."""
        a, b = (self._v(v).register for v in op.operands)
        self._sew(_element(op.results[0], op).bits)
        high = "vmulhu.vv" if isinstance(op, arith.MulUIExtendedOp) else "vmulh.vv"
        self.asm.emit("vmul.vv", self._result(op, 0), a, b)
        self.asm.emit(high, self._result(op, 1), a, b)

    def _icmp(self, op: Operation) -> None:
        self._compare(op, _ICMP, _CMPI, "x")

    def _fcmp(self, op: Operation) -> None:
        self._compare(op, _FCMP, _CMPF, "f")


def _f32_bits(value: float) -> int:
    return struct.unpack("<i", struct.pack("<f", value))[0]


def _f64_bits(value: float) -> int:
    return struct.unpack("<q", struct.pack("<d", value))[0]


_HANDLERS: dict[type[Operation], Callable[..., None]] = {
    arith.CmpiOp: _ElementwiseLowering._icmp,
    arith.CmpfOp: _ElementwiseLowering._fcmp,
    arith.SelectOp: _ElementwiseLowering._select,
    arith.ExtSIOp: _ElementwiseLowering._cast,
    arith.ExtUIOp: _ElementwiseLowering._cast,
    arith.TruncIOp: _ElementwiseLowering._cast,
    arith.IndexCastOp: _ElementwiseLowering._cast,
    arith.SIToFPOp: _ElementwiseLowering._cast,
    arith.UIToFPOp: _ElementwiseLowering._cast,
    arith.FPToSIOp: _ElementwiseLowering._cast,
    arith.FPToUIOp: _ElementwiseLowering._cast,
    arith.ExtFOp: _ElementwiseLowering._cast,
    arith.TruncFOp: _ElementwiseLowering._cast,
    arith.BitcastOp: _ElementwiseLowering._cast,
    RemFOp: _ElementwiseLowering._remf,
    math.FmaOp: _ElementwiseLowering._fma,
    arith.MulUIExtendedOp: _ElementwiseLowering._multiply_extended,
    arith.MulSIExtendedOp: _ElementwiseLowering._multiply_extended,
    math.AbsIOp: _ElementwiseLowering._absi,
    math.RsqrtOp: _ElementwiseLowering._rsqrt,
}
