"""`ttir-to-tile`: lower a TTIR kernel to the tile dialect.

Matches: a module of `tt.func` kernels after `strip-gpu-only`,
`lower-libdevice` and `structure-early-return` (tensor `arith`/`math`, `tt`
ops and `scf`, in one block).

Produces: one `tile.kernel` per `tt.func`, with the same argument order
(pointers become `!tile.buffer`s).  Each TTIR value is lowered where it is
defined, to up to four forms, and uses pick the best one available:

* the *tile* (or scalar) computing it on the vector unit — always present
  for data; elementwise ops become one-op `tile.map`s (fused later);
* for integer tensors, an `AffineIndex` (tnpu.lowering.affine): the value as
  `base + sum(stride * digit)` of the tile coordinates, through make_range,
  splat, add, sub, mul by a uniform value, expand_dims, broadcast, trans,
  extensions, and `%`/`//` by constants when provably affine;
* for i1 tensors, a `Box`: the mask as per-digit bounds, from comparisons
  of affine values and conjunctions of them;
* for pointers, the buffer plus the offsets in either form.

A load or store whose pointer has an affine offset becomes a structured
`tile.load`/`tile.store` (the mask's boxes as bounds, the rest of the mask as
an explicit mask tile, a uniform `other` as `pad`); otherwise a
`tile.gather`/`tile.scatter` with the offsets computed on the vector unit.
Pointers carried by loops stay structured when each iteration advances them
by a uniform amount, and become carried offset tiles otherwise.  Unused
forms are dead code, removed by `dce`.

Refuses, naming the op and its source location: GPU-only ops
(`tt.elementwise_inline_asm`), libdevice calls not yet lowered, ops tnpu does
not model (`tt.print`, fp8 casts, descriptors, ...), pointers that may come
from two buffers, and control flow other than structured `scf` (`cf`
branches are left for `structure-early-return`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, cf, scf
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.affine import AffineIndex, Box, IndexEmitter, Scalar


@dataclass
class Pointer:
    """A TTIR pointer value: a buffer and element offsets into it.

    Scalar pointers have `scalar_offset`; pointer tensors have an affine
    `index`, an i64 tile of `offsets`, or both.
    """

    buffer: SSAValue
    scalar_offset: Scalar | None = None
    index: AffineIndex | None = None
    offsets: SSAValue | None = None


@dataclass
class Lowered:
    """The forms a TTIR value was lowered to (see the module docstring)."""

    value: SSAValue | None = None
    uniform: SSAValue | None = None
    index: AffineIndex | None = None
    box: Box | None = None
    pointer: Pointer | None = None


_UNSUPPORTED = {
    tt.ElementwiseInlineAsmOp: "inline PTX assembly has no meaning on the NPU",
    tt.ExternElementwiseOp: "library call left; run lower-libdevice first",
    tt.PrintOp: "device printing is not modelled",
    tt.FpToFpOp: "fp8 conversions are not modelled",
    tt.IntToPtrOp: "integers cast to pointers cannot be described as buffer accesses",
    tt.PtrToIntOp: "pointers cast to integers cannot be described as buffer accesses",
    tt.HistogramOp: "histogram is not modelled",
    tt.GatherOp: "in-tile gather is not modelled",
    tt.CatOp: "concatenation is not modelled",
    tt.JoinOp: "join is not modelled",
    tt.SplitOp: "split is not modelled",
    tt.MakeTensorPtrOp: "block pointers are not supported; use pointer arithmetic",
    tt.AdvanceOp: "block pointers are not supported; use pointer arithmetic",
    tt.MakeTensorDescOp: "tensor descriptors are not supported",
    tt.DescriptorLoadOp: "tensor descriptors are not supported",
    tt.DescriptorStoreOp: "tensor descriptors are not supported",
    tt.CallOp: "calls are not supported; inline device functions first",
    cf.BranchOp: "unstructured control flow left; run structure-early-return first",
    cf.ConditionalBranchOp: "unstructured control flow left; run structure-early-return first",
}


def _i1_like(type_: Attribute) -> Attribute:
    return tt.with_element_type(type_, IntegerType(1))


def _is_elementwise(op: Operation) -> bool:
    """An arith/math op on tensors, applied element by element."""
    return op.dialect_name() in ("arith", "math") and any(
        isinstance(t, TensorType) for t in (*op.result_types, *op.operand_types)
    )


class KernelLowering:
    """Lowers one `tt.func` to a `tile.kernel`."""

    def __init__(self, func: tt.FuncOp):
        self.func = func
        self.values: dict[SSAValue, Lowered] = {}
        self.location: Attribute = func.location
        self.builder = Builder(InsertPoint.at_end(Block()))
        self.emit = IndexEmitter(
            self.builder, lambda: self.location, self.check_non_negative
        )
        self.facts = ScalarFacts(func)

    # -- entry --------------------------------------------------------------

    def lower(self) -> tile.KernelOp:
        entry = self.func.body.blocks[0]
        arg_types = [
            tile.BufferType(t.pointee_type) if isinstance(t, tt.PointerType) else t
            for t in entry.arg_types
        ]
        block = Block(arg_types=arg_types)
        for old, new in zip(entry.args, block.args):
            new.name_hint = old.name_hint
            if isinstance(old.type, tt.PointerType):
                self.values[old] = Lowered(pointer=Pointer(new, scalar_offset=0))
            else:
                self.values[old] = Lowered(value=new)
        kernel = tile.KernelOp(
            self.func.sym_name.data,
            arg_types,
            Region(block),
            self.func.arg_attrs,
        )
        kernel.location = self.func.location
        self.builder.insertion_point = InsertPoint.at_end(block)
        self.lower_block(entry)
        return kernel

    def lower_block(self, block: Block) -> None:
        for op in block.ops:
            self.location = op.location
            self.lower_op(op)

    # -- access to lowered forms -------------------------------------------

    def get(self, value: SSAValue) -> Lowered:
        return self.values[value]

    def tile_of(self, value: SSAValue) -> SSAValue:
        """The tile (or scalar) computing a TTIR data value."""
        lowered = self.values[value]
        if lowered.value is None:
            raise CompileError(
                value.owner if isinstance(value.owner, Operation) else self.func,
                "a pointer is used as data",
            )
        return lowered.value

    def operand_of_map(self, value: SSAValue) -> SSAValue:
        """A `tile.map` operand: the uniform scalar when there is one, else the tile."""
        lowered = self.values[value]
        return lowered.uniform if lowered.uniform is not None else self.tile_of(value)

    def index_of(self, value: SSAValue) -> Scalar:
        """A TTIR integer scalar as an `index` scalar (a Python int if constant)."""
        constant = _constant_int(value)
        if constant is not None:
            return constant
        return self.emit.cast(
            self.tile_of(value),
            self.facts.multiple_of(value),
            self.facts.non_negative(value),
        )

    def check_non_negative(self, value: SSAValue) -> None:
        """Assert at run time that an index the analysis relies on is >= 0."""
        zero = self.emit.materialize(0)
        condition = self.insert(tarith.CmpiOp(value, zero, "sge")).results[0]
        self.insert(
            tile.AssertOp.create(
                operands=[condition],
                properties={
                    "message": tile.StringAttr(
                        "tnpu: an index expression assumed non-negative is negative"
                    )
                },
            )
        )

    def insert(self, op: Operation) -> Operation:
        op.location = self.location
        self.builder.insert(op)
        return op

    # -- dispatch -----------------------------------------------------------

    def lower_op(self, op: Operation) -> None:
        for unsupported, reason in _UNSUPPORTED.items():
            if isinstance(op, unsupported):
                raise CompileError(op, f"cannot be lowered to the tile dialect: {reason}")
        handler = next(
            (_HANDLERS[cls] for cls in type(op).__mro__ if cls in _HANDLERS), None
        )
        if handler is not None:
            handler(self, op)
            self.keep_names(op)
        elif isinstance(op, arith.ConstantOp):
            self.lower_constant(op)
        elif _is_elementwise(op):
            self.lower_elementwise(op)
            self.keep_names(op)
        elif op.dialect_name() in ("arith", "math") and not op.regions:
            self.lower_scalar(op)
        else:
            raise CompileError(op, "has no lowering to the tile dialect")

    def keep_names(self, op: Operation) -> None:
        """Give lowered values the names Triton recorded for the TTIR ones."""
        for result in op.results:
            lowered = self.values.get(result)
            if lowered is None or result.name_hint is None:
                continue
            for value in (lowered.value, lowered.uniform):
                if value is not None and value.name_hint is None:
                    value.name_hint = result.name_hint

    # -- scalars and constants -----------------------------------------------

    def lower_scalar(self, op: Operation) -> None:
        for operand in op.operands:
            if self.values[operand].value is None:
                raise CompileError(op, "scalar arithmetic on a pointer is not supported")
        new = op.clone(value_mapper={o: self.tile_of(o) for o in op.operands})
        self.insert(new)
        for old, result in zip(op.results, new.results):
            self.values[old] = Lowered(value=result)

    def lower_constant(self, op: arith.ConstantOp) -> None:
        result_type = op.result.type
        if not isinstance(result_type, TensorType):
            self.lower_scalar(op)
            return
        value = op.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        if not value.is_splat():
            new = self.insert(op.clone())
            self.values[op.result] = Lowered(value=new.results[0])
            return
        element = result_type.element_type
        splat = value.get_values()[0]
        scalar_attr = (
            IntegerAttr(int(splat), element)
            if isinstance(element, IntegerType)
            else FloatAttr(float(splat), element)  # type: ignore[arg-type]
        )
        scalar = self.insert(arith.ConstantOp(scalar_attr)).results[0]
        self.values[op.result] = self.splat_forms(scalar, result_type, constant=splat)

    def splat_forms(
        self, scalar: SSAValue, result_type: TensorType, constant: object = None
    ) -> Lowered:
        """Every form of a tensor whose elements all equal `scalar`."""
        shape = result_type.get_shape()
        tile_value = self.insert(tile.BroadcastOp(scalar, result_type)).results[0]
        lowered = Lowered(value=tile_value, uniform=scalar)
        element = result_type.element_type
        view = AffineIndex.uniform(shape, 0)
        if element == IntegerType(1):
            if constant is not None:
                full = Box.full(view)
                lowered.box = full if constant else Box.when(view, 0, self.emit)
            else:
                lowered.box = self.box_when_true(view, scalar)
        elif isinstance(element, IntegerType):
            base = int(constant) if constant is not None else None  # type: ignore[call-overload]
            lowered.index = AffineIndex.uniform(shape, base if base is not None else 0)
        return lowered

    def box_when_true(self, view: AffineIndex, condition: SSAValue) -> Box:
        """All of `view` where the i1 scalar `condition` holds, else nothing."""
        minus_one = self.emit.materialize(-1)
        zero = self.emit.materialize(0)
        negative = self.insert(tarith.SelectOp(condition, minus_one, zero)).results[0]
        return Box.when(view, negative, self.emit)

    # -- elementwise ----------------------------------------------------------

    def lower_elementwise(self, op: Operation) -> None:
        """A one-op `tile.map`, plus affine/box forms for index arithmetic."""
        result_type = op.result_types[0]
        assert isinstance(result_type, TensorType)
        operands = [self.operand_of_map(o) for o in op.operands]
        body_op = op.clone_without_regions(clone_operands=False)
        body = Block(arg_types=[tt.element_type_of(o.type) for o in operands])
        new_body_op = body_op.create(
            operands=list(body.args),
            result_types=[tt.element_type_of(t) for t in op.result_types],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        body_op.erase()
        new_body_op.location = self.location
        body.add_ops([new_body_op, tile.YieldOp(*new_body_op.results)])
        map_op = self.insert(
            tile.MapOp(operands, [t for t in op.result_types], Region(body))  # type: ignore[misc]
        )
        lowered = Lowered(value=map_op.results[0])
        if all(self.values[o].uniform is not None for o in op.operands):
            scalar_op = new_body_op.clone(
                value_mapper=dict(zip(body.args, [self.values[o].uniform for o in op.operands]))  # type: ignore[arg-type]
            )
            lowered.uniform = self.insert(scalar_op).results[0]
        self.derive_symbolic(op, lowered)
        self.values[op.results[0]] = lowered

    def derive_symbolic(self, op: Operation, lowered: Lowered) -> None:
        """Affine index and box forms of index arithmetic and comparisons."""
        emit = self.emit
        indices = [self.values[o].index for o in op.operands]
        match op:
            case arith.AddiOp() if None not in indices:
                lowered.index = affine.add(indices[0], indices[1], emit)  # type: ignore[arg-type]
            case arith.SubiOp() if None not in indices:
                lowered.index = affine.add(
                    indices[0], affine.scale(indices[1], -1, emit), emit  # type: ignore[arg-type]
                )
            case arith.MuliOp() if None not in indices:
                a, b = indices
                assert a is not None and b is not None
                if b.is_uniform():
                    lowered.index = affine.scale(a, b.base, emit)
                elif a.is_uniform():
                    lowered.index = affine.scale(b, a.base, emit)
            case tarith.ExtSIOp() | tarith.ExtUIOp() | tarith.IndexCastOp():
                lowered.index = indices[0]
            case arith.DivSIOp() | arith.RemSIOp() | arith.DivUIOp() | arith.RemUIOp() if (
                None not in indices and isinstance(indices[1].base, int)  # type: ignore[union-attr]
                and indices[1].is_uniform()  # type: ignore[union-attr]
            ):
                parts = affine.divmod_constant(indices[0], indices[1].base, emit)  # type: ignore[arg-type, union-attr]
                if parts is not None:
                    is_div = isinstance(op, arith.DivSIOp | arith.DivUIOp)
                    lowered.index = parts[0] if is_div else parts[1]
            case tarith.CmpiOp() if None not in indices:
                lowered.box = self.comparison_box(op, indices[0], indices[1])  # type: ignore[arg-type]
            case arith.AndIOp() if op.result_types[0] == _i1_like(op.result_types[0]):
                boxes = [self.values[o].box for o in op.operands]
                if None not in boxes:
                    lowered.box = affine.intersect(boxes[0], boxes[1], emit)  # type: ignore[arg-type]

    def comparison_box(
        self, op: tarith.CmpiOp, lhs: AffineIndex, rhs: AffineIndex
    ) -> Box | None:
        predicate = tarith.CmpiOp.PREDICATES[op.predicate.value.data]
        emit = self.emit
        difference = affine.add(lhs, affine.scale(rhs, -1, emit), emit)
        if difference is None:
            return None
        match predicate:
            case "slt":  # lhs - rhs < 0
                return affine.less_than_zero(difference, emit)
            case "sge":
                return affine.at_least_zero(difference, emit)
            case "sgt":  # rhs - lhs < 0
                return affine.less_than_zero(affine.scale(difference, -1, emit), emit)
            case "sle":
                return affine.at_least_zero(affine.scale(difference, -1, emit), emit)
        return None

    # -- program ids and tensor creation --------------------------------------

    def lower_program_id(self, op: tt.GetProgramIdOp | tt.GetNumProgramsOp) -> None:
        axis = tt.ProgramDim.of(op.axis).value
        new_type = tile.ProgramIdOp if isinstance(op, tt.GetProgramIdOp) else tile.NumProgramsOp
        result = self.insert(new_type(axis)).results[0]
        self.values[op.result] = Lowered(value=result)

    def lower_make_range(self, op: tt.MakeRangeOp) -> None:
        start = op.start.value.data
        iota = tile.IotaOp.create(
            properties={"start": op.start}, result_types=[op.result.type]
        )
        self.insert(iota)
        size = op.end.value.data - start
        self.values[op.result] = Lowered(
            value=iota.results[0], index=AffineIndex.iota(size, start)
        )

    def lower_splat(self, op: tt.SplatOp) -> None:
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        source = self.values[op.src]
        if source.pointer is not None:
            offset = source.pointer.scalar_offset
            assert offset is not None
            shape = result_type.get_shape()
            offset_i64 = self.index_to_i64(offset)
            offsets = self.insert(
                tile.BroadcastOp(offset_i64, TensorType(i64, shape))
            ).results[0]
            self.values[op.result] = Lowered(
                pointer=Pointer(
                    source.pointer.buffer,
                    index=AffineIndex.uniform(shape, offset),
                    offsets=offsets,
                )
            )
            return
        scalar = self.tile_of(op.src)
        lowered = self.splat_forms(scalar, result_type)
        if lowered.index is not None:
            lowered.index = AffineIndex.uniform(result_type.get_shape(), self.index_of(op.src))
        self.values[op.result] = lowered

    def index_to_i64(self, value: Scalar) -> SSAValue:
        if isinstance(value, int):
            return self.insert(arith.ConstantOp(IntegerAttr(value, i64))).results[0]
        return self.insert(tarith.IndexCastOp(value, i64)).results[0]

    # -- shape ops ---------------------------------------------------------------

    def lower_shape_op(
        self,
        op: Operation,
        make_tile: Callable[[SSAValue, TensorType], Operation],
        transform_index: Callable[[AffineIndex], AffineIndex | None],
        transform_box: Callable[[Box], Box | None],
    ) -> None:
        """Apply a shape op to every form: tiles, uniform, index, box and pointer."""
        (source,) = op.operands
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        lowered = self.values[source]
        result = Lowered(uniform=lowered.uniform)
        if lowered.value is not None:
            result.value = self.insert(make_tile(lowered.value, result_type)).results[0]
        if lowered.index is not None:
            result.index = transform_index(lowered.index)
        if lowered.box is not None:
            result.box = transform_box(lowered.box)
        if lowered.pointer is not None:
            pointer = lowered.pointer
            offsets = self.offsets_of(pointer, op)
            result.pointer = Pointer(
                pointer.buffer,
                index=None if pointer.index is None else transform_index(pointer.index),
                offsets=self.insert(
                    make_tile(offsets, TensorType(i64, result_type.get_shape()))
                ).results[0],
            )
        self.values[op.results[0]] = result

    def lower_expand_dims(self, op: tt.ExpandDimsOp) -> None:
        axis = op.axis.value.data
        self.lower_shape_op(
            op,
            tile.ReshapeOp,
            lambda index: affine.expand_dims(index, axis),
            lambda box: affine.box_expand_dims(box, axis),
        )

    def lower_broadcast(self, op: tt.BroadcastOp) -> None:
        shape = tt.shape_of(op.result.type)
        self.lower_shape_op(
            op,
            tile.BroadcastOp,
            lambda index: affine.broadcast(index, shape),
            lambda box: affine.box_broadcast(box, shape, self.emit),
        )

    def lower_reshape(self, op: tt.ReshapeOp) -> None:
        self.lower_shape_op(op, tile.ReshapeOp, lambda index: None, lambda box: None)

    def lower_trans(self, op: tt.TransOp) -> None:
        order = list(op.order.get_values())
        self.lower_shape_op(
            op,
            lambda source, result_type: tile.TransposeOp.create(
                operands=[source],
                result_types=[result_type],
                properties={"permutation": _i64_array(order)},
            ),
            lambda index: affine.permute(index, order),
            lambda box: affine.box_permute(box, order),
        )

    # -- pointers ---------------------------------------------------------------

    def offsets_of(self, pointer: Pointer, op: Operation) -> SSAValue:
        """The pointer's element offsets as an i64 tile (computed from the index)."""
        if pointer.offsets is None:
            assert pointer.index is not None
            pointer.offsets = self.materialize_index(pointer.index)
        return pointer.offsets

    def materialize_index(self, index: AffineIndex) -> SSAValue:
        """An i64 tile holding an affine index's values."""
        digit_shape = index.digit_shape
        total = TensorType(i64, index.shape)
        flat = TensorType(i64, digit_shape)
        terms: list[SSAValue] = [self.index_to_i64(index.base)]
        for k, digit in enumerate(index.digits):
            if digit.stride == 0:
                continue
            iota = self.insert(
                tile.IotaOp.create(
                    properties={"start": IntegerAttr(0, IntegerType(32))},
                    result_types=[TensorType(i64, [digit.size])],
                )
            ).results[0]
            shape = [1] * len(digit_shape)
            shape[k] = digit.size
            shaped = self.insert(tile.ReshapeOp(iota, TensorType(i64, shape))).results[0]
            spread = self.insert(tile.BroadcastOp(shaped, flat)).results[0]
            terms.append(self.map_binary(arith.MuliOp, spread, self.index_to_i64(digit.stride)))
        result = self.insert(tile.BroadcastOp(terms[0], flat)).results[0]
        for term in terms[1:]:
            result = self.map_binary(arith.AddiOp, result, term)
        if digit_shape != index.shape:
            result = self.insert(tile.ReshapeOp(result, total)).results[0]
        return result

    def map_binary(
        self, op_type: type[Operation], lhs: SSAValue, rhs: SSAValue
    ) -> SSAValue:
        """`tile.map` applying a binary arith op; scalars broadcast."""
        result_type = lhs.type if isinstance(lhs.type, TensorType) else rhs.type
        body = Block(arg_types=[tt.element_type_of(lhs.type), tt.element_type_of(rhs.type)])
        scalar = op_type(body.args[0], body.args[1])  # type: ignore[call-arg]
        scalar.location = self.location
        body.add_ops([scalar, tile.YieldOp(scalar.results[0])])
        result_element = tt.element_type_of(scalar.results[0].type)
        map_op = tile.MapOp(
            [lhs, rhs],
            [TensorType(result_element, tt.shape_of(result_type))],
            Region(body),
        )
        return self.insert(map_op).results[0]

    def lower_addptr(self, op: tt.AddPtrOp) -> None:
        pointer = self.values[op.ptr].pointer
        if pointer is None:
            raise CompileError(op, "the pointer operand is not a known buffer pointer")
        if not isinstance(op.ptr.type, TensorType):
            offset = self.emit.add(pointer.scalar_offset, self.index_of(op.offset))  # type: ignore[arg-type]
            self.values[op.result] = Lowered(pointer=Pointer(pointer.buffer, scalar_offset=offset))
            return
        delta = self.values[op.offset]
        index = None
        if pointer.index is not None and delta.index is not None:
            index = affine.add(pointer.index, delta.index, self.emit)
        wide = self.widen_to_i64(self.operand_of_map(op.offset))
        offsets = self.map_binary(arith.AddiOp, self.offsets_of(pointer, op), wide)
        self.values[op.result] = Lowered(pointer=Pointer(pointer.buffer, index=index, offsets=offsets))

    def widen_to_i64(self, value: SSAValue) -> SSAValue:
        """Sign-extend an integer tile or scalar to i64 elements."""
        element = tt.element_type_of(value.type)
        if element == i64:
            return value
        if not isinstance(value.type, TensorType):
            return self.insert(tarith.ExtSIOp(value, i64)).results[0]
        body = Block(arg_types=[element])
        extend = tarith.ExtSIOp(body.args[0], i64)
        extend.location = self.location
        body.add_ops([extend, tile.YieldOp(extend.result)])
        return self.insert(
            tile.MapOp([value], [TensorType(i64, value.type.get_shape())], Region(body))
        ).results[0]

    def lower_bitcast(self, op: tt.BitcastOp) -> None:
        source = self.values[op.src]
        if source.pointer is None:
            self.lower_elementwise_like(op, tarith.BitcastOp)
            return
        old = tt.element_type_of(op.src.type)
        new = tt.element_type_of(op.result.type)
        assert isinstance(old, tt.PointerType) and isinstance(new, tt.PointerType)
        old_bytes = tile.element_bytes(old.pointee_type)
        new_bytes = tile.element_bytes(new.pointee_type)
        pointer = source.pointer
        if old_bytes != new_bytes and not (
            pointer.scalar_offset == 0 and not isinstance(op.src.type, TensorType)
        ):
            raise CompileError(
                op,
                "a pointer with an offset is cast to an element type of another width",
            )
        cast = self.insert(
            tile.BufferCastOp.create(
                operands=[pointer.buffer], result_types=[tile.BufferType(new.pointee_type)]
            )
        ).results[0]
        self.values[op.result] = Lowered(pointer=replace(pointer, buffer=cast))

    def lower_elementwise_like(self, op: Operation, scalar_type: type[Operation]) -> None:
        """A tt elementwise op with an arith/math equivalent."""
        if not isinstance(op.results[0].type, TensorType):
            new = scalar_type.create(
                operands=[self.tile_of(o) for o in op.operands],
                result_types=list(op.result_types),
            )
            self.values[op.results[0]] = Lowered(value=self.insert(new).results[0])
            return
        operands = [self.operand_of_map(o) for o in op.operands]
        body = Block(arg_types=[tt.element_type_of(o.type) for o in operands])
        scalar = scalar_type.create(
            operands=list(body.args),
            result_types=[tt.element_type_of(t) for t in op.result_types],
        )
        scalar.location = self.location
        body.add_ops([scalar, tile.YieldOp(*scalar.results)])
        map_op = self.insert(tile.MapOp(operands, list(op.result_types), Region(body)))  # type: ignore[arg-type]
        self.values[op.results[0]] = Lowered(value=map_op.results[0])

    def lower_mulhiui(self, op: tt.MulhiUIOp) -> None:
        operands = [self.operand_of_map(o) for o in op.operands]
        element = tt.element_type_of(op.result.type)
        if not isinstance(op.result.type, TensorType):
            extended = self.insert(arith.MulUIExtendedOp(operands[0], operands[1], element))
            self.values[op.result] = Lowered(value=extended.results[1])
            return
        body = Block(arg_types=[element, element])
        extended = arith.MulUIExtendedOp(body.args[0], body.args[1], element)
        extended.location = self.location
        body.add_ops([extended, tile.YieldOp(extended.results[1])])
        map_op = self.insert(tile.MapOp(operands, [op.result.type], Region(body)))  # type: ignore[list-item]
        self.values[op.result] = Lowered(value=map_op.results[0])

    # -- memory ---------------------------------------------------------------

    def lower_load(self, op: tt.LoadOp) -> None:
        pointer = self.pointer_of(op, op.ptr)
        result_type = op.result.type
        other = self.values[op.other] if op.other is not None else None
        pad = None
        if other is not None:  # a scalar `other`, or a tensor of one value, is the pad
            pad = other.uniform if isinstance(result_type, TensorType) else other.value
        if not isinstance(result_type, TensorType):
            loaded = self.indexed_transfer(
                pointer.buffer,
                self.index_to_i64(pointer.scalar_offset),  # type: ignore[arg-type]
                op.mask,
                result_type,
                pad=pad,
            )
        else:
            loaded = self.transfer(op, pointer, op.mask, result_type, pad=pad)
        if other is not None and pad is None:
            loaded = self.select(self.tile_of(op.mask), loaded, self.tile_of(op.other))  # type: ignore[arg-type]
        self.values[op.result] = Lowered(value=loaded)

    def lower_store(self, op: tt.StoreOp) -> None:
        pointer = self.pointer_of(op, op.ptr)
        if not isinstance(op.value.type, TensorType):
            self.indexed_transfer(
                pointer.buffer,
                self.index_to_i64(pointer.scalar_offset),  # type: ignore[arg-type]
                op.mask,
                op.value.type,
                value=self.tile_of(op.value),
            )
            return
        self.transfer(op, pointer, op.mask, op.value.type, value=self.tile_of(op.value))  # type: ignore[arg-type]

    def transfer(
        self,
        op: Operation,
        pointer: Pointer,
        mask: SSAValue | None,
        tile_type: TensorType,
        *,
        pad: SSAValue | None = None,
        value: SSAValue | None = None,
    ) -> SSAValue:
        """A structured DMA when the pointer is affine, else a gather/scatter."""
        if pointer.index is not None:
            structured = self.structured_transfer(pointer, mask, tile_type, pad, value)
            if structured is not None:
                return structured
        return self.indexed_transfer(
            pointer.buffer, self.offsets_of(pointer, op), mask, tile_type, pad=pad, value=value
        )

    def indexed_transfer(
        self,
        buffer: SSAValue,
        indices: SSAValue,
        mask: SSAValue | None,
        value_type: Attribute,
        *,
        pad: SSAValue | None = None,
        value: SSAValue | None = None,
    ) -> SSAValue:
        """`tile.gather` (no `value`) or `tile.scatter` at the element offsets `indices`."""
        masks = [self.tile_of(mask)] if mask is not None else []
        if value is None:
            groups = [[pad] if pad is not None else [], buffer, indices, masks]
            gather = tile.GatherOp.create(
                operands=tile.flatten_groups(groups),
                result_types=[value_type],
                properties=tile.segment_sizes(groups),
            )
            return self.insert(gather).results[0]
        groups = [value, buffer, indices, masks]
        self.insert(
            tile.ScatterOp.create(
                operands=tile.flatten_groups(groups), properties=tile.segment_sizes(groups)
            )
        )
        return value

    def structured_transfer(
        self,
        pointer: Pointer,
        mask: SSAValue | None,
        tile_type: TensorType,
        pad: SSAValue | None,
        value: SSAValue | None,
    ) -> SSAValue | None:
        """`tile.load`/`tile.store` over the pointer's digit view, or None."""
        assert pointer.index is not None
        boxes, explicit = self.mask_parts(mask) if mask is not None else ([], [])
        views = affine.unify([pointer.index, *(b.view for b in boxes)], self.emit)
        if views is None:
            # the boxes' splits do not nest with the pointer's: keep them as tiles
            views = [pointer.index]
            explicit += [self.mask_tile_of_box(b) for b in boxes]
            boxes = []
        index = views[0]
        bounds: Box | None = None
        for box in boxes:
            refined = affine.refine_box(box, index, self.emit)
            if refined is not None and bounds is not None:
                refined = affine.intersect(bounds, refined, self.emit)
            if refined is None:
                explicit.append(self.mask_tile_of_box(box))
            else:
                bounds = refined
        bounds = bounds or Box.full(index)
        digit_type = TensorType(tile_type.element_type, index.digit_shape)
        mask_tile = self.conjunction(explicit)
        if mask_tile is not None and index.digit_shape != tile_type.get_shape():
            mask_tile = self.insert(
                tile.ReshapeOp(mask_tile, TensorType(IntegerType(1), index.digit_shape))
            ).results[0]
        emit = self.emit
        full = Box.full(index)
        lower = [] if bounds.lower == full.lower else [emit.materialize(v) if isinstance(v, SSAValue) else v for v in bounds.lower]
        upper = [] if bounds.upper == full.upper else list(bounds.upper)
        if value is None:
            load = tile.LoadOp(
                pointer.buffer,
                index.base,
                list(index.strides),
                digit_type,
                lower=lower,
                upper=upper,
                mask=mask_tile,
                pad=pad,
            )
            loaded = self.insert(load).results[0]
            if digit_type != tile_type:
                loaded = self.insert(tile.ReshapeOp(loaded, tile_type)).results[0]
            return loaded
        if digit_type != tile_type:
            value = self.insert(tile.ReshapeOp(value, digit_type)).results[0]
        self.insert(
            tile.StoreOp(
                value,
                pointer.buffer,
                index.base,
                list(index.strides),
                lower=lower,
                upper=upper,
                mask=mask_tile,
            )
        )
        return value

    def mask_parts(self, mask: SSAValue) -> tuple[list[Box], list[SSAValue]]:
        """A mask as a conjunction of boxes and explicit mask tiles."""
        lowered = self.values[mask]
        if lowered.box is not None:
            return [lowered.box], []
        owner = mask.owner
        if isinstance(owner, arith.AndIOp):
            boxes_a, tiles_a = self.mask_parts(owner.lhs)
            boxes_b, tiles_b = self.mask_parts(owner.rhs)
            return boxes_a + boxes_b, tiles_a + tiles_b
        return [], [self.tile_of(mask)]

    def mask_tile_of_box(self, box: Box) -> SSAValue:
        """A box as an explicit i1 tile over the tile's shape."""
        emit = self.emit
        view = box.view
        conditions: list[SSAValue] = []
        for k, digit in enumerate(view.digits):
            low, high = box.lower[k], box.upper[k]
            if low == 0 and high == digit.size:
                continue
            coordinate = AffineIndex(
                view.shape,
                tuple(
                    affine.Digit(d.dim, d.size, 1 if j == k else 0)
                    for j, d in enumerate(view.digits)
                ),
                0,
            )
            values = self.materialize_index(coordinate)
            for bound, predicate in ((low, "sge"), (high, "slt")):
                if predicate == "sge" and bound == 0:
                    continue
                bound_i64 = self.index_to_i64(emit.materialize(bound) if isinstance(bound, int) else bound)
                conditions.append(self.compare(values, bound_i64, predicate))
        if not conditions:
            true = self.insert(arith.ConstantOp(IntegerAttr(1, IntegerType(1)))).results[0]
            return self.insert(
                tile.BroadcastOp(true, TensorType(IntegerType(1), view.shape))
            ).results[0]
        result = self.conjunction(conditions)
        assert result is not None
        return result

    def compare(self, lhs: SSAValue, rhs: SSAValue, predicate: str) -> SSAValue:
        body = Block(arg_types=[tt.element_type_of(lhs.type), tt.element_type_of(rhs.type)])
        compare = tarith.CmpiOp(body.args[0], body.args[1], predicate)
        compare.location = self.location
        body.add_ops([compare, tile.YieldOp(compare.result)])
        return self.insert(
            tile.MapOp(
                [lhs, rhs], [TensorType(IntegerType(1), tt.shape_of(lhs.type))], Region(body)
            )
        ).results[0]

    def conjunction(self, masks: Sequence[SSAValue]) -> SSAValue | None:
        if not masks:
            return None
        result = masks[0]
        for mask in masks[1:]:
            result = self.map_binary(arith.AndIOp, result, mask)
        return result

    def select(self, condition: SSAValue, if_true: SSAValue, if_false: SSAValue) -> SSAValue:
        body = Block(
            arg_types=[tt.element_type_of(v.type) for v in (condition, if_true, if_false)]
        )
        choice = tarith.SelectOp(*body.args)
        choice.location = self.location
        body.add_ops([choice, tile.YieldOp(choice.result)])
        shape = tt.shape_of(if_true.type) or tt.shape_of(condition.type)
        return self.insert(
            tile.MapOp(
                [condition, if_true, if_false],
                [TensorType(tt.element_type_of(if_true.type), shape)],
                Region(body),
            )
        ).results[0]

    def pointer_of(self, op: Operation, value: SSAValue) -> Pointer:
        pointer = self.values[value].pointer
        if pointer is None:
            raise CompileError(op, "the pointer operand is not a known buffer pointer")
        return pointer

    def lower_atomic(self, op: tt.AtomicRMWOp | tt.AtomicCASOp) -> None:
        pointer = self.pointer_of(op, op.ptr)
        if isinstance(op.ptr.type, TensorType):
            indices = self.offsets_of(pointer, op)
        else:
            indices = self.index_to_i64(pointer.scalar_offset)  # type: ignore[arg-type]
        mask = getattr(op, "mask", None)
        masks = [self.tile_of(mask)] if mask is not None else []
        if isinstance(op, tt.AtomicRMWOp):
            values = [self.tile_of(op.val)]
            properties = {"kind": tile.StringAttr(tt.RMWOp.of(op.atomic_rmw_op).keyword)}
            op_type: type[Operation] = tile.AtomicRMWOp
        else:
            values = [self.tile_of(op.cmp), self.tile_of(op.val)]
            properties = {}
            op_type = tile.AtomicCASOp
        groups = [*values, pointer.buffer, indices, masks]
        new = op_type.create(
            operands=tile.flatten_groups(groups),
            result_types=[op.result.type],
            properties=properties | tile.segment_sizes(groups),
        )
        self.values[op.result] = Lowered(value=self.insert(new).results[0])

    # -- reductions, scans, dot -----------------------------------------------

    def lower_reduce_or_scan(self, op: tt.ReduceOp | tt.ScanOp) -> None:
        inputs = [self.tile_of(s) for s in op.srcs]
        combiner = self.clone_combiner(op, op.combineOp)
        properties: dict[str, Attribute] = {"axis": op.axis}
        if isinstance(op, tt.ScanOp):
            properties["reverse"] = op.reverse
            new_type: type[Operation] = tile.ScanOp
        else:
            new_type = tile.ReduceOp
        new = new_type.create(
            operands=inputs,
            result_types=list(op.result_types),
            properties=properties,
            regions=[combiner],
        )
        self.insert(new)
        for old, result in zip(op.results, new.results):
            self.values[old] = Lowered(value=result)

    def clone_combiner(self, op: Operation, region: Region) -> Region:
        """The combine region, with `tt.*.return` as `tile.yield` and outer values mapped."""
        outer = {
            operand: self.tile_of(operand)
            for inner in region.walk()
            for operand in inner.operands
            if operand in self.values
        }
        clone = Region()
        region.clone_into(clone, value_mapper=outer)
        for inner in list(clone.walk()):
            if isinstance(inner, tt.ReduceReturnOp | tt.ScanReturnOp):
                Rewriter.replace_op(inner, tile.YieldOp(*inner.operands))
            elif inner.dialect_name() not in ("arith", "math", "tile", "scf"):
                raise CompileError(op, f"combine region holds '{inner.name}'")
        return clone

    def lower_dot(self, op: tt.DotOp) -> None:
        new = tile.MatmulOp.create(
            operands=[self.tile_of(op.a), self.tile_of(op.b), self.tile_of(op.c)],
            result_types=[op.d.type],
        )
        self.values[op.d] = Lowered(value=self.insert(new).results[0])

    def lower_assert(self, op: tt.AssertOp) -> None:
        self.insert(
            tile.AssertOp.create(
                operands=[self.tile_of(op.condition)], properties={"message": op.message}
            )
        )

    def lower_return(self, op: tt.ReturnOp) -> None:
        if op.srcs:
            raise CompileError(op, "a kernel returns nothing")
        self.insert(tile.ReturnOp())

    # -- control flow ---------------------------------------------------------

    def lower_for(self, op: scf.ForOp) -> None:
        carried = [
            self.carry(op, init, yielded)
            for init, yielded in zip(op.iter_args, op.body.block.last_op.operands)  # type: ignore[union-attr]
        ]
        body = Block(arg_types=[self.tile_of(op.lb).type, *(c.type for c in carried)])
        body.args[0].name_hint = op.body.block.args[0].name_hint
        new = scf.ForOp(
            self.tile_of(op.lb),
            self.tile_of(op.ub),
            self.tile_of(op.step),
            [c.init for c in carried],
            Region(body),
        )
        self.insert(new)
        self.values[op.body.block.args[0]] = Lowered(value=body.args[0])
        for old_arg, new_arg, c in zip(op.body.block.args[1:], body.args[1:], carried):
            new_arg.name_hint = old_arg.name_hint
            self.values[old_arg] = c.inside(new_arg)
        with self.at_end(body):
            for inner in op.body.block.ops:
                self.location = inner.location
                if isinstance(inner, scf.YieldOp):
                    self.insert(scf.YieldOp(*[c.next(v) for c, v in zip(carried, inner.operands)]))
                else:
                    self.lower_op(inner)
        self.location = op.location
        for old, result, c in zip(op.results, new.results, carried):
            self.values[old] = c.inside(result)

    def carry(self, op: Operation, init: SSAValue, yielded: SSAValue) -> Carried:
        """How a loop-carried TTIR value travels: a tile, a scalar, or pointer state."""
        lowered = self.values[init]
        pointer = lowered.pointer
        if pointer is None:
            return Carried(self, op, init=self.tile_of(init))
        if not isinstance(init.type, TensorType):
            offset = self.emit.materialize(pointer.scalar_offset)  # type: ignore[arg-type]
            return Carried(self, op, init=offset, buffer=pointer.buffer, scalar_pointer=True)
        step = _uniform_advance(yielded, op)
        if pointer.index is not None and step is not None:
            base = self.emit.materialize(pointer.index.base)
            return Carried(self, op, init=base, buffer=pointer.buffer, index=pointer.index)
        return Carried(
            self, op, init=self.offsets_of(pointer, op), buffer=pointer.buffer
        )

    def lower_if(self, op: scf.IfOp) -> None:
        for result in op.results:
            if isinstance(tt.element_type_of(result.type), tt.PointerType):
                raise CompileError(op, "an scf.if yielding pointers is not supported")
        regions = []
        for region in (op.true_region, op.false_region):
            if not region.blocks:
                regions.append(Region())
                continue
            block = Block()
            with self.at_end(block):
                self.lower_structured_block(region.block)
            regions.append(Region(block))
        new = self.insert(
            scf.IfOp(self.tile_of(op.cond), list(op.result_types), regions[0], regions[1])
        )
        for old, result in zip(op.results, new.results):
            self.values[old] = Lowered(value=result)

    def lower_structured_block(self, block: Block) -> None:
        """Lower a block of scf ops whose terminator passes values through."""
        for inner in block.ops:
            self.location = inner.location
            if isinstance(inner, scf.YieldOp):
                self.insert(scf.YieldOp(*[self.tile_of(v) for v in inner.operands]))
            elif isinstance(inner, scf.ConditionOp):
                self.insert(
                    scf.ConditionOp(
                        self.tile_of(inner.condition), *[self.tile_of(v) for v in inner.args]
                    )
                )
            else:
                self.lower_op(inner)

    def lower_while(self, op: scf.WhileOp) -> None:
        for value in (*op.arguments, *op.results):
            if isinstance(tt.element_type_of(value.type), tt.PointerType):
                raise CompileError(op, "an scf.while carrying pointers is not supported")
        regions = []
        for region in (op.before_region, op.after_region):
            block = Block(arg_types=region.block.arg_types)
            for old, new in zip(region.block.args, block.args):
                new.name_hint = old.name_hint
                self.values[old] = Lowered(value=new)
            with self.at_end(block):
                self.lower_structured_block(region.block)
            regions.append(Region(block))
        new = self.insert(
            scf.WhileOp(
                [self.tile_of(a) for a in op.arguments],
                list(op.result_types),
                regions[0],
                regions[1],
            )
        )
        for old, result in zip(op.results, new.results):
            self.values[old] = Lowered(value=result)

    class _InsertionScope:
        def __init__(self, lowering: KernelLowering, block: Block):
            self.lowering = lowering
            self.block = block

        def __enter__(self) -> None:
            self.saved = self.lowering.builder.insertion_point
            self.lowering.builder.insertion_point = InsertPoint.at_end(self.block)

        def __exit__(self, *_: object) -> None:
            self.lowering.builder.insertion_point = self.saved

    def at_end(self, block: Block) -> KernelLowering._InsertionScope:
        return KernelLowering._InsertionScope(self, block)


