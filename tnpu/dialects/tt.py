"""The Triton IR dialect (`tt`), as Triton 3.6 to 3.9 print it.

Every op, type and attribute keeps Triton's textual syntax, so a TTIR file
prints back the way Triton printed it (apart from SSA names), and Triton's
own parser accepts what tnpu prints, in the custom and the generic form.
Where 3.6 and 3.9 differ, an op accepts both and prints what it was given:
3.6's load/store cache keywords and block pointers (`tt.make_tensor_ptr`,
`tt.advance`, `!tt.ptr<tensor<...>>`) beside 3.9's `#tt.cache_policy`.

Triton's enums are MLIR `I32EnumAttr`s: an `i32` integer in the attribute
dictionary (and so in the generic form), a keyword in the custom syntax.
tnpu stores them the same way (`I32Enum`), so the generic form is Triton's.

Verifiers check what Triton's verifier checks, with Triton's wording where it
has one: pointer/offset/mask/`other` agreement, shapes of broadcasts,
reshapes, joins and gathers, reduce/scan region signatures, dot shapes,
bitcast widths, and that every tensor has a power-of-two number of elements.
Types that Triton leaves out of the text because they follow from another
(a load's mask and result from its pointer) are `MatchesTypeOf` constraints:
the assembly format infers them and the verifier checks them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar, Generic, Self, TypeVar

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
    ModuleOp,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
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
    AttrConstraint,
    AttrSizedOperandSegments,
    BaseAttr,
    EqAttrConstraint,
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.constraints import InferenceContext, VerificationContext
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoMemoryEffect,
    OpTrait,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from tnpu.dialects.shapes import element_type_of, i1_like, shape_of, with_element_type

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


class PtrAddrSpace(IntEnum):
    """Triton 3.9's named address spaces; 3.6 wrote the numbers."""

    DESCRIPTOR = 0
    GLOBAL = 1
    CONSTANT = 4


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`!tt.ptr<T>`, `!tt.ptr<T, "constant">` (3.9) or `!tt.ptr<T, 4>` (3.6).

    The pointee is an integer or float, or (Triton 3.6's block pointers) a
    tensor.  The address space is kept as its number; the global space (1)
    is left out of the text, the named ones print as 3.9 prints them.
    """

    name = "tt.ptr"

    pointee_type: Attribute
    address_space: IntAttr

    DEFAULT_ADDRESS_SPACE: ClassVar[int] = PtrAddrSpace.GLOBAL

    def __init__(self, pointee_type: Attribute, address_space: int = PtrAddrSpace.GLOBAL):
        super().__init__(pointee_type, IntAttr(address_space))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            pointee = parser.parse_type()
            if (problem := _pointee_problem(pointee)) is not None:
                parser.raise_error(problem, start, parser.pos)
            space = cls.DEFAULT_ADDRESS_SPACE
            if parser.parse_optional_punctuation(","):
                if (name := parser.parse_optional_str_literal()) is not None:
                    if name.upper() not in PtrAddrSpace.__members__:
                        parser.raise_error(
                            f"unknown address space \"{name}\", expected one of "
                            + ", ".join(f'"{s.name.lower()}"' for s in PtrAddrSpace)
                        )
                    space = PtrAddrSpace[name.upper()]
                else:
                    space = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return (pointee, IntAttr(space))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee_type)
            space = self.address_space.data
            if space not in {named.value for named in PtrAddrSpace}:
                printer.print_string(f", {space}")
            elif space != self.DEFAULT_ADDRESS_SPACE:
                printer.print_string(f', "{PtrAddrSpace(space).name.lower()}"')

    def verify(self) -> None:
        if (problem := _pointee_problem(self.pointee_type)) is not None:
            raise VerifyException(problem)


def _pointee_problem(pointee: Attribute) -> str | None:
    """Why `pointee` cannot be a `!tt.ptr`'s pointee, or None if it can."""
    if isinstance(pointee, TensorType):
        if isinstance(pointee.element_type, IntegerType | AnyFloat):
            return None
        return f"a block pointer must point to a tensor of integers or floats, not {pointee}"
    if isinstance(pointee, IntegerType | AnyFloat | PointerType):
        return None
    return f"pointer types must point to integer or floating-point types, not {pointee}"


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tensordesc<16x32xf32>`: a TMA-style descriptor of a block in global memory.

    Earlier Tritons wrapped the block: `!tt.tensordesc<tensor<16x32xf32>>`;
    both parse, the 3.9 form prints.  Integer blocks may be signed (`si32`).
    """

    name = "tt.tensordesc"

    block_type: TensorType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("tensor"):
                with parser.in_angle_brackets():
                    shape, element = parser.parse_ranked_shape()
            else:
                shape, element = parser.parse_ranked_shape()
        return (TensorType(element, shape),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for dim in self.block_type.get_shape():
                printer.print_string(f"{dim}x")
            printer.print_attribute(self.block_type.element_type)

    @property
    def signless_block_type(self) -> TensorType:
        """The block type with a signed/unsigned integer element made signless."""
        element = self.block_type.element_type
        if isinstance(element, IntegerType):
            element = IntegerType(element.width.data)
        return TensorType(element, self.block_type.get_shape())


# ---------------------------------------------------------------------------
# Enums: an i32 in the attribute dictionary, a keyword in the custom syntax
# ---------------------------------------------------------------------------


class I32Enum(IntEnum):
    """One of Triton's `I32EnumAttr`s; each member is `(number, keyword)`.

    On an op the value is an `IntegerAttr` of type `i32` holding the number,
    exactly as MLIR stores it; `custom<Keyword>($prop)` in an assembly format
    writes the keyword.  `ProgramDim.of(op.axis)` reads it back as a member.
    """

    keyword: str

    def __new__(cls, value: int, keyword: str):
        member = int.__new__(cls, value)
        member._value_ = value
        member.keyword = keyword
        return member

    @property
    def attr(self) -> IntegerAttr:
        return IntegerAttr(self.value, i32)

    @classmethod
    def of(cls, attr: IntegerAttr) -> Self:
        return cls(attr.value.data)

    @classmethod
    def constr(cls) -> I32EnumConstraint:
        return I32EnumConstraint(cls)

    @classmethod
    def parse_keyword(cls, parser: AttrParser) -> Self:
        return parse_choice(parser, {member.keyword: member for member in cls}, cls.__name__)


def parse_choice(parser: AttrParser, choices: Mapping[str, _T], what: str) -> _T:
    """The value of the keyword `parser` is at, one of `choices`; else an error naming them."""
    start = parser.pos
    word = parser.parse_optional_identifier()
    if word is None or word not in choices:
        parser.raise_error(f"expected {what} ({', '.join(choices)})", start, parser.pos)
    return choices[word]


_T = TypeVar("_T")


@dataclass(frozen=True)
class I32EnumConstraint(AttrConstraint[IntegerAttr]):
    """An `i32` integer attribute holding one of the values of `enum`."""

    enum: type[I32Enum]

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if (
            not isinstance(attr, IntegerAttr)
            or attr.type != i32
            or attr.value.data not in {member.value for member in self.enum}
        ):
            allowed = ", ".join(f"{m.value} ({m.keyword})" for m in self.enum)
            raise VerifyException(
                f"expected an i32 {self.enum.__name__}: one of {allowed}; got {attr}"
            )

    def get_bases(self) -> set[type[Attribute]]:
        return {IntegerAttr}

    def mapping_type_vars(self, type_var_mapping) -> I32EnumConstraint:
        return self


@irdl_custom_directive
class Keyword(CustomDirective):
    """`custom<Keyword>($prop)`: an `I32Enum` property written as its keyword.

    This is how MLIR prints an enum attribute outside the attribute
    dictionary (`tt.get_program_id x`, `tt.atomic_rmw fadd, acq_rel, gpu`).
    It can anchor an optional group; an absent or default value is not printed.
    """

    prop: AttributeVariable

    def _enum(self, op_type: type[IRDLOperation]) -> type[I32Enum]:
        constr = op_type.get_irdl_definition().properties[self.prop.name].constr
        assert isinstance(constr, I32EnumConstraint)
        return constr.enum

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.prop.set(state, self._enum(state.op_type).parse_keyword(parser).attr)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.prop.get(op)
        assert isinstance(attr, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(self._enum(type(op)).of(attr).keyword)

    def is_present(self, op: IRDLOperation) -> bool:
        return self.prop.is_present(op)

    def is_anchorable(self) -> bool:
        return self.prop.is_anchorable()

    def set_empty(self, state: ParsingState) -> None:
        pass


class ProgramDim(I32Enum):
    X = 0, "x"
    Y = 1, "y"
    Z = 2, "z"


class CacheModifier(I32Enum):
    NONE = 1, "none"
    CA = 2, "ca"
    CG = 3, "cg"
    WB = 4, "wb"
    CS = 5, "cs"
    WT = 6, "wt"
    CV = 7, "cv"


class EvictionPolicy(I32Enum):
    NORMAL = 1, "evict_normal"
    EVICT_FIRST = 2, "evict_first"
    EVICT_LAST = 3, "evict_last"


class PaddingOption(I32Enum):
    ZERO = 1, "zero"
    NAN = 2, "nan"


class RMWOp(I32Enum):
    AND = 1, "and"
    OR = 2, "or"
    XOR = 3, "xor"
    ADD = 4, "add"
    FADD = 5, "fadd"
    MAX = 6, "max"
    MIN = 7, "min"
    UMAX = 8, "umax"
    UMIN = 9, "umin"
    XCHG = 10, "exch"


class DescriptorReduceKind(I32Enum):
    ADD = 1, "add"
    MIN = 2, "min"
    MAX = 3, "max"
    INC = 4, "inc"
    DEC = 5, "dec"
    AND = 6, "and"
    OR = 7, "or"
    XOR = 8, "xor"


class MemSemantic(I32Enum):
    RELAXED = 1, "relaxed"
    ACQUIRE = 2, "acquire"
    RELEASE = 3, "release"
    ACQUIRE_RELEASE = 4, "acq_rel"


class MemSyncScope(I32Enum):
    GPU = 1, "gpu"
    CTA = 2, "cta"
    SYSTEM = 3, "sys"


class RoundingMode(I32Enum):
    RTZ = 0, "rtz"
    RTNE = 1, "rtne"


class PropagateNan(I32Enum):
    NONE = 0, "none"
    ALL = 0xFFFF, "all"


class InputPrecision(I32Enum):
    TF32 = 0, "tf32"
    TF32x3 = 1, "tf32x3"
    IEEE = 2, "ieee"
    BF16x3 = 3, "bf16x3"
    BF16x6 = 4, "bf16x6"


class ScaleDotElemType(I32Enum):
    E4M3 = 0, "e4m3"
    E5M2 = 1, "e5m2"
    E2M3 = 2, "e2m3"
    E3M2 = 3, "e3m2"
    E2M1 = 4, "e2m1"
    BF16 = 5, "bf16"
    FP16 = 6, "fp16"


@irdl_attr_definition
class CachePolicyAttr(ParametrizedAttribute):
    """`#tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>` (3.9)."""

    name = "tt.cache_policy"

    cache_modifier: IntegerAttr = param_def(CacheModifier.constr())
    eviction_policy: IntegerAttr = param_def(EvictionPolicy.constr())

    def __init__(self, cache_modifier: CacheModifier, eviction_policy: EvictionPolicy):
        super().__init__(cache_modifier.attr, eviction_policy.attr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        # MLIR's `struct(params)`: named parameters, in any order.
        parsers = {"cache_modifier": CacheModifier, "eviction_policy": EvictionPolicy}
        values: dict[str, I32Enum] = {}

        def parse_entry() -> None:
            start = parser.pos
            name = parser.parse_identifier()
            if name not in parsers or name in values:
                parser.raise_error(
                    f"expected {' or '.join(n for n in parsers if n not in values)}",
                    start,
                    parser.pos,
                )
            parser.parse_punctuation("=")
            values[name] = parsers[name].parse_keyword(parser)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        if missing := [n for n in parsers if n not in values]:
            parser.raise_error(f"#tt.cache_policy is missing {', '.join(missing)}")
        return (values["cache_modifier"].attr, values["eviction_policy"].attr)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<cache_modifier = {CacheModifier.of(self.cache_modifier).keyword}, "
            f"eviction_policy = {EvictionPolicy.of(self.eviction_policy).keyword}>"
        )


# ---------------------------------------------------------------------------
# Type constraints and the type rules Triton's verifier applies
# ---------------------------------------------------------------------------

_ConstrainedT = TypeVar("_ConstrainedT", bound=Attribute, covariant=True)


@dataclass(frozen=True)
class TypeClass(AttrConstraint[_ConstrainedT], Generic[_ConstrainedT]):
    """One of Triton's type classes (TT_PtrLike, ...): `constr`, named in errors.

    xDSL's own message names the innermost mismatch ("f32 should be of base
    attribute tt.ptr"); Triton's names the class: "expected a pointer or a
    tensor of pointers, got tensor<16xf32>".
    """

    constr: AttrConstraint[_ConstrainedT]
    description: str

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        try:
            self.constr.verify(attr, constraint_context)
        except VerifyException:
            raise VerifyException(f"expected {self.description}, got {attr}") from None

    def variables(self) -> set[str]:
        return self.constr.variables()

    def get_bases(self) -> set[type[Attribute]] | None:
        return self.constr.get_bases()

    def can_infer(self, var_constraint_names) -> bool:
        return self.constr.can_infer(var_constraint_names)

    def infer(self, context: InferenceContext) -> Attribute:
        return self.constr.infer(context)

    def mapping_type_vars(self, type_var_mapping) -> TypeClass[_ConstrainedT]:
        return self


def _scalar_or_tensor(element: AttrConstraint, description: str) -> TypeClass[Attribute]:
    return TypeClass(AnyOf.get(element, TensorType.constr(element)), description)


def _tensor_of(element: AttrConstraint, description: str) -> TypeClass[TensorType]:
    return TypeClass(TensorType.constr(element), description)


_SCALAR_CONSTR = BaseAttr(IntegerType) | AnyFloatConstr | BaseAttr(PointerType)
_INT_CONSTR = BaseAttr(IntegerType)
TT_TYPE = _scalar_or_tensor(_SCALAR_CONSTR, "an integer, float or pointer, or a tensor of them")
"""Triton's TT_Type."""
TT_INT_LIKE = _scalar_or_tensor(_INT_CONSTR, "an integer or a tensor of integers")
TT_FLOAT_LIKE = _scalar_or_tensor(AnyFloatConstr, "a float or a tensor of floats")
TT_PTR_LIKE = _scalar_or_tensor(BaseAttr(PointerType), "a pointer or a tensor of pointers")
TT_BOOL_LIKE = _scalar_or_tensor(EqAttrConstraint(i1), "i1 or a tensor of i1")
TT_I64_LIKE = _scalar_or_tensor(EqAttrConstraint(i64), "i64 or a tensor of i64")
_F32_LIKE = _scalar_or_tensor(EqAttrConstraint(f32), "f32 or a tensor of f32")
TT_TENSOR = _tensor_of(_SCALAR_CONSTR, "a tensor of integers, floats or pointers")
TT_INT_TENSOR = _tensor_of(_INT_CONSTR, "a tensor of integers")
TT_FLOAT_TENSOR = _tensor_of(AnyFloatConstr, "a tensor of floats")
TT_FP_INT_TENSOR = _tensor_of(_INT_CONSTR | AnyFloatConstr, "a tensor of integers or floats")


def pointee_of(ptr_type: Attribute) -> Attribute:
    """The value type read or written through `ptr_type`, its shape kept.

    A tensor of pointers gives a tensor of pointees; a block pointer
    (`!tt.ptr<tensor<...>>`, Triton 3.6) gives its tensor.
    """
    element = element_type_of(ptr_type)
    if not isinstance(element, PointerType):
        raise VerifyException(f"expected a pointer or a tensor of pointers, got {ptr_type}")
    if isinstance(ptr_type, PointerType) and isinstance(ptr_type.pointee_type, TensorType):
        return ptr_type.pointee_type
    return with_element_type(ptr_type, element.pointee_type)


def bitwidth_of(type_: Attribute) -> int:
    """The width in bits of an integer or float type."""
    if isinstance(type_, IntegerType):
        return type_.width.data
    assert isinstance(type_, AnyFloat)
    return type_.bitwidth


@dataclass(frozen=True)
class MatchesTypeOf(AttrConstraint):
    """MLIR's `TypesMatchWith`: a type that is a function of another's.

    `var` names a `VarConstraint` of an operand or result verified earlier
    (operands are verified in order, then results); this type must equal
    `derive(<that type>)`.  The assembly format can therefore leave it out
    of the text, as Triton does, and infer it.
    """

    var: str
    derive: Callable[[Attribute], Attribute]
    relation: str
    """How the type follows, for messages: 'the pointee of the pointer'."""

    def _expected(self, context: InferenceContext) -> Attribute:
        source = context.get_variable(self.var)
        assert source is not None, f"type variable {self.var} is bound before use"
        return self.derive(source)

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        expected = self._expected(constraint_context)
        if attr != expected:
            raise VerifyException(f"expected {expected} ({self.relation}), got {attr}")

    def can_infer(self, var_constraint_names) -> bool:
        return self.var in var_constraint_names

    def infer(self, context: InferenceContext) -> Attribute:
        return self._expected(context)

    def mapping_type_vars(self, type_var_mapping) -> MatchesTypeOf:
        return self


def _pointee_constr(var: str) -> MatchesTypeOf:
    return MatchesTypeOf(var, pointee_of, "the pointee type of the pointer")


def _pointer_mask_constr(var: str) -> MatchesTypeOf:
    return MatchesTypeOf(var, lambda p: i1_like(pointee_of(p)), "i1 in the shape of the pointer")


MAX_TENSOR_ELEMENTS = 1 << 20
"""Triton's `maxTensorNumElements`."""


class TensorSizeTrait(OpTrait):
    """Triton's TensorSizeTrait: every tensor has a power-of-two number of
    elements, at most `MAX_TENSOR_ELEMENTS`.  Every `tt` op has it."""

    def verify(self, op: Operation) -> None:
        for value in (*op.operands, *op.results):
            if isinstance(value.type, TensorType):
                count = math.prod(value.type.get_shape())
                if count > MAX_TENSOR_ELEMENTS:
                    raise VerifyException(
                        f"maximum allowed number of elements is {MAX_TENSOR_ELEMENTS}, "
                        f"but {value.type} has {count}"
                    )
                if count & (count - 1):
                    raise VerifyException(
                        f"number of elements must be a power of two, but {value.type} "
                        f"has {count}"
                    )


def tt_traits(*traits: OpTrait):
    """The traits of a `tt` op: `traits` plus TensorSizeTrait, as Triton's TT_Op adds it."""
    return traits_def(*traits, TensorSizeTrait())


def _expect_type(actual: Attribute, expected: Attribute, what: str) -> None:
    if actual != expected:
        raise VerifyException(f"{what} must be {expected}, got {actual}")


def parse_stripped_type(parser: AttrParser, type_class: type[_TypeT]) -> _TypeT:
    """A `type_class` type, with or without its `!dialect.name` prefix (`<f32>`)."""
    type_ = parser.parse_optional_type() or type_class.new(type_class.parse_parameters(parser))
    if not isinstance(type_, type_class):
        parser.raise_error(f"expected {type_class.name} type, got {type_}")
    return type_


_TypeT = TypeVar("_TypeT", bound=ParametrizedAttribute)


class _DialectTypeDirective(CustomDirective):
    """A `tt` type written without its `!tt.ptr`/`!tt.tensordesc` prefix.

    MLIR prints a type of the op's own dialect that way when the operand's
    constraint names the type class: Triton's `: <f32>, <16x32xf32>` after
    `tt.make_tensor_descriptor`, `: <tensor<32x32xf32>>` after `tt.advance`.
    The prefixed form is accepted too, as MLIR's parser accepts it.
    """

    TYPE: ClassVar[type[ParametrizedAttribute]]

    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.type.set(state, (parse_stripped_type(parser, self.TYPE),))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        (type_,) = self.type.get(op)
        assert isinstance(type_, self.TYPE)
        state.print_whitespace(printer)
        type_.print_parameters(printer)


@irdl_custom_directive
class StrippedPtrType(_DialectTypeDirective):
    """`custom<StrippedPtrType>(type($x))`: `<f32>` for `!tt.ptr<f32>`."""

    TYPE = PointerType
    type: TypeDirective


@irdl_custom_directive
class StrippedTensorDescType(_DialectTypeDirective):
    """`custom<StrippedTensorDescType>(type($x))`: `<16x32xf32>` for `!tt.tensordesc<16x32xf32>`."""

    TYPE = TensorDescType
    type: TypeDirective


_I32_ATTR = IntegerAttr.constr(type=i32)
"""Triton's `I32Attr`."""


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
    """`tt.func`: a kernel (`public`) or device function (`private`, `noinline`)."""

    name = "tt.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(
        IsolatedFromAbove(), SymbolOpInterface(), _FuncCallable(), HasParent(ModuleOp)
    )

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
        block_types = tuple(self.body.blocks[0].arg_types)
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
            reserved_attr_names=("sym_name", "function_type", "sym_visibility", "arg_attrs"),
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "tt.return"

    srcs = var_operand_def()

    traits = tt_traits(HasParent(FuncOp), IsTerminator(), ReturnLike(), Pure())

    assembly_format = "attr-dict ($srcs^ `:` type($srcs))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        assert isinstance(func, FuncOp)
        expected = func.function_type.outputs.data
        if len(self.srcs) != len(expected):
            raise VerifyException(
                f"has {len(self.srcs)} operands, but enclosing function "
                f"(@{func.sym_name.data}) returns {len(expected)}"
            )
        for index, (actual, wanted) in enumerate(zip(self.srcs.types, expected)):
            if actual != wanted:
                raise VerifyException(
                    f"type of return operand {index} ({actual}) doesn't match function "
                    f"result type ({wanted}) in function @{func.sym_name.data}"
                )


