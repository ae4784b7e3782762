"""What `ttir-to-tile` keeps while it lowers one kernel, and the helpers its op lowerings share.

`KernelLowering` walks a `tt.func` body in order and hands each op to the
function registered for its class; the functions come in families
(`OpLowerings`, one per module of `tnpu.lowering.op_lowerings`).  Each
records what the TTIR values it defines were lowered to (`Lowered`, see
`tnpu.lowering.pointer_analysis`) in `values`, where later ops find them.
The helpers here build what several families need: one-op `tile.map`s,
i64 offset tiles, `index` scalars and the forms of uniform tensors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, LocationAttr, TensorType, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from tnpu.diagnostics import CompileError, share_text_position
from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.dialects.dispatch import entry_for
from tnpu.lowering.affine import AffineIndex, Box, IndexEmitter, Scalar
from tnpu.lowering.pointer_analysis import (
    Lowered,
    Pointer,
    PointerChoice,
    PointerTensor,
    ScalarPointer,
)
from tnpu.lowering.scalar_facts import ScalarFacts

LowerOp = Callable[["KernelLowering", Any], None]
"""How one op class is lowered: records the forms of the op's results."""

LowerOpT = TypeVar("LowerOpT", bound=LowerOp)


class OpLowerings:
    """One op family's lowerings, by op class.

    ```
    MEMORY = OpLowerings()

    @MEMORY.lowers(tt.LoadOp)
    def lower_load(lowering: KernelLowering, op: tt.LoadOp) -> None: ...
    ```
    """

    def __init__(self) -> None:
        self.by_class: dict[type[Operation], LowerOp] = {}

    def lowers(self, *classes: type[Operation]) -> Callable[[LowerOpT], LowerOpT]:
        def register(lower: LowerOpT) -> LowerOpT:
            for cls in classes:
                assert cls not in self.by_class, f"'{cls.name}' has two lowerings"
                self.by_class[cls] = lower
            return lower

        return register


def dispatch_table(*families: OpLowerings) -> dict[type[Operation], LowerOp]:
    """The lowerings of all families; an op class has one at most."""
    table: dict[type[Operation], LowerOp] = {}
    for family in families:
        assert not table.keys() & family.by_class.keys(), "an op class has two lowerings"
        table |= family.by_class
    return table


