"""Contiguous runs in a gather's or scatter's index tile, read from how the kernel computes it.

A gather's indices are a tile the kernel computes; when they are computed
from `tile.iota` and scalars only by additions, subtractions,
multiplications by constants and integer casts, with the innermost
dimension entering as `iota × 1` (consecutive elements at consecutive
addresses), each row of the tile is one contiguous run of addresses,
whatever the other dimensions contribute (Inductor's convolution template:
one output pixel's input channels in channels-last layout; its stores, one
pixel's output channels).  A DMA engine moves such a gather as a descriptor
per run, and the DRAM serves each run in whole requests, as it serves a
structured box's runs (docs/timing.md, "Structured DMA").  Nothing of the
index values is assumed beyond what the kernel's arithmetic says.

`index_run(indices)` returns the run length in elements: the innermost
dimension's size, extended over further dimensions while each continues the
run exactly; 1 when the structure is not known (indices loaded from memory,
divisions, products of two varying terms): every element its own request.

The analysis writes a tile value as a sum of one term per dimension (a
function of that dimension's position alone); per dimension the term is
constant (0), linear with a known coefficient (an int), or varying in an
unknown way (`VARIES`).  A value that is not such a sum is unknown (None).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from tnpu.dialects import tile
from tnpu.dialects.shapes import shape_of

VARIES = "varies"

Term = int | str
"""Per dimension: 0 (constant along it), a known coefficient, or VARIES."""


class _Scalar:
    """A value constant over the tile: its integer value when known."""

    def __init__(self, value: int | None):
        self.value = value


Rep = tuple[Term, ...] | _Scalar | None

_CASTS = ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui")


def index_run(indices: SSAValue) -> int:
    """Elements per contiguous run of the index tile's addresses (module docstring)."""
    shape = shape_of(indices.type)
    if not shape:
        return 1
    rep = _rep(indices, 0)
    if not isinstance(rep, tuple):
        return 1
    run = 1
    for size, term in zip(reversed(shape), reversed(rep)):
        if size == 1:
            continue
        if term != run:
            break
        run *= size
    return run


def _rep(value: SSAValue, depth: int) -> Rep:
    if depth > 64:
        return None
    if not shape_of(value.type):
        return _scalar(value)
    if not isinstance(value, OpResult):
        return _unknown(value)
    op = value.op
    rank = len(shape_of(value.type))
    if isinstance(op, tile.IotaOp):
        return (1,)
    if isinstance(op, tile.BroadcastOp):
        source = _rep(op.source, depth + 1)
        if isinstance(source, _Scalar):
            return (0,) * rank
        if source is None:
            return None
        return tuple(0 if size == 1 else term for size, term in zip(shape_of(op.source.type), source))
    if isinstance(op, tile.ReshapeOp):
        source = _rep(op.source, depth + 1)
        if not isinstance(source, tuple):
            return None
        varying = [term for size, term in zip(shape_of(op.source.type), source) if size != 1]
        result_shape = shape_of(value.type)
        if [size for size in shape_of(op.source.type) if size != 1] != [size for size in result_shape if size != 1]:
            return None  # a reshape that merges or splits dimensions
        terms = iter(varying)
        return tuple(0 if size == 1 else next(terms) for size in result_shape)
    if isinstance(op, tile.MapOp) and len(op.results) == 1:
        inputs: list[Rep] = []
        for operand in op.inputs:
            rep = _rep(operand, depth + 1)
            inputs.append(rep)
        return _body(op.body.block, inputs, rank, depth)
    return _unknown(value)


def _unknown(value: SSAValue) -> Rep:
    """Anything else (a loaded tile, a loop's carried tile): unknown values, which are still
    one dimension's term when the tile varies along one dimension only."""
    sizes = shape_of(value.type)
    if sum(size != 1 for size in sizes) <= 1:
        return tuple(VARIES if size != 1 else 0 for size in sizes)
    return None


def _scalar(value: SSAValue) -> _Scalar:
    if isinstance(value, OpResult) and value.op.name == "arith.constant":
        attribute = value.op.properties.get("value") or value.op.attributes.get("value")
        if isinstance(attribute, IntegerAttr):
            return _Scalar(attribute.value.data)
    return _Scalar(None)


def _body(block: Block, inputs: Sequence[Rep], rank: int, depth: int) -> Rep:
    values: dict[SSAValue, Rep] = {}
    for argument, rep in zip(block.args, inputs):
        values[argument] = rep
    for op in block.ops:
        if op.name == "tile.yield":
            return _as_tile(values.get(op.operands[0]) if op.operands[0] in values else _outer(op.operands[0], depth), rank)
        operands = [values[o] if o in values else _outer(o, depth) for o in op.operands]
        if len(op.results) != 1:
            return None
        values[op.results[0]] = _apply(op, operands, rank)
    return None


def _outer(value: SSAValue, depth: int) -> Rep:
    """A value the map's body uses from outside it: a scalar of the kernel."""
    if isinstance(value, BlockArgument) or shape_of(value.type):
        return _Scalar(None) if not shape_of(value.type) else None
    return _scalar(value)


def _as_tile(rep: Rep, rank: int) -> Rep:
    if isinstance(rep, _Scalar):
        return (0,) * rank
    return rep


def _apply(op: Operation, operands: list[Rep], rank: int) -> Rep:
    if op.name == "arith.constant":
        return _scalar(op.results[0])
    if any(rep is None for rep in operands):
        return None
    if op.name in _CASTS:
        return operands[0]
    if all(isinstance(rep, _Scalar) for rep in operands):
        return _Scalar(None)  # invariant; its value is not needed beyond constants
    terms = [(0,) * rank if isinstance(rep, _Scalar) else rep for rep in operands]
    if op.name in ("arith.addi", "arith.subi"):
        sign = -1 if op.name == "arith.subi" else 1
        return tuple(_add(a, b, sign) for a, b in zip(terms[0], terms[1]))  # pyright: ignore[reportArgumentType]
    if op.name == "arith.muli":
        for this, other in ((0, 1), (1, 0)):
            factor = operands[other]
            if isinstance(factor, _Scalar):
                return tuple(_scale(term, factor.value) for term in terms[this])  # pyright: ignore[reportOptionalIterable]
        return None  # a product of two varying terms is not a sum of per-dimension terms
    varying = [dim for dim in range(rank) if any(t[dim] != 0 for t in terms)]  # pyright: ignore[reportOptionalSubscript]
    if len(varying) <= 1:
        # Any function of one dimension's position alone is that dimension's term.
        return tuple(VARIES if dim in varying else 0 for dim in range(rank))
    return None


def _add(a: Term, b: Term, sign: int) -> Term:
    if a == VARIES or b == VARIES:
        return VARIES
    return a + sign * b  # pyright: ignore[reportOperatorIssue]


def _scale(term: Term, factor: int | None) -> Term:
    if term == 0 or factor == 0:
        return 0
    if term == VARIES or factor is None:
        return VARIES
    return term * factor