@irdl_op_definition
class CallOp(IRDLOperation):
    """`tt.call @f(args) : (T) -> (U)`: call a device function of the module."""

    name = "tt.call"

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = tt_traits()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"

    def verify_(self) -> None:
        try:
            callee = SymbolTable.lookup_symbol(self, self.callee)
        except ValueError:
            callee = None
        if not isinstance(callee, FuncOp):
            raise VerifyException(
                f"'{self.callee.string_value()}' does not reference a valid function"
            )
        inputs = callee.function_type.inputs.data
        outputs = callee.function_type.outputs.data
        if len(inputs) != len(self.args):
            raise VerifyException("incorrect number of operands for callee")
        for index, (actual, wanted) in enumerate(zip(self.args.types, inputs)):
            if actual != wanted:
                raise VerifyException(
                    f"operand type mismatch: expected operand type {wanted}, but "
                    f"provided {actual} for operand number {index}"
                )
        if len(outputs) != len(self.res):
            raise VerifyException("incorrect number of results for callee")
        for index, (actual, wanted) in enumerate(zip(self.res.types, outputs)):
            if actual != wanted:
                raise VerifyException(
                    f"result type mismatch at index {index}: {actual} is not {wanted}"
                )


# ---------------------------------------------------------------------------
# SPMD
# ---------------------------------------------------------------------------


