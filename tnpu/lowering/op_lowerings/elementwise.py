"""Constants and elementwise compute: `arith`/`math` on scalars and tensors, and
Triton's own elementwise ops (`tt.precise_sqrt`, `tt.precise_divf`,
`tt.mulhiui`, `tt.clampf`, `tt.fp_to_fp`).

A tensor op becomes a one-op `tile.map` (`fuse-tile-maps` merges chains
later); its affine index and box forms come from the pointer analysis.  A
splat constant becomes a scalar and its broadcast, so maps take the scalar.
A scalar op is copied as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.dialects.math import Math
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import Lowered, symbolic_forms

LOWERINGS = OpLowerings()

ARITH_AND_MATH = tuple(
    op
    for op in (*tarith.Arith.operations, *Math.operations)
    if op not in (arith.ConstantOp, tarith.SelectOp)
)
"""The ops of tnpu's `arith` and `math` dialects, but constants and `select` (which
`tnpu.lowering.op_lowerings.pointers` lowers: it may choose between pointers)."""


@LOWERINGS.lowers(arith.ConstantOp)
def lower_constant(lowering: KernelLowering, op: arith.ConstantOp) -> None:
    result_type = op.result.type
    if not isinstance(result_type, TensorType):
        lower_scalar(lowering, op)
        return
    value = op.value
    assert isinstance(value, DenseIntOrFPElementsAttr)
    if not tarith.is_splat(value):
        new = lowering.insert(op.clone())
        lowering.values[op.result] = Lowered(value=new.results[0])
        return
    element = result_type.element_type
    splat = value.get_values()[0]
    scalar_attr: Attribute
    if isinstance(element, AnyFloat):
        scalar_attr = FloatAttr(float(splat), element)  # pyright: ignore[reportArgumentType]  # xDSL's attribute constructors want the exact element type
    else:
        assert isinstance(element, IntegerType | IndexType)
        scalar_attr = IntegerAttr(int(splat), element)  # pyright: ignore[reportArgumentType]  # xDSL's attribute constructors want the exact element type
    scalar = lowering.insert(arith.ConstantOp(scalar_attr)).results[0]
    lowering.values[op.result] = lowering.splat_forms(scalar, result_type, constant=splat)  # pyright: ignore[reportArgumentType]


@LOWERINGS.lowers(*ARITH_AND_MATH)
def lower_arith_or_math(lowering: KernelLowering, op: Operation) -> None:
    """On tensors a one-op `tile.map` with the op's symbolic forms; on scalars a copy."""
    if not any(isinstance(t, TensorType) for t in (*op.result_types, *op.operand_types)):
        lower_scalar(lowering, op)
        return
    map_op = map_like(
        lowering,
        op,
        lambda args: type(op).create(
            operands=args,
            result_types=[tt.element_type_of(t) for t in op.result_types],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        ),
    )
    lowered = Lowered(value=map_op.results[0])
    uniforms = [u for o in op.operands if (u := lowering.values[o].uniform) is not None]
    if len(uniforms) == len(op.operands):
        body = map_op.body.block
        scalar = body.first_op
        assert scalar is not None
        lowered.uniform = lowering.insert(
            scalar.clone(value_mapper=dict(zip(body.args, uniforms)))
        ).results[0]
    lowered.index, lowered.box, lowered.quasi = symbolic_forms(
        op, [lowering.values[o] for o in op.operands], lowering.emit
    )
    lowering.values[op.results[0]] = lowered


def lower_scalar(lowering: KernelLowering, op: Operation) -> None:
    for operand in op.operands:
        if lowering.values[operand].value is None:
            raise CompileError(op, "scalar arithmetic on a pointer is not supported")
    new = op.clone(value_mapper={o: lowering.tile_of(o) for o in op.operands})
    lowering.insert(new)
    for old, result in zip(op.results, new.results):
        lowering.values[old] = Lowered(value=result)


def map_like(
    lowering: KernelLowering,
    op: Operation,
    scalar_op: Callable[[Sequence[SSAValue]], Operation],
    result: int | None = None,
) -> tile.MapOp:
    """A one-op `tile.map` of `op`'s shape over its operands (uniform ones as scalars)."""
    operands = [lowering.operand_of_map(o) for o in op.operands]
    return lowering.map_of(operands, tt.shape_of(op.results[0].type), scalar_op, result)


def lower_as(lowering: KernelLowering, op: Operation, scalar_type: type[Operation]) -> None:
    """A tt elementwise op as the `arith`/`math` op of the same meaning."""
    result_types = [tt.element_type_of(t) for t in op.result_types]

    def scalar_op(operands: Sequence[SSAValue]) -> Operation:
        return scalar_type.create(operands=list(operands), result_types=result_types)

    if not isinstance(op.results[0].type, TensorType):
        new = lowering.insert(scalar_op([lowering.tile_of(o) for o in op.operands]))
        lowering.values[op.results[0]] = Lowered(value=new.results[0])
        return
    lowering.values[op.results[0]] = Lowered(value=map_like(lowering, op, scalar_op).results[0])


