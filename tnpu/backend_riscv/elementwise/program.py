"""What an elementwise program is: its streams, folds and uniform values, and the
element widths its strip loop runs at (see the package docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.builder import Var
from tnpu.backend_riscv.elements import Element, element_of
from tnpu.backend_riscv.storage import Constant, Scalar
from tnpu.diagnostics import CompileError
from tnpu.dialects.arith import RemFOp
from tnpu.dialects.rvv import ops as rvv
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

_CONVERSIONS = (arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.FPToUIOp, arith.ExtFOp,
                arith.TruncFOp)  # fmt: skip


def element_of_value(value: SSAValue, anchor: Operation) -> Element:
    """`value`'s element as the vector unit holds it; a type it cannot hold is refused at `anchor`."""
    element = element_of(element_type_of(value.type))
    if element is None:
        raise CompileError(anchor, f"element type {value.type} has no RVV lowering")
    return element


def widest_bits(program: ElementwiseProgram) -> int:
    """The widest lane any value (or an op's internal step) of the program needs."""
    values = [*program.inputs, *(v for op in program.ops for v in op.results)]
    widths = [element_of_value(v, program.anchor).bits for v in values if not element_of_value(v, program.anchor).is_mask]
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
    return any(element_of_value(value, anchor).half_float for value in (*op.operands, *op.results))