class _ProgramIndexOp(IRDLOperation):
    """`$axis : i32`, the shared shape of `tt.get_program_id` and `tt.get_num_programs`."""

    axis = prop_def(ProgramDim.constr())
    result = result_def(i32)

    traits = tt_traits(Pure())
    assembly_format = "custom<Keyword>($axis) attr-dict `:` type($result)"
    custom_directives = (Keyword,)

    def __init__(self, axis: ProgramDim):
        super().__init__(properties={"axis": axis.attr}, result_types=[i32])


@irdl_op_definition
class GetProgramIdOp(_ProgramIndexOp):
    """`tt.get_program_id x : i32`: this program's index along a grid axis."""

    name = "tt.get_program_id"


@irdl_op_definition
class GetNumProgramsOp(_ProgramIndexOp):
    """`tt.get_num_programs x : i32`: the grid size along an axis."""

    name = "tt.get_num_programs"


# ---------------------------------------------------------------------------
# Tensor creation and shape manipulation
# ---------------------------------------------------------------------------


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """`tt.make_range {end, start}`: the 1-D i32 tensor start, start+1, ..., end-1."""

    name = "tt.make_range"

    start = prop_def(_I32_ATTR)
    end = prop_def(_I32_ATTR)
    result = result_def(TT_INT_TENSOR)

    traits = tt_traits(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int):
        super().__init__(
            properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
            result_types=[TensorType(i32, [end - start])],
        )

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        if start >= end:
            raise VerifyException("start must be less than end")
        shape = shape_of(self.result.type)
        if len(shape) != 1:
            raise VerifyException("return type must be a 1D tensor")
        if shape[0] != end - start:
            raise VerifyException(
                f"number of elements in returned tensor, {shape[0]}, must match size of "
                f"range [{start}, {end}), which has {end - start} elements"
            )
        if element_type_of(self.result.type) != i32:
            raise VerifyException("returned tensor must have i32 elements")


def _same_element_type(op: IRDLOperation, source: SSAValue, result: SSAValue) -> None:
    """MLIR's SameOperandsAndResultElementType, as Triton words it."""
    if element_type_of(source.type) != element_type_of(result.type):
        raise VerifyException("requires the same element type for all operands and results")


