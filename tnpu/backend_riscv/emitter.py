"""What each tile op's lowering writes through: the builder, the places of values, strings.

`KernelEmitter` holds the `Builder` of the kernel's function, the
`Scratchpad` that gives every value its place, and how to read a value
into a register.  `tile_to_rvv.RvvKernelLowering` extends it with the
kernel's signature, the op dispatch and control flow, and calls the op
families (`transfers`, `vector_unit`); they never call it back, so they
import this module and not `tile_to_rvv`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.riscv import Registers
from xdsl.ir import Block, Operation, SSAValue

from tnpu.backend_riscv.builder import Builder
from tnpu.backend_riscv.elements import ADDRESS, Element, element_of
from tnpu.backend_riscv.elementwise.lowering import emit_elementwise
from tnpu.backend_riscv.elementwise.program import ElementwiseProgram, Stream
from tnpu.backend_riscv.storage import Constant, InPlace, Iota, Location, Scalar, Scratchpad, Tile
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.rvv import rvx
from tnpu.dialects.shapes import element_type_of

ASSERT_FAIL = "tnpu_assert_fail"
"""The launch runtime's function that reports a failed check and exits (status 3)."""


class KernelEmitter:
    def __init__(self, name: str, b: Builder):
        self.name = name
        self.b = b
        self.scratchpad = Scratchpad()
        self.strings: list[tuple[str, str]] = []
        """(label, text) of the kernel's NUL-terminated strings."""
        self.in_bounds_counts: dict[tuple[object, ...], SSAValue] = {}
        """The in-bounds element counts computed, by block, shape and bounds (`in_place`)."""
        self.stored_by_producers: set[tile.StoreOp] = set()
        """Stores whose value's producer (a map, a reduction) wrote it where they store it."""

    def element(self, value: SSAValue, op: Operation) -> Element:
        scalar = element_type_of(value.type)
        if isinstance(scalar, tile.BufferType):
            return ADDRESS
        element = element_of(scalar)
        if element is None:
            raise CompileError(op, f"element type {scalar} has no RVV lowering")
        return element

    def place(self, value: SSAValue) -> Location:
        return self.scratchpad[value]

    def tile_place(self, value: SSAValue) -> Tile:
        location = self.scratchpad[value]
        assert isinstance(location, Tile)
        return location

    def new_place(self, value: SSAValue, op: Operation) -> Scalar | Tile:
        place = self.scratchpad.new_place(value.type, self.element(value, op))
        self.scratchpad.bind(value, place)
        return place

    def load_int(self, value: SSAValue | int) -> SSAValue:
        """An integer/index value (or a static int) in a register, sign-extended."""
        if isinstance(value, int):
            return self.b.li(value)
        return self.load_bits(self.place(value))

    def load_bits(self, location: Location) -> SSAValue:
        """A scalar's bits (or a constant's) in an integer register."""
        if isinstance(location, Constant):
            return self.b.li(location.bits)
        assert isinstance(location, Scalar)
        return self.b.load_scalar(location.offset, location.element)

    def string_constant(self, text: str) -> str:
        """The label of a NUL-terminated copy of `text` in .rodata."""
        label = f".L{self.name}_message{len(self.strings)}"
        self.strings.append((label, text))
        return label

    def fail(self, message: str) -> None:
        """Fail the launch with `message`: the runtime's tnpu_assert_fail, which exits."""
        text = self.b.emit(rvx.LlaOp(self.string_constant(message), rd=Registers.A0))
        self.b.insert(rvx.CallOp(ASSERT_FAIL, [text]))

    def captured(self, ops: Sequence[Operation], block: Block) -> dict[SSAValue, Scalar | Constant]:
        """Scalars a region's ops use from outside it (regions may capture from above)."""
        defined = {r for op in ops for r in op.results} | set(block.args)
        return {  # pyright: ignore[reportReturnType]
            operand: self.place(operand)
            for op in ops
            for operand in op.operands
            if operand not in defined
        }

    def as_stream(self, location: Location, base: SSAValue | None = None) -> Stream | Scalar | Constant:
        """A tile's elements as a stream (from element `base` on, if given); a scalar as it is."""
        if isinstance(location, Tile):
            return Stream(location.element, location.offset, base=base)
        if isinstance(location, InPlace):
            return Stream(location.element, 0, base, address=location.address, valid=location.valid, pad=location.pad)
        if isinstance(location, Iota):
            return Stream(location.element, 0, base=base, counting_from=location.start)
        return location

    def map_inputs(self, op: tile.MapOp, base: SSAValue | None = None) -> dict[SSAValue, Stream | Scalar | Constant]:
        """What a map's body reads: its operands, tiles as streams (from element `base`
        on, if given), and the scalars it captures from above (yielded, too, once
        `hoist-map-invariants` has moved what computed them out of the body)."""
        block = op.body.block
        inputs = {arg: self.as_stream(self.place(operand), base) for arg, operand in zip(block.args, op.inputs)}
        return inputs | self.captured(list(block.ops), block)

    def fill(self, place: Tile, value: Scalar | Constant, anchor: Operation) -> None:
        """Every element of a tile := a uniform value."""
        marker = anchor.results[0] if anchor.results else anchor.operands[0]
        emit_elementwise(
            self.b,
            ElementwiseProgram([], {marker: value}, [(marker, Stream(place.element, place.offset))], place.count, anchor),
        )


def static_or_loader(cg: KernelEmitter, value: int | SSAValue) -> int | Callable[[], SSAValue]:
    """A bound as an int if it is known, else as the code that loads it."""
    if isinstance(value, int):
        return value
    location = cg.place(value)
    if isinstance(location, Constant):
        return location.bits
    return lambda: cg.load_int(value)
