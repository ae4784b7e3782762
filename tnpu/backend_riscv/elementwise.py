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
element type, so `vl` is the same for every type in the body.  The LMUL
is the largest whose groups hold the program's register pressure
(`register_pressure`, from what each op's selector declares it takes:
`_demand`), computed before any code is written; the code is written once.
`v0` is kept for masks.  This module is the instruction selection: vector
registers come from `vector_registers.VectorRegisters`, the float
conversions and roundings from `float_algorithms`.  Uniform values are
hoisted into integer (bits) and float registers before the loop while
registers last.  So are stream pointers, advanced each trip; once
`STREAM_RESERVE` integer registers are all that is left, a stream's
address is rematerialised where it is read or written instead, from the
count of elements already done (a kernel with many loads, as Inductor
fuses them, never runs out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial

from xdsl.dialects import arith, math
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.asm import AsmWriter, StripLoop
from tnpu.backend_riscv.elements import Element, element_of, lmul_name
from tnpu.backend_riscv.float_algorithms import (
    F32_TO_HALF_SCRATCH,
    F64_TO_F32_ROUND_TO_ODD_SCRATCH,
    FMOD_SCRATCH,
    HALF_TO_F32_SCRATCH,
    INT_TO_F32_ROUND_TO_ODD_SCRATCH,
    ScalarTemps,
    f32_to_half,
    f64_to_f32_round_to_odd,
    float_constant,
    float_to_int,
    float_to_int_scratch,
    fmod_into,
    half_to_f32,
    int_resize,
    int_resize_scratch,
    int_to_f32_round_to_odd,
    int_to_float,
    int_to_float_scratch,
    round_to_integral,
    round_to_integral_scratch,
)
from tnpu.backend_riscv.register_pressure import OpDemand, VectorPressure, vector_pressure
from tnpu.backend_riscv.storage import Constant, Scalar, constant_bits
from tnpu.backend_riscv.vector_registers import VectorRegisters, VectorValue, last_uses
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


def emit_elementwise(asm: AsmWriter, program: ElementwiseProgram) -> None:
    """Emit `program` as one strip-mined loop, at the largest LMUL its register pressure allows."""
    uniforms = _uniform_values(program)
    pressure = elementwise_pressure(program, uniforms)
    lmul = pressure.lmul()
    if lmul is None:
        raise CompileError(
            pressure.at or program.anchor,
            f"needs {pressure.groups} vector registers live at once, more than the 31 there are"
            " (no spilling)",
        )
    _ElementwiseLowering(asm, program, _widest_bits(program), lmul, uniforms).run()


def elementwise_pressure(
    program: ElementwiseProgram, uniforms: dict[SSAValue, Uniform] | None = None
) -> VectorPressure:
    """The vector register pressure of `program` as this selector lowers it."""
    if uniforms is None:
        uniforms = _uniform_values(program)
    streamed = [value for value, source in program.inputs.items() if isinstance(source, Stream)]
    # Storing a mask widens it to bytes in a temporary.
    outputs = [(value, int(stream.element.is_mask)) for value, stream in program.outputs]
    return vector_pressure(
        program.ops, outputs, streamed, uniforms, lambda op: _demand(op, uniforms)
    )


def _uniform_values(program: ElementwiseProgram) -> dict[SSAValue, Uniform]:
    """The values that are the same for every element: scalar inputs and constants."""
    uniforms = {
        value: source for value, source in program.inputs.items() if not isinstance(source, Stream)
    }
    for op in program.ops:
        if isinstance(op, arith.ConstantOp):
            element = _element(op.results[0], op)
            bits = constant_bits(op.properties["value"], element)  # type: ignore[arg-type]
            if bits is None:
                raise CompileError(op, "only scalar constants can be used in a body")
            uniforms[op.results[0]] = Constant(bits, element)
    return uniforms


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


STREAM_RESERVE = 12
"""Integer registers kept free for the ops of a loop (their temporaries, rematerialised
addresses) when handing out stream pointers."""


@dataclass
class _Pending:
    """A stream: an input not yet loaded in this trip, or an output.

    `pointer` is None for a stream addressed where it is used (see
    `_address`): every stream of a one-element program, and those of a
    loop left without a register.  `stride` holds a strided stream's
    stride while `pointer` does.
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


class _ElementwiseLowering(ScalarTemps):
    """Instruction selection for one program: each op's instructions, on registers
    `VectorRegisters` hands out (vector) or the writer's pools lend (scalar)."""

    def __init__(
        self, asm: AsmWriter, program: ElementwiseProgram, widest: int, lmul: int,
        uniforms: dict[SSAValue, Uniform],
    ):  # fmt: skip
        self.asm = asm
        self.program = program
        self.widest = widest
        self.lmul = lmul
        """LMUL of the widest type, in eighths of a register."""
        self.registers = VectorRegisters(
            lmul, last_uses(program.ops, [value for value, _ in program.outputs])
        )
        self.uniforms = uniforms
        self.values: dict[SSAValue, _Pending | Uniform] = {}
        self.hoisted_x: dict[SSAValue, str] = {}
        self.hoisted_f: dict[SSAValue, str] = {}
        self.current_bits = widest
        self.op_scope = ExitStack()
        """Scalar temporaries of the op being selected."""
        self.done: str | None = None
        """Elements of the loop done before this trip, once a stream is addressed where used."""
        self.strides: dict[int, str] = {}
        """A register per distinct stride, shared by the streams of that stride."""

    # -- driver ---------------------------------------------------------------

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
                    self.values[op.results[0]] = self.uniforms[op.results[0]]
            self._hoist_uniforms(scope)
            outputs = [
                (value, self._open_stream(scope, stream))
                for value, stream in program.outputs
            ]
            with StripLoop.over(asm, program.count, self.widest, self.lmul) as loop:
                for pending in [*self.values.values(), *(o for _, o in outputs)]:
                    if isinstance(pending, _Pending) and pending.pointer is not None:
                        loop.advance(pending.pointer, pending.stride or pending.stream.element.bytes)
                if self.done is not None:
                    loop.advance(self.done, 1)
                for index, op in enumerate(program.ops):
                    if not isinstance(op, arith.ConstantOp):
                        self._lower(op)
                    self._release_temps()
                    self.registers.release_after(op, index)
                for value, out in outputs:
                    self._store(value, out)
                    self._release_temps()
                self.registers.release_all()

    def _open_stream(self, scope: ExitStack, stream: Stream) -> _Pending:
        if self.program.count == 1:
            return _Pending(stream, None, None)
        asm = self.asm
        wanted = 1 if stream.stride is None or stream.stride in self.strides else 2
        if len(asm.int_pool.free) - wanted < STREAM_RESERVE:
            if self.done is None:
                (self.done,) = scope.enter_context(asm.ints(1))
                asm.li(self.done, 0)
            return _Pending(stream, None, None)
        (pointer,) = scope.enter_context(asm.ints(1))
        asm.scratch_address(pointer, stream.offset)
        if stream.base is not None:
            with asm.ints(1) as (bytes_,):
                asm.emit("slli", bytes_, stream.base, stream.element.log2_bytes)
                asm.emit("add", pointer, pointer, bytes_)
        stride = None
        if stream.stride is not None:
            # A scan along the last axis reads and writes every operand at one
            # stride: one register for all of them, not one each.
            stride = self.strides.get(stream.stride)
            if stride is None:
                (stride,) = scope.enter_context(asm.ints(1))
                asm.li(stride, stream.stride)
                self.strides[stream.stride] = stride
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
        self.registers.release_temps()
        self.op_scope.close()
        self.op_scope = ExitStack()

    # -- registers ------------------------------------------------------------

    def temp(self) -> str:
        return self.registers.temp()

    def sew(self, bits: int) -> None:
        if bits != self.current_bits:
            eighths = self.lmul * bits // self.widest
            self.asm.emit("vsetvli", "zero", "zero", f"e{bits}", lmul_name(eighths), "ta", "mu")
            self.current_bits = bits

    def _result(self, op: Operation, index: int = 0) -> str:
        value = op.results[index]
        return self.registers.define(value, _element(value, self.program.anchor)).register

    # -- operands -------------------------------------------------------------

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
        register = self.int_temp()
        self._materialize_bits(register, self.values[value])  # type: ignore[arg-type]
        return register

    def _f(self, value: SSAValue) -> str:
        """A uniform float in a float register."""
        if value in self.hoisted_f:
            return self.hoisted_f[value]
        register = self.float_temp()
        self._materialize_float(register, value, self.values[value])  # type: ignore[arg-type]
        return register

    def _v(self, value: SSAValue) -> VectorValue:
        """A value in a vector register group (masks in a mask register)."""
        if (vector := self.registers.held.get(value)) is not None:
            return vector
        held = self.values[value]
        if isinstance(held, _Pending):
            return self._load(value, held)
        element = held.element
        register = self.temp()
        self.sew(element.bits)
        self.asm.emit("vmv.v.x", register, self._x(value))
        if element.is_mask:
            self.asm.emit("vmsne.vi", register, register, 0)
        return VectorValue(register, element)

    def _address(self, pending: _Pending) -> str:
        """The stream's pointer, or the address of its first element of this trip,
        computed here (rematerialised) for a stream without one."""
        if pending.pointer is not None:
            return pending.pointer
        asm, stream = self.asm, pending.stream
        register = self.int_temp()
        asm.scratch_address(register, stream.offset)
        with asm.ints(1) as (bytes_,):
            if stream.base is not None:
                asm.emit("slli", bytes_, stream.base, stream.element.log2_bytes)
                asm.emit("add", register, register, bytes_)
            if self.done is not None:
                if stream.stride is None:
                    asm.emit("slli", bytes_, self.done, stream.element.log2_bytes)
                else:
                    asm.li(bytes_, stream.stride)
                    asm.emit("mul", bytes_, bytes_, self.done)
                asm.emit("add", register, register, bytes_)
        return register

    def _stride(self, pending: _Pending) -> str | None:
        """A register holding a strided stream's stride (None: contiguous)."""
        if pending.stride is not None or pending.stream.stride is None or self.program.count == 1:
            return pending.stride
        register = self.int_temp()
        self.asm.li(register, pending.stream.stride)
        return register

    def _load(self, value: SSAValue, pending: _Pending) -> VectorValue:
        element = pending.stream.element
        vector = self.registers.define(value, _element(value, self.program.anchor))
        register = vector.register
        self.sew(element.bits)
        address = self._address(pending)
        if (stride := self._stride(pending)) is None:
            self.asm.emit(f"vle{element.bits}.v", register, f"({address})")
        else:
            self.asm.emit(f"vlse{element.bits}.v", register, f"({address})", stride)
        if element.is_mask:
            self.asm.emit("vmsne.vi", register, register, 0)
        return vector

    def _store(self, value: SSAValue, out: _Pending) -> None:
        element = out.stream.element
        vec = self._v(value)
        register = vec.register
        self.sew(element.bits)
        if element.is_mask:
            self._into_v0(vec)
            register = self.temp()
            self.asm.emit("vmv.v.i", register, 0)
            self.asm.emit("vmerge.vim", register, register, 1, "v0")
        address = self._address(out)
        if (stride := self._stride(out)) is None:
            self.asm.emit(f"vse{element.bits}.v", register, f"({address})")
        else:
            self.asm.emit(f"vsse{element.bits}.v", register, f"({address})", stride)

    def _into_v0(self, mask: VectorValue) -> None:
        if self.registers.in_v0 is not mask:
            self.asm.emit("vmv1r.v", "v0", mask.register)
            self.registers.in_v0 = mask

    def clobber_v0(self) -> None:
        self.registers.in_v0 = None

    # -- ops ------------------------------------------------------------------

    def _lower(self, op: Operation) -> None:
        if op.regions:
            raise CompileError(op, "ops with regions cannot be vectorized in a body")
        if (mask_logic := entry_for(_MASK_LOGIC, op)) and _element(op.results[0], op).is_mask:
            return self._mask_logic(op, mask_logic)
        if entry := entry_for(_INT_BINARY, op):
            return self._binary(op, entry, "x")
        float_op = any(entry_for(table, op) for table in (_FLOAT_BINARY, _FLOAT_UNARY, _NAN_PROPAGATING, _ROUNDINGS))
        if float_op and (narrow := _element(op.results[0], op).half_float):
            raise CompileError(op, f"{narrow} arithmetic needs extension to f32 first")
        if entry := entry_for(_FLOAT_BINARY, op):
            return self._binary(op, entry, "f")
        if mnemonic := entry_for(_FLOAT_UNARY, op):
            return self._unary(op, mnemonic)
        if mnemonic := entry_for(_NAN_PROPAGATING, op):
            return self._nan_propagating(op, mnemonic)
        if kind := entry_for(_ROUNDINGS, op):
            return self._round(op, kind)
        entry = entry_for(_HANDLERS, op)
        if entry is None:
            raise CompileError(op, "has no RVV lowering (run expand-math for math functions)")
        select, _ = entry
        select(self, op)

    def _binary(self, op: Operation, entry: tuple[str, bool, str | None], scalar_kind: str) -> None:
        mnemonic, commutative, reversed_mnemonic = entry
        lhs, rhs = op.operands
        element = _element(op.results[0], op)
        if _needs_guard(op, self.uniforms.get(rhs), element):
            return self._guarded_binary(op, mnemonic, element)
        scalar = self._f if scalar_kind == "f" else self._x
        self.sew(element.bits)
        form = _operand_form(lhs, rhs, self.uniforms, bool(commutative or reversed_mnemonic))
        if form == "vector-scalar":
            a = self._v(lhs).register
            self.asm.emit(f"{mnemonic}.v{scalar_kind}", self._result(op), a, scalar(rhs))
        elif form == "scalar-vector":
            b = self._v(rhs).register
            name = mnemonic if commutative else reversed_mnemonic
            self.asm.emit(f"{name}.v{scalar_kind}", self._result(op), b, scalar(lhs))
        else:
            a, b = self._v(lhs).register, self._v(rhs).register
            self.sew(element.bits)
            self.asm.emit(f"{mnemonic}.vv", self._result(op), a, b)

    def _guarded_binary(self, op: Operation, mnemonic: str, element: Element) -> None:
        """Division by zero gives 0; a shift by the width or more gives 0 (or the sign).

        These are the interpreters' (and Triton's interpreter's) semantics;
        RVV itself gives -1 or the dividend, and shifts by the low bits.
        """
        a, b = (self._v(v).register for v in op.operands)
        self.sew(element.bits)
        result = self._result(op)
        if isinstance(op, arith.ShRSIOp):
            amount = self.temp()
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
        self.clobber_v0()

    def _mask_logic(self, op: Operation, mnemonic: str) -> None:
        a, b = (self._v(v).register for v in op.operands)
        self.asm.emit(mnemonic, self._result(op), a, b)

    def _unary(self, op: Operation, mnemonic: str) -> None:
        source = self._v(op.operands[0])
        self.sew(source.element.bits)
        self.asm.emit(mnemonic, self._result(op), source.register)

    def _nan_propagating(self, op: Operation, mnemonic: str) -> None:
        """maximumf/minimumf: RVV's vfmax/vfmin return the non-NaN operand; IEEE maximum returns NaN."""
        a, b = (self._v(v) for v in op.operands)
        self.sew(a.element.bits)
        result = self._result(op)
        self.asm.emit(f"{mnemonic}.vv", result, a.register, b.register)
        for operand in (a, b):
            self.asm.emit("vmfne.vv", "v0", operand.register, operand.register)
            self.asm.emit("vmerge.vvm", result, result, operand.register, "v0")
        self.clobber_v0()

    def _round(self, op: Operation, kind: str) -> None:
        x = self._v(op.operands[0]).register
        bits = _element(op.operands[0], op).bits
        self.sew(bits)
        round_to_integral(self, kind, self._result(op), x, bits)

    def _fma(self, op: Operation) -> None:
        a, b, c = (self._v(v) for v in op.operands)
        self.sew(c.element.bits)
        result = self._result(op)
        self.asm.emit("vmv.v.v", result, c.register)
        self.asm.emit("vfmacc.vv", result, a.register, b.register)

    def _absi(self, op: Operation) -> None:
        x = self._v(op.operands[0])
        self.sew(x.element.bits)
        result = self._result(op)
        self.asm.emit("vrsub.vi", result, x.register, 0)
        self.asm.emit("vmax.vv", result, result, x.register)

    def _rsqrt(self, op: Operation) -> None:
        x = self._v(op.operands[0])
        bits = x.element.bits
        self.sew(bits)
        result = self._result(op)
        self.asm.emit("vfsqrt.v", result, x.register)
        self.asm.emit("vfrdiv.vf", result, result, float_constant(self, 1.0, bits))

    def _remf(self, op: Operation) -> None:
        """C fmod: x - trunc(x / y) * y, in f64 for f32 operands so the quotient is exact enough."""
        x, y = (self._v(v) for v in op.operands)
        bits = x.element.bits
        result = self._result(op)
        if bits == 32:
            wide_x, wide_y, quotient = self.temp(), self.temp(), self.temp()
            self.sew(32)
            self.asm.emit("vfwcvt.f.f.v", wide_x, x.register)
            self.asm.emit("vfwcvt.f.f.v", wide_y, y.register)
            self.sew(64)
            fmod_into(self, quotient, wide_x, wide_y)
            self.sew(32)
            self.asm.emit("vfncvt.f.f.w", result, quotient)
        else:
            self.sew(64)
            fmod_into(self, result, x.register, y.register)

    def _compare(self, op: Operation) -> None:
        comparison = _comparison(op, self.uniforms)
        kind, lhs, rhs = comparison.kind, comparison.lhs, comparison.rhs
        if comparison.form == "compound":
            return self._fcmp_compound(op, comparison.predicate)
        if comparison.form == "mask":
            return self._mask_compare(op, comparison.predicate)
        result = self._result(op)
        prefix = "vmf" if kind == "f" else "vms"
        scalar = self._f if kind == "f" else self._x
        element = _element(lhs, op)
        if comparison.form == "vector-scalar":
            a = self._v(lhs).register
            self.sew(element.bits)
            self.asm.emit(f"{prefix}{comparison.stem}.v{kind}", result, a, scalar(rhs))
        elif comparison.form == "scalar-vector":
            # a < b  ==  b > a, which has a vector-scalar form.
            mirrored = _MIRRORED[kind][comparison.stem]
            b = self._v(rhs).register
            self.sew(element.bits)
            self.asm.emit(f"{prefix}{mirrored}.v{kind}", result, b, scalar(lhs))
        else:
            a, b = self._v(lhs).register, self._v(rhs).register
            self.sew(element.bits)
            self.asm.emit(f"{prefix}{comparison.stem}.vv", result, a, b)
        if comparison.negate:
            self.asm.emit("vmnot.m", result, result)

    def _fcmp_compound(self, op: Operation, predicate: str) -> None:
        result = self._result(op)
        if predicate in ("true", "false"):
            self.asm.emit("vmset.m" if predicate == "true" else "vmclr.m", result)
            return
        a, b = (self._v(v) for v in op.operands)
        self.sew(a.element.bits)
        other = self.temp()
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
            result, other = self._result(op), self.temp()
            self.asm.emit("vmand.mm", result, t, mask.register)
            self.asm.emit("vmandn.mm", other, f, mask.register)
            self.asm.emit("vmor.mm", result, result, other)
            return
        t, f = self._v(on_true).register, self._v(on_false).register
        self._into_v0(mask)
        self.sew(element.bits)
        self.asm.emit("vmerge.vvm", self._result(op), f, t, "v0")

    def _from_mask(self, mask: VectorValue, true_value: int, bits: int, dest: str) -> None:
        """dest = true_value where the mask is set, 0 elsewhere, as `bits`-bit integers."""
        self._into_v0(mask)
        self.sew(bits)
        self.asm.emit("vmv.v.i", dest, 0)
        self.asm.emit("vmerge.vim", dest, dest, true_value, "v0")

    def _cast(self, op: Operation) -> None:
        source_value, result_value = op.operands[0], op.results[0]
        source_element, result_element = _element(source_value, op), _element(result_value, op)
        signed = isinstance(op, _SIGNED_CASTS)
        if isinstance(op, arith.BitcastOp):
            source = self._v(source_value)
            self.sew(result_element.bits)
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
            self.sew(source.element.bits)
            low_bit = self.temp()
            self.asm.emit("vand.vi", low_bit, source.register, 1)
            self.asm.emit("vmsne.vi", self._result(op), low_bit, 0)
            return
        source = self._v(source_value).register
        result = partial(self._result, op)  # taken where each sequence takes it
        if not source_element.is_float and not result_element.is_float:
            int_resize(self, source, source_element.bits, result_element.bits, signed, self._result(op))
        elif result_element.half_float:
            single = int_to_f32_round_to_odd(self, source, source_element.bits, signed)
            f32_to_half(self, single, result_element.half_float, self._result(op))
        elif not source_element.is_float:
            int_to_float(self, source, source_element.bits, result_element.bits, signed, result)
        elif source_element.half_float:
            single = half_to_f32(self, source, source_element.half_float)
            float_to_int(self, single, 32, result_element.bits, signed, result)
        else:
            float_to_int(self, source, source_element.bits, result_element.bits, signed, result)

    def _from_mask_cast(self, op: Operation, result_element: Element, signed: bool) -> None:
        """i1 to an integer or float: true is -1 signed and 1 unsigned, false is 0."""
        mask, true_value = self._v(op.operands[0]), -1 if signed else 1
        if not result_element.is_float:
            self._from_mask(mask, true_value, result_element.bits, self._result(op))
            return
        bits = 32 if result_element.half_float else result_element.bits
        number = self.temp() if result_element.half_float else self._result(op)
        self._from_mask(mask, true_value, bits, number)
        self.asm.emit("vfcvt.f.x.v", number, number)
        if result_element.half_float:
            f32_to_half(self, number, result_element.half_float, self._result(op))

    def _float_resize(self, op: Operation, source_element: Element, result_element: Element) -> None:
        """extf/truncf between any two of f16, bf16, f32 and f64, each rounding once.

        16-bit floats pass through f32 (exact when widening); f64 narrows to
        a 16-bit float through f32 rounded to odd, so the result is rounded once.
        """
        source, source_bits = self._v(op.operands[0]).register, source_element.bits
        if source_element.half_float:
            source, source_bits = half_to_f32(self, source, source_element.half_float), 32
        if result_element.half_float:
            if source_bits == 64:
                source = f64_to_f32_round_to_odd(self, source)
            return f32_to_half(self, source, result_element.half_float, self._result(op))
        if result_element.bits == source_bits:
            self.sew(32)
            self.asm.emit("vmv.v.v", self._result(op), source)
        elif result_element.bits == 2 * source_bits:
            self.sew(source_bits)
            self.asm.emit("vfwcvt.f.f.v", self._result(op), source)
        else:
            self.sew(result_element.bits)
            self.asm.emit("vfncvt.f.f.w", self._result(op), source)

    def _multiply_extended(self, op: Operation) -> None:
        """Low and high halves of the double-width product."""
        a, b = (self._v(v).register for v in op.operands)
        self.sew(_element(op.results[0], op).bits)
        high = "vmulhu.vv" if isinstance(op, arith.MulUIExtendedOp) else "vmulh.vv"
        self.asm.emit("vmul.vv", self._result(op, 0), a, b)
        self.asm.emit(high, self._result(op, 1), a, b)


# -- what each op's selection takes from the vector registers ----------------
#
# Declared next to the selectors, from the same choices (`_operand_form`,
# `_comparison`, `_needs_guard`), for the register-pressure estimate: the
# operands a selector reads into vector registers (`_v`) and the temporaries
# (`temp`) it and the algorithms it calls take.


def _operand_form(
    lhs: SSAValue, rhs: SSAValue, uniforms: Mapping[SSAValue, Uniform], swappable: bool
) -> str:
    """How a binary op reads its operands: a uniform right operand from a scalar register
    ("vector-scalar"), a uniform left one likewise if the op has a form for it
    ("scalar-vector"), else both as vectors ("vector-vector")."""
    if rhs in uniforms:
        return "vector-scalar"
    if lhs in uniforms and swappable:
        return "scalar-vector"
    return "vector-vector"


def _vector_reads(form: str, lhs: SSAValue, rhs: SSAValue) -> tuple[SSAValue, ...]:
    return {"vector-scalar": (lhs,), "scalar-vector": (rhs,)}.get(form, (lhs, rhs))


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


@dataclass(frozen=True)
class _Comparison:
    """How a cmpi/cmpf is selected: `form` is "compound" (fcmp predicates built of
    two compares), "mask" (of i1 operands) or an `_operand_form` of `stem`."""

    kind: str
    """"x" (integer) or "f" (float)."""
    predicate: str
    lhs: SSAValue
    rhs: SSAValue
    form: str
    stem: str = ""
    negate: bool = False


def _comparison(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> _Comparison:
    kind = "f" if isinstance(op, arith.CmpfOp) else "x"
    table, names = (_FCMP, _CMPF) if kind == "f" else (_ICMP, _CMPI)
    predicate = names[op.predicate.value.data]  # type: ignore[attr-defined]
    lhs, rhs = op.operands
    if kind == "f" and predicate in ("one", "ueq", "ord", "uno", "true", "false"):
        return _Comparison(kind, predicate, lhs, rhs, "compound")
    if _element(lhs, op).is_mask:
        return _Comparison(kind, predicate, lhs, rhs, "mask")
    stem, swap, negate = table[predicate]
    if swap:
        lhs, rhs = rhs, lhs
    form = _operand_form(lhs, rhs, uniforms, stem in _MIRRORED[kind])
    return _Comparison(kind, predicate, lhs, rhs, form, stem, negate)


def _demand(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> OpDemand:
    """What selecting `op` (as `_ElementwiseLowering._lower` does) takes; an op it
    refuses is counted as reading its operands (the refusal comes at selection)."""
    if isinstance(op, arith.ConstantOp) or op.regions:
        return OpDemand()
    if entry_for(_MASK_LOGIC, op) and _element(op.results[0], op).is_mask:
        return OpDemand(op.operands)
    if entry := entry_for(_INT_BINARY, op) or entry_for(_FLOAT_BINARY, op):
        _, commutative, reversed_mnemonic = entry
        lhs, rhs = op.operands
        if _needs_guard(op, uniforms.get(rhs), _element(op.results[0], op)):
            return OpDemand(op.operands, int(isinstance(op, arith.ShRSIOp)))
        form = _operand_form(lhs, rhs, uniforms, bool(commutative or reversed_mnemonic))
        return OpDemand(_vector_reads(form, lhs, rhs))
    if kind := entry_for(_ROUNDINGS, op):
        return OpDemand(op.operands, round_to_integral_scratch(kind))
    if entry := entry_for(_HANDLERS, op):
        _, demand = entry
        return demand(op, uniforms)
    return OpDemand(op.operands)


def _reads_operands(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> OpDemand:
    return OpDemand(op.operands)


def _compare_demand(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> OpDemand:
    comparison = _comparison(op, uniforms)
    if comparison.form == "compound":
        if comparison.predicate in ("true", "false"):
            return OpDemand()
        return OpDemand(op.operands, 1)
    return OpDemand(_vector_reads(comparison.form, comparison.lhs, comparison.rhs))


def _select_demand(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> OpDemand:
    return OpDemand(op.operands, int(_element(op.results[0], op).is_mask))


def _remf_demand(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> OpDemand:
    widened = 3 if _element(op.operands[0], op).bits == 32 else 0
    return OpDemand(op.operands, widened + FMOD_SCRATCH)


def _cast_demand(op: Operation, uniforms: Mapping[SSAValue, Uniform]) -> OpDemand:
    source, result = _element(op.operands[0], op), _element(op.results[0], op)
    to_half = F32_TO_HALF_SCRATCH.get(result.half_float or "", 0)
    from_half = HALF_TO_F32_SCRATCH.get(source.half_float or "", 0)
    if isinstance(op, arith.BitcastOp):
        scratch = 0
    elif source.is_float and result.is_float:
        through_f64 = F64_TO_F32_ROUND_TO_ODD_SCRATCH if result.half_float and source.bits == 64 else 0
        scratch = from_half + through_f64 + to_half
    elif source.is_mask:
        scratch = 1 + to_half if result.half_float else 0
    elif result.is_mask:
        scratch = 1
    elif not source.is_float and not result.is_float:
        scratch = int_resize_scratch(source.bits, result.bits, into_dest=True)
    elif result.half_float:
        scratch = INT_TO_F32_ROUND_TO_ODD_SCRATCH + to_half
    elif not source.is_float:
        scratch = int_to_float_scratch(source.bits, result.bits)
    elif source.half_float:
        scratch = from_half + float_to_int_scratch(32, result.bits)
    else:
        scratch = float_to_int_scratch(source.bits, result.bits)
    return OpDemand(op.operands[:1], scratch)


_Select = Callable[..., None]
_Demand = Callable[[Operation, Mapping[SSAValue, Uniform]], OpDemand]
_CAST = (_ElementwiseLowering._cast, _cast_demand)
_HANDLERS: dict[type[Operation], tuple[_Select, _Demand]] = {
    arith.CmpiOp: (_ElementwiseLowering._compare, _compare_demand),
    arith.CmpfOp: (_ElementwiseLowering._compare, _compare_demand),
    arith.SelectOp: (_ElementwiseLowering._select, _select_demand),
    arith.ExtSIOp: _CAST,
    arith.ExtUIOp: _CAST,
    arith.TruncIOp: _CAST,
    arith.IndexCastOp: _CAST,
    arith.SIToFPOp: _CAST,
    arith.UIToFPOp: _CAST,
    arith.FPToSIOp: _CAST,
    arith.FPToUIOp: _CAST,
    arith.ExtFOp: _CAST,
    arith.TruncFOp: _CAST,
    arith.BitcastOp: _CAST,
    RemFOp: (_ElementwiseLowering._remf, _remf_demand),
    math.FmaOp: (_ElementwiseLowering._fma, _reads_operands),
    arith.MulUIExtendedOp: (_ElementwiseLowering._multiply_extended, _reads_operands),
    arith.MulSIExtendedOp: (_ElementwiseLowering._multiply_extended, _reads_operands),
    math.AbsIOp: (_ElementwiseLowering._absi, _reads_operands),
    math.RsqrtOp: (_ElementwiseLowering._rsqrt, _reads_operands),
}