class _SourceToResultOp(IRDLOperation):
    """The shape of most of Triton's unary ops: `$src attr-dict : T -> U`, pure."""

    traits = tt_traits(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class SplatOp(_SourceToResultOp):
    """`tt.splat`: a scalar broadcast to every element of a tensor."""

    name = "tt.splat"

    src = operand_def(TT_TYPE)
    result = result_def(TT_TENSOR)


    def __init__(self, src: SSAValue | Operation, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        _same_element_type(self, self.src, self.result)


@irdl_op_definition
class UnsplatOp(IRDLOperation):
    """`tt.unsplat`: the one element of a single-element tensor, as a scalar."""

    name = "tt.unsplat"

    T: ClassVar = VarConstraint("T", TT_TENSOR)
    src = operand_def(T)
    result = result_def(MatchesTypeOf("T", element_type_of, "the element type of the source"))

    traits = tt_traits(Pure())
    assembly_format = "$src attr-dict `:` type($src)"

    def verify_(self) -> None:
        if math.prod(shape_of(self.src.type)) != 1:
            raise VerifyException("source tensor must have exactly one element")


@irdl_op_definition
class ExpandDimsOp(_SourceToResultOp):
    """`tt.expand_dims {axis}`: insert a dimension of size 1."""

    name = "tt.expand_dims"

    src = operand_def(TT_TENSOR)
    axis = prop_def(_I32_ATTR)
    result = result_def(TT_TENSOR)

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        shape = list(shape_of(self.src.type))
        axis = self.axis.value.data
        if not 0 <= axis <= len(shape):
            raise VerifyException(f"axis {axis} out of bounds for rank {len(shape)}")
        shape.insert(axis, 1)
        _expect_type(
            self.result.type, TensorType(element_type_of(self.src.type), shape), "result type"
        )


@irdl_op_definition
class BroadcastOp(_SourceToResultOp):
    """`tt.broadcast`: stretch dimensions of size 1 to a larger size."""

    name = "tt.broadcast"

    src = operand_def(TT_TENSOR)
    result = result_def(TT_TENSOR)


    def verify_(self) -> None:
        _same_element_type(self, self.src, self.result)
        src, dst = shape_of(self.src.type), shape_of(self.result.type)
        if len(src) != len(dst):
            raise VerifyException("rank of source must be same as rank of result")
        for index, (s, d) in enumerate(zip(src, dst)):
            if s != 1 and s != d:
                raise VerifyException(
                    f"Different dimensions at index {index} between source and result. "
                    "Broadcast requires the source dimension to be 1."
                )


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`tt.reshape`: the same elements, in row-major order, in a new shape."""

    name = "tt.reshape"

    src = operand_def(TT_TENSOR)
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TT_TENSOR)

    traits = tt_traits(Pure())
    assembly_format = (
        "$src (`allow_reorder` $allow_reorder^)? "
        "(`efficient_layout` $efficient_layout^)? attr-dict "
        "`:` type($src) `->` type($result)"
    )

    def verify_(self) -> None:
        _same_element_type(self, self.src, self.result)
        if math.prod(shape_of(self.src.type)) != math.prod(shape_of(self.result.type)):
            raise VerifyException("number of src and dst elements of reshape must be the same")


@irdl_op_definition
class TransOp(_SourceToResultOp):
    """`tt.trans {order}`: permute the dimensions of a tensor."""

    name = "tt.trans"

    src = operand_def(TT_TENSOR)
    order = prop_def(DenseArrayBase.constr(i32))
    result = result_def(TT_TENSOR)

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        _same_element_type(self, self.src, self.result)
        order = self.order.get_values()
        shape = shape_of(self.src.type)
        if len(order) != len(shape):
            raise VerifyException("order must have the same size as the source tensor")
        if sorted(order) != list(range(len(shape))):
            raise VerifyException("order must be a permutation of 0..n-1")
        if shape_of(self.result.type) != tuple(shape[i] for i in order):
            raise VerifyException(
                "result shape must match the permutation of the source shape"
            )


@irdl_op_definition
class CatOp(IRDLOperation):
    """`tt.cat`: the elements of two tensors in one, in an unspecified order."""

    name = "tt.cat"

    T: ClassVar = VarConstraint("T", TT_TENSOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TT_TENSOR)

    traits = tt_traits(NoMemoryEffect())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def verify_(self) -> None:
        _same_element_type(self, self.lhs, self.result)
        expected = 2 * math.prod(shape_of(self.lhs.type))
        actual = math.prod(shape_of(self.result.type))
        if actual != expected:
            raise VerifyException(
                "result element count must equal the sum of the operand element "
                f"counts, expected {expected} but got {actual}"
            )


@irdl_op_definition
class JoinOp(IRDLOperation):
    """`tt.join`: stack two tensors along a new minor dimension of size 2."""

    name = "tt.join"

    T: ClassVar = VarConstraint("T", TT_TENSOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TT_TENSOR)

    traits = tt_traits(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def verify_(self) -> None:
        expected = (*shape_of(self.lhs.type), 2)
        actual = shape_of(self.result.type)
        if actual != expected:
            raise VerifyException(
                f"result shape must be ({', '.join(map(str, expected))}), but got "
                f"({', '.join(map(str, actual))})"
            )
        if element_type_of(self.result.type) != element_type_of(self.lhs.type):
            raise VerifyException("result element type must match the input element type")


@irdl_op_definition
class SplitOp(IRDLOperation):
    """`tt.split`: the two halves of a tensor whose last dimension is 2."""

    name = "tt.split"

    OUT: ClassVar = VarConstraint("OUT", TT_TENSOR)
    src = operand_def(TT_TENSOR)
    out_lhs = result_def(OUT)
    out_rhs = result_def(OUT)

    traits = tt_traits(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($out_lhs)"

    def verify_(self) -> None:
        shape = shape_of(self.src.type)
        if not shape or shape[-1] != 2:
            raise VerifyException("last dimension of input tensor must be 2")
        _expect_type(
            self.out_lhs.type,
            TensorType(element_type_of(self.src.type), shape[:-1]),
            "result type",
        )


# ---------------------------------------------------------------------------
# Casts and elementwise math
# ---------------------------------------------------------------------------


def _same_shape(source: SSAValue, result: SSAValue) -> None:
    """MLIR's SameOperandsAndResultShape."""
    if shape_of(source.type) != shape_of(result.type):
        raise VerifyException("requires the same shape for all operands and results")


class _CastOp(_SourceToResultOp):
    """An elementwise cast `$src : T -> U`; T and U have one shape."""

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        _same_shape(self.operands[0], self.results[0])


@irdl_op_definition
class IntToPtrOp(_CastOp):
    """`tt.int_to_ptr`: an i64 address as a pointer."""

    name = "tt.int_to_ptr"

    src = operand_def(TT_I64_LIKE)
    result = result_def(TT_PTR_LIKE)


@irdl_op_definition
class PtrToIntOp(_CastOp):
    """`tt.ptr_to_int`: a pointer's address as an i64."""

    name = "tt.ptr_to_int"

    src = operand_def(TT_PTR_LIKE)
    result = result_def(TT_I64_LIKE)


@irdl_op_definition
class BitcastOp(_CastOp):
    """`tt.bitcast`: reinterpret bits between types of one width, or pointers."""

    name = "tt.bitcast"

    src = operand_def(TT_TYPE)
    result = result_def(TT_TYPE)

    def verify_(self) -> None:
        super().verify_()
        src = element_type_of(self.src.type)
        dst = element_type_of(self.result.type)
        if isinstance(src, PointerType) and isinstance(dst, PointerType):
            if src.address_space != dst.address_space:
                raise VerifyException(
                    "Cannot bitcast pointer between different address spaces"
                )
        elif isinstance(src, PointerType) or isinstance(dst, PointerType):
            raise VerifyException("Cannot bitcast pointer to non-pointer type")
        elif bitwidth_of(src) != bitwidth_of(dst):
            raise VerifyException(
                f"Cannot bitcast data-type of size {bitwidth_of(src)} to data-type of "
                f"size {bitwidth_of(dst)}"
            )


@irdl_op_definition
class FpToFpOp(IRDLOperation):
    """`tt.fp_to_fp`: float conversion with an explicit rounding mode (fp8 and friends)."""

    name = "tt.fp_to_fp"

    src = operand_def(TT_FLOAT_LIKE)
    rounding = opt_prop_def(RoundingMode.constr())
    result = result_def(TT_FLOAT_LIKE)

    traits = tt_traits(Pure())
    assembly_format = (
        "$src attr-dict (`,` `rounding` `=` custom<Keyword>($rounding)^)? "
        "`:` type($src) `->` type($result)"
    )
    custom_directives = (Keyword,)

    def verify_(self) -> None:
        _same_shape(self.src, self.result)
        narrowing = bitwidth_of(element_type_of(self.result.type)) < bitwidth_of(
            element_type_of(self.src.type)
        )
        if narrowing and self.rounding is None:
            raise VerifyException("Rounding mode is required for FP downcast")


class _SameTypeOp(IRDLOperation):
    """Elementwise math whose operands and result share one type (`: type($x)`)."""

    T: ClassVar = VarConstraint("T", TT_FLOAT_LIKE)
    traits = tt_traits(Pure())


@irdl_op_definition
class PreciseSqrtOp(_SameTypeOp):
    """`tt.precise_sqrt`: correctly rounded square root."""

    name = "tt.precise_sqrt"

    x = operand_def(_SameTypeOp.T)
    result = result_def(_SameTypeOp.T)

    assembly_format = "$x attr-dict `:` type($x)"


@irdl_op_definition
class PreciseDivFOp(_SameTypeOp):
    """`tt.precise_divf`: correctly rounded division."""

    name = "tt.precise_divf"

    x = operand_def(_SameTypeOp.T)
    y = operand_def(_SameTypeOp.T)
    result = result_def(_SameTypeOp.T)

    assembly_format = "$x `,` $y attr-dict `:` type($x)"


@irdl_op_definition
class ApproxDivFOp(IRDLOperation):
    """`tt.approx_divf`: f32 division within 2 ulp (`tl.fdiv(..., approx=True)`)."""

    name = "tt.approx_divf"

    T: ClassVar = VarConstraint("T", _F32_LIKE)
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)

    traits = tt_traits(Pure())
    assembly_format = "$x `,` $y attr-dict `:` type($x)"


@irdl_op_definition
class MulhiUIOp(IRDLOperation):
    """`tt.mulhiui`: the high half of the unsigned double-width product."""

    name = "tt.mulhiui"

    T: ClassVar = VarConstraint("T", TT_INT_LIKE)
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)

    traits = tt_traits(Pure())
    assembly_format = "$x `,` $y attr-dict `:` type($x)"