@dataclass
class Carried:
    """One loop-carried TTIR value and its carried form.

    Data travels as its tile or scalar.  A scalar pointer travels as its
    offset; a pointer tensor advanced by a uniform step as the base of its
    affine index (strides are loop-invariant); any other pointer tensor as
    its i64 offset tile.
    """

    lowering: KernelLowering
    op: Operation
    init: SSAValue
    buffer: SSAValue | None = None
    scalar_pointer: bool = False
    index: AffineIndex | None = None

    @property
    def type(self) -> Attribute:
        return self.init.type

    def inside(self, value: SSAValue) -> Lowered:
        """The TTIR value's forms, given the carried value (a block arg or result)."""
        if self.buffer is None:
            return Lowered(value=value)
        if self.scalar_pointer:
            return Lowered(pointer=Pointer(self.buffer, scalar_offset=value))
        if self.index is not None:
            return Lowered(pointer=Pointer(self.buffer, index=replace(self.index, base=value)))
        return Lowered(pointer=Pointer(self.buffer, offsets=value))

    def next(self, yielded: SSAValue) -> SSAValue:
        """The carried value for the next iteration, from the TTIR value yielded."""
        lowering = self.lowering
        lowered = lowering.values[yielded]
        if self.buffer is None:
            return lowering.tile_of(yielded)
        pointer = lowered.pointer
        if pointer is None or pointer.buffer is not self.buffer:
            raise CompileError(self.op, "a loop-carried pointer changes buffer")
        if self.scalar_pointer:
            return lowering.emit.materialize(pointer.scalar_offset)  # type: ignore[arg-type]
        if self.index is not None:
            assert pointer.index is not None
            return lowering.emit.materialize(pointer.index.base)
        return lowering.offsets_of(pointer, self.op)


