"""The Triton IR dialect (`tt`), as Triton 3.6 to 3.9 print it.

Every op, type and attribute keeps Triton's textual syntax, so a TTIR file
prints back the way Triton printed it (apart from SSA names).  Verifiers check
what Triton's verifier checks: pointer/offset/mask/`other` agreement, shapes
of broadcasts and reshapes, reduce/scan region signatures and dot shapes.

Where Triton prints an enum as a keyword (`x`, `fadd`, `acq_rel`, ...), the op
holds an `EnumAttribute`; attributes Triton prints in the attribute dictionary
are properties, as in MLIR.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.interfaces import HasCanonicalizationPatternsInterface
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AnyOf,
    AttrSizedOperandSegments,
    SameVariadicOperandSize,
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
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoMemoryEffect,
    Pure,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`!tt.ptr<T>` or `!tt.ptr<T, addrspace>`; address space 1 is the default."""

    name = "tt.ptr"

    pointee_type: Attribute
    address_space: IntAttr

    DEFAULT_ADDRESS_SPACE: ClassVar[int] = 1

    def __init__(self, pointee_type: Attribute, address_space: int = 1):
        super().__init__(pointee_type, IntAttr(address_space))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pointee = parser.parse_type()
            space = cls.DEFAULT_ADDRESS_SPACE
            if parser.parse_optional_punctuation(","):
                space = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return (pointee, IntAttr(space))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee_type)
            if self.address_space.data != self.DEFAULT_ADDRESS_SPACE:
                printer.print_string(f", {self.address_space.data}")


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tensordesc<16x16xf32>`: a TMA-style descriptor of a block in global memory."""

    name = "tt.tensordesc"

    block_type: TensorType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("tensor"):
                # Older printers wrap the block type: !tt.tensordesc<tensor<16x16xf32>>.
                with parser.in_angle_brackets():
                    shape, element = _parse_shape_and_element(parser)
            else:
                shape, element = _parse_shape_and_element(parser)
        return (TensorType(element, shape),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for dim in self.block_type.get_shape():
                printer.print_string(f"{dim}x")
            printer.print_attribute(self.block_type.element_type)


def _parse_shape_and_element(parser: AttrParser) -> tuple[list[int], Attribute]:
    shape, element = parser.parse_ranked_shape()
    return list(shape), element


# ---------------------------------------------------------------------------
# Enum attributes (printed as bare keywords, as Triton prints them)
# ---------------------------------------------------------------------------


class ProgramDim(StrEnum):
    X = auto()
    Y = auto()
    Z = auto()


class CacheModifier(StrEnum):
    NONE = "none"
    CA = "ca"
    CG = "cg"
    WB = "wb"
    CS = "cs"
    WT = "wt"
    CV = "cv"


class EvictionPolicy(StrEnum):
    NORMAL = "evict_normal"
    EVICT_FIRST = "evict_first"
    EVICT_LAST = "evict_last"


class PaddingOption(StrEnum):
    ZERO = "zero"
    NAN = "nan"


class RMWOp(StrEnum):
    AND = "and"
    OR = "or"
    XOR = "xor"
    ADD = "add"
    FADD = "fadd"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    XCHG = "exch"


class MemSemantic(StrEnum):
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQUIRE_RELEASE = "acq_rel"


class MemSyncScope(StrEnum):
    GPU = "gpu"
    CTA = "cta"
    SYSTEM = "sys"


class RoundingMode(StrEnum):
    RTZ = "rtz"
    RTNE = "rtne"


class PropagateNan(StrEnum):
    NONE = "none"
    ALL = "all"


class InputPrecision(StrEnum):
    TF32 = "tf32"
    TF32x3 = "tf32x3"
    IEEE = "ieee"
    BF16x3 = "bf16x3"
    BF16x6 = "bf16x6"


@irdl_attr_definition
class ProgramDimAttr(EnumAttribute[ProgramDim], SpacedOpaqueSyntaxAttribute):
    name = "tt.program_dim"


@irdl_attr_definition
class CacheModifierAttr(EnumAttribute[CacheModifier], SpacedOpaqueSyntaxAttribute):
    name = "tt.cache_modifier"


@irdl_attr_definition
class EvictionPolicyAttr(EnumAttribute[EvictionPolicy], SpacedOpaqueSyntaxAttribute):
    name = "tt.eviction_policy"


@irdl_attr_definition
class PaddingOptionAttr(EnumAttribute[PaddingOption], SpacedOpaqueSyntaxAttribute):
    name = "tt.padding_option"


@irdl_attr_definition
class RMWOpAttr(EnumAttribute[RMWOp], SpacedOpaqueSyntaxAttribute):
    name = "tt.rmw_op"


@irdl_attr_definition
class MemSemanticAttr(EnumAttribute[MemSemantic], SpacedOpaqueSyntaxAttribute):
    name = "tt.mem_semantic"


@irdl_attr_definition
class MemSyncScopeAttr(EnumAttribute[MemSyncScope], SpacedOpaqueSyntaxAttribute):
    name = "tt.mem_sync_scope"


@irdl_attr_definition
class RoundingModeAttr(EnumAttribute[RoundingMode], SpacedOpaqueSyntaxAttribute):
    name = "tt.rounding_mode"


@irdl_attr_definition
class PropagateNanAttr(EnumAttribute[PropagateNan], SpacedOpaqueSyntaxAttribute):
    name = "tt.propagate_nan"


@irdl_attr_definition
class InputPrecisionAttr(EnumAttribute[InputPrecision], SpacedOpaqueSyntaxAttribute):
    name = "tt.input_precision"


@irdl_attr_definition
class CachePolicyAttr(ParametrizedAttribute):
    """`#tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>` (Triton 3.9)."""

    name = "tt.cache_policy"

    cache_modifier: CacheModifierAttr
    eviction_policy: EvictionPolicyAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("cache_modifier")
            parser.parse_punctuation("=")
            cache = CacheModifierAttr(CacheModifierAttr.parse_parameter(parser))
            parser.parse_punctuation(",")
            parser.parse_keyword("eviction_policy")
            parser.parse_punctuation("=")
            evict = EvictionPolicyAttr(EvictionPolicyAttr.parse_parameter(parser))
        return (cache, evict)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<cache_modifier = {self.cache_modifier.data.value}, "
            f"eviction_policy = {self.eviction_policy.data.value}>"
        )