@irdl_op_definition
class ClampFOp(_SameTypeOp):
    """`tt.clampf`: clamp to [min, max], with NaN propagation chosen explicitly."""

    name = "tt.clampf"

    x = operand_def(_SameTypeOp.T)
    min = operand_def(_SameTypeOp.T)
    max = operand_def(_SameTypeOp.T)
    propagateNan = prop_def(PropagateNan.constr())
    result = result_def(_SameTypeOp.T)

    assembly_format = (
        "$x `,` $min `,` $max `,` `propagateNan` `=` custom<Keyword>($propagateNan) "
        "attr-dict `:` type($result)"
    )
    custom_directives = (Keyword,)


def _same_shape_all(values: Sequence[SSAValue], what: str) -> None:
    shapes = {shape_of(value.type) for value in values}
    if len(shapes) > 1:
        raise VerifyException(f"requires the same shape for all {what}")


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

    traits = tt_traits()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "operands attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        _same_shape_all([*self.srcs, self.result], "operands and results")


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """`tt.elementwise_inline_asm`: PTX applied to packed elements (GPU-only)."""

    name = "tt.elementwise_inline_asm"

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    packed_element = prop_def(_I32_ATTR)
    args = var_operand_def()
    result = var_result_def(TT_TYPE)

    traits = tt_traits()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"

    def verify_(self) -> None:
        if not self.args:
            return
        elements = math.prod(shape_of(self.args[0].type)) if shape_of(self.args[0].type) else 0
        packed = self.packed_element.value.data
        if packed <= 0 or elements % packed:
            raise VerifyException(
                f"number of input elements {elements} must be a multiple of the op's "
                f"packed_element attribute, {packed}"
            )


@irdl_op_definition
class MapElementwiseOp(IRDLOperation):
    """`tt.map_elementwise {pack}`: a scalar region applied to every element.

    The region takes `pack` elements of each operand (operand-major) and
    returns `pack` elements of each result.  Triton prints it generically.
    """

    name = "tt.map_elementwise"

    srcs = var_operand_def(TT_TENSOR)
    pack = prop_def(_I32_ATTR)
    result = var_result_def(TT_TENSOR)
    scalarOp = region_def()

    traits = tt_traits()

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("MapElementwiseOp must have at least 1 operand")
        _same_shape_all([*self.srcs, *self.result], "operands and results")
        pack = self.pack.value.data
        if pack <= 0 or pack & (pack - 1):
            raise VerifyException("Pack must be a power of 2")
        block = self.scalarOp.blocks.first
        if block is None:
            raise VerifyException("region must have a block")

        def repeated(values: Sequence[SSAValue]) -> tuple[Attribute, ...]:
            return tuple(element_type_of(v.type) for v in values for _ in range(pack))

        if len(block.args) != len(self.srcs) * pack:
            raise VerifyException("region has wrong number of arguments")
        if tuple(block.arg_types) != repeated(self.srcs):
            raise VerifyException("argument types did not match")
        for op in self.scalarOp.walk():
            if isinstance(op, MapElementwiseReturnOp) and tuple(op.operand_types) != repeated(
                self.result
            ):
                raise VerifyException("region return does not match map_elementwise result")


@irdl_op_definition
class MapElementwiseReturnOp(IRDLOperation):
    name = "tt.map_elementwise.return"

    result = var_operand_def()

    traits = tt_traits(HasParent(MapElementwiseOp), IsTerminator(), ReturnLike(), Pure())
    assembly_format = "attr-dict ($result^ `:` type($result))?"


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

    traits = tt_traits(Pure())
    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"

    def __init__(self, ptr: SSAValue | Operation, offset: SSAValue | Operation):
        super().__init__(operands=[ptr, offset], result_types=[SSAValue.get(ptr).type])

    def verify_(self) -> None:
        _same_shape(self.offset, self.result)


_BLOCK_POINTER = BaseAttr(PointerType)


@irdl_op_definition
class AdvanceOp(IRDLOperation):
    """`tt.advance`: move a block pointer by per-dimension offsets (Triton 3.6)."""

    name = "tt.advance"

    T: ClassVar = VarConstraint("T", _BLOCK_POINTER)
    ptr = operand_def(T)
    offsets = var_operand_def(i32)
    result = result_def(T)

    traits = tt_traits(Pure())
    assembly_format = (
        "$ptr `,` `[` $offsets `]` attr-dict `:` custom<StrippedPtrType>(type($result))"
    )
    custom_directives = (StrippedPtrType,)

    def verify_(self) -> None:
        _block_rank(self.result.type, len(self.offsets), "offsets")


def _block_rank(ptr_type: Attribute, count: int, what: str) -> None:
    assert isinstance(ptr_type, PointerType)
    block = ptr_type.pointee_type
    if not isinstance(block, TensorType):
        raise VerifyException(f"expected a block pointer (!tt.ptr<tensor<...>>), got {ptr_type}")
    if count != len(block.get_shape()):
        raise VerifyException(f"expected one of the {what} per dimension of {block}")


