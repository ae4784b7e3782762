"""A kernel's code as it is written: its assembly, the places of its values, its strings.

`KernelEmitter` is what each op's emitter (`transfers`, `vector_unit`)
writes through: the `AsmWriter`, the `Scratchpad` that gives every value
its place, and how to read a value into a register.  `codegen.KernelCodegen`
extends it with the kernel's signature, the op dispatch and control flow,
and calls the emitters; they never call it back, so they import this
module and not `codegen`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, SSAValue

from tnpu.backend_riscv.asm import AsmWriter
from tnpu.backend_riscv.elements import Element, element_of
from tnpu.backend_riscv.elementwise import ElementwiseProgram, Stream, emit_elementwise
from tnpu.backend_riscv.storage import Constant, Location, Scalar, Scratchpad, Tile
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.shapes import element_type_of

_INDEX = Element(64, False)


class KernelEmitter:
    def __init__(self, name: str):
        self.asm = AsmWriter(name)
        self.scratchpad = Scratchpad()
        self.strings: list[str] = []

    def element(self, value: SSAValue, op: Operation) -> Element:
        scalar = element_type_of(value.type)
        if isinstance(scalar, tile.BufferType):
            return _INDEX
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

    def load_int(self, register: str, value: SSAValue | int) -> None:
        """An integer/index value (or a static int) into a register, sign-extended."""
        if isinstance(value, int):
            self.asm.li(register, value)
            return
        location = self.place(value)
        if isinstance(location, Constant):
            self.asm.li(register, location.bits)
        else:
            assert isinstance(location, Scalar)
            self.asm.load_scalar(register, location.offset, location.element)

    def load_bits(self, register: str, location: Location) -> None:
        """A scalar's bits (or a constant's) into an integer register."""
        if isinstance(location, Constant):
            self.asm.li(register, location.bits)
        else:
            assert isinstance(location, Scalar)
            self.asm.load_scalar(register, location.offset, location.element)

    def string_constant(self, text: str) -> str:
        """The label of a NUL-terminated copy of `text` in .rodata."""
        label = self.asm.new_label("message")
        escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        self.strings.append(f'{label}:\n    .string "{escaped}"')
        return label

    def fail(self, message: str) -> None:
        """Fail the launch with `message`: the runtime's tnpu_assert_fail, which exits."""
        self.asm.emit("lla", "a0", self.string_constant(message))
        self.asm.emit("call", "tnpu_assert_fail")

    def captured(self, ops: Sequence[Operation], block: Block) -> dict[SSAValue, Scalar | Constant]:
        """Scalars a region's ops use from outside it (regions may capture from above)."""
        defined = {r for op in ops for r in op.results} | set(block.args)
        return {
            operand: self.place(operand)  # type: ignore[misc]
            for op in ops
            for operand in op.operands
            if operand not in defined
        }

    def as_stream(self, location: Location) -> Stream | Scalar | Constant:
        if isinstance(location, Tile):
            return Stream(location.element, location.offset)
        return location

    def fill(self, place: Tile, value: Scalar | Constant, anchor: Operation) -> None:
        """Every element of a tile := a uniform value."""
        marker = anchor.results[0] if anchor.results else anchor.operands[0]
        emit_elementwise(
            self.asm,
            ElementwiseProgram(
                [], {marker: value}, [(marker, Stream(place.element, place.offset))],
                place.count, anchor,
            ),
        )