# ---------------------------------------------------------------------------
# Type helpers shared by the verifiers
# ---------------------------------------------------------------------------

_SCALAR_CONSTR = BaseAttr(IntegerType) | AnyFloatConstr | BaseAttr(PointerType)
TT_TYPE = AnyOf.get(_SCALAR_CONSTR, TensorType.constr(_SCALAR_CONSTR))
"""Triton's TT_Type: an int, float or pointer scalar, or a tensor of them."""

_INT_CONSTR = BaseAttr(IntegerType)
TT_INT_LIKE = AnyOf.get(_INT_CONSTR, TensorType.constr(_INT_CONSTR))
_FLOAT_LIKE = AnyOf.get(AnyFloatConstr, TensorType.constr(AnyFloatConstr))
TT_PTR_LIKE = AnyOf.get(
    BaseAttr(PointerType), TensorType.constr(BaseAttr(PointerType))
)
TT_BOOL_LIKE = AnyOf.get(
    IntegerType(1), TensorType.constr(IntegerType(1))
)  # noqa: E501
TT_TENSOR = TensorType.constr(_SCALAR_CONSTR)


def shape_of(type_: Attribute) -> tuple[int, ...]:
    """The shape of a tensor type; `()` for a scalar."""
    return type_.get_shape() if isinstance(type_, TensorType) else ()


def element_type_of(type_: Attribute) -> Attribute:
    """The element type of a tensor type; the type itself for a scalar."""
    return type_.element_type if isinstance(type_, TensorType) else type_


def with_element_type(type_: Attribute, element: Attribute) -> Attribute:
    """`type_` with its element type replaced, keeping a tensor's shape."""
    if isinstance(type_, TensorType):
        return TensorType(element, type_.get_shape())
    return element


def _pointee_of(ptr_type: Attribute, what: str) -> Attribute:
    """The value type that loading through `ptr_type` yields, shape kept."""
    element = element_type_of(ptr_type)
    if not isinstance(element, PointerType):
        raise VerifyException(f"{what} must be a pointer or tensor of pointers")
    if isinstance(ptr_type, PointerType) and isinstance(
        ptr_type.pointee_type, TensorType
    ):
        return ptr_type.pointee_type  # a block pointer
    return with_element_type(ptr_type, element.pointee_type)


def _bool_like(type_: Attribute) -> Attribute:
    return with_element_type(type_, IntegerType(1))


def _bitwidth(type_: Attribute) -> int | None:
    if isinstance(type_, PointerType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return getattr(type_, "bitwidth", None)


def _expect_type(actual: Attribute, expected: Attribute, what: str) -> None:
    if actual != expected:
        raise VerifyException(f"{what} type {actual} does not match expected {expected}")


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------


class _FuncCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.outputs.data


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`tt.func`: a kernel or device function; syntax of `func.func`."""

    name = "tt.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), _FuncCallable())

    def __init__(
        self,
        name: str,
        function_type: FunctionType,
        region: Region,
        visibility: str | None = None,
        *,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": None if visibility is None else StringAttr(visibility),
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
            },
            regions=[region],
        )

    def verify_(self) -> None:
        if not self.body.blocks:
            return
        block_types = tuple(self.body.blocks.first.arg_types)  # type: ignore[union-attr]
        if block_types != self.function_type.inputs.data:
            raise VerifyException(
                "entry block arguments must have the same types as the function inputs"
            )

    @property
    def args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args)

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "sym_visibility")
        )
        func = cls(
            name,
            FunctionType.from_lists(inputs, outputs),
            region,
            None if visibility is None else visibility.data,
            arg_attrs=arg_attrs,
            res_attrs=res_attrs,
        )
        if extra is not None:
            func.attributes |= extra.data
        return func

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=(
                "sym_name",
                "function_type",
                "sym_visibility",
                "arg_attrs",
            ),
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "tt.return"

    srcs = var_operand_def()

    traits = traits_def(HasParent(FuncOp), IsTerminator(), ReturnLike(), Pure())

    assembly_format = "attr-dict ($srcs^ `:` type($srcs))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        assert isinstance(func, FuncOp)
        expected = func.function_type.outputs.data
        if tuple(self.srcs.types) != expected:
            raise VerifyException(
                f"returned types {tuple(self.srcs.types)} do not match the function "
                f"result types {expected}"
            )


@irdl_op_definition
class CallOp(IRDLOperation):
    name = "tt.call"

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"
    )


# ---------------------------------------------------------------------------
# SPMD
# ---------------------------------------------------------------------------


@irdl_op_definition
class GetProgramIdOp(IRDLOperation):
    """`tt.get_program_id x : i32`: this program's index along a grid axis."""

    name = "tt.get_program_id"

    axis = prop_def(ProgramDimAttr)
    result = result_def(i32)

    traits = traits_def(Pure())
    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: ProgramDim):
        super().__init__(properties={"axis": ProgramDimAttr(axis)}, result_types=[i32])


