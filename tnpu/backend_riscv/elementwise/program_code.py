"""The strip loop of one elementwise program: its streams, registers and operands,
which every op family's instruction selection (`arithmetic`, `compares`,
`casts`) writes through (see the package docstring)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, riscv
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.builder import Builder, StripLoop, Var
from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.elementwise.program import (
    HOISTED,
    ElementwiseProgram,
    Fold,
    Stream,
    Uniform,
    element_of_value,
    widest_bits,
)
from tnpu.backend_riscv.float_algorithms import float_bits
from tnpu.backend_riscv.storage import Constant, constant_bits
from tnpu.diagnostics import CompileError
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv.types import MaskRegisterType, VectorRegisterType


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
class VectorValue:
    """A value of the program in a vector register group (a mask in a mask register)."""

    value: SSAValue
    element: Element


class ProgramCode(ABC):
    """One program's strip loop and the values in it; `lower` selects each op's `rvv` ops."""

    def __init__(self, b: Builder, program: ElementwiseProgram):
        self.b = b
        self.program = program
        self.widest = widest_bits(program)
        self.uniforms = _uniform_values(program)
        self.values: dict[SSAValue, _Pending | Uniform] = {}
        self.vectors: dict[SSAValue, VectorValue] = {}
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
        """Emit the program: its streams opened, one strip loop, each op lowered by `lower`."""
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
                    self.lower(op)
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
        return self.b.vector(op(*operands, result_type=StripLoop.vector_type(), **kwargs))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

    def mask(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        return self.b.vector(op(*operands, result_type=StripLoop.mask_type()))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

    def mask_in_v0(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        return self.b.vector(op(*operands, result_type=MaskRegisterType.group(1, 0)))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

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

    def define(self, op: Operation, value: SSAValue, index: int = 0) -> None:
        """`op`'s `index`-th result is `value`, a vector register group (or mask register)."""
        result = op.results[index]
        self.vectors[result] = VectorValue(value, element_of_value(result, self.program.anchor))

    # -- operands -------------------------------------------------------------

    def _materialize_bits(self, source: Uniform) -> SSAValue:
        if isinstance(source, Constant):
            return self.b.li(source.bits)
        return self.b.load_scalar(source.offset, source.element)

    def int_register(self, value: SSAValue) -> SSAValue:
        """A uniform value's bits in an integer register (set before the loop if it can)."""
        return self._hoisted("x", ("x", value), lambda: self._materialize_bits(self.values[value]))  # pyright: ignore[reportArgumentType]

    def float_register(self, value: SSAValue) -> SSAValue:
        """A uniform float in a float register (set before the loop if it can)."""
        bits = self.values[value].element.bits  # pyright: ignore[reportAttributeAccessIssue]
        return self._hoisted("f", ("f", value), lambda: self.b.float_from_bits(self.int_register(value), bits))

    def vector_of(self, value: SSAValue) -> VectorValue:
        """A value in a vector register group (masks in a mask register)."""
        if (vector := self.vectors.get(value)) is not None:
            return vector
        held = self.values[value]
        if isinstance(held, _Pending):
            return self._load(value, held)
        element = held.element
        if element.is_mask:  # 0 or 1: splat at whatever width the strip is at
            return VectorValue(self.mask(rvv.VmsneViOp, self.vector(rvv.VmvVXOp, self.int_register(value)), 0), element)
        self.sew(element.bits)
        return VectorValue(self.vector(rvv.VmvVXOp, self.int_register(value)), element)

    def _address(self, pending: _Pending) -> SSAValue:
        """The stream's pointer, or for a one-element program its element's address."""
        if pending.pointer is not None:
            return pending.pointer.value
        return self._first_address(pending.stream)

    def _load(self, value: SSAValue, pending: _Pending) -> VectorValue:
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
        vector = VectorValue(loaded, element_of_value(value, self.program.anchor))
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

    def _count(self, value: SSAValue, pending: _Pending) -> VectorValue:
        """An iota stream's elements of this strip: the first one's value plus `vid.v`."""
        first = pending.pointer.value if pending.pointer is not None else self._first_index(pending.stream)
        vector = VectorValue(self.vector(rvv.VaddVxOp, self._indices(), first), pending.stream.element)
        self.vectors[value] = vector
        return vector

    def _fold(self, fold: Fold) -> None:
        vector = self.vector_of(fold.value)
        data = self.from_mask(vector, 1, 8) if vector.element.is_mask else vector.value
        self.sew(vector.element.bits)
        accumulator = fold.accumulator
        reduced = fold.instruction(data, accumulator.value, result_type=VectorRegisterType.group(1))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__
        accumulator.set(self.b.vector(reduced))
        if fold.nans is not None:
            nans = self.b.emit(rvv.VcpopMOp(nan_mask(self.b, vector.value)))
            fold.nans.set(self.b.emit(riscv.OrOp(fold.nans.value, nans)))

    def _store(self, value: SSAValue, out: _Pending) -> None:
        element = out.stream.element
        vector = self.vector_of(value)
        data = vector.value
        self.sew(element.bits)
        if element.is_mask:
            data = self.from_mask(vector, 1, 8)
        address = self._address(out)
        if out.valid is not None:
            in_bounds = self._in_bounds(out.valid)
            self.sew(element.bits)
            self.b.insert(rvv.UNIT_STRIDE_STORES[element.bits](data, address, mask=in_bounds))
        elif out.stride is None:
            self.b.insert(rvv.UNIT_STRIDE_STORES[element.bits](data, address))
        else:
            self.b.insert(rvv.STRIDED_STORES[element.bits](data, address, out.stride))

    def in_v0(self, mask: VectorValue) -> SSAValue:
        """`mask` copied to v0, where masked instructions read it."""
        return self.b.in_v0(mask.value)

    def from_mask(self, mask: VectorValue, true_value: int, bits: int) -> SSAValue:
        """true_value where the mask is set, 0 elsewhere, as `bits`-bit integers."""
        in_v0 = self.in_v0(mask)
        self.sew(bits)
        zeros = self.vector(rvv.VmvViOp, 0)
        return self.vector(rvv.VmergeVimOp, zeros, true_value, in_v0)

    @abstractmethod
    def lower(self, op: Operation) -> None:
        """Define `op`'s results in vector registers (the op families' instruction selection)."""


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
            element = element_of_value(op.results[0], op)
            bits = constant_bits(op.properties["value"], element)
            if bits is None:
                raise CompileError(op, "only scalar constants can be used in a body")
            uniforms[op.results[0]] = Constant(bits, element)
    return uniforms