def _uniform_advance(yielded: SSAValue, loop: Operation) -> SSAValue | None:
    """The uniform step if `yielded` is `addptr(iter_arg, uniform)` of this loop."""
    owner = yielded.owner
    if not isinstance(owner, tt.AddPtrOp):
        return None
    source = owner.ptr
    if not (isinstance(source.owner, Block) and source.owner.parent_op() is loop):
        return None
    step = owner.offset.owner
    if isinstance(step, tt.SplatOp):
        return owner.offset
    if isinstance(step, arith.ConstantOp):
        value = step.value
        if isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat():
            return owner.offset
    return None


def _constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _i64_array(values: Sequence[int]) -> Attribute:
    return DenseArrayBase.from_list(i64, list(values))


class ScalarFacts:
    """What is known about TTIR integer scalars: divisors and signs.

    Program ids, grid sizes and non-negative constants are non-negative;
    `tt.divisibility` hints on arguments give divisors; sums, products,
    extensions and loop indices combine them.
    """

    def __init__(self, func: tt.FuncOp):
        self.argument_divisors: dict[SSAValue, int] = {}
        if func.arg_attrs is not None:
            for arg, attrs in zip(func.body.blocks[0].args, func.arg_attrs):
                hint = attrs.data.get("tt.divisibility")
                if isinstance(hint, IntegerAttr):
                    self.argument_divisors[arg] = hint.value.data

    def multiple_of(self, value: SSAValue) -> int:
        owner = value.owner
        match owner:
            case arith.ConstantOp() if isinstance(owner.value, IntegerAttr):
                return abs(owner.value.value.data) or 1 << 62
            case arith.MuliOp():
                return self.multiple_of(owner.lhs) * self.multiple_of(owner.rhs)
            case arith.AddiOp() | arith.SubiOp():
                return math.gcd(self.multiple_of(owner.lhs), self.multiple_of(owner.rhs))
            case tarith.ExtSIOp() | tarith.ExtUIOp() | tarith.IndexCastOp():
                return self.multiple_of(owner.input)
            case scf.ForOp() | Block():
                pass
        if isinstance(owner, Block):
            loop = owner.parent_op()
            if isinstance(loop, scf.ForOp) and value is owner.args[0]:
                return math.gcd(self.multiple_of(loop.lb), self.multiple_of(loop.step))
            return self.argument_divisors.get(value, 1)
        return 1

    def non_negative(self, value: SSAValue) -> bool:
        owner = value.owner
        match owner:
            case arith.ConstantOp() if isinstance(owner.value, IntegerAttr):
                return owner.value.value.data >= 0
            case tt.GetProgramIdOp() | tt.GetNumProgramsOp():
                return True
            case arith.MuliOp() | arith.AddiOp() | arith.MinSIOp():
                return self.non_negative(owner.lhs) and self.non_negative(owner.rhs)
            case arith.MaxSIOp():
                return self.non_negative(owner.lhs) or self.non_negative(owner.rhs)
            case arith.DivSIOp():
                return self.non_negative(owner.lhs) and self.non_negative(owner.rhs)
            case arith.RemSIOp():  # the remainder has the dividend's sign
                return self.non_negative(owner.lhs)
            case tarith.ExtSIOp() | tarith.IndexCastOp():
                return self.non_negative(owner.input)
            case tarith.ExtUIOp():
                return True
        if isinstance(owner, Block):
            loop = owner.parent_op()
            if isinstance(loop, scf.ForOp) and value is owner.args[0]:
                return self.non_negative(loop.lb) and self.non_negative(loop.step)
        return False