@irdl_op_definition
class GetNumProgramsOp(IRDLOperation):
    """`tt.get_num_programs x : i32`: the grid size along an axis."""

    name = "tt.get_num_programs"

    axis = prop_def(ProgramDimAttr)
    result = result_def(i32)

    traits = traits_def(Pure())
    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: ProgramDim):
        super().__init__(properties={"axis": ProgramDimAttr(axis)}, result_types=[i32])


# ---------------------------------------------------------------------------
# Tensor creation and shape manipulation
# ---------------------------------------------------------------------------


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """`tt.make_range {end, start}`: the 1-D i32 tensor start, start+1, ..., end-1."""

    name = "tt.make_range"

    start = prop_def(IntegerAttr[IntegerType])
    end = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType.constr(i32))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int):
        super().__init__(
            properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
            result_types=[TensorType(i32, [end - start])],
        )

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        if end <= start:
            raise VerifyException("start must be less than end")
        shape = shape_of(self.result.type)
        if len(shape) != 1:
            raise VerifyException("result must be a 1-D tensor")
        if shape[0] != end - start:
            raise VerifyException("number of elements in result must be end - start")


@irdl_op_definition
class SplatOp(IRDLOperation):
    """`tt.splat`: a scalar broadcast to every element of a tensor."""

    name = "tt.splat"

    src = operand_def(TT_TYPE)
    result = result_def(TT_TENSOR)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        _expect_type(
            element_type_of(self.result.type),
            element_type_of(self.src.type),
            "result element",
        )


@irdl_op_definition
class ExpandDimsOp(IRDLOperation):
    """`tt.expand_dims {axis}`: insert a dimension of size 1."""

    name = "tt.expand_dims"

    src = operand_def(TT_TENSOR)
    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(TT_TENSOR)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        shape = list(shape_of(self.src.type))
        axis = self.axis.value.data
        if not 0 <= axis <= len(shape):
            raise VerifyException(f"axis {axis} out of range for rank {len(shape)}")
        shape.insert(axis, 1)
        _expect_type(
            self.result.type,
            TensorType(element_type_of(self.src.type), shape),
            "result",
        )


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """`tt.broadcast`: stretch dimensions of size 1 to a larger size."""

    name = "tt.broadcast"

    src = operand_def(TT_TENSOR)
    result = result_def(TT_TENSOR)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        src, dst = shape_of(self.src.type), shape_of(self.result.type)
        if len(src) != len(dst):
            raise VerifyException("source and result must have the same rank")
        for s, d in zip(src, dst):
            if s != d and s != 1:
                raise VerifyException(
                    f"cannot broadcast dimension of size {s} to size {d}"
                )
        _expect_type(
            element_type_of(self.result.type),
            element_type_of(self.src.type),
            "result element",
        )


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`tt.reshape`: the same elements, in row-major order, in a new shape."""

    name = "tt.reshape"

    src = operand_def(TT_TENSOR)
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TT_TENSOR)

    traits = traits_def(Pure())
    assembly_format = (
        "$src (`allow_reorder` $allow_reorder^)? "
        "(`efficient_layout` $efficient_layout^)? attr-dict "
        "`:` type($src) `->` type($result)"
    )

    def verify_(self) -> None:
        if math.prod(shape_of(self.src.type)) != math.prod(shape_of(self.result.type)):
            raise VerifyException(
                "number of source and result elements must match"
            )
        _expect_type(
            element_type_of(self.result.type),
            element_type_of(self.src.type),
            "result element",
        )


@irdl_op_definition
class TransOp(IRDLOperation):
    """`tt.trans {order}`: permute the dimensions of a tensor."""

    name = "tt.trans"

    src = operand_def(TT_TENSOR)
    order = prop_def(DenseArrayBase)
    result = result_def(TT_TENSOR)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        order = self.order.get_values()
        shape = shape_of(self.src.type)
        if sorted(order) != list(range(len(shape))):
            raise VerifyException(f"order {list(order)} is not a permutation")
        _expect_type(
            self.result.type,
            TensorType(element_type_of(self.src.type), [shape[i] for i in order]),
            "result",
        )


@irdl_op_definition
class CatOp(IRDLOperation):
    """`tt.cat`: concatenate two tensors along their first dimension."""

    name = "tt.cat"

    T: ClassVar = VarConstraint("T", TT_TENSOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TT_TENSOR)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def verify_(self) -> None:
        lhs = shape_of(self.lhs.type)
        expected = (2 * lhs[0], *lhs[1:])
        if shape_of(self.result.type) != expected:
            raise VerifyException(f"result shape must be {list(expected)}")


@irdl_op_definition
class JoinOp(IRDLOperation):
    """`tt.join`: stack two tensors along a new minor dimension of size 2."""

    name = "tt.join"

    T: ClassVar = VarConstraint("T", TT_TENSOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TT_TENSOR)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def verify_(self) -> None:
        _expect_type(
            self.result.type,
            TensorType(element_type_of(self.lhs.type), [*shape_of(self.lhs.type), 2]),
            "result",
        )


@irdl_op_definition
class SplitOp(IRDLOperation):
    """`tt.split`: the two halves of a tensor whose last dimension is 2."""

    name = "tt.split"

    src = operand_def(TT_TENSOR)
    out_lhs = result_def(TT_TENSOR)
    out_rhs = result_def(TT_TENSOR)

    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        shape = shape_of(self.src.type)
        if not shape or shape[-1] != 2:
            raise VerifyException("source's last dimension must be 2")
        expected = TensorType(element_type_of(self.src.type), shape[:-1])
        _expect_type(self.out_lhs.type, expected, "result")
        _expect_type(self.out_rhs.type, expected, "result")

    @classmethod
    def parse(cls, parser: Parser) -> SplitOp:
        src = parser.parse_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        parser.parse_punctuation("->")
        out = parser.parse_type()
        op = cls.create(operands=[src], result_types=[out, out])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.out_lhs.type)


# ---------------------------------------------------------------------------
# Casts and elementwise math
# ---------------------------------------------------------------------------


class _UnaryCastOp(IRDLOperation):
    """Shared shape rule of Triton's elementwise casts: `$src : T -> U`."""

    src = operand_def(TT_TYPE)
    result = result_def(TT_TYPE)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        if shape_of(self.src.type) != shape_of(self.result.type):
            raise VerifyException("source and result must have the same shape")