@irdl_op_definition
class MakeTensorPtrOp(IRDLOperation):
    """`tt.make_tensor_ptr`: a block pointer into a strided parent tensor (Triton 3.6).

    The text gives the result type only (`: <tensor<32x32xf32>>`); the base
    pointer's type follows from it, which the assembly format cannot infer
    backwards from a result, hence the custom parser.
    """

    name = "tt.make_tensor_ptr"

    base = operand_def(PointerType)
    shape = var_operand_def(i64)
    strides = var_operand_def(i64)
    offsets = var_operand_def(i32)
    order = prop_def(DenseArrayBase.constr(i32))
    result = result_def(_BLOCK_POINTER)

    traits = tt_traits(Pure())
    irdl_options = (SameVariadicOperandSize(),)

    def verify_(self) -> None:
        for values, what in (
            (self.shape, "shape"),
            (self.strides, "strides"),
            (self.offsets, "offsets"),
        ):
            _block_rank(self.result.type, len(values), what)
        _expect_type(self.base.type, _base_of_block_pointer(self.result.type), "base type")

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorPtrOp:
        base = parser.parse_unresolved_operand()
        lists = []
        for _ in range(3):  # [shape], [strides], [offsets]
            parser.parse_punctuation(",")
            lists.append(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_unresolved_operand
                )
            )
        shape, strides, offsets = lists
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parse_stripped_type(parser, PointerType)
        if not isinstance(result_type.pointee_type, TensorType):
            parser.raise_error(f"expected a block pointer type, got {result_type}")
        if "order" not in attrs:
            parser.raise_error("expected an 'order' attribute")
        operands = parser.resolve_operands(
            [base, *shape, *strides, *offsets],
            [
                _base_of_block_pointer(result_type),
                *[i64] * (len(shape) + len(strides)),
                *[i32] * len(offsets),
            ],
            parser.pos,
        )
        return cls.create(
            operands=operands,
            result_types=[result_type],
            properties={"order": attrs.pop("order")},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        for values in (self.shape, self.strides, self.offsets):
            printer.print_string(", [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        printer.print_op_attributes({"order": self.order, **self.attributes})
        printer.print_string(" : ")
        self.result.type.print_parameters(printer)


def _base_of_block_pointer(ptr_type: Attribute) -> PointerType:
    """`!tt.ptr<f32>` for `!tt.ptr<tensor<..xf32>>`: the parent tensor's base pointer."""
    assert isinstance(ptr_type, PointerType) and isinstance(ptr_type.pointee_type, TensorType)
    return PointerType(ptr_type.pointee_type.element_type, ptr_type.address_space.data)


_CACHE_KEYWORDS = (
    "(`cacheModifier` `=` custom<Keyword>($cache)^)? "
    "(`evictionPolicy` `=` custom<Keyword>($evict)^)?"
)
"""Triton 3.6's `oilist(cacheModifier = ... | evictionPolicy = ...)` clause; 3.9
writes `{cachePolicy = #tt.cache_policy<...>}` instead."""


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`tt.load ptr[, mask[, other]]`: read through pointers; masked-off lanes give `other`.

    The mask, `other` and the result types follow from the pointer type.
    Cache hints are 3.9's `cachePolicy` or 3.6's `cache`/`evict` keywords;
    `boundaryCheck` and `padding` belong to 3.6's block-pointer loads.
    """

    name = "tt.load"

    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    mask = opt_operand_def(_pointer_mask_constr("P"))
    other = opt_operand_def(_pointee_constr("P"))
    result = result_def(_pointee_constr("P"))

    cachePolicy = opt_prop_def(CachePolicyAttr)
    isVolatile = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    cache = opt_prop_def(CacheModifier.constr(), default_value=CacheModifier.NONE.attr)
    evict = opt_prop_def(EvictionPolicy.constr(), default_value=EvictionPolicy.NORMAL.attr)
    boundaryCheck = opt_prop_def(
        DenseArrayBase.constr(i32), default_value=DenseArrayBase.from_list(i32, [])
    )
    padding = opt_prop_def(PaddingOption.constr())

    traits = tt_traits()
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = (
        f"$ptr (`,` $mask^)? (`,` $other^)? {_CACHE_KEYWORDS} attr-dict `:` type($ptr)"
    )
    custom_directives = (Keyword,)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        other: SSAValue | Operation | None = None,
    ):
        ptr = SSAValue.get(ptr)
        super().__init__(
            operands=[ptr, [mask] if mask else [], [other] if other else []],
            result_types=[pointee_of(ptr.type)],
        )

    def verify_(self) -> None:
        if self.boundaryCheck is not None:
            _verify_boundary_check(self.ptr.type, self.boundaryCheck)


def _verify_boundary_check(ptr_type: Attribute, dims: DenseArrayBase) -> None:
    rank = len(shape_of(pointee_of(ptr_type)))
    for dim in dims.get_values():  # pyright: ignore[reportAttributeAccessIssue]  # xDSL's DenseArrayBase.get_values is unbound for a union element type
        if not 0 <= dim < rank:
            raise VerifyException(f"boundaryCheck dimension {dim} out of range for rank {rank}")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`tt.store ptr, value[, mask]`: write through pointers where the mask is set."""

    name = "tt.store"

    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    value = operand_def(_pointee_constr("P"))
    mask = opt_operand_def(_pointer_mask_constr("P"))

    cachePolicy = opt_prop_def(CachePolicyAttr)
    ignore_cta = opt_prop_def(UnitAttr)
    cache = opt_prop_def(CacheModifier.constr(), default_value=CacheModifier.NONE.attr)
    evict = opt_prop_def(EvictionPolicy.constr(), default_value=EvictionPolicy.NORMAL.attr)
    boundaryCheck = opt_prop_def(
        DenseArrayBase.constr(i32), default_value=DenseArrayBase.from_list(i32, [])
    )

    traits = tt_traits()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = f"$ptr `,` $value (`,` $mask^)? {_CACHE_KEYWORDS} attr-dict `:` type($ptr)"
    custom_directives = (Keyword,)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        value: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
    ):
        super().__init__(operands=[ptr, value, [mask] if mask else []])

    def verify_(self) -> None:
        if self.boundaryCheck is not None:
            _verify_boundary_check(self.ptr.type, self.boundaryCheck)


# ---------------------------------------------------------------------------
# Atomics
# ---------------------------------------------------------------------------


class _AtomicOp(IRDLOperation):
    """Atomics name their memory ordering and scope as keywords after the op name."""

    sem = prop_def(MemSemantic.constr())
    scope = prop_def(MemSyncScope.constr())

    traits = tt_traits()
    custom_directives = (Keyword,)

    SEM_SCOPE: ClassVar[str] = "custom<Keyword>($sem) `,` custom<Keyword>($scope) `,` "
    """The start of their assembly formats: `acq_rel, gpu,`."""


@irdl_op_definition
class AtomicRMWOp(_AtomicOp):
    """`tt.atomic_rmw op, sem, scope, ptr, val[, mask]`: returns the old values."""

    name = "tt.atomic_rmw"

    atomic_rmw_op = prop_def(RMWOp.constr())
    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    val = operand_def(_pointee_constr("P"))
    mask = opt_operand_def(_pointer_mask_constr("P"))
    result = result_def(_pointee_constr("P"))

    assembly_format = (
        "custom<Keyword>($atomic_rmw_op) `,` " + _AtomicOp.SEM_SCOPE
        + "$ptr `,` $val (`,` $mask^)? attr-dict "
        "`:` functional-type(operands, $result)"
    )


@irdl_op_definition
class AtomicCASOp(_AtomicOp):
    """`tt.atomic_cas sem, scope, ptr, cmp, val`: compare-and-swap; returns the old values."""

    name = "tt.atomic_cas"

    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    cmp = operand_def(_pointee_constr("P"))
    val = operand_def(_pointee_constr("P"))
    result = result_def(_pointee_constr("P"))

    assembly_format = (
        _AtomicOp.SEM_SCOPE + "$ptr `,` $cmp `,` $val "
        "attr-dict `:` functional-type(operands, $result)"
    )


@irdl_op_definition
class AtomicLoadOp(_AtomicOp):
    """`tt.atomic_load sem, scope, ptr[, mask]`: an atomic read (Triton 3.9)."""

    name = "tt.atomic_load"

    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    mask = opt_operand_def(_pointer_mask_constr("P"))
    result = result_def(_pointee_constr("P"))

    assembly_format = (
        _AtomicOp.SEM_SCOPE + "$ptr (`,` $mask^)? "
        "attr-dict `:` functional-type(operands, $result)"
    )


@irdl_op_definition
class AtomicStoreOp(_AtomicOp):
    """`tt.atomic_store sem, scope, ptr, value[, mask]`: an atomic write (Triton 3.9)."""

    name = "tt.atomic_store"

    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    value = operand_def(_pointee_constr("P"))
    mask = opt_operand_def(_pointer_mask_constr("P"))

    assembly_format = (
        _AtomicOp.SEM_SCOPE + "$ptr `,` $value "
        "(`,` $mask^)? attr-dict `:` type($ptr)"
    )


@irdl_op_definition
class AtomicPollOp(_AtomicOp):
    """`tt.atomic_poll sem, scope, ptr, expected [timeout t]`: wait until *ptr == expected."""

    name = "tt.atomic_poll"

    ptr = operand_def(VarConstraint("P", TT_PTR_LIKE))
    expected = operand_def(VarConstraint("E", _pointee_constr("P")))
    timeout = opt_operand_def(i64)
    result = result_def(MatchesTypeOf("E", i1_like, "i1 in the shape of the expected value"))

    assembly_format = (
        _AtomicOp.SEM_SCOPE + "$ptr `,` $expected "
        "(`timeout` $timeout^)? attr-dict `:` type($ptr) `,` type($expected) "
        "`->` type($result)"
    )

    def verify_(self) -> None:
        if not isinstance(element_type_of(self.expected.type), IntegerType):
            raise VerifyException("expected value must be an integer or integer tensor")


@irdl_op_definition
class GridDependencyWaitOp(IRDLOperation):
    """`tt.grid_dependency_wait`: wait for prerequisite grids (programmatic launch)."""

    name = "tt.grid_dependency_wait"

    traits = tt_traits()
    assembly_format = "attr-dict"


@irdl_op_definition
class GridDependencyLaunchDependentsOp(IRDLOperation):
    """`tt.grid_dependency_launch_dependents`: let dependent grids start."""

    name = "tt.grid_dependency_launch_dependents"

    traits = tt_traits()
    assembly_format = "attr-dict"


# ---------------------------------------------------------------------------
# Reductions, scans, dot
# ---------------------------------------------------------------------------


class _CombineOp(IRDLOperation):
    """Reduce and scan: operands combined pairwise by a single-block region.

    Triton prints both generically; the checks and their wording are its
    `verifyReduceScan` and `verifyRegionsImpl`.
    """

    srcs = var_operand_def(TT_TENSOR)
    axis = prop_def(_I32_ATTR)
    combineOp = region_def("single_block")

    traits = tt_traits(Pure())

    RETURN: ClassVar[type[IRDLOperation]]

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("must have at least 1 operand")
        if len(self.srcs) != len(self.results):
            raise VerifyException("must have the same number of inputs as outputs")
        axis = self.axis.value.data
        ranks = [len(shape_of(t)) for t in self.srcs.types]
        for rank in ranks:
            if not 0 <= axis < rank:
                raise VerifyException(f"axis out of bounds for operand rank {rank}")
            if rank != ranks[0]:
                raise VerifyException(
                    f"all operands must have the same rank, but got ranks {ranks[0]} and {rank}"
                )
        elements = [element_type_of(t) for t in self.srcs.types]
        for element, result in zip(elements, self.results):
            if element != element_type_of(result.type):
                raise VerifyException("operand types and result types must agree")
        self._verify_result_shapes()
        self._verify_region(elements)

    def _verify_result_shapes(self) -> None:
        raise NotImplementedError

    def _verify_region(self, elements: list[Attribute]) -> None:
        block = self.combineOp.block
        count = 2 * len(elements)
        if len(block.args) != count:
            raise VerifyException(
                f"nested block must take {count} arguments, but given block with "
                f"{len(block.args)} arguments"
            )
        for index, actual in enumerate(block.arg_types):
            expected = elements[index % len(elements)]
            if actual != expected:
                raise VerifyException(
                    "type mismatch on combine operation. Expected argument "
                    f"{index} to have type {expected} but got {actual}"
                )
        terminator = block.last_op
        if not isinstance(terminator, self.RETURN):
            raise VerifyException(
                f"combine operation must be terminated with a {self.RETURN.name} but got "
                f"{terminator.name if terminator else 'nothing'}"
            )
        returned = terminator.operand_types
        if len(returned) != len(elements):
            raise VerifyException(
                f"expected combine operation to return {len(elements)} values but got "
                f"{len(returned)}"
            )
        for index, (actual, expected) in enumerate(zip(returned, elements)):
            if actual != expected:
                raise VerifyException(
                    "type mismatch on combine operation. Expected argument "
                    f"{index} to have type {expected} but got {actual}"
                )


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    name = "tt.reduce.return"

    result = var_operand_def()

    traits = lazy_traits_def(
        lambda: (HasParent(ReduceOp), IsTerminator(), ReturnLike(), Pure(), TensorSizeTrait())
    )
    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class ReduceOp(_CombineOp):
    """`tt.reduce {axis}`: reduce operands along an axis with a combine region.

    Several operands reduce together (argmax is a two-operand reduce, Welford
    a three-operand one); reducing the only dimension gives scalars.
    """

    name = "tt.reduce"

    result = var_result_def(TT_TYPE)

    RETURN: ClassVar[type[IRDLOperation]] = ReduceReturnOp

    def _verify_result_shapes(self) -> None:
        axis = self.axis.value.data
        for src, result in zip(self.srcs, self.result):
            shape = shape_of(src.type)
            reduced = shape[:axis] + shape[axis + 1 :]
            element = element_type_of(src.type)
            expected = TensorType(element, reduced) if reduced else element
            if result.type != expected:
                raise VerifyException(
                    f"inferred result type {expected} is incompatible with {result.type}"
                )


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    name = "tt.scan.return"

    result = var_operand_def()

    traits = lazy_traits_def(
        lambda: (HasParent(ScanOp), IsTerminator(), ReturnLike(), Pure(), TensorSizeTrait())
    )
    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class ScanOp(_CombineOp):
    """`tt.scan {axis, reverse}`: inclusive associative scan with a combine region."""

    name = "tt.scan"

    reverse = prop_def(BoolAttr)
    result = var_result_def(TT_TENSOR)

    RETURN: ClassVar[type[IRDLOperation]] = ScanReturnOp

    def _verify_result_shapes(self) -> None:
        for src, result in zip(self.srcs, self.result):
            if src.type != result.type:
                raise VerifyException(
                    f"inferred result type {src.type} is incompatible with {result.type}"
                )


def _verify_matmul_shapes(a: Attribute, b: Attribute, c: Attribute) -> None:
    """Triton's DotOpInterface checks: ranks, the K dimension, and the output shape."""
    sa, sb, sc = shape_of(a), shape_of(b), shape_of(c)
    if not len(sa) == len(sb) == len(sc) or len(sa) not in (2, 3):
        raise VerifyException("expected operands to be 2d or 3d tensors of the same rank")
    if sa[-1] != sb[-2]:
        raise VerifyException(
            f"the K dimensions of a ({sa[-1]}) and b ({sb[-2]}) must match: "
            f"a is {list(sa)}, b is {list(sb)}"
        )
    if sc[:-2] != sa[:-2] or sc[:-2] != sb[:-2] or sc[-2:] != (sa[-2], sb[-1]):
        raise VerifyException(
            f"the accumulator shape {list(sc)} must be the batch dimensions and "
            f"{[sa[-2], sb[-1]]} of a {list(sa)} times b {list(sb)}"
        )


@irdl_op_definition
class DotOp(IRDLOperation):
    """`tt.dot a, b, c`: d = a @ b + c over the last two dimensions."""

    name = "tt.dot"

    T: ClassVar = VarConstraint("T", TT_FP_INT_TENSOR)
    a = operand_def(TT_FP_INT_TENSOR)
    b = operand_def(TT_FP_INT_TENSOR)
    c = operand_def(T)
    inputPrecision = opt_prop_def(InputPrecision.constr(), default_value=InputPrecision.IEEE.attr)
    maxNumImpreciseAcc = opt_prop_def(_I32_ATTR, default_value=IntegerAttr(0, i32))
    d = result_def(T)

    traits = tt_traits(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$a `,` $b `,` $c (`,` `inputPrecision` `=` custom<Keyword>($inputPrecision)^)? "
        "attr-dict `:` type($a) `*` type($b) `->` type($d)"
    )
    custom_directives = (Keyword,)

    def verify_(self) -> None:
        a, b = element_type_of(self.a.type), element_type_of(self.b.type)
        if bitwidth_of(a) != bitwidth_of(b):
            raise VerifyException("element types of operands A and B must have same bit width")
        _verify_matmul_shapes(self.a.type, self.b.type, self.c.type)



@irdl_op_definition
class DotScaledOp(IRDLOperation):
    """`tt.dot_scaled`: a microscaled (MX) matmul, d = scale(a) @ scale(b) + c.

    fp4 (`e2m1`) operands come packed two to a byte in i8 tensors; the scales
    hold one exponent per 32 (or 16) elements along K.
    """

    name = "tt.dot_scaled"

    T: ClassVar = VarConstraint("T", TT_FLOAT_TENSOR)
    a = operand_def(TensorType.constr(AnyFloatConstr | EqAttrConstraint(IntegerType(8))))
    b = operand_def(TensorType.constr(AnyFloatConstr | EqAttrConstraint(IntegerType(8))))
    c = operand_def(T)
    a_scale = opt_operand_def(TensorType.constr(AnyFloatConstr | EqAttrConstraint(IntegerType(8))))
    b_scale = opt_operand_def(TensorType.constr(AnyFloatConstr | EqAttrConstraint(IntegerType(8))))
    a_elem_type = prop_def(ScaleDotElemType.constr())
    b_elem_type = prop_def(ScaleDotElemType.constr())
    fastMath = prop_def(BoolAttr)
    lhs_k_pack = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(True))
    rhs_k_pack = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(True))
    d = result_def(T)

    traits = tt_traits(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = (
        "$a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c "
        "`lhs` `=` custom<Keyword>($a_elem_type) `rhs` `=` custom<Keyword>($b_elem_type) "
        "attr-dict `:` type($a) (`,` type($a_scale)^)? `*` type($b) "
        "(`,` type($b_scale)^)? `->` type($d)"
    )
    custom_directives = (Keyword,)

    def verify_(self) -> None:
        a, b, c = (shape_of(v.type) for v in (self.a, self.b, self.c))
        if len(a) < 2:
            raise VerifyException("operands must be at least 2D")
        lhs_packed = self.a_elem_type == ScaleDotElemType.E2M1.attr and self.lhs_k_pack.value.data
        rhs_packed = self.b_elem_type == ScaleDotElemType.E2M1.attr and self.rhs_k_pack.value.data
        k_a = a[-1] * (2 if lhs_packed else 1)
        k_b = b[-2] * (2 if rhs_packed else 1)
        if k_a != k_b:
            raise VerifyException(f"the K dimensions of a ({k_a}) and b ({k_b}) must match")
        for scale, dim, what in ((self.a_scale, c[-2], "M"), (self.b_scale, c[-1], "N")):
            if scale is not None and shape_of(scale.type)[-2] != dim:
                raise VerifyException(
                    f"scales {what} dimension must match the operand {what} dimension"
                )


@irdl_op_definition
class HistogramOp(IRDLOperation):
    """`tt.histogram src[, mask]`: counts of each value 0..N-1 of src, N the result size."""

    name = "tt.histogram"

    src = operand_def(VarConstraint("S", TT_INT_TENSOR))
    mask = opt_operand_def(MatchesTypeOf("S", i1_like, "i1 in the shape of the source"))
    result = result_def(TT_INT_TENSOR)

    traits = tt_traits(Pure())
    assembly_format = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`tt.gather src[indices] {axis}`: pick elements of src along an axis."""

    name = "tt.gather"

    src = operand_def(TT_TENSOR)
    indices = operand_def(TT_INT_TENSOR)
    axis = prop_def(_I32_ATTR)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TT_TENSOR)

    traits = tt_traits(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        src, indices = shape_of(self.src.type), shape_of(self.indices.type)
        if indices != shape_of(self.result.type):
            raise VerifyException("indices and output shapes must match")
        if element_type_of(self.src.type) != element_type_of(self.result.type):
            raise VerifyException("input and output element types must match")
        if len(src) != len(indices):
            raise VerifyException("input and indices ranks must match")
        axis = self.axis.value.data
        if not 0 <= axis < len(src):
            raise VerifyException("gather dimension must be less than the input rank")
        for dim, (s, i) in enumerate(zip(src, indices)):
            if dim != axis and s != i:
                raise VerifyException(
                    f"indices dimension {dim} must match the corresponding input dimension"
                )


# ---------------------------------------------------------------------------
# Debugging
# ---------------------------------------------------------------------------


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`tt.print " prefix: " {hex, isSigned} : args : types`: device-side printf."""

    name = "tt.print"

    prefix = prop_def(StringAttr)
    hex = prop_def(BoolAttr)
    args = var_operand_def(TT_TYPE)
    isSigned = prop_def(DenseArrayBase.constr(i32))

    traits = tt_traits()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$prefix attr-dict (`:` $args^ `:` type($args))?"


@irdl_op_definition
class AssertOp(IRDLOperation):
    """`tt.assert cond, "message"`: abort the kernel where cond is false."""

    name = "tt.assert"

    condition = operand_def(TT_BOOL_LIKE)
    message = prop_def(StringAttr)

    traits = tt_traits()
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
    strides = var_operand_def(i64)
    padding = opt_prop_def(PaddingOption.constr(), default_value=PaddingOption.ZERO.attr)
    result = result_def(TensorDescType)

    traits = tt_traits(Pure())
    irdl_options = (SameVariadicOperandSize(), ParsePropInAttrDict())
    assembly_format = (
        "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict "
        "`:` custom<StrippedPtrType>(type($base)) `,` custom<StrippedTensorDescType>(type($result))"
    )
    custom_directives = (StrippedPtrType, StrippedTensorDescType)

    def verify_(self) -> None:
        desc = self.result.type
        assert isinstance(desc, TensorDescType)
        if not len(self.shape) == len(self.strides) == len(desc.block_type.get_shape()):
            raise VerifyException("shape and strides must have one value per dimension")


def _verify_descriptor_access(desc_type: Attribute, tensor: Attribute) -> None:
    """Triton's verifyDescriptorLoadStoreOp: one element type, one element count."""
    assert isinstance(desc_type, TensorDescType)
    block = desc_type.signless_block_type
    if element_type_of(block) != element_type_of(tensor):
        raise VerifyException(
            "descriptor block and tensor element types must match, but got descriptor "
            f"element type {block.element_type} and tensor element type "
            f"{element_type_of(tensor)}"
        )
    block_count, tensor_count = math.prod(block.get_shape()), math.prod(shape_of(tensor))
    if block_count != tensor_count:
        raise VerifyException(
            "descriptor block and tensor must have the same number of elements, but got "
            f"descriptor block with {block_count} elements tensor with {tensor_count} elements"
        )


def _verify_descriptor_indices(desc_type: Attribute, indices: Sequence[SSAValue]) -> None:
    assert isinstance(desc_type, TensorDescType)
    if len(indices) != len(desc_type.block_type.get_shape()):
        raise VerifyException("expected one index per descriptor dimension")


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    """`tt.descriptor_load desc[indices]`: load the block at indices."""

    name = "tt.descriptor_load"

    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cachePolicy = opt_prop_def(CachePolicyAttr)
    cache = opt_prop_def(CacheModifier.constr(), default_value=CacheModifier.NONE.attr)
    evict = opt_prop_def(EvictionPolicy.constr(), default_value=EvictionPolicy.NORMAL.attr)
    result = result_def(TT_TENSOR)

    traits = tt_traits()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        f"$desc `[` $indices `]` {_CACHE_KEYWORDS} attr-dict "
        "`:` type($desc) `->` type($result)"
    )
    custom_directives = (Keyword,)

    def verify_(self) -> None:
        _verify_descriptor_indices(self.desc.type, self.indices)
        _verify_descriptor_access(self.desc.type, self.result.type)


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    """`tt.descriptor_store desc[indices], src`: store a block at indices."""

    name = "tt.descriptor_store"

    desc = operand_def(TensorDescType)
    src = operand_def(TT_TENSOR)
    indices = var_operand_def(i32)

    traits = tt_traits()
    assembly_format = "$desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"

    def verify_(self) -> None:
        _verify_descriptor_indices(self.desc.type, self.indices)
        _verify_descriptor_access(self.desc.type, self.src.type)


