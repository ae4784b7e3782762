"""Elementwise programs on RVV: a fused `tile.map` body, kept in vector registers.

An `ElementwiseProgram` is a straight-line list of scalar `arith`/`math` ops
applied to every element: values streamed from the scratchpad or global
memory (`Stream`: a tile, a strided slice of one, a load read in place,
masked past its in-bounds elements, or an iota computed), uniform values
(scalar slots and constants, the same for every element), and results
streamed back or folded across strips by a reduction instruction (`Fold`).
It lowers to one strip loop (`builder.StripLoop`); inside a trip every
intermediate value is a vector register group, so a fused body never goes
through memory.

Runs of scalar ops outside tile ops that `scalar_program` does not select
(float ops, bitcasts, ...) are one-element programs: one instruction table
serves tiles and those scalars alike.

All values share one SEW/LMUL ratio, set by the widest element type, so
`vl` is the same for every type in the body; the strip loop picks its LMUL
from the body's register pressure when it closes.  Masked instructions
read `v0`.  This module is the instruction selection: the tables below map
each `arith`/`math` op class to `rvv` op classes, and the float
conversions and roundings come from `float_algorithms`.  Uniform values
are read through integer (bits) and float registers set before the loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, math, riscv
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.builder import Builder, StripLoop, Var
from tnpu.backend_riscv.elements import Element, element_of
from tnpu.backend_riscv.float_algorithms import (
    f32_to_half,
    f64_to_f32_round_to_odd,
    float_bits,
    float_to_int,
    fmod,
    half_to_f32,
    int_resize,
    int_to_f32_round_to_odd,
    int_to_float,
    round_to_integral,
)
from tnpu.backend_riscv.storage import Constant, Scalar, constant_bits
from tnpu.diagnostics import CompileError
from tnpu.dialects import tt
from tnpu.dialects.arith import RemFOp
from tnpu.dialects.dispatch import entry_for
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv.types import MaskRegisterType, VectorRegisterType
from tnpu.dialects.shapes import element_type_of

HOISTED = {"x": 12, "f": 12}
"""Uniform values and constants a program reads from registers set before its loop,
at most, per register file (integer, float); the loop's own pointers, counters and
temporaries take the rest."""


Uniform = Scalar | Constant


@dataclass(frozen=True)
class Stream:
    """Elements read or written one trip at a time.

    The first element is at scratchpad `offset`, or at `address` (a
    register holding a global address) if given, plus `base` elements (a
    register) if given; consecutive elements are `stride` bytes apart
    (None: contiguous).  If `valid` (a register) is given, only the
    stream's first `valid` elements (counted from the start, not from
    `base`) are read, under a mask: the others are `pad`.  An iota's
    elements are not read but computed: element i (from `base` on) is
    `counting_from` + i.
    """

    element: Element
    offset: int
    base: SSAValue | None = None
    stride: int | None = None
    address: SSAValue | None = None
    counting_from: int | None = None
    valid: SSAValue | None = None
    pad: Uniform | None = None


@dataclass(frozen=True)
class Fold:
    """A value of a program reduced across its strips by an RVV reduction instruction.

    `accumulator` holds the running result in element 0 of one register
    (`vfredosum.vs acc, v, acc` and the like chain it from strip to strip);
    `nans`, if given, is set not zero once a NaN has been folded (the
    instructions of NaN-propagating combiners skip NaNs).
    """

    value: SSAValue
    instruction: type[rvv.RvvInstruction]
    accumulator: Var
    nans: Var | None = None


@dataclass
class ElementwiseProgram:
    """Scalar ops applied to `count` elements (an int, or a register holding it)."""

    ops: Sequence[Operation]
    inputs: dict[SSAValue, Stream | Uniform]
    outputs: Sequence[tuple[SSAValue, Stream]]
    count: int | SSAValue
    anchor: Operation
    """The op diagnostics name."""
    folds: Sequence[Fold] = ()


def emit_elementwise(b: Builder, program: ElementwiseProgram) -> None:
    """Emit `program` as one strip loop."""
    _ElementwiseLowering(b, program).run()


def _element(value: SSAValue, anchor: Operation) -> Element:
    element = element_of(element_type_of(value.type))
    if element is None:
        raise CompileError(anchor, f"element type {value.type} has no RVV lowering")
    return element


def _widest_bits(program: ElementwiseProgram) -> int:
    """The widest lane any value (or an op's internal step) of the program needs."""
    values = [*program.inputs, *(v for op in program.ops for v in op.results)]
    widths = [_element(v, program.anchor).bits for v in values if not _element(v, program.anchor).is_mask]
    if any(isinstance(op, RemFOp) for op in program.ops):
        widths.append(64)  # f32 fmod runs in f64
    if any(_converts_half_float(op, program.anchor) for op in program.ops):
        widths.append(32)  # 16- and 8-bit floats convert through f32
    streams = [*program.inputs.values(), *(stream for _, stream in program.outputs)]
    if any(isinstance(stream, Stream) and stream.valid is not None for stream in streams):
        widths.append(32)  # element indices compare with an in-bounds count, both up to 2**31
    return max(widths, default=8)


def _converts_half_float(op: Operation, anchor: Operation) -> bool:
    """Whether `op` is a conversion from or to a float the FPU lacks (which goes through f32)."""
    if not isinstance(op, _CONVERSIONS):
        return False
    return any(_element(value, anchor).half_float for value in (*op.operands, *op.results))


@dataclass
class _Pending:
    """A stream's place: a pointer walked by the loop (None for a one-element
    program, whose streams are addressed where used), the register of its
    stride, which the streams of the same stride share, and for a stream
    with a `valid` prefix how many of its elements from this strip's first
    on are valid."""

    stream: Stream
    pointer: Var | None
    stride: SSAValue | None
    valid: Var | None = None


@dataclass
class _Vector:
    value: SSAValue
    element: Element


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
_CONVERSIONS = (arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.FPToUIOp, arith.ExtFOp,
                arith.TruncFOp)  # fmt: skip
_SIGNED_CASTS = (arith.ExtSIOp, arith.IndexCastOp, arith.SIToFPOp, arith.FPToSIOp)
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


class _ElementwiseLowering:
    """Instruction selection for one program: each op's `rvv` ops, in a strip loop."""

    def __init__(self, b: Builder, program: ElementwiseProgram):
        self.b = b
        self.program = program
        self.widest = _widest_bits(program)
        self.uniforms = _uniform_values(program)
        self.values: dict[SSAValue, _Pending | Uniform] = {}
        self.vectors: dict[SSAValue, _Vector] = {}
        self.constants: dict[tuple[str, object], SSAValue] = {}
        """Registers set before the loop, by register file and what they hold."""
        self.strides: dict[int, SSAValue] = {}
        """A register per distinct stride, shared by the streams of that stride."""
        self.loop: StripLoop | None = None
        self.valid_counters: dict[tuple[SSAValue, SSAValue | None], Var] = {}
        """Elements left in bounds, by in-bounds count and base (`Stream.valid`)."""
        self.indices: dict[int, SSAValue] = {}
        """The strip's `vid.v`, by element width: iotas and in-bounds masks share it."""

    # -- driver ---------------------------------------------------------------

    def run(self) -> None:
        program = self.program
        for value, source in program.inputs.items():
            self.values[value] = self._open_stream(source) if isinstance(source, Stream) else source
        for value, uniform in self.uniforms.items():
            self.values.setdefault(value, uniform)
        outputs = [(value, self._open_stream(stream)) for value, stream in program.outputs]
        with StripLoop.over(self.b, program.count, self.widest) as loop:
            self.loop = loop
            streams = [p for p in [*self.values.values(), *(o for _, o in outputs)] if isinstance(p, _Pending)]
            # The streams of one stride advance one after the other: the loop computes their step once.
            for pending in sorted(streams, key=lambda p: p.stream.stride or 0):
                if pending.pointer is not None:
                    loop.advance(pending.pointer, pending.stride or _step(pending.stream))
            for op in program.ops:
                if not isinstance(op, arith.ConstantOp):
                    self.b.source = op
                    self._lower(op)
            self.b.source = program.anchor
            for fold in program.folds:
                self._fold(fold)
            for value, out in outputs:
                self._store(value, out)
            for valid in self.valid_counters.values():  # after the strip's last masked load or store
                valid.set(self.b.sub(valid, loop.vl))

    def _open_stream(self, stream: Stream) -> _Pending:
        if isinstance(self.program.count, int) and self.program.count == 1:
            return _Pending(stream, None, None, self._valid_from_base(stream))
        if stream.counting_from is not None:
            return _Pending(stream, self.b.var(self._first_index(stream)), None)
        pointer = self.b.var(self._first_address(stream))
        stride = self._stride_register(stream.stride) if stream.stride is not None else None
        return _Pending(stream, pointer, stride, self._valid_from_base(stream))

    def _valid_from_base(self, stream: Stream) -> Var | None:
        """The counter of the stream's elements left in bounds, shared by the streams of one count."""
        if stream.valid is None:
            return None
        key = (stream.valid, stream.base)
        if key not in self.valid_counters:
            left = stream.valid if stream.base is None else self.b.sub(stream.valid, stream.base)
            self.valid_counters[key] = self.b.var(left)
        return self.valid_counters[key]

    def _first_address(self, stream: Stream) -> SSAValue:
        b = self.b
        address = stream.address if stream.address is not None else b.scratch_address(stream.offset)
        if stream.base is not None:
            address = b.add(address, b.slli(stream.base, stream.element.log2_bytes))
        return address

    def _first_index(self, stream: Stream) -> SSAValue:
        """The value of an iota stream's first element."""
        assert stream.counting_from is not None
        start = self.b.li(stream.counting_from)
        return start if stream.base is None else self.b.add(start, stream.base)

    def _stride_register(self, stride: int) -> SSAValue:
        """The register holding `stride`, set once for all the streams of that stride
        (a reduction or scan along the last axis reads and writes every operand at one stride)."""
        if stride not in self.strides:
            self.strides[stride] = self.b.li(stride)
        return self.strides[stride]

    # -- VectorCode -----------------------------------------------------------

    def sew(self, bits: int) -> None:
        assert self.loop is not None
        self.loop.sew(bits)

    def vector(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int, **kwargs: SSAValue | None) -> SSAValue:
        return self.b.vector(op(*operands, result_type=StripLoop.vector_type(), **kwargs))  # pyright: ignore[reportCallIssue]

    def mask(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        return self.b.vector(op(*operands, result_type=StripLoop.mask_type()))  # pyright: ignore[reportCallIssue]

    def mask_in_v0(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        return self.b.vector(op(*operands, result_type=MaskRegisterType.group(1, 0)))  # pyright: ignore[reportCallIssue]

    def _hoisted(self, file: str, key: object, make: Callable[[], SSAValue]) -> SSAValue:
        """What `make` builds, before the loop while the program has registers of `file`
        to spare (`HOISTED`), else at each use."""
        if (file, key) in self.constants:
            return self.constants[file, key]
        if sum(f == file for f, _ in self.constants) >= HOISTED[file]:
            return make()
        with self.b.hoisted():
            self.constants[file, key] = value = make()
        return value

    def int_constant(self, value: int) -> SSAValue:
        return self._hoisted("x", ("x", value), lambda: self.b.li(value))

    def float_constant(self, value: float, bits: int) -> SSAValue:
        pattern = float_bits(value, bits)
        return self._hoisted("f", (f"f{bits}", pattern), lambda: self.b.float_from_bits(self.b.li(pattern), bits))

    def _define(self, op: Operation, value: SSAValue, index: int = 0) -> None:
        result = op.results[index]
        self.vectors[result] = _Vector(value, _element(result, self.program.anchor))

    # -- operands -------------------------------------------------------------

    def _materialize_bits(self, source: Uniform) -> SSAValue:
        if isinstance(source, Constant):
            return self.b.li(source.bits)
        return self.b.load_scalar(source.offset, source.element)

    def _x(self, value: SSAValue) -> SSAValue:
        """A uniform value's bits in an integer register (set before the loop if it can)."""
        return self._hoisted("x", ("x", value), lambda: self._materialize_bits(self.values[value]))  # pyright: ignore[reportArgumentType]

    def _f(self, value: SSAValue) -> SSAValue:
        """A uniform float in a float register (set before the loop if it can)."""
        bits = self.values[value].element.bits  # pyright: ignore[reportAttributeAccessIssue]
        return self._hoisted("f", ("f", value), lambda: self.b.float_from_bits(self._x(value), bits))

    def _v(self, value: SSAValue) -> _Vector:
        """A value in a vector register group (masks in a mask register)."""
        if (vector := self.vectors.get(value)) is not None:
            return vector
        held = self.values[value]
        if isinstance(held, _Pending):
            return self._load(value, held)
        element = held.element
        if element.is_mask:  # 0 or 1: splat at whatever width the strip is at
            return _Vector(self.mask(rvv.VmsneViOp, self.vector(rvv.VmvVXOp, self._x(value)), 0), element)
        self.sew(element.bits)
        return _Vector(self.vector(rvv.VmvVXOp, self._x(value)), element)

    def _address(self, pending: _Pending) -> SSAValue:
        """The stream's pointer, or for a one-element program its element's address."""
        if pending.pointer is not None:
            return pending.pointer.value
        return self._first_address(pending.stream)

    def _load(self, value: SSAValue, pending: _Pending) -> _Vector:
        element = pending.stream.element
        self.sew(element.bits)
        if pending.stream.counting_from is not None:
            return self._count(value, pending)
        address = self._address(pending)
        if pending.valid is not None:
            loaded = self._load_valid(pending, address)
        elif pending.stride is None:
            loaded = self.vector(rvv.UNIT_STRIDE_LOADS[element.bits], address)
        else:
            loaded = self.vector(rvv.STRIDED_LOADS[element.bits], address, pending.stride)
        if element.is_mask:
            loaded = self.mask(rvv.VmsneViOp, loaded, 0)
        vector = _Vector(loaded, _element(value, self.program.anchor))
        self.vectors[value] = vector
        return vector

    def _load_valid(self, pending: _Pending, address: SSAValue) -> SSAValue:
        """The strip's elements of a stream with a valid prefix: those before it loaded
        (masked, so the others are not touched), the others the pad value."""
        stream, valid = pending.stream, pending.valid
        assert valid is not None and stream.pad is not None
        in_bounds = self._in_bounds(valid)
        self.sew(stream.element.bits)
        pad = self._hoisted("x", ("pad", stream.pad), lambda: self._materialize_bits(stream.pad))  # pyright: ignore[reportArgumentType]
        padded = self.vector(rvv.VmvVXOp, pad)
        load = rvv.UNIT_STRIDE_LOADS[stream.element.bits]
        return self.vector(load, address, mask=in_bounds, passthru=padded)

    def _in_bounds(self, valid: Var) -> SSAValue:
        """v0 := the strip's elements before the `valid` left in bounds, element indices
        compared at the widest width (32 bits or more, `_widest_bits`)."""
        self.sew(self.widest)
        return self.mask_in_v0(rvv.VmsltVxOp, self._indices(), valid.value)

    def _indices(self) -> SSAValue:
        """0, 1, ... vl - 1 at the current element width (one `vid.v` per width and strip)."""
        assert self.loop is not None
        bits = self.loop.current_bits
        if bits not in self.indices:
            self.indices[bits] = self.vector(rvv.VidVOp)
        return self.indices[bits]

    def _count(self, value: SSAValue, pending: _Pending) -> _Vector:
        """An iota stream's elements of this strip: the first one's value plus `vid.v`."""
        first = pending.pointer.value if pending.pointer is not None else self._first_index(pending.stream)
        vector = _Vector(self.vector(rvv.VaddVxOp, self._indices(), first), pending.stream.element)
        self.vectors[value] = vector
        return vector

    def _fold(self, fold: Fold) -> None:
        vector = self._v(fold.value)
        data = self._from_mask(vector, 1, 8) if vector.element.is_mask else vector.value
        self.sew(vector.element.bits)
        accumulator = fold.accumulator
        reduced = fold.instruction(data, accumulator.value, result_type=VectorRegisterType.group(1))  # pyright: ignore[reportCallIssue]
        accumulator.set(self.b.vector(reduced))
        if fold.nans is not None:
            nans = self.b.emit(rvv.VcpopMOp(nan_mask(self.b, vector.value)))
            fold.nans.set(self.b.emit(riscv.OrOp(fold.nans.value, nans)))

    def _store(self, value: SSAValue, out: _Pending) -> None:
        element = out.stream.element
        vector = self._v(value)
        data = vector.value
        self.sew(element.bits)
        if element.is_mask:
            data = self._from_mask(vector, 1, 8)
        address = self._address(out)
        if out.valid is not None:
            in_bounds = self._in_bounds(out.valid)
            self.sew(element.bits)
            self.b.insert(rvv.UNIT_STRIDE_STORES[element.bits](data, address, mask=in_bounds))
        elif out.stride is None:
            self.b.insert(rvv.UNIT_STRIDE_STORES[element.bits](data, address))
        else:
            self.b.insert(rvv.STRIDED_STORES[element.bits](data, address, out.stride))

    def _in_v0(self, mask: _Vector) -> SSAValue:
        return self.b.in_v0(mask.value)

    # -- ops ------------------------------------------------------------------

    def _lower(self, op: Operation) -> None:
        if op.regions:
            raise CompileError(op, "ops with regions cannot be vectorized in a body")
        if (mask_logic := entry_for(_MASK_LOGIC, op)) and _element(op.results[0], op).is_mask:
            a, b = (self._v(v).value for v in op.operands)
            return self._define(op, self.mask(mask_logic, a, b))
        if entry := entry_for(_INT_BINARY, op):
            if _element(op.results[0], op).is_mask:
                raise CompileError(
                    op, "on i1 has no RVV lowering (booleans live in mask registers: and, or, xor, add, sub only)"
                )
            return self._binary(op, entry, self._x)
        if any(entry_for(table, op) for table in _FLOAT_ARITHMETIC):
            if narrow := _element(op.results[0], op).half_float:
                raise CompileError(op, f"{narrow} arithmetic needs extension to f32 first")
        if entry := entry_for(_FLOAT_BINARY, op):
            return self._binary(op, entry, self._f)
        if unary := entry_for(_FLOAT_UNARY, op):
            source = self._v(op.operands[0])
            self.sew(source.element.bits)
            return self._define(op, self.vector(unary, source.value))
        if nan_propagating := entry_for(_NAN_PROPAGATING, op):
            return self._nan_propagating(op, nan_propagating)
        if kind := entry_for(_ROUNDINGS, op):
            x = self._v(op.operands[0]).value
            bits = _element(op.operands[0], op).bits
            self.sew(bits)
            return self._define(op, round_to_integral(self, kind, x, bits))
        select = entry_for(_HANDLERS, op)
        if select is None:
            raise CompileError(op, "has no RVV lowering (run expand-math for math functions)")
        select(self, op)

    def _binary(self, op: Operation, entry: _Binary, scalar: Callable[[SSAValue], SSAValue]) -> None:
        vector_vector, vector_scalar, scalar_vector, commutative = entry
        lhs, rhs = op.operands
        element = _element(op.results[0], op)
        if _needs_guard(op, self.uniforms.get(rhs), element):
            return self._guarded_binary(op, vector_vector, element)
        self.sew(element.bits)
        if rhs in self.uniforms:
            result = self.vector(vector_scalar, self._v(lhs).value, scalar(rhs))
        elif lhs in self.uniforms and (commutative or scalar_vector):
            result = self.vector(vector_scalar if commutative else scalar_vector, self._v(rhs).value, scalar(lhs))  # pyright: ignore[reportArgumentType]
        else:
            a, b = self._v(lhs).value, self._v(rhs).value
            self.sew(element.bits)
            result = self.vector(vector_vector, a, b)
        self._define(op, result)

    def _guarded_binary(self, op: Operation, vector_vector: type[rvv.RvvInstruction], element: Element) -> None:
        """Division by zero gives 0; a shift by the width or more gives 0 (or the sign).

        These are the interpreters' (and Triton's interpreter's) semantics;
        RVV itself gives -1 or the dividend, and shifts by the low bits.
        """
        a, b = (self._v(v).value for v in op.operands)
        self.sew(element.bits)
        if isinstance(op, arith.ShRSIOp):
            amount = self.vector(rvv.VminuVxOp, b, self.int_constant(element.bits - 1))
            return self._define(op, self.vector(rvv.VsraVvOp, a, amount))
        result = self.vector(vector_vector, a, b)
        if isinstance(op, _DIVISIONS):
            outside = self.mask_in_v0(rvv.VmseqViOp, b, 0)
        else:
            outside = self.mask_in_v0(rvv.VmsgtuVxOp, b, self.int_constant(element.bits - 1))
        self._define(op, self.vector(rvv.VmergeVimOp, result, 0, outside))

    def _nan_propagating(self, op: Operation, vector_vector: type[rvv.RvvInstruction]) -> None:
        """maximumf/minimumf: RVV's vfmax/vfmin return the non-NaN operand; IEEE maximum returns NaN."""
        a, b = (self._v(v) for v in op.operands)
        self.sew(a.element.bits)
        result = self.vector(vector_vector, a.value, b.value)
        for operand in (a, b):
            nan = self.mask_in_v0(rvv.VmfneVvOp, operand.value, operand.value)
            result = self.vector(rvv.VmergeVvmOp, result, operand.value, nan)
        self._define(op, result)

    def _fma(self, op: Operation) -> None:
        a, b, c = (self._v(v) for v in op.operands)
        self.sew(c.element.bits)
        copy = self.vector(rvv.VmvVVOp, c.value)
        self._define(op, self.b.vector(rvv.VfmaccVvOp(copy, a.value, b.value)))

    def _absi(self, op: Operation) -> None:
        x = self._v(op.operands[0])
        self.sew(x.element.bits)
        negated = self.vector(rvv.VrsubViOp, x.value, 0)
        self._define(op, self.vector(rvv.VmaxVvOp, negated, x.value))

    def _rsqrt(self, op: Operation) -> None:
        x = self._v(op.operands[0])
        bits = x.element.bits
        self.sew(bits)
        root = self.vector(rvv.VfsqrtVOp, x.value)
        self._define(op, self.vector(rvv.VfrdivVfOp, root, self.float_constant(1.0, bits)))

    def _remf(self, op: Operation) -> None:
        """C fmod: x - trunc(x / y) * y, in f64 for f32 operands so the quotient is exact enough."""
        x, y = (self._v(v) for v in op.operands)
        if x.element.bits == 32:
            self.sew(32)
            wide_x = self.vector(rvv.VfwcvtFFVOp, x.value)
            wide_y = self.vector(rvv.VfwcvtFFVOp, y.value)
            self.sew(64)
            quotient = fmod(self, wide_x, wide_y)
            self.sew(32)
            self._define(op, self.vector(rvv.VfncvtFFWOp, quotient))
        else:
            self.sew(64)
            self._define(op, fmod(self, x.value, y.value))

    def _compare(self, op: Operation) -> None:
        kind = "f" if isinstance(op, arith.CmpfOp) else "x"
        names = arith.CMPF_COMPARISON_OPERATIONS if kind == "f" else arith.CMPI_COMPARISON_OPERATIONS
        predicate = names[op.predicate.value.data]  # pyright: ignore[reportAttributeAccessIssue]
        lhs, rhs = op.operands
        if kind == "f" and predicate in ("one", "ueq", "ord", "uno", "true", "false"):
            return self._fcmp_compound(op, predicate)
        if _element(lhs, op).is_mask:
            a, b = (self._v(v).value for v in op.operands)
            logic, swap = _MASK_COMPARE[predicate]
            return self._define(op, self.mask(logic, *((b, a) if swap else (a, b))))
        (vector_vector, vector_scalar, scalar_vector), swap, negate = (_FCMP if kind == "f" else _ICMP)[predicate]
        if swap:
            lhs, rhs = rhs, lhs
        scalar = self._f if kind == "f" else self._x
        element = _element(lhs, op)
        if rhs in self.uniforms:
            a = self._v(lhs).value
            self.sew(element.bits)
            result = self.mask(vector_scalar, a, scalar(rhs))  # pyright: ignore[reportArgumentType]
        elif lhs in self.uniforms and scalar_vector is not None:
            b = self._v(rhs).value
            self.sew(element.bits)
            result = self.mask(scalar_vector, b, scalar(lhs))
        else:
            a, b = self._v(lhs).value, self._v(rhs).value
            self.sew(element.bits)
            result = self.mask(vector_vector, a, b)
        if negate:
            result = self.mask(rvv.VmnotMOp, result)
        self._define(op, result)

    def _fcmp_compound(self, op: Operation, predicate: str) -> None:
        if predicate in ("true", "false"):
            return self._define(op, self.mask(rvv.VmsetMOp if predicate == "true" else rvv.VmclrMOp))
        a, b = (self._v(v) for v in op.operands)
        self.sew(a.element.bits)
        if predicate in ("one", "ueq"):
            less = self.mask(rvv.VmfltVvOp, a.value, b.value)
            greater = self.mask(rvv.VmfltVvOp, b.value, a.value)
            result = self.mask(rvv.VmorMmOp, less, greater)
        else:
            a_number = self.mask(rvv.VmfeqVvOp, a.value, a.value)
            b_number = self.mask(rvv.VmfeqVvOp, b.value, b.value)
            result = self.mask(rvv.VmandMmOp, a_number, b_number)
        if predicate in ("ueq", "uno"):
            result = self.mask(rvv.VmnotMOp, result)
        self._define(op, result)

    def _select(self, op: Operation) -> None:
        condition, on_true, on_false = op.operands
        element = _element(op.results[0], op)
        mask = self._v(condition)
        t, f = self._v(on_true).value, self._v(on_false).value
        if element.is_mask:
            kept = self.mask(rvv.VmandMmOp, t, mask.value)
            other = self.mask(rvv.VmandnMmOp, f, mask.value)
            return self._define(op, self.mask(rvv.VmorMmOp, kept, other))
        in_v0 = self._in_v0(mask)
        self.sew(element.bits)
        self._define(op, self.vector(rvv.VmergeVvmOp, f, t, in_v0))

    def _from_mask(self, mask: _Vector, true_value: int, bits: int) -> SSAValue:
        """true_value where the mask is set, 0 elsewhere, as `bits`-bit integers."""
        in_v0 = self._in_v0(mask)
        self.sew(bits)
        zeros = self.vector(rvv.VmvViOp, 0)
        return self.vector(rvv.VmergeVimOp, zeros, true_value, in_v0)

    def _cast(self, op: Operation) -> None:
        source_value, result_value = op.operands[0], op.results[0]
        source_element, result_element = _element(source_value, op), _element(result_value, op)
        signed = isinstance(op, _SIGNED_CASTS)
        if isinstance(op, arith.BitcastOp):  # the same bits: the same register
            return self._define(op, self._v(source_value).value)
        if source_element.is_float and result_element.is_float:
            return self._define(op, self._float_resize(source_value, source_element, result_element))
        if source_element.is_mask:
            return self._define(op, self._from_mask_cast(op, result_element, signed))
        if result_element.is_mask:
            if source_element.is_float:
                raise CompileError(op, "float to i1 conversion")
            source = self._v(source_value)
            self.sew(source.element.bits)
            low_bit = self.vector(rvv.VandViOp, source.value, 1)
            return self._define(op, self.mask(rvv.VmsneViOp, low_bit, 0))
        source = self._v(source_value).value
        if not source_element.is_float and not result_element.is_float:
            result = int_resize(self, source, source_element.bits, result_element.bits, signed)
        elif result_element.half_float:
            single = int_to_f32_round_to_odd(self, source, source_element.bits, signed)
            result = f32_to_half(self, single, result_element.half_float)
        elif not source_element.is_float:
            result = int_to_float(self, source, source_element.bits, result_element.bits, signed)
        elif source_element.half_float:
            single = half_to_f32(self, source, source_element.half_float)
            result = float_to_int(self, single, 32, result_element.bits, signed)
        else:
            result = float_to_int(self, source, source_element.bits, result_element.bits, signed)
        self._define(op, result)

    def _from_mask_cast(self, op: Operation, result_element: Element, signed: bool) -> SSAValue:
        """i1 to an integer or float: true is -1 signed and 1 unsigned, false is 0."""
        mask, true_value = self._v(op.operands[0]), -1 if signed else 1
        if not result_element.is_float:
            return self._from_mask(mask, true_value, result_element.bits)
        bits = 32 if result_element.half_float else result_element.bits
        number = self.vector(rvv.VfcvtFXVOp, self._from_mask(mask, true_value, bits))
        if result_element.half_float:
            return f32_to_half(self, number, result_element.half_float)
        return number

    def _float_resize(self, source_value: SSAValue, source_element: Element, result_element: Element) -> SSAValue:
        """extf/truncf between any two of the fp8 formats, f16, bf16, f32 and f64, each rounding once.

        16- and 8-bit floats pass through f32 (exact when widening); f64 narrows
        to one of them through f32 rounded to odd, so the result is rounded once.
        """
        source, source_bits = self._v(source_value).value, source_element.bits
        if source_element.half_float:
            source, source_bits = half_to_f32(self, source, source_element.half_float), 32
        if result_element.half_float:
            if source_bits == 64:
                source = f64_to_f32_round_to_odd(self, source)
            return f32_to_half(self, source, result_element.half_float)
        if result_element.bits == source_bits:
            return source
        if result_element.bits == 2 * source_bits:
            self.sew(source_bits)
            return self.vector(rvv.VfwcvtFFVOp, source)
        self.sew(result_element.bits)
        return self.vector(rvv.VfncvtFFWOp, source)

    def _multiply_extended(self, op: Operation) -> None:
        """Low and high halves of the double-width product."""
        a, b = (self._v(v).value for v in op.operands)
        self.sew(_element(op.results[0], op).bits)
        high = rvv.VmulhuVvOp if isinstance(op, arith.MulUIExtendedOp) else rvv.VmulhVvOp
        self._define(op, self.vector(rvv.VmulVvOp, a, b), 0)
        self._define(op, self.vector(high, a, b), 1)


def nan_mask(b: Builder, data: SSAValue) -> SSAValue:
    """The mask of `data`'s NaNs (the elements not equal to themselves)."""
    return b.vector(rvv.VmfneVvOp(data, data, result_type=StripLoop.mask_type()))


def _step(stream: Stream) -> int:
    """How far a contiguous stream's pointer moves per element: its bytes, or 1 for an iota's index."""
    return 1 if stream.counting_from is not None else stream.element.bytes


def _uniform_values(program: ElementwiseProgram) -> dict[SSAValue, Uniform]:
    """The values that are the same for every element: scalar inputs and constants."""
    uniforms = {value: source for value, source in program.inputs.items() if not isinstance(source, Stream)}
    for op in program.ops:
        if isinstance(op, arith.ConstantOp):
            element = _element(op.results[0], op)
            bits = constant_bits(op.properties["value"], element)
            if bits is None:
                raise CompileError(op, "only scalar constants can be used in a body")
            uniforms[op.results[0]] = Constant(bits, element)
    return uniforms


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


_HANDLERS: Mapping[type[Operation], Callable[[_ElementwiseLowering, Operation], None]] = {
    arith.CmpiOp: _ElementwiseLowering._compare,
    arith.CmpfOp: _ElementwiseLowering._compare,
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