@irdl_op_definition
class BitcastOp(_UnaryCastOp):
    """`tt.bitcast`: reinterpret bits between types of one width (pointers too)."""

    name = "tt.bitcast"

    def verify_(self) -> None:
        super().verify_()
        src = element_type_of(self.src.type)
        dst = element_type_of(self.result.type)
        if isinstance(src, PointerType) != isinstance(dst, PointerType):
            raise VerifyException("cannot bitcast between pointer and non-pointer")
        if _bitwidth(src) != _bitwidth(dst):
            raise VerifyException(
                f"cannot bitcast {src} to {dst}: bit widths differ"
            )


@irdl_op_definition
class IntToPtrOp(_UnaryCastOp):
    name = "tt.int_to_ptr"


@irdl_op_definition
class PtrToIntOp(_UnaryCastOp):
    name = "tt.ptr_to_int"


@irdl_op_definition
class FpToFpOp(IRDLOperation):
    """`tt.fp_to_fp`: float conversion with an explicit rounding mode (fp8 and friends)."""

    name = "tt.fp_to_fp"

    src = operand_def(_FLOAT_LIKE)
    rounding = opt_prop_def(RoundingModeAttr)
    result = result_def(_FLOAT_LIKE)

    traits = traits_def(Pure())
    assembly_format = (
        "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)"
    )

    def verify_(self) -> None:
        if shape_of(self.src.type) != shape_of(self.result.type):
            raise VerifyException("source and result must have the same shape")


class _ElementwiseSameTypeOp(IRDLOperation):
    T: ClassVar = VarConstraint("T", TT_TYPE)
    traits = traits_def(Pure())


@irdl_op_definition
class PreciseSqrtOp(_ElementwiseSameTypeOp):
    """`tt.precise_sqrt`: correctly rounded square root."""

    name = "tt.precise_sqrt"

    x = operand_def(_ElementwiseSameTypeOp.T)
    result = result_def(_ElementwiseSameTypeOp.T)

    assembly_format = "$x attr-dict `:` type($x)"


@irdl_op_definition
class PreciseDivFOp(_ElementwiseSameTypeOp):
    """`tt.precise_divf`: correctly rounded division."""

    name = "tt.precise_divf"

    x = operand_def(_ElementwiseSameTypeOp.T)
    y = operand_def(_ElementwiseSameTypeOp.T)
    result = result_def(_ElementwiseSameTypeOp.T)

    assembly_format = "$x `,` $y attr-dict `:` type($x)"


@irdl_op_definition
class MulhiUIOp(_ElementwiseSameTypeOp):
    """`tt.mulhiui`: the high half of the unsigned double-width product."""

    name = "tt.mulhiui"

    x = operand_def(_ElementwiseSameTypeOp.T)
    y = operand_def(_ElementwiseSameTypeOp.T)
    result = result_def(_ElementwiseSameTypeOp.T)

    assembly_format = "$x `,` $y attr-dict `:` type($x)"

    def verify_(self) -> None:
        if not isinstance(element_type_of(self.x.type), IntegerType):
            raise VerifyException("operands must be integers")


@irdl_op_definition
class ClampFOp(_ElementwiseSameTypeOp):
    """`tt.clampf`: clamp to [min, max], with NaN propagation chosen explicitly."""

    name = "tt.clampf"

    x = operand_def(_ElementwiseSameTypeOp.T)
    min = operand_def(_ElementwiseSameTypeOp.T)
    max = operand_def(_ElementwiseSameTypeOp.T)
    propagateNan = prop_def(PropagateNanAttr)
    result = result_def(_ElementwiseSameTypeOp.T)

    assembly_format = (
        "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict "
        "`:` type($result)"
    )


@irdl_op_definition
class ExternElementwiseOp(IRDLOperation):
    """`tt.extern_elementwise`: a call to a library function (libdevice's `__nv_*`)."""

    name = "tt.extern_elementwise"

    srcs = var_operand_def(TT_TYPE)
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    result = result_def(TT_TYPE)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "operands attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        shape = shape_of(self.result.type)
        for operand in self.srcs:
            if shape_of(operand.type) != shape:
                raise VerifyException("operands and result must have the same shape")


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """`tt.elementwise_inline_asm`: PTX applied to packed elements (GPU-only)."""

    name = "tt.elementwise_inline_asm"

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    packed_element = prop_def(IntegerAttr[IntegerType])
    args = var_operand_def(TT_TYPE)
    result = var_result_def(TT_TYPE)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"
    )