@irdl_op_definition
class DescriptorReduceOp(IRDLOperation):
    """`tt.descriptor_reduce kind, desc[indices], src`: an atomic reduction into a block."""

    name = "tt.descriptor_reduce"

    kind = prop_def(DescriptorReduceKind.constr())
    desc = operand_def(TensorDescType)
    src = operand_def(TT_TENSOR)
    indices = var_operand_def(i32)

    traits = tt_traits()
    assembly_format = (
        "custom<Keyword>($kind) `,` $desc `[` $indices `]` `,` $src attr-dict "
        "`:` type($desc) `,` type($src)"
    )
    custom_directives = (Keyword,)

    def verify_(self) -> None:
        _verify_descriptor_indices(self.desc.type, self.indices)
        _verify_descriptor_access(self.desc.type, self.src.type)


def _verify_descriptor_rows(desc_type: Attribute, rows: Attribute, x_offsets: Attribute) -> None:
    """Triton's verifyGatherScatterOp: whole rows of a 1-row block, one per x offset."""
    assert isinstance(desc_type, TensorDescType)
    block = desc_type.signless_block_type
    block_shape = block.get_shape()
    if len(block_shape) != 2 or block_shape[0] != 1:
        raise VerifyException(
            f"descriptor block must be a 2D tensor with exactly 1 row, but got {block}"
        )
    if len(shape_of(x_offsets)) != 1:
        raise VerifyException(f"x offsets must be a 1D tensor, but got {x_offsets}")
    shape = shape_of(rows)
    if len(shape) != 2:
        raise VerifyException(f"result must be a 2D tensor, but got {rows}")
    if shape[0] != shape_of(x_offsets)[0]:
        raise VerifyException(
            f"result tensor must have as many rows as indices ({shape_of(x_offsets)[0]}), "
            f"but got {rows}"
        )
    if shape[1] != block_shape[1]:
        raise VerifyException(
            f"result tensor number of columns must match block ({block_shape[1]}), "
            f"but got {rows}"
        )
    if element_type_of(rows) != block.element_type:
        raise VerifyException(
            f"result tensor element type must match block ({block.element_type}), "
            f"but got {rows}"
        )