class KernelLowering:
    """Lowers one `tt.func` to a `tile.kernel`, op by op, through `lowerings`."""

    def __init__(self, func: tt.FuncOp, lowerings: Mapping[type[Operation], LowerOp]):
        self.func = func
        self.lowerings = lowerings
        self.values: dict[SSAValue, Lowered] = {}
        self.op: Operation = func
        """The op being lowered, which diagnostics name."""
        self.location: LocationAttr = func.location
        self.builder = Builder(
            InsertPoint.at_end(Block()),
            operation_insertion_handler=[lambda new: share_text_position(self.op, new)],
        )
        self.emit = IndexEmitter(self.builder, lambda: self.location, self.check_non_negative)
        self.facts = ScalarFacts(func)

    # -- walking the kernel ---------------------------------------------------

    def lower(self) -> tile.KernelOp:
        entry = self.func.body.blocks[0]
        arg_types = [
            tile.BufferType(t.pointee_type) if isinstance(t, tt.PointerType) else t
            for t in entry.arg_types
        ]
        block = Block(arg_types=arg_types)
        for old, new in zip(entry.args, block.args):
            new.name_hint = old.name_hint
            if isinstance(old.type, tt.TensorDescType):
                raise CompileError(
                    self.func,
                    f"argument '{old.name_hint}' is a tensor descriptor made on the host; "
                    "make it in the kernel with tl.make_tensor_descriptor",
                )
            if isinstance(old.type, tt.PointerType):
                self.values[old] = Lowered(pointer=ScalarPointer(new, 0))
            else:
                self.values[old] = Lowered(value=new)
        name = self.func.sym_name.data
        kernel = tile.KernelOp(name, arg_types, Region(block), self.func.arg_attrs)
        kernel.location = self.func.location
        share_text_position(self.func, kernel)
        self.builder.insertion_point = InsertPoint.at_end(block)
        self.lower_block(entry)
        return kernel

    def lower_block(self, block: Block) -> None:
        for op in block.ops:
            self.location = op.location
            self.lower_op(op)

    def lower_op(self, op: Operation) -> None:
        lower = entry_for(self.lowerings, op)
        if lower is None:
            raise CompileError(op, "has no lowering to the tile dialect")
        outer, self.op = self.op, op
        lower(self, op)
        self.op = outer
        if not isinstance(op, arith.ConstantOp):  # a splat's new tile and scalar stay unnamed
            self.keep_names(op)

    def keep_names(self, op: Operation) -> None:
        """Give lowered values the names Triton recorded for the TTIR ones."""
        for result in op.results:
            lowered = self.values.get(result)
            if lowered is None or result.name_hint is None:
                continue
            for value in (lowered.value, lowered.uniform):
                if value is not None and value.name_hint is None:
                    value.name_hint = result.name_hint

    def insert(self, op: Operation) -> Operation:
        op.location = self.location
        self.builder.insert(op)
        return op

    @contextmanager
    def at_end(self, block: Block) -> Iterator[None]:
        """Insert at the end of `block` meanwhile."""
        saved = self.builder.insertion_point
        self.builder.insertion_point = InsertPoint.at_end(block)
        try:
            yield
        finally:
            self.builder.insertion_point = saved

    # -- lowered values ---------------------------------------------------------

    def tile_of(self, value: SSAValue) -> SSAValue:
        """The tile (or scalar) computing a TTIR data value."""
        lowered = self.values[value]
        if lowered.value is None:
            what = "a tensor descriptor" if lowered.descriptor is not None else "a pointer"
            raise CompileError(self.op, f"uses {what} as data")
        return lowered.value

    def operand_of_map(self, value: SSAValue) -> SSAValue:
        """A `tile.map` operand: the uniform scalar when there is one, else the tile."""
        lowered = self.values[value]
        return lowered.uniform if lowered.uniform is not None else self.tile_of(value)

    def pointer_of(self, op: Operation, value: SSAValue) -> Pointer | PointerChoice:
        lowered = self.values[value]
        if lowered.pointer is None:
            if lowered.value is not None:
                raise CompileError(
                    op, "the pointer operand is data (cast from an integer or loaded from "
                    "memory): it points into no known buffer",
                )
            raise CompileError(op, "the pointer operand is not a known buffer pointer")
        return lowered.pointer

    def index_of(self, value: SSAValue) -> Scalar:
        """A TTIR integer scalar as an `index` scalar (a Python int if constant)."""
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return owner.value.value.data
        return self.emit.cast(
            self.tile_of(value), self.facts.multiple_of(value), self.facts.non_negative(value)
        )

    def check_non_negative(self, value: SSAValue) -> None:
        """Assert at run time that an index the analysis relies on is >= 0."""
        zero = self.emit.materialize(0)
        condition = self.insert(tarith.CmpiOp(value, zero, "sge")).results[0]
        message = tile.StringAttr("tnpu: an index expression assumed non-negative is negative")
        self.insert(tile.AssertOp.create(operands=[condition], properties={"message": message}))

    # -- building tiles -----------------------------------------------------------

    def map_of(
        self,
        operands: Sequence[SSAValue],
        shape: Sequence[int],
        scalar_op: Callable[[Sequence[SSAValue]], Operation],
        result: int | None = None,
    ) -> tile.MapOp:
        """A one-op `tile.map` over `shape`, inserted.

        `scalar_op` builds the body's op on its arguments (one per operand, of
        the operand's element type); the body yields the op's results, or
        only the one numbered `result`.
        """
        body = Block(arg_types=[tt.element_type_of(o.type) for o in operands])
        scalar = scalar_op(body.args)
        scalar.location = self.location
        yielded = scalar.results if result is None else [scalar.results[result]]
        body.add_ops([scalar, tile.YieldOp(*yielded)])
        result_types = [TensorType(v.type, shape) for v in yielded]
        map_op = tile.MapOp(operands, result_types, Region(body))
        self.insert(map_op)
        return map_op

    def map_binary(
        self, op_type: Callable[[SSAValue, SSAValue], Operation], lhs: SSAValue, rhs: SSAValue
    ) -> SSAValue:
        """`tile.map` applying a binary arith op; a scalar operand is broadcast."""
        shape = tt.shape_of(lhs.type if isinstance(lhs.type, TensorType) else rhs.type)
        return self.map_of([lhs, rhs], shape, lambda args: op_type(*args)).results[0]

    def index_to_i64(self, value: Scalar) -> SSAValue:
        if isinstance(value, int):
            return self.insert(arith.ConstantOp(IntegerAttr(value, i64))).results[0]
        return self.insert(tarith.IndexCastOp(value, i64)).results[0]

    def widen_to_i64(self, value: SSAValue) -> SSAValue:
        """Sign-extend an integer tile or scalar to i64 elements."""
        if tt.element_type_of(value.type) == i64:
            return value
        if not isinstance(value.type, TensorType):
            return self.insert(tarith.ExtSIOp(value, i64)).results[0]
        shape = value.type.get_shape()
        return self.map_of([value], shape, lambda args: tarith.ExtSIOp(args[0], i64)).results[0]

    def offsets_of(self, pointer: PointerTensor) -> SSAValue:
        """The pointer's element offsets as an i64 tile (computed from the index once)."""
        if pointer.offsets is None:
            assert pointer.index is not None
            pointer.offsets = self.materialize_index(pointer.index)
        return pointer.offsets

    def materialize_index(self, index: AffineIndex) -> SSAValue:
        """An i64 tile holding an affine index's values."""
        digit_shape = index.digit_shape
        flat = TensorType(i64, digit_shape)
        terms: list[SSAValue] = [self.index_to_i64(index.base)]
        for k, digit in enumerate(index.digits):
            if digit.stride == 0:
                continue
            spread = self.coordinate(digit_shape, k, i64)
            terms.append(self.map_binary(arith.MuliOp, spread, self.index_to_i64(digit.stride)))
        result: SSAValue = self.insert(tile.BroadcastOp(terms[0], flat)).results[0]
        for term in terms[1:]:
            result = self.map_binary(arith.AddiOp, result, term)
        if digit_shape != index.shape:
            result = self.insert(tile.ReshapeOp(result, TensorType(i64, index.shape))).results[0]
        return result

    def coordinate(self, shape: Sequence[int], dim: int, element: IntegerType) -> SSAValue:
        """A tile of `shape` holding each element's coordinate along `dim`."""
        iota = tile.IotaOp.create(
            properties={"start": IntegerAttr(0, IntegerType(32))},
            result_types=[TensorType(element, [shape[dim]])],
        )
        result = self.insert(iota).results[0]
        unit = [1] * len(shape)
        unit[dim] = shape[dim]
        if len(shape) > 1:
            result = self.insert(tile.ReshapeOp(result, TensorType(element, unit))).results[0]
        if unit != list(shape):
            result = self.insert(tile.BroadcastOp(result, TensorType(element, shape))).results[0]
        return result

    def splat_forms(
        self, scalar: SSAValue, result_type: TensorType, constant: int | float | None = None
    ) -> Lowered:
        """Every form of a tensor whose elements all equal `scalar` (a `constant` if known)."""
        shape = result_type.get_shape()
        tile_value = self.insert(tile.BroadcastOp(scalar, result_type)).results[0]
        lowered = Lowered(value=tile_value, uniform=scalar)
        element = result_type.element_type
        view = AffineIndex.uniform(shape, 0)
        if element == IntegerType(1):
            if constant is not None:
                lowered.box = Box.full(view) if constant else Box.when(view, 0, self.emit)
            else:
                lowered.box = self.box_when_true(view, scalar)
        elif isinstance(element, IntegerType):
            base = int(constant) if constant is not None else 0
            lowered.index = AffineIndex.uniform(shape, base)
        return lowered

    def box_when_true(self, view: AffineIndex, condition: SSAValue) -> Box:
        """All of `view` where the i1 scalar `condition` holds, else nothing."""
        minus_one = self.emit.materialize(-1)
        zero = self.emit.materialize(0)
        negative = self.insert(tarith.SelectOp(condition, minus_one, zero)).results[0]
        return Box.when(view, negative, self.emit)