# ---------------------------------------------------------------------------
# Pointers, loads and stores
# ---------------------------------------------------------------------------


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """`tt.addptr`: advance pointers by an element offset (scaled by the pointee size)."""

    name = "tt.addptr"

    T: ClassVar = VarConstraint("T", TT_PTR_LIKE)
    ptr = operand_def(T)
    offset = operand_def(TT_INT_LIKE)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"

    def __init__(self, ptr: SSAValue | Operation, offset: SSAValue | Operation):
        super().__init__(operands=[ptr, offset], result_types=[SSAValue.get(ptr).type])

    def verify_(self) -> None:
        if shape_of(self.ptr.type) != shape_of(self.offset.type):
            raise VerifyException("pointer and offset must have the same shape")


@irdl_op_definition
class AdvanceOp(IRDLOperation):
    """`tt.advance`: move a block pointer by per-dimension offsets (Triton < 3.7)."""

    name = "tt.advance"

    T: ClassVar = VarConstraint("T", BaseAttr(PointerType))
    ptr = operand_def(T)
    offsets = var_operand_def(i32)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)"


@irdl_op_definition
class MakeTensorPtrOp(IRDLOperation):
    """`tt.make_tensor_ptr`: a block pointer into a strided parent tensor (Triton < 3.7)."""

    name = "tt.make_tensor_ptr"

    base = operand_def(PointerType)
    shape = var_operand_def(IntegerType(64))
    strides = var_operand_def(IntegerType(64))
    offsets = var_operand_def(i32)
    order = prop_def(DenseArrayBase)
    result = result_def(PointerType)

    traits = traits_def(Pure())
    irdl_options = (SameVariadicOperandSize(), ParsePropInAttrDict())

    def verify_(self) -> None:
        block = self.result.type.pointee_type
        if not isinstance(block, TensorType):
            raise VerifyException("result must be a pointer to a tensor")
        rank = len(block.get_shape())
        if not len(self.shape) == len(self.strides) == len(self.offsets) == rank:
            raise VerifyException(
                "shape, strides and offsets must each have one value per dimension"
            )
        base = self.base.type
        assert isinstance(base, PointerType)
        _expect_type(base.pointee_type, block.element_type, "base pointee")

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorPtrOp:
        base = parser.parse_unresolved_operand()
        lists: list[list[SSAValue]] = []
        for element_type in (IntegerType(64), IntegerType(64), i32):
            parser.parse_punctuation(",")
            names = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            lists.append(parser.resolve_operands(names, [element_type] * len(names), parser.pos))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        if not isinstance(result_type, PointerType) or not isinstance(
            result_type.pointee_type, TensorType
        ):
            parser.raise_error("expected a pointer-to-tensor result type")
        base_type = PointerType(
            result_type.pointee_type.element_type, result_type.address_space.data
        )
        (base_value,) = parser.resolve_operands([base], [base_type], parser.pos)
        order = attrs.pop("order", None)
        if order is None:
            parser.raise_error("expected an 'order' attribute")
        op = cls.create(
            operands=[base_value, *lists[0], *lists[1], *lists[2]],
            result_types=[result_type],
            properties={"order": order},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        for values in (self.shape, self.strides, self.offsets):
            printer.print_string(", [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        printer.print_op_attributes({"order": self.order, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


def _parse_cache_keywords(parser: Parser) -> dict[str, Attribute]:
    """Triton 3.6's `cacheModifier = cg evictionPolicy = evict_last` clauses."""
    properties: dict[str, Attribute] = {}
    while True:
        if parser.parse_optional_keyword("cacheModifier"):
            parser.parse_punctuation("=")
            properties["cache"] = CacheModifierAttr(
                CacheModifierAttr.parse_parameter(parser)
            )
        elif parser.parse_optional_keyword("evictionPolicy"):
            parser.parse_punctuation("=")
            properties["evict"] = EvictionPolicyAttr(
                EvictionPolicyAttr.parse_parameter(parser)
            )
        else:
            return properties


def _print_cache_keywords(printer: Printer, op: IRDLOperation) -> None:
    cache = op.properties.get("cache")
    evict = op.properties.get("evict")
    if isinstance(cache, CacheModifierAttr) and cache.data != CacheModifier.NONE:
        printer.print_string(f" cacheModifier = {cache.data.value}")
    if isinstance(evict, EvictionPolicyAttr) and evict.data != EvictionPolicy.NORMAL:
        printer.print_string(f" evictionPolicy = {evict.data.value}")


_LOAD_STORE_KEYWORD_PROPS = ("cache", "evict")
_LOAD_STORE_DICT_PROPS = ("cachePolicy", "isVolatile", "boundaryCheck", "padding")


def _split_properties(attrs: dict[str, Attribute]) -> dict[str, Attribute]:
    """Move the inherent attributes of load/store out of a parsed attr-dict."""
    return {name: attrs.pop(name) for name in _LOAD_STORE_DICT_PROPS if name in attrs}


def _print_dict(printer: Printer, op: IRDLOperation) -> None:
    printer.print_op_attributes(
        {
            **{n: op.properties[n] for n in _LOAD_STORE_DICT_PROPS if n in op.properties},
            **op.attributes,
        }
    )


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`tt.load ptr[, mask[, other]]`: read through pointers; masked-off lanes give `other`."""

    name = "tt.load"

    ptr = operand_def(TT_PTR_LIKE)
    mask = opt_operand_def(TT_BOOL_LIKE)
    other = opt_operand_def(TT_TYPE)
    result = result_def(TT_TYPE)

    cache = opt_prop_def(CacheModifierAttr)
    evict = opt_prop_def(EvictionPolicyAttr)
    cachePolicy = opt_prop_def(CachePolicyAttr)
    isVolatile = opt_prop_def(BoolAttr)
    boundaryCheck = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(PaddingOptionAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        other: SSAValue | Operation | None = None,
    ):
        ptr = SSAValue.get(ptr)
        super().__init__(
            operands=[ptr, [mask] if mask else [], [other] if other else []],
            result_types=[_pointee_of(ptr.type, "pointer")],
        )

    def verify_(self) -> None:
        value_type = _pointee_of(self.ptr.type, "pointer")
        _expect_type(self.result.type, value_type, "result")
        if self.mask is not None:
            _expect_type(self.mask.type, _bool_like(value_type), "mask")
        if self.other is not None:
            _expect_type(self.other.type, value_type, "other")

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        names = [parser.parse_unresolved_operand()]
        while len(names) < 3 and parser.parse_optional_punctuation(","):
            names.append(parser.parse_unresolved_operand())
        properties = _parse_cache_keywords(parser)
        attrs = parser.parse_optional_attr_dict()
        properties |= _split_properties(attrs)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        value_type = _pointee_type_or_error(parser, ptr_type)
        types = [ptr_type, _bool_like(value_type), value_type][: len(names)]
        ptr, *rest = parser.resolve_operands(names, types, parser.pos)
        mask = rest[0] if rest else None
        other = rest[1] if len(rest) > 1 else None
        op = cls.create(
            operands=[ptr, *rest],
            result_types=[value_type],
            properties={
                "operandSegmentSizes": DenseArrayBase.from_list(
                    i32, [1, int(mask is not None), int(other is not None)]
                ),
                **properties,
            },
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_cache_keywords(printer, self)
        _print_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)


def _pointee_type_or_error(parser: Parser, ptr_type: Attribute) -> Attribute:
    try:
        return _pointee_of(ptr_type, "pointer")
    except VerifyException as error:
        parser.raise_error(f"{error}, got {ptr_type}")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`tt.store ptr, value[, mask]`: write through pointers where the mask is set."""

    name = "tt.store"

    ptr = operand_def(TT_PTR_LIKE)
    value = operand_def(TT_TYPE)
    mask = opt_operand_def(TT_BOOL_LIKE)

    cache = opt_prop_def(CacheModifierAttr)
    evict = opt_prop_def(EvictionPolicyAttr)
    cachePolicy = opt_prop_def(CachePolicyAttr)
    boundaryCheck = opt_prop_def(DenseArrayBase)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        value: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
    ):
        super().__init__(operands=[ptr, value, [mask] if mask else []])

    def verify_(self) -> None:
        value_type = _pointee_of(self.ptr.type, "pointer")
        _expect_type(self.value.type, value_type, "value")
        if self.mask is not None:
            _expect_type(self.mask.type, _bool_like(value_type), "mask")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        if parser.parse_optional_punctuation(","):
            names.append(parser.parse_unresolved_operand())
        properties = _parse_cache_keywords(parser)
        attrs = parser.parse_optional_attr_dict()
        properties |= _split_properties(attrs)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        value_type = _pointee_type_or_error(parser, ptr_type)
        types = [ptr_type, value_type, _bool_like(value_type)][: len(names)]
        operands = parser.resolve_operands(names, types, parser.pos)
        op = cls.create(operands=operands, properties=properties)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_cache_keywords(printer, self)
        _print_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`tt.atomic_rmw op, sem, scope, ptr, val[, mask]`: returns the old values."""

    name = "tt.atomic_rmw"

    atomic_rmw_op = prop_def(RMWOpAttr)
    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def(TT_PTR_LIKE)
    val = operand_def(TT_TYPE)
    mask = opt_operand_def(TT_BOOL_LIKE)
    result = result_def(TT_TYPE)

    assembly_format = (
        "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? "
        "attr-dict `:` functional-type(operands, $result)"
    )

    def verify_(self) -> None:
        value_type = _pointee_of(self.ptr.type, "pointer")
        _expect_type(self.val.type, value_type, "value")
        _expect_type(self.result.type, value_type, "result")
        if self.mask is not None:
            _expect_type(self.mask.type, _bool_like(value_type), "mask")


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    """`tt.atomic_cas sem, scope, ptr, cmp, val`: compare-and-swap; returns the old values."""

    name = "tt.atomic_cas"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def(TT_PTR_LIKE)
    cmp = operand_def(TT_TYPE)
    val = operand_def(TT_TYPE)
    result = result_def(TT_TYPE)

    assembly_format = (
        "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict "
        "`:` functional-type(operands, $result)"
    )

    def verify_(self) -> None:
        value_type = _pointee_of(self.ptr.type, "pointer")
        for value, what in ((self.cmp, "compare"), (self.val, "value"), (self.result, "result")):
            _expect_type(value.type, value_type, what)


# ---------------------------------------------------------------------------
# Reductions, scans, dot
# ---------------------------------------------------------------------------


def _verify_combine_region(
    op: IRDLOperation, region: Region, element_types: Sequence[Attribute], terminator: type[Operation]
) -> None:
    block = region.blocks.first
    if block is None or len(region.blocks) != 1:
        raise VerifyException("combine region must have exactly one block")
    expected = (*element_types, *element_types)
    if tuple(block.arg_types) != expected:
        raise VerifyException(
            f"combine region arguments must be {len(expected)} values of types "
            f"{', '.join(map(str, expected))}"
        )
    last = block.last_op
    if not isinstance(last, terminator):
        raise VerifyException(f"combine region must end with {terminator.name}")
    if tuple(last.operand_types) != tuple(element_types):
        raise VerifyException(
            "combine region must return one value per operand, of the element types"
        )


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`tt.reduce {axis}`: reduce operands along an axis with a combine region.

    Triton prints it in generic form; several operands reduce together
    (argmax is a two-operand reduce, Welford a three-operand one).
    """

    name = "tt.reduce"

    srcs = var_operand_def(TT_TENSOR)
    axis = prop_def(IntegerAttr[IntegerType])
    result = var_result_def(TT_TYPE)
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("expected at least one operand")
        shape = shape_of(self.srcs[0].type)
        axis = self.axis.value.data
        if not 0 <= axis < len(shape):
            raise VerifyException(f"axis {axis} out of range for rank {len(shape)}")
        for src in self.srcs:
            if shape_of(src.type) != shape:
                raise VerifyException("all operands must have the same shape")
        reduced = shape[:axis] + shape[axis + 1 :]
        elements = [element_type_of(t) for t in self.srcs.types]
        expected = tuple(
            TensorType(e, reduced) if reduced else e for e in elements
        )
        if tuple(self.result.types) != expected:
            raise VerifyException(
                f"result types must be {', '.join(map(str, expected))}"
            )
        _verify_combine_region(self, self.combineOp, elements, ReduceReturnOp)


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    name = "tt.reduce.return"

    result = var_operand_def()

    traits = traits_def(HasParent(ReduceOp), IsTerminator(), ReturnLike(), Pure())
    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class ScanOp(IRDLOperation):
    """`tt.scan {axis, reverse}`: inclusive associative scan with a combine region."""

    name = "tt.scan"

    srcs = var_operand_def(TT_TENSOR)
    axis = prop_def(IntegerAttr[IntegerType])
    reverse = prop_def(BoolAttr)
    result = var_result_def(TT_TENSOR)
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("expected at least one operand")
        shape = shape_of(self.srcs[0].type)
        axis = self.axis.value.data
        if not 0 <= axis < len(shape):
            raise VerifyException(f"axis {axis} out of range for rank {len(shape)}")
        if tuple(self.result.types) != tuple(self.srcs.types):
            raise VerifyException("result types must equal operand types")
        for src in self.srcs:
            if shape_of(src.type) != shape:
                raise VerifyException("all operands must have the same shape")
        elements = [element_type_of(t) for t in self.srcs.types]
        _verify_combine_region(self, self.combineOp, elements, ScanReturnOp)


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    name = "tt.scan.return"

    result = var_operand_def()

    traits = traits_def(HasParent(ScanOp), IsTerminator(), ReturnLike(), Pure())
    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class DotOp(IRDLOperation):
    """`tt.dot a, b, c`: d = a @ b + c over the last two dimensions."""

    name = "tt.dot"

    T: ClassVar = VarConstraint("T", TT_TENSOR)
    a = operand_def(TT_TENSOR)
    b = operand_def(TT_TENSOR)
    c = operand_def(T)
    inputPrecision = opt_prop_def(InputPrecisionAttr)
    maxNumImpreciseAcc = opt_prop_def(IntegerAttr[IntegerType])
    d = result_def(T)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict "
        "`:` type($a) `*` type($b) `->` type($d)"
    )

    def verify_(self) -> None:
        a, b, d = shape_of(self.a.type), shape_of(self.b.type), shape_of(self.d.type)
        if not (len(a) == len(b) == len(d) and len(a) in (2, 3)):
            raise VerifyException("operands must be 2-D (or batched 3-D) tensors")
        if a[-1] != b[-2]:
            raise VerifyException(
                f"inner dimensions differ: a is {list(a)}, b is {list(b)}"
            )
        if d[-2:] != (a[-2], b[-1]) or d[:-2] != a[:-2] or a[:-2] != b[:-2]:
            raise VerifyException(
                f"result shape {list(d)} does not match a {list(a)} times b {list(b)}"
            )