_X_OFFSETS = TensorType.constr(AnyOf.get(IntegerType(16), i32))


@irdl_op_definition
class DescriptorGatherOp(IRDLOperation):
    """`tt.descriptor_gather desc[x_offsets, y]`: the rows x_offsets, from column y."""

    name = "tt.descriptor_gather"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(_X_OFFSETS)
    y_offset = operand_def(i32)
    result = result_def(TT_TENSOR)

    traits = tt_traits()
    assembly_format = (
        "$desc `[` $x_offsets `,` $y_offset `]` attr-dict "
        "`:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        _verify_descriptor_rows(self.desc.type, self.result.type, self.x_offsets.type)


@irdl_op_definition
class DescriptorScatterOp(IRDLOperation):
    """`tt.descriptor_scatter desc[x_offsets, y], src`: write rows of src to x_offsets."""

    name = "tt.descriptor_scatter"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(_X_OFFSETS)
    y_offset = operand_def(i32)
    src = operand_def(TT_TENSOR)

    traits = tt_traits()
    assembly_format = (
        "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)"
    )

    def verify_(self) -> None:
        _verify_descriptor_rows(self.desc.type, self.src.type, self.x_offsets.type)


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
        UnsplatOp,
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
        ApproxDivFOp,
        MulhiUIOp,
        ClampFOp,
        ExternElementwiseOp,
        ElementwiseInlineAsmOp,
        MapElementwiseOp,
        MapElementwiseReturnOp,
        AddPtrOp,
        AdvanceOp,
        MakeTensorPtrOp,
        LoadOp,
        StoreOp,
        AtomicRMWOp,
        AtomicCASOp,
        AtomicLoadOp,
        AtomicStoreOp,
        AtomicPollOp,
        GridDependencyWaitOp,
        GridDependencyLaunchDependentsOp,
        ReduceOp,
        ReduceReturnOp,
        ScanOp,
        ScanReturnOp,
        DotOp,
        DotScaledOp,
        HistogramOp,
        GatherOp,
        PrintOp,
        AssertOp,
        MakeTensorDescOp,
        DescriptorLoadOp,
        DescriptorStoreOp,
        DescriptorReduceOp,
        DescriptorGatherOp,
        DescriptorScatterOp,
    ],
    [PointerType, TensorDescType, CachePolicyAttr],
)