@LOWERINGS.lowers(tt.PreciseSqrtOp)
def lower_precise_sqrt(lowering: KernelLowering, op: tt.PreciseSqrtOp) -> None:
    lower_as(lowering, op, xmath.SqrtOp)


@LOWERINGS.lowers(tt.PreciseDivFOp)
def lower_precise_divf(lowering: KernelLowering, op: tt.PreciseDivFOp) -> None:
    lower_as(lowering, op, arith.DivfOp)


@LOWERINGS.lowers(tt.MulhiUIOp)
def lower_mulhiui(lowering: KernelLowering, op: tt.MulhiUIOp) -> None:
    """The high half of `arith.mului_extended`."""
    element = tt.element_type_of(op.result.type)
    if not isinstance(op.result.type, TensorType):
        lhs, rhs = (lowering.operand_of_map(o) for o in op.operands)
        extended = lowering.insert(arith.MulUIExtendedOp(lhs, rhs, element))
        lowering.values[op.result] = Lowered(value=extended.results[1])
        return
    high = map_like(lowering, op, lambda args: arith.MulUIExtendedOp(args[0], args[1], element), result=1)
    lowering.values[op.result] = Lowered(value=high.results[0])


@LOWERINGS.lowers(tt.ClampFOp)
def lower_clampf(lowering: KernelLowering, op: tt.ClampFOp) -> None:
    """`min(max(x, lo), hi)`: with `propagateNan = all` as `maximumf`/`minimumf` (a NaN
    anywhere gives NaN), else as `maxnumf`/`minnumf` (a NaN gives the other operand),
    as Triton's interpreter computes both."""
    if tt.PropagateNan.of(op.propagateNan) == tt.PropagateNan.ALL:
        maximum, minimum = arith.MaximumfOp, arith.MinimumfOp
    else:
        maximum, minimum = arith.MaxnumfOp, arith.MinnumfOp
    if not isinstance(op.result.type, TensorType):
        x, low, high = (lowering.tile_of(o) for o in op.operands)
        above = lowering.insert(maximum(x, low)).results[0]
        lowering.values[op.result] = Lowered(value=lowering.insert(minimum(above, high)).results[0])
        return
    x, low, high = (lowering.operand_of_map(o) for o in op.operands)
    shape = tt.shape_of(op.result.type)
    above = lowering.map_of([x, low], shape, lambda args: maximum(*args)).results[0]  # pyright: ignore[reportArgumentType]
    clamped = lowering.map_of([above, high], shape, lambda args: minimum(*args)).results[0]  # pyright: ignore[reportArgumentType]
    lowering.values[op.result] = Lowered(value=clamped)


@LOWERINGS.lowers(tt.FpToFpOp)
def lower_fp_to_fp(lowering: KernelLowering, op: tt.FpToFpOp) -> None:
    """A float conversion (fp8 to and from the others, f16 <-> bf16) as `arith.extf`
    when it widens and `arith.truncf` (to nearest even) when it narrows; between
    types of one width (f16, bf16) through f32, exact, so rounding once.
    Rounding toward zero is refused: `arith.truncf` rounds to nearest even."""
    source, result = tt.element_type_of(op.src.type), tt.element_type_of(op.result.type)
    if op.rounding is not None and tt.RoundingMode.of(op.rounding) == tt.RoundingMode.RTZ:
        raise CompileError(op, "cannot be lowered to the tile dialect: rounding toward zero (only to nearest even)")
    steps: list[Callable[[SSAValue], Operation]]
    source_bits, result_bits = tt.bitwidth_of(source), tt.bitwidth_of(result)
    if result_bits > source_bits:
        steps = [lambda value: arith.ExtFOp(value, result)]
    elif result_bits < source_bits:
        steps = [lambda value: arith.TruncFOp(value, result)]
    else:
        steps = [lambda value: arith.ExtFOp(value, Float32Type()), lambda value: arith.TruncFOp(value, result)]
    if not isinstance(op.result.type, TensorType):
        value = lowering.tile_of(op.src)
        for step in steps:
            value = lowering.insert(step(value)).results[0]
        lowering.values[op.result] = Lowered(value=value)
        return
    value = lowering.operand_of_map(op.src)
    shape = tt.shape_of(op.result.type)
    for step in steps:
        value = lowering.map_of([value], shape, lambda args, step=step: step(args[0])).results[0]
    lowering.values[op.result] = Lowered(value=value)