@irdl_op_definition
class HistogramOp(IRDLOperation):
    """`tt.histogram`: counts of each value 0..N-1 of the input, N the result size."""

    name = "tt.histogram"

    src = operand_def(TensorType.constr(_INT_CONSTR))
    result = result_def(TensorType.constr(_INT_CONSTR))

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`tt.gather src[indices] {axis}`: pick elements of src along an axis."""

    name = "tt.gather"

    src = operand_def(TT_TENSOR)
    indices = operand_def(TensorType.constr(_INT_CONSTR))
    axis = prop_def(IntegerAttr[IntegerType])
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TT_TENSOR)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        src, idx = shape_of(self.src.type), shape_of(self.indices.type)
        axis = self.axis.value.data
        if len(src) != len(idx):
            raise VerifyException("source and indices must have the same rank")
        if not 0 <= axis < len(src):
            raise VerifyException(f"axis {axis} out of range for rank {len(src)}")
        _expect_type(
            self.result.type,
            TensorType(element_type_of(self.src.type), idx),
            "result",
        )


# ---------------------------------------------------------------------------
# Debugging
# ---------------------------------------------------------------------------


@irdl_op_definition
class PrintOp(IRDLOperation):
    name = "tt.print"

    prefix = prop_def(StringAttr)
    hex = prop_def(BoolAttr)
    args = var_operand_def(TT_TYPE)
    isSigned = prop_def(DenseArrayBase)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$prefix attr-dict (`:` $args^ `:` type($args))?"


@irdl_op_definition
class AssertOp(IRDLOperation):
    """`tt.assert cond, "message"`: abort the kernel where cond is false."""

    name = "tt.assert"

    condition = operand_def(TT_BOOL_LIKE)
    message = prop_def(StringAttr)

    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"


# ---------------------------------------------------------------------------
# Tensor descriptors (Triton >= 3.4; rewritten to pointers below sm_90)
# ---------------------------------------------------------------------------


@irdl_op_definition
class MakeTensorDescOp(IRDLOperation):
    """`tt.make_tensor_descriptor base, [shape], [strides] : <ptr>, <desc>`."""

    name = "tt.make_tensor_descriptor"

    base = operand_def(PointerType)
    shape = var_operand_def(i32)
    strides = var_operand_def(IntegerType(64))
    result = result_def(TensorDescType)

    traits = traits_def(Pure())
    irdl_options = (SameVariadicOperandSize(),)

    def verify_(self) -> None:
        desc = self.result.type
        assert isinstance(desc, TensorDescType)
        rank = len(desc.block_type.get_shape())
        if not len(self.shape) == len(self.strides) == rank:
            raise VerifyException("shape and strides must have one value per dimension")

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorDescOp:
        base = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        strides = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        base_type = _parse_maybe_unqualified(parser, PointerType)
        parser.parse_punctuation(",")
        desc_type = _parse_maybe_unqualified(parser, TensorDescType)
        operands = parser.resolve_operands(
            [base, *shape, *strides],
            [base_type, *[i32] * len(shape), *[IntegerType(64)] * len(strides)],
            parser.pos,
        )
        op = cls.create(operands=operands, result_types=[desc_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        for values in (self.shape, self.strides):
            printer.print_string(", [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        self.base.type.print_parameters(printer)  # type: ignore[attr-defined]
        printer.print_string(", ")
        self.result.type.print_parameters(printer)  # type: ignore[attr-defined]


def _parse_maybe_unqualified(parser: Parser, type_cls: type[ParametrizedAttribute]) -> Attribute:
    """Triton prints some types without their `!dialect.name` prefix: `<f32>`."""
    if parser.parse_optional_characters("!") is None and parser._current_token.text == "<":
        return type_cls.new(type_cls.parse_parameters(parser))  # type: ignore[attr-defined]
    if parser._current_token.text == "<":
        return type_cls.new(type_cls.parse_parameters(parser))  # type: ignore[attr-defined]
    parsed = parser.parse_type()
    if not isinstance(parsed, type_cls):
        parser.raise_error(f"expected {type_cls.name} type")
    return parsed


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    name = "tt.descriptor_load"

    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cache = opt_prop_def(CacheModifierAttr)
    evict = opt_prop_def(EvictionPolicyAttr)
    result = result_def(TT_TENSOR)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$desc `[` $indices `]` attr-dict `:` type($desc) `->` type($result)"
    )

    def verify_(self) -> None:
        desc = self.desc.type
        assert isinstance(desc, TensorDescType)
        if len(self.indices) != len(desc.block_type.get_shape()):
            raise VerifyException("expected one index per descriptor dimension")


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    name = "tt.descriptor_store"

    desc = operand_def(TensorDescType)
    src = operand_def(TT_TENSOR)
    indices = var_operand_def(i32)

    assembly_format = (
        "$desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"
    )

    def verify_(self) -> None:
        desc = self.desc.type
        assert isinstance(desc, TensorDescType)
        if len(self.indices) != len(desc.block_type.get_shape()):
            raise VerifyException("expected one index per descriptor dimension")


TT = Dialect(
    "tt",
    [
        FuncOp,
        ReturnOp,
        CallOp,
        GetProgramIdOp,
        GetNumProgramsOp,
        MakeRangeOp,
        SplatOp,
        ExpandDimsOp,
        BroadcastOp,
        ReshapeOp,
        TransOp,
        CatOp,
        JoinOp,
        SplitOp,
        BitcastOp,
        IntToPtrOp,
        PtrToIntOp,
        FpToFpOp,
        PreciseSqrtOp,
        PreciseDivFOp,
        MulhiUIOp,
        ClampFOp,
        ExternElementwiseOp,
        ElementwiseInlineAsmOp,
        AddPtrOp,
        AdvanceOp,
        MakeTensorPtrOp,
        LoadOp,
        StoreOp,
        AtomicRMWOp,
        AtomicCASOp,
        ReduceOp,
        ReduceReturnOp,
        ScanOp,
        ScanReturnOp,
        DotOp,
        HistogramOp,
        GatherOp,
        PrintOp,
        AssertOp,
        MakeTensorDescOp,
        DescriptorLoadOp,
        DescriptorStoreOp,
    ],
    [
        PointerType,
        TensorDescType,
        CachePolicyAttr,
        ProgramDimAttr,
        CacheModifierAttr,
        EvictionPolicyAttr,
        PaddingOptionAttr,
        RMWOpAttr,
        MemSemanticAttr,
        MemSyncScopeAttr,
        RoundingModeAttr,
        PropagateNanAttr,
        InputPrecisionAttr,
    ],
)
