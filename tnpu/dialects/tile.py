"""The `tile` dialect: what both of tnpu's consumers read.

A `tile.kernel` is one program instance of an SPMD grid, written for a
TPU-like core: a software-managed scratchpad holding *tiles* (builtin
`tensor` values with static shapes), a DMA engine moving tiles between global
buffers and the scratchpad, a vector unit, and a matrix unit.  Nothing
GPU-shaped survives: no pointers, warps, layouts or barriers.

* Global memory is a set of `!tile.buffer<T>` kernel arguments, addressed in
  elements of T.  Scalars are ordinary typed arguments.  The grid is symbolic
  (`tile.program_id`, `tile.num_programs`) and bound at launch, so one
  compiled kernel serves every shape.
* `tile.load`/`tile.store` are structured DMA: element `i` of the tile lives
  at `offset + sum(i[d] * strides[d])`; it is moved when
  `lower[d] <= i[d] < upper[d]` for every `d` and `mask[i]` (if given) holds;
  a loaded element that is not moved reads `pad`.  Offset, strides and bounds
  are `index` values or constants, functions of program ids, loop indices and
  scalar arguments.
* `tile.gather`/`tile.scatter` move elements at the offsets an index tile
  holds: irregular access, always correct.  `tile.atomic_rmw`/`atomic_cas`
  are read-modify-writes at an index tile's offsets.
* `tile.map` is a fused elementwise body (a scalar region over every element
  of its tile operands); `tile.reduce`/`tile.scan` carry combine regions;
  `tile.matmul` runs on the matrix unit; `tile.broadcast`, `splat`, `iota`,
  `reshape`, `transpose` rearrange tiles, and `tile.take` picks elements of
  one along an axis.  Control flow is `scf`, with tiles
  as iteration values.

Every DMA op reports its element type and tile size, every compute op its
element count and operation count, so the timing model and the code
generator read the same numbers.  docs/tile-dialect.md has the full reference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloatConstr,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.dialects.utils.dynamic_index_list import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyOf,
    AttrSizedOperandSegments,
    BaseAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from tnpu.dialects.shapes import element_type_of, i1_like, shape_of

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!tile.buffer<f32>`: a global buffer, addressed in elements of its type.

    Rank-agnostic: the shape and strides of a tensor in it are the kernel's
    business (DMA descriptors), not the buffer's.
    """

    name = "tile.buffer"

    element_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)


_SCALAR = BaseAttr(IntegerType) | AnyFloatConstr | BaseAttr(IndexType)
TILE = TensorType.constr(_SCALAR)
"""A tile: a statically shaped tensor of integers or floats."""
TILE_OR_SCALAR = AnyOf.get(_SCALAR, TILE)
INDEX_TILE = TensorType.constr(BaseAttr(IntegerType))
MASK = TensorType.constr(IntegerType(1))


def element_count(type_: Attribute) -> int:
    """Elements in a tile (1 for a scalar)."""
    return math.prod(shape_of(type_))


def element_bytes(element: Attribute) -> int:
    """Bytes an element takes in global memory (i1 is stored as a byte)."""
    if isinstance(element, IntegerType):
        return max(1, element.width.data // 8)
    if isinstance(element, IndexType):
        return 8
    return element.bitwidth // 8  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise VerifyException(message)


# ---------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------


@irdl_op_definition
class KernelOp(IRDLOperation):
    """`tile.kernel @name(%buf: !tile.buffer<f32>, %n: i32) { ... }`: one program instance.

    Arguments keep the order of the Triton kernel's runtime parameters:
    pointers became buffers, scalars stay scalars.
    """

    name = "tile.kernel"

    body = region_def("single_block")
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        argument_types: Sequence[Attribute],
        body: Region,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(argument_types, []),
                "arg_attrs": arg_attrs,
            },
            regions=[body],
        )

    @property
    def args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args)

    def verify_(self) -> None:
        _expect(
            tuple(self.body.block.arg_types) == self.function_type.inputs.data,
            "block arguments must have the kernel's argument types",
        )
        _expect(not self.function_type.outputs.data, "a kernel returns nothing")
        for type_ in self.function_type.inputs.data:
            _expect(
                isinstance(type_, BufferType | IntegerType | IndexType)
                or AnyFloatConstr.verifies(type_),
                f"kernel arguments are buffers or scalars, not {type_}",
            )

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        name, inputs, outputs, region, extra, arg_attrs, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
        )
        if outputs:
            parser.raise_error("a kernel returns nothing")
        op = cls(name, inputs, region, arg_attrs)
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            reserved_attr_names=("sym_name", "function_type", "arg_attrs"),
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "tile.return"

    traits = traits_def(HasParent(KernelOp), IsTerminator(), ReturnLike(), Pure())
    assembly_format = "attr-dict"