_HANDLERS: dict[type[Operation], Callable[[KernelLowering, Operation], None]] = {
    tt.GetProgramIdOp: KernelLowering.lower_program_id,  # type: ignore[dict-item]
    tt.GetNumProgramsOp: KernelLowering.lower_program_id,  # type: ignore[dict-item]
    tt.MakeRangeOp: KernelLowering.lower_make_range,  # type: ignore[dict-item]
    tt.SplatOp: KernelLowering.lower_splat,  # type: ignore[dict-item]
    tt.ExpandDimsOp: KernelLowering.lower_expand_dims,  # type: ignore[dict-item]
    tt.BroadcastOp: KernelLowering.lower_broadcast,  # type: ignore[dict-item]
    tt.ReshapeOp: KernelLowering.lower_reshape,  # type: ignore[dict-item]
    tt.TransOp: KernelLowering.lower_trans,  # type: ignore[dict-item]
    tt.AddPtrOp: KernelLowering.lower_addptr,  # type: ignore[dict-item]
    tt.BitcastOp: KernelLowering.lower_bitcast,  # type: ignore[dict-item]
    tt.MulhiUIOp: KernelLowering.lower_mulhiui,  # type: ignore[dict-item]
    tt.PreciseSqrtOp: lambda self, op: self.lower_elementwise_like(op, xmath.SqrtOp),
    tt.PreciseDivFOp: lambda self, op: self.lower_elementwise_like(op, arith.DivfOp),
    tt.LoadOp: KernelLowering.lower_load,  # type: ignore[dict-item]
    tt.StoreOp: KernelLowering.lower_store,  # type: ignore[dict-item]
    tt.AtomicRMWOp: KernelLowering.lower_atomic,  # type: ignore[dict-item]
    tt.AtomicCASOp: KernelLowering.lower_atomic,  # type: ignore[dict-item]
    tt.ReduceOp: KernelLowering.lower_reduce_or_scan,  # type: ignore[dict-item]
    tt.ScanOp: KernelLowering.lower_reduce_or_scan,  # type: ignore[dict-item]
    tt.DotOp: KernelLowering.lower_dot,  # type: ignore[dict-item]
    tt.AssertOp: KernelLowering.lower_assert,  # type: ignore[dict-item]
    tt.ReturnOp: KernelLowering.lower_return,  # type: ignore[dict-item]
    scf.ForOp: KernelLowering.lower_for,  # type: ignore[dict-item]
    scf.IfOp: KernelLowering.lower_if,  # type: ignore[dict-item]
    scf.WhileOp: KernelLowering.lower_while,  # type: ignore[dict-item]
}


@dataclass(frozen=True)
class TTIRToTilePass(ModulePass):
    """Lower TTIR kernels (`tt.func`) to `tile.kernel`s: structured DMA where provable.

    Matches `tt.func` after strip-gpu-only, lower-libdevice and
    structure-early-return; produces
    `tile.kernel` with `tile.load`/`store` where pointer offsets are affine in
    the tile coordinates (including Inductor's `%`/`//` decompositions) and
    `tile.gather`/`scatter` otherwise; masks become DMA bounds where they are
    boxes and mask tiles where not.  Refuses, with the op and its source
    location, what cannot be described (inline assembly, libdevice calls left,
    descriptors, unstructured control flow).  Run `dce` afterwards to drop
    the forms no use needed.
    """

    name = "ttir-to-tile"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            kernel = KernelLowering(func).lower()
            Rewriter.replace_op(func, kernel)