class _GridQueryOp(IRDLOperation):
    """Shared form of `program_id` and `num_programs`: an axis in, an i32 out."""

    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(IntegerType(32))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, axis: int):
        super().__init__(
            properties={"axis": IntegerAttr(axis, 32)}, result_types=[IntegerType(32)]
        )

    def verify_(self) -> None:
        _expect(0 <= self.axis.value.data <= 2, "axis must be 0, 1 or 2")


@irdl_op_definition
class ProgramIdOp(_GridQueryOp):
    """`tile.program_id {axis = 0 : i32} : i32`: this instance's index along grid axis 0, 1 or 2."""

    name = "tile.program_id"


@irdl_op_definition
class NumProgramsOp(_GridQueryOp):
    """`tile.num_programs {axis = 0 : i32} : i32`: the grid size along an axis."""

    name = "tile.num_programs"


@irdl_op_definition
class BufferCastOp(IRDLOperation):
    """`tile.buffer_cast`: view a buffer's bytes as another element type.

    Offsets through the result count elements of the new type, as after
    Triton's pointer bitcast (bool buffers are bytes; workspaces change type).
    """

    name = "tile.buffer_cast"

    source = operand_def(BufferType)
    result = result_def(BufferType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------


def _mixed(static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    """Merge a static list (with DYNAMIC_INDEX markers) and its dynamic values."""
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static.get_values()]  # pyright: ignore[reportAttributeAccessIssue]  # xDSL's DenseArrayBase.get_values is unbound for a union element type


def flatten_groups(groups: Sequence[SSAValue | Sequence[SSAValue]]) -> list[SSAValue]:
    return [v for g in groups for v in ([g] if isinstance(g, SSAValue) else g)]


def segment_sizes(groups: Sequence[SSAValue | Sequence[SSAValue]]) -> dict[str, Attribute]:
    """The `operandSegmentSizes` property for operand groups."""
    sizes = [1 if isinstance(g, SSAValue) else len(g) for g in groups]
    return {"operandSegmentSizes": DenseArrayBase.from_list(i32, sizes)}


def descriptor_operands(
    offset: int | SSAValue,
    strides: Sequence[int | SSAValue],
    lower: Sequence[int | SSAValue],
    upper: Sequence[int | SSAValue],
) -> tuple[list[list[SSAValue]], dict[str, Attribute]]:
    """The operand groups (offset, strides, lower, upper) and `static_*` properties
    of a DMA descriptor given as mixed constant/dynamic lists."""
    groups: list[list[SSAValue]] = []
    properties: dict[str, Attribute] = {}
    for name, values in (
        ("offset", [offset]),
        ("strides", strides),
        ("lower", lower),
        ("upper", upper),
    ):
        static, dynamic = _split(values)
        groups.append(dynamic)
        properties[f"static_{name}"] = static
    return groups, properties


def _split(values: Sequence[int | SSAValue]) -> tuple[DenseArrayBase, list[SSAValue]]:
    static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    dynamic = [v for v in values if isinstance(v, SSAValue)]
    return DenseArrayBase.from_list(i64, static), dynamic


@dataclass
class _ParsedDescriptor:
    """A DMA descriptor as parsed, before its operands' types are known."""

    buffer: UnresolvedOperand
    lists: dict[str, tuple[Sequence[UnresolvedOperand], Sequence[int]]]
    mask: UnresolvedOperand | None

    def resolve(
        self, parser: Parser, buffer_type: Attribute, tile_shape: Sequence[int]
    ) -> tuple[list[SSAValue | Sequence[SSAValue]], dict[str, Attribute]]:
        """Operand groups (buffer, offset, strides, lower, upper, mask) and properties."""
        (buffer,) = parser.resolve_operands([self.buffer], [buffer_type], parser.pos)
        groups: list[SSAValue | Sequence[SSAValue]] = [buffer]
        properties: dict[str, Attribute] = {}
        for name in ("offset", "strides", "lower", "upper"):
            dynamic, static = self.lists[name]
            groups.append(
                parser.resolve_operands(dynamic, [IndexType()] * len(dynamic), parser.pos)
            )
            properties[f"static_{name}"] = DenseArrayBase.from_list(i64, static)
        mask_type = TensorType(IntegerType(1), tile_shape)
        groups.append(
            parser.resolve_operands([self.mask], [mask_type], parser.pos)
            if self.mask
            else []
        )
        return groups, properties


class StructuredTransfer(IRDLOperation):
    """The descriptor shared by `tile.load` and `tile.store`.

    Element `i` of the tile is at element `offset + sum(i[d] * strides[d])` of
    the buffer, and is transferred iff `lower[d] <= i[d] < upper[d]` for all
    `d` and the mask (if any) is set.  An empty `lower` means zeros, an empty
    `upper` the tile's shape.  In the generic form the operands a subclass
    declares (`pad`, `value`) come first.
    """

    buffer = operand_def(BufferType)
    offset = var_operand_def(IndexType)
    static_offset = prop_def(DenseArrayBase.constr(i64))
    strides = var_operand_def(IndexType)
    static_strides = prop_def(DenseArrayBase.constr(i64))
    lower = var_operand_def(IndexType)
    static_lower = prop_def(DenseArrayBase.constr(i64))
    upper = var_operand_def(IndexType)
    static_upper = prop_def(DenseArrayBase.constr(i64))
    mask = opt_operand_def(MASK)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @property
    def tile_type(self) -> TensorType:
        raise NotImplementedError

    def print_descriptor(self, printer: Printer) -> None:
        """`%buf[%off] strides [...] lower [...] upper [...] mask %m`."""
        printer.print_operand(self.buffer)
        print_dynamic_index_list(
            printer, DYNAMIC_INDEX, self.offset, self.static_offset.get_values()
        )
        for keyword, static, dynamic in (
            ("strides", self.static_strides, self.strides),
            ("lower", self.static_lower, self.lower),
            ("upper", self.static_upper, self.upper),
        ):
            if keyword == "strides" or static.get_values():
                printer.print_string(f" {keyword} ")
                print_dynamic_index_list(
                    printer, DYNAMIC_INDEX, dynamic, static.get_values()
                )
        if self.mask is not None:
            printer.print_string(" mask ")
            printer.print_operand(self.mask)

    @staticmethod
    def parse_descriptor(parser: Parser) -> _ParsedDescriptor:
        buffer = parser.parse_unresolved_operand()
        lists: dict[str, tuple[Sequence[UnresolvedOperand], Sequence[int]]] = {
            "offset": parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        }
        parser.parse_keyword("strides")
        lists["strides"] = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        for keyword in ("lower", "upper"):
            if parser.parse_optional_keyword(keyword):
                lists[keyword] = parse_dynamic_index_list_without_types(
                    parser, DYNAMIC_INDEX
                )
            else:
                lists[keyword] = ((), ())
        mask = parser.parse_unresolved_operand() if parser.parse_optional_keyword("mask") else None
        return _ParsedDescriptor(buffer, lists, mask)

    def mixed_offset(self) -> int | SSAValue:
        return _mixed(self.static_offset, self.offset)[0]

    def mixed_strides(self) -> list[int | SSAValue]:
        return _mixed(self.static_strides, self.strides)

    def mixed_lower(self) -> list[int | SSAValue]:
        """Lower bounds, one per dimension (zeros when none were given)."""
        values = _mixed(self.static_lower, self.lower)
        return values or [0] * len(self.tile_type.get_shape())

    def mixed_upper(self) -> list[int | SSAValue]:
        """Upper bounds, one per dimension (the tile shape when none were given)."""
        values = _mixed(self.static_upper, self.upper)
        return values or list(self.tile_type.get_shape())

    @property
    def element_type(self) -> Attribute:
        return self.tile_type.element_type

    def tile_elements(self) -> int:
        """Elements in the tile: the most this transfer moves."""
        return element_count(self.tile_type)

    def tile_bytes(self) -> int:
        return self.tile_elements() * element_bytes(self.element_type)

    def verify_descriptor(self) -> None:
        rank = len(self.tile_type.get_shape())
        _expect(len(self.static_offset.get_values()) == 1, "expected one offset")
        for name, static, dynamic in (
            ("offset", self.static_offset, self.offset),
            ("strides", self.static_strides, self.strides),
            ("lower", self.static_lower, self.lower),
            ("upper", self.static_upper, self.upper),
        ):
            markers = static.get_values().count(DYNAMIC_INDEX)
            _expect(
                markers == len(dynamic),
                f"{name}: {markers} dynamic markers but {len(dynamic)} values",
            )
        _expect(
            len(self.static_strides.get_values()) == rank,
            f"expected {rank} strides, one per tile dimension",
        )
        for name, static in (("lower", self.static_lower), ("upper", self.static_upper)):
            count = len(static.get_values())
            _expect(
                count in (0, rank), f"expected no {name} bounds or {rank}, got {count}"
            )
        buffer_type = self.buffer.type
        assert isinstance(buffer_type, BufferType)
        _expect(
            buffer_type.element_type == self.element_type,
            f"tile element type {self.element_type} differs from the buffer's "
            f"{buffer_type.element_type}",
        )
        if self.mask is not None:
            _expect(
                shape_of(self.mask.type) == self.tile_type.get_shape(),
                "mask must have the tile's shape",
            )


@irdl_op_definition
class LoadOp(StructuredTransfer):
    """`tile.load`: DMA a strided box of a buffer into a scratchpad tile.

    ```
    %t = tile.load %buf[%off] strides [%s, 1] upper [%rows, 64] pad %zero
         : !tile.buffer<f32> -> tensor<4x64xf32>
    ```
    """

    name = "tile.load"

    pad = opt_operand_def(_SCALAR)
    result = result_def(TILE)

    def __init__(
        self,
        buffer: SSAValue,
        offset: int | SSAValue,
        strides: Sequence[int | SSAValue],
        result_type: TensorType,
        *,
        lower: Sequence[int | SSAValue] = (),
        upper: Sequence[int | SSAValue] = (),
        mask: SSAValue | None = None,
        pad: SSAValue | None = None,
    ):
        descriptor, properties = descriptor_operands(offset, strides, lower, upper)
        super().__init__(
            operands=[[pad] if pad else [], buffer, *descriptor, [mask] if mask else []],
            properties=properties,
            result_types=[result_type],
        )

    @property
    def tile_type(self) -> TensorType:
        return self.result.type

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        descriptor = cls.parse_descriptor(parser)
        pad = parser.parse_unresolved_operand() if parser.parse_optional_keyword("pad") else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        buffer_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        if not isinstance(result_type, TensorType):
            parser.raise_error(f"expected a tile type, got {result_type}")
        groups, properties = descriptor.resolve(parser, buffer_type, result_type.get_shape())
        pads = (
            parser.resolve_operands([pad], [result_type.element_type], parser.pos)
            if pad
            else []
        )
        op = cls.create(
            operands=flatten_groups([pads, *groups]),
            result_types=[result_type],
            properties=properties | segment_sizes([pads, *groups]),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.print_descriptor(printer)
        if self.pad is not None:
            printer.print_string(" pad ")
            printer.print_operand(self.pad)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buffer.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        self.verify_descriptor()
        if self.pad is not None:
            _expect(self.pad.type == self.element_type, "pad must have the element type")


@irdl_op_definition
class StoreOp(StructuredTransfer):
    """`tile.store`: DMA a scratchpad tile to a strided box of a buffer.

    ```
    tile.store %t, %buf[%off] strides [1] upper [%n] : tensor<256xf32>, !tile.buffer<f32>
    ```
    """

    name = "tile.store"

    value = operand_def(TILE)

    def __init__(
        self,
        value: SSAValue,
        buffer: SSAValue,
        offset: int | SSAValue,
        strides: Sequence[int | SSAValue],
        *,
        lower: Sequence[int | SSAValue] = (),
        upper: Sequence[int | SSAValue] = (),
        mask: SSAValue | None = None,
    ):
        descriptor, properties = descriptor_operands(offset, strides, lower, upper)
        super().__init__(
            operands=[value, buffer, *descriptor, [mask] if mask else []],
            properties=properties,
        )

    @property
    def tile_type(self) -> TensorType:
        return self.value.type  # pyright: ignore[reportReturnType]

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        descriptor = cls.parse_descriptor(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        if not isinstance(value_type, TensorType):
            parser.raise_error(f"expected a tile type, got {value_type}")
        parser.parse_punctuation(",")
        buffer_type = parser.parse_type()
        (value,) = parser.resolve_operands([value], [value_type], parser.pos)
        groups, properties = descriptor.resolve(parser, buffer_type, value_type.get_shape())
        op = cls.create(
            operands=[value, *flatten_groups(groups)],
            properties=properties | segment_sizes([value, *groups]),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        self.print_descriptor(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.buffer.type)

    def verify_(self) -> None:
        self.verify_descriptor()


class IndexedAccess(IRDLOperation):
    """Shared form of ops addressing a buffer through a tile (or scalar) of offsets.

    In the generic form the operands a subclass declares come first, then
    buffer, indices and mask.

    In their syntax the mask's type (i1 in the indices' shape) and the pad's
    (the element type) are implied, as `tile.load` implies its mask's.
    """

    buffer = operand_def(BufferType)
    indices = operand_def(AnyOf.get(BaseAttr(IntegerType), INDEX_TILE))
    mask = opt_operand_def(AnyOf.get(IntegerType(1), MASK))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def verify_indexing(self, value_type: Attribute) -> None:
        shape = shape_of(self.indices.type)
        _expect(shape_of(value_type) == shape, "values and indices must have one shape")
        if self.mask is not None:
            _expect(shape_of(self.mask.type) == shape, "mask and indices must have one shape")
        buffer_type = self.buffer.type
        assert isinstance(buffer_type, BufferType)
        _expect(
            element_type_of(value_type) == buffer_type.element_type,
            f"element type {element_type_of(value_type)} differs from the buffer's "
            f"{buffer_type.element_type}",
        )

    def tile_elements(self) -> int:
        return element_count(self.indices.type)

    def print_access(self, printer: Printer) -> None:
        """`%buf[%indices]`."""
        printer.print_operand(self.buffer)
        printer.print_string("[")
        printer.print_operand(self.indices)
        printer.print_string("]")

    def print_clauses(self, printer: Printer, **clauses: SSAValue | None) -> None:
        """` mask %m pad %p` for the clauses present, then the attributes."""
        for keyword, value in clauses.items():
            if value is not None:
                printer.print_string(f" {keyword} ")
                printer.print_operand(value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")


@dataclass
class _ParsedAccess:
    """`%buf[%indices]` and the `mask`/`pad` clauses, before types are known."""

    buffer: UnresolvedOperand
    indices: UnresolvedOperand
    clauses: dict[str, UnresolvedOperand | None]

    @staticmethod
    def parse(parser: Parser, clause_keywords: Sequence[str]) -> _ParsedAccess:
        buffer = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        indices = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        clauses = {
            keyword: parser.parse_unresolved_operand()
            if parser.parse_optional_keyword(keyword)
            else None
            for keyword in clause_keywords
        }
        return _ParsedAccess(buffer, indices, clauses)

    def resolve(
        self, parser: Parser, buffer_type: Attribute, index_type: Attribute
    ) -> tuple[SSAValue, SSAValue, list[SSAValue]]:
        buffer, indices = parser.resolve_operands(
            [self.buffer, self.indices], [buffer_type, index_type], parser.pos
        )
        mask = self.clauses.get("mask")
        masks = (
            parser.resolve_operands([mask], [i1_like(index_type)], parser.pos)
            if mask
            else []
        )
        return buffer, indices, masks  # pyright: ignore[reportReturnType]


@irdl_op_definition
class GatherOp(IndexedAccess):
    """`tile.gather %buf[%idx] mask %m pad %p`: read the elements at the offsets in `idx`.

    ```
    %g = tile.gather %buf[%idx] mask %m pad %zero
         : !tile.buffer<f32>, tensor<256xi64> -> tensor<256xf32>
    ```
    """

    name = "tile.gather"

    pad = opt_operand_def(_SCALAR)
    result = result_def(TILE_OR_SCALAR)

    def verify_(self) -> None:
        self.verify_indexing(self.result.type)
        if self.pad is not None:
            _expect(
                self.pad.type == element_type_of(self.result.type),
                "pad must have the element type",
            )

    @classmethod
    def parse(cls, parser: Parser) -> GatherOp:
        access = _ParsedAccess.parse(parser, ("mask", "pad"))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        buffer_type = parser.parse_type()
        parser.parse_punctuation(",")
        index_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        buffer, indices, masks = access.resolve(parser, buffer_type, index_type)
        pad = access.clauses["pad"]
        pads = (
            parser.resolve_operands([pad], [element_type_of(result_type)], parser.pos)
            if pad
            else []
        )
        groups = [pads, buffer, indices, masks]
        op = cls.create(
            operands=flatten_groups(groups), result_types=[result_type], properties=segment_sizes(groups)
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.print_access(printer)
        self.print_clauses(printer, mask=self.mask, pad=self.pad)
        printer.print_list(
            (self.buffer.type, self.indices.type), printer.print_attribute
        )
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ScatterOp(IndexedAccess):
    """`tile.scatter %v, %buf[%idx] mask %m`: write elements at the offsets in `idx`.

    ```
    tile.scatter %v, %buf[%idx] mask %m : tensor<256xf32>, !tile.buffer<f32>, tensor<256xi64>
    ```
    """

    name = "tile.scatter"

    value = operand_def(TILE_OR_SCALAR)

    def verify_(self) -> None:
        self.verify_indexing(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> ScatterOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        access = _ParsedAccess.parse(parser, ("mask",))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type, buffer_type, index_type = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        (value,) = parser.resolve_operands([value], [value_type], parser.pos)
        buffer, indices, masks = access.resolve(parser, buffer_type, index_type)
        groups = [value, buffer, indices, masks]
        op = cls.create(operands=flatten_groups(groups), properties=segment_sizes(groups))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        self.print_access(printer)
        self.print_clauses(printer, mask=self.mask)
        printer.print_list(
            (self.value.type, self.buffer.type, self.indices.type), printer.print_attribute
        )


ATOMIC_KINDS = ("add", "fadd", "and", "or", "xor", "max", "min", "umax", "umin", "exch")


@irdl_op_definition
class AtomicRMWOp(IndexedAccess):
    """`tile.atomic_rmw fadd %buf[%idx], %v`: per element, read, combine, write back.

    Returns the values read.  Elements of one op are applied in row-major
    order; program instances in launch order (x fastest).

    ```
    %old = tile.atomic_rmw fadd %buf[%idx], %v mask %m
           : !tile.buffer<f32>, tensor<256xi64>, tensor<256xf32>
    ```
    """

    name = "tile.atomic_rmw"

    kind = prop_def(StringAttr)
    T: ClassVar = VarConstraint("T", TILE_OR_SCALAR)
    value = operand_def(T)
    result = result_def(T)

    def verify_(self) -> None:
        _expect(self.kind.data in ATOMIC_KINDS, f"unknown atomic kind '{self.kind.data}'")
        self.verify_indexing(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        kind = parser.parse_identifier()
        if kind not in ATOMIC_KINDS:
            parser.raise_error(f"unknown atomic kind '{kind}'")
        buffer, indices, values, masks, attrs, types = _parse_atomic(parser, 1)
        groups = [values, buffer, indices, masks]
        op = cls.create(
            operands=flatten_groups(groups),
            result_types=[types[-1]],
            properties={"kind": StringAttr(kind)} | segment_sizes(groups),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        self.print_access(printer)
        printer.print_string(", ")
        printer.print_operand(self.value)
        self.print_clauses(printer, mask=self.mask)
        printer.print_list(
            (self.buffer.type, self.indices.type, self.value.type), printer.print_attribute
        )


@irdl_op_definition
class AtomicCASOp(IndexedAccess):
    """`tile.atomic_cas %buf[%idx], %cmp, %v`: per element, store v where the old value equals cmp.

    Returns the values read.
    """

    name = "tile.atomic_cas"

    T: ClassVar = VarConstraint("T", TILE_OR_SCALAR)
    compare = operand_def(T)
    value = operand_def(T)
    result = result_def(T)

    def verify_(self) -> None:
        self.verify_indexing(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicCASOp:
        buffer, indices, values, masks, attrs, types = _parse_atomic(parser, 2)
        groups = [values[0], values[1], buffer, indices, masks]
        op = cls.create(
            operands=flatten_groups(groups), result_types=[types[-1]], properties=segment_sizes(groups)
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.print_access(printer)
        for value in (self.compare, self.value):
            printer.print_string(", ")
            printer.print_operand(value)
        self.print_clauses(printer, mask=self.mask)
        printer.print_list(
            (self.buffer.type, self.indices.type, self.value.type), printer.print_attribute
        )


def _parse_atomic(parser: Parser, value_count: int):
    """`%buf[%idx], %v... mask %m {attrs} : buffer, indices, value` of the atomics."""
    buffer = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    indices = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    names = []
    for _ in range(value_count):
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
    access = _ParsedAccess(buffer, indices, {"mask": None})
    if parser.parse_optional_keyword("mask"):
        access.clauses["mask"] = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    if len(types) != 3:
        parser.raise_error("expected the buffer, indices and value types")
    buffer_value, index_value, masks = access.resolve(parser, types[0], types[1])
    values = parser.resolve_operands(names, [types[2]] * value_count, parser.pos)
    return buffer_value, index_value, values, masks, attrs, types


# ---------------------------------------------------------------------------
# Vector unit
# ---------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminates the scalar regions of `map`, `reduce` and `scan`."""

    name = "tile.yield"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), Pure())
    assembly_format = "$values attr-dict `:` type($values)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


def _region_operation_count(region: Region) -> int:
    """Operations a region applies per invocation (its terminator excluded)."""
    return sum(1 for op in region.walk() if not op.has_trait(IsTerminator))


@irdl_op_definition
class MapOp(IRDLOperation):
    """`tile.map`: one fused elementwise body applied to every element.

    Operands are tiles of the result shape or scalars (the same value for
    every element); the body receives one scalar per operand and yields one
    per result.

    ```
    %z = tile.map %x, %y, %c : tensor<256xf32>, tensor<256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%a: f32, %b: f32, %k: f32):
      %s = arith.addf %a, %b : f32
      %m = arith.mulf %s, %k : f32
      tile.yield %m : f32
    }
    ```
    """

    name = "tile.map"

    inputs = var_operand_def(TILE_OR_SCALAR)
    results_ = var_result_def(TILE)
    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        result_types: Sequence[TensorType],
        body: Region,
    ):
        super().__init__(operands=[inputs], result_types=[result_types], regions=[body])

    @property
    def shape(self) -> tuple[int, ...]:
        return shape_of(self.results_[0].type)

    def verify_(self) -> None:
        _expect(len(self.results_) > 0, "expected at least one result")
        shape = self.shape
        for result in self.results_:
            _expect(shape_of(result.type) == shape, "all results must have one shape")
        for operand in self.inputs:
            _expect(
                not isinstance(operand.type, TensorType)
                or shape_of(operand.type) == shape,
                f"operand {operand.type} is neither a scalar nor of the result shape "
                f"{list(shape)}",
            )
        block = self.body.block
        expected = tuple(element_type_of(t) for t in self.inputs.types)
        _expect(
            tuple(block.arg_types) == expected,
            f"body arguments must be {', '.join(map(str, expected)) or 'none'}",
        )
        last = block.last_op
        _expect(isinstance(last, YieldOp), "body must end with tile.yield")
        assert isinstance(last, YieldOp)
        _expect(
            tuple(last.values.types)
            == tuple(element_type_of(t) for t in self.results_.types),
            "body must yield one value of each result's element type",
        )

    def element_count(self) -> int:
        return element_count(self.results_[0].type)

    def operation_count(self) -> int:
        """Scalar operations applied: elements times body operations."""
        return self.element_count() * _region_operation_count(self.body)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        names = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_punctuation(":")
        types = []
        if not parser.parse_optional_punctuation("->"):
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        inputs = parser.resolve_operands(names, types, parser.pos)
        body = parser.parse_region()
        op = cls(inputs, result_types, body)  # pyright: ignore[reportArgumentType]
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ")
            printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" : ")
        if self.inputs:
            printer.print_list(self.inputs.types, printer.print_attribute)
            printer.print_string(" ")
        printer.print_string("-> ")
        printer.print_list(self.results_.types, printer.print_attribute)
        printer.print_string(" ")
        printer.print_region(self.body)


def _verify_combiner(region: Region, element_types: Sequence[Attribute]) -> None:
    block = region.block
    expected = (*element_types, *element_types)
    _expect(
        tuple(block.arg_types) == expected,
        f"combine region arguments must be {', '.join(map(str, expected))}",
    )
    last = block.last_op
    _expect(isinstance(last, YieldOp), "combine region must end with tile.yield")
    assert isinstance(last, YieldOp)
    _expect(
        tuple(last.values.types) == tuple(element_types),
        "combine region must yield one value per operand, of the element types",
    )


class _AxisCombineOp(IRDLOperation):
    """Shared form of reduce and scan: operands of one shape, an axis, a combiner."""

    inputs = var_operand_def(TILE)
    axis = prop_def(IntegerAttr[IntegerType])
    combiner = region_def("single_block")

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$inputs attr-dict `:` type($inputs) `->` type($results_) $combiner"

    def verify_operands(self) -> tuple[int, ...]:
        _expect(len(self.inputs) > 0, "expected at least one operand")
        shape = shape_of(self.inputs[0].type)
        for operand in self.inputs:
            _expect(shape_of(operand.type) == shape, "all operands must have one shape")
        axis = self.axis.value.data
        _expect(0 <= axis < len(shape), f"axis {axis} out of range for rank {len(shape)}")
        _verify_combiner(
            self.combiner, [element_type_of(t) for t in self.inputs.types]
        )
        return shape

    def element_count(self) -> int:
        return element_count(self.inputs[0].type)

    def operation_count(self) -> int:
        """Combiner applications times the combiner's operations."""
        return self.element_count() * _region_operation_count(self.combiner)


@irdl_op_definition
class ReduceOp(_AxisCombineOp):
    """`tile.reduce {axis}`: combine along an axis; the axis disappears.

    Several operands reduce together (argmax reduces value and index).
    Reducing a 1-D tile yields scalars.
    """

    name = "tile.reduce"

    results_ = var_result_def(TILE_OR_SCALAR)

    def verify_(self) -> None:
        shape = self.verify_operands()
        axis = self.axis.value.data
        reduced = shape[:axis] + shape[axis + 1 :]
        expected = tuple(
            TensorType(element_type_of(t), reduced) if reduced else element_type_of(t)
            for t in self.inputs.types
        )
        _expect(
            tuple(self.results_.types) == expected,
            f"result types must be {', '.join(map(str, expected))}",
        )


@irdl_op_definition
class ScanOp(_AxisCombineOp):
    """`tile.scan {axis, reverse}`: inclusive prefix combine along an axis."""

    name = "tile.scan"

    reverse = prop_def(IntegerAttr[IntegerType])
    results_ = var_result_def(TILE)

    def verify_(self) -> None:
        self.verify_operands()
        _expect(
            tuple(self.results_.types) == tuple(self.inputs.types),
            "result types must equal the operand types",
        )


class _ShapeOp(IRDLOperation):
    """Shared form of broadcast, reshape and transpose: the source's elements, in a
    result tile of its element type and another shape; `$source : T -> U`, pure."""

    source = operand_def(TILE)
    result = result_def(TILE)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, result_type: TensorType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_element_type(self) -> None:
        _expect(
            element_type_of(self.source.type) == element_type_of(self.result.type),
            "source and result must have one element type",
        )

    def element_count(self) -> int:
        return element_count(self.result.type)


@irdl_op_definition
class BroadcastOp(_ShapeOp):
    """`tile.broadcast`: stretch size-1 dimensions (or a scalar) to a larger shape."""

    name = "tile.broadcast"

    source = operand_def(TILE_OR_SCALAR)

    def verify_(self) -> None:
        self.verify_element_type()
        source, result = shape_of(self.source.type), shape_of(self.result.type)
        if source:
            _expect(len(source) == len(result), "source and result must have one rank")
            for s, r in zip(source, result):
                _expect(s in (1, r), f"cannot broadcast dimension of size {s} to {r}")


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`tile.iota {start = 0}`: the 1-D tile start, start+1, ..."""

    name = "tile.iota"

    start = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType.constr(BaseAttr(IntegerType)))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        _expect(len(shape_of(self.result.type)) == 1, "result must be 1-D")

    def element_count(self) -> int:
        return element_count(self.result.type)


@irdl_op_definition
class ReshapeOp(_ShapeOp):
    """`tile.reshape`: the same elements in row-major order, in a new shape."""

    name = "tile.reshape"

    def verify_(self) -> None:
        _expect(
            element_count(self.source.type) == element_count(self.result.type),
            "source and result must have the same number of elements",
        )
        self.verify_element_type()


@irdl_op_definition
class TransposeOp(_ShapeOp):
    """`tile.transpose {permutation}`: result dimension d is source dimension perm[d]."""

    name = "tile.transpose"

    permutation = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        self.verify_element_type()
        perm = list(self.permutation.get_values())
        shape = shape_of(self.source.type)
        _expect(sorted(perm) == list(range(len(shape))), f"{perm} is not a permutation")
        _expect(
            shape_of(self.result.type) == tuple(shape[p] for p in perm),
            "result shape must be the permuted source shape",
        )


@irdl_op_definition
class TakeOp(IRDLOperation):
    """`tile.take %src[%idx] {axis}`: pick elements of a tile along an axis (in the scratchpad).

    `result[i] = src[i[0], ..., idx[i], ..., i[rank - 1]]`, `idx[i]` standing
    in for the coordinate along `axis`: numpy's `take_along_axis`, Triton's
    `tt.gather`.  An index outside `[0, src.shape[axis])` fails the launch.

    ```
    %r = tile.take %src[%idx] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf32>
    ```
    """

    name = "tile.take"

    source = operand_def(TILE)
    indices = operand_def(INDEX_TILE)
    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(TILE)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$source `[` $indices `]` attr-dict `:` type($source) `,` type($indices) `->` type($result)"
    )

    def verify_(self) -> None:
        source, indices = shape_of(self.source.type), shape_of(self.indices.type)
        axis = self.axis.value.data
        _expect(len(source) == len(indices), "source and indices must have one rank")
        _expect(0 <= axis < len(source), f"axis {axis} out of range for rank {len(source)}")
        for dim, (s, i) in enumerate(zip(source, indices)):
            _expect(
                dim == axis or s == i,
                f"indices dimension {dim} has size {i}, the source's {s}",
            )
        _expect(
            self.result.type == TensorType(element_type_of(self.source.type), indices),
            "result must have the indices' shape and the source's element type",
        )

    def element_count(self) -> int:
        return element_count(self.result.type)


# ---------------------------------------------------------------------------
# Matrix unit
# ---------------------------------------------------------------------------


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """`tile.matmul %a, %b, %acc`: acc + a @ b on the matrix unit (batched if 3-D)."""

    name = "tile.matmul"

    T: ClassVar = VarConstraint("T", TILE)
    lhs = operand_def(TILE)
    rhs = operand_def(TILE)
    acc = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = (
        "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"
    )

    def verify_(self) -> None:
        a, b, c = shape_of(self.lhs.type), shape_of(self.rhs.type), shape_of(self.acc.type)
        _expect(len(a) == len(b) == len(c) and len(a) in (2, 3), "operands must be 2-D or 3-D")
        _expect(a[-1] == b[-2], f"inner dimensions differ: {list(a)} and {list(b)}")
        _expect(
            c[-2:] == (a[-2], b[-1]) and a[:-2] == b[:-2] == c[:-2],
            f"accumulator {list(c)} does not match {list(a)} times {list(b)}",
        )

    def dims(self) -> tuple[int, int, int, int]:
        """(batch, M, N, K)."""
        a, b = shape_of(self.lhs.type), shape_of(self.rhs.type)
        batch = a[0] if len(a) == 3 else 1
        return batch, a[-2], b[-1], a[-1]

    def operation_count(self) -> int:
        """Floating-point operations: a multiply and an add per MAC."""
        batch, m, n, k = self.dims()
        return 2 * batch * m * n * k


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


@irdl_op_definition
class AssertOp(IRDLOperation):
    """`tile.assert %cond, "message"`: fail the launch where cond is false."""

    name = "tile.assert"

    condition = operand_def(AnyOf.get(IntegerType(1), MASK))
    message = prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"


Tile = Dialect(
    "tile",
    [
        KernelOp,
        ReturnOp,
        ProgramIdOp,
        NumProgramsOp,
        BufferCastOp,
        LoadOp,
        StoreOp,
        GatherOp,
        ScatterOp,
        AtomicRMWOp,
        AtomicCASOp,
        YieldOp,
        MapOp,
        ReduceOp,
        ScanOp,
        BroadcastOp,
        IotaOp,
        ReshapeOp,
        TransposeOp,
        TakeOp,
        MatmulOp,
        AssertOp,
    ],
    [BufferType],
)
