"""Import TTIR text, as Triton prints it, into an xDSL module.

Triton (like MLIR) prints the `#loc` aliases its locations use at the END of
the file, after the module that refers to them; xDSL's parser wants every
alias defined before use.  `TTIRParser` therefore reads all top-level alias
definitions first, in dependency order, then parses the file from the top.
Positions in diagnostics stay those of the original text, and every op's
start in the text is recorded so later errors can point at it.

`TTIRParser` also works around three xDSL 0.75 parser bugs (hex float
literals in `dense<...>`, an exponentially backtracking string regex, a type
constraint rebuilt per dense literal) and reads locations and tensor types,
which make up most of a kernel's text, by fast paths; each is documented
where it is defined.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from graphlib import CycleError, TopologicalSorter

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BFloat16Type,
    CallSiteLoc,
    ComplexType,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    ModuleOp,
    NameLoc,
    RankedStructure,
    StringAttr,
    TensorType,
    UnknownLoc,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue, TypeAttribute
from xdsl.irdl import base
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from tnpu.context import has_tnpu_dialects, tnpu_context
from tnpu.diagnostics import CompileError, one_line, record_text_span
from tnpu.dialects import tt
from tnpu.verifier import verify_with_diagnostics

_ALIAS_NAME = r"#[A-Za-z_][\w.$-]*"
_ALIAS_REFERENCE = re.compile(_ALIAS_NAME)
_ALIAS_DEFINITION = re.compile(rf"^({_ALIAS_NAME})[ \t]*=", re.MULTILINE)
"""An alias defined at the start of a line (`#loc3 = ...`), found anywhere in the text."""
_ALIAS_DEFINITION_AT = re.compile(rf"({_ALIAS_NAME})[ \t]*=[ \t]*")
"""An alias definition matched where the parser is, up to its value."""
_DENSE_LITERAL_TYPE = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


@dataclasses.dataclass
class _BitPatternAwareElement(AttrParser._TensorLiteralElement):
    """A dense-literal element where a hex integer for a float type is a bit pattern.

    MLIR (and Triton) print float infinities and NaNs in dense literals as
    `dense<0xFF800000>`; xDSL 0.75 reads the hex as the integer 4286578688
    and converts it to a float, so `-inf` silently became 4.29e9.  Scalar
    constants (`arith.constant 0x7F800000 : f32`) are already read as bits.
    Drop this class when xDSL's `_TensorLiteralElement.to_type` does the same.
    """

    def to_type(self, parser: AttrParser, type: Attribute):
        hexadecimal = self.span.text[:2] in ("0x", "0X")
        if (
            isinstance(type, AnyFloat)
            and isinstance(self.value, int)
            and not isinstance(self.value, bool)
            and hexadecimal
        ):
            if self.value.bit_length() > type.bitwidth:
                parser.raise_error(
                    "hexadecimal float constant out of range for type", self.span
                )
            return next(type.iter_unpack(self.value.to_bytes(type.compile_time_size, "little")))
        value = super().to_type(parser, type)  # pyright: ignore[reportArgumentType]  # xDSL's parser internals are annotated narrower than they behave
        # MLIR's checks, and its words; xDSL 0.75 fails later, inside an attribute.
        if isinstance(type, IntegerType) and type.normalized_value(value) is None:  # pyright: ignore[reportArgumentType]  # xDSL's parser internals are annotated narrower than they behave
            parser.raise_error("integer constant out of range for type", self.span)
        if isinstance(type, AnyFloat) and rounds_to_infinity(value, type):  # pyright: ignore[reportArgumentType]  # xDSL's parser internals are annotated narrower than they behave
            parser.raise_error("floating point value too large", self.span)
        return value


_FLOAT_FORMATS: dict[type[Attribute], tuple[int, int]] = {
    Float16Type: (15, 10),
    BFloat16Type: (127, 7),
    Float32Type: (127, 23),
}
"""Largest exponent and fraction bits of each float type narrower than f64."""


def rounds_to_infinity(value: float, type_: Attribute) -> bool:
    """Whether a literal's `value`, rounded to nearest in `type_`, is an infinity.

    A decimal literal that does so is refused, as MLIR refuses one too large
    for a double: Triton prints infinities as bit patterns (`0x7F800000`).
    """
    if math.isinf(value):
        return True
    if type(type_) not in _FLOAT_FORMATS:
        return False
    exponent, fraction = _FLOAT_FORMATS[type(type_)]
    # Halfway between the largest finite value and the next power of two rounds up.
    return abs(value) >= 2.0 ** (exponent + 1) - 2.0 ** (exponent - fraction - 1)


class _TTIRLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal pattern that cannot backtrack.

    xDSL 0.75's `"(?:[^"...]+|escape)*"` nests `+` in `*`: on a string left
    open to the end of its line (a truncated file) the regex engine tries
    every way to split the line, and a 40-character line took minutes.
    Matching one character at a time accepts the same strings in linear time.
    """

    _unescaped_characters_regex = re.compile(
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )


class _LocationReader:
    """Reads the locations Triton prints straight off the text: a fast path.

    A kernel's TTIR is half locations (`loc(#loc39)` after every op, a
    `#loc39 = loc("tmp0"(#loc3))` alias for each), and reading them token by
    token with xDSL's lexer took a third of an import.  This reads the forms
    Triton prints — aliases, `"file":line:col`, `"name"(loc)`,
    `callsite(loc at loc)` and `unknown` — with regexes and builds the same
    attributes xDSL's parser builds; anything else (escapes in a string,
    other spacing, fused locations, an undefined alias) it leaves to xDSL.
    """

    _FILE_LINE_COL = re.compile(r'"([^"\\\n]*)":(\d+):(\d+)')
    _NAME = re.compile(r'"([^"\\\n]*)"\(')

    def __init__(self, text: str, aliases: dict[str, Attribute]):
        self._text = text
        self._aliases = aliases

    def read(self, pos: int) -> tuple[LocationAttr, int] | None:
        """The location `loc(...)` starting at `pos` and the offset after it, or None."""
        if not self._text.startswith("loc(", pos):
            return None
        return self._closed(self._inner(pos + 4))

    def _closed(self, read: tuple[LocationAttr, int] | None) -> tuple[LocationAttr, int] | None:
        if read is None or not self._text.startswith(")", read[1]):
            return None
        return read[0], read[1] + 1

    def _inner(self, pos: int) -> tuple[LocationAttr, int] | None:
        text = self._text
        if match := _ALIAS_REFERENCE.match(text, pos):
            attr = self._aliases.get(match.group())
            return (attr, match.end()) if isinstance(attr, LocationAttr) else None
        if match := self._FILE_LINE_COL.match(text, pos):
            file, line, column = match.groups()
            location = FileLineColLoc(StringAttr(file), IntAttr(int(line)), IntAttr(int(column)))
            return location, match.end()
        if match := self._NAME.match(text, pos):
            child = self._closed(self._inner(match.end()))
            return None if child is None else (NameLoc(StringAttr(match[1]), child[0]), child[1])
        if text.startswith("callsite(", pos):
            callee = self._inner(pos + len("callsite("))
            if callee is None or not text.startswith(" at ", callee[1]):
                return None
            caller = self._closed(self._inner(callee[1] + len(" at ")))
            return None if caller is None else (CallSiteLoc(callee[0], caller[0]), caller[1])
        if text.startswith("unknown", pos):
            return UnknownLoc(), pos + len("unknown")
        return None


def _end_of_angle_brackets(text: str, start: int) -> int | None:
    """The offset after the `<...>` opening at `start` (nested ones included), or None."""
    if not text.startswith("<", start):
        return None
    depth = 0
    for match in _ANGLE_BRACKET_OR_NEWLINE.finditer(text, start):
        if match.group() == "\n":  # a type never spans lines
            return None
        depth += 1 if match.group() == "<" else -1
        if depth == 0:
            return match.end()
    return None


_ANGLE_BRACKET_OR_NEWLINE = re.compile(r"[<>\n]")


class TTIRParser(Parser):
    """xDSL's MLIR parser, for TTIR as Triton prints it.

    It accepts attribute aliases defined after their uses, records where each
    op starts, words errors for TTIR (the op, the value, the position) and
    reads Triton's locations and tensor types by fast paths.
    """

    _TensorLiteralElement = _BitPatternAwareElement

    def __init__(
        self, ctx: Context, text: str, name: str = "<unknown>", line_offset: int = 0
    ):
        # Set up as xDSL's parser of nothing, then read `text` with our lexer.
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(_TTIRLexer(Input(text, name)))
        self._locations = _LocationReader(text, self.attribute_aliases)
        self._types: dict[str, TypeAttribute] = {}
        """Each tensor type spelling read so far, and the type it is."""
        self._text = text
        self._line_offset = line_offset
        self._preparsed: dict[int, int] = {}
        """Start -> end offset of each alias definition read ahead of the module."""
        self._op_start: Span | None = None
        self._op_names: dict[int, str] = {}
        """The name of the op starting at each offset, for errors raised while parsing it."""
        self._first_forward_use: dict[str, Span] = {}
        self._forward_names: dict[SSAValue, str] = {}
        """The name each forward reference was made by."""

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        self._parse_alias_definitions_first()
        self._resume_from(0)
        try:
            module = super().parse_module(allow_implicit_module)
        except ParseError as error:
            if error.msg == "Could not parse entire input!":
                # xDSL says this of an input without operations and of a token
                # that starts none.
                if self._current_token.kind == MLIRTokenKind.EOF:
                    self.raise_error("expected a module, but the input has no operation")
                self.raise_error(f"expected an operation, found '{self._current_token.text}'")
            if error.msg.startswith("values used but not defined"):
                # Report the first use of a value never defined, not the end of file.
                name, span = min(
                    (
                        (name, self._first_forward_use[name])
                        for name in self.forward_ssa_references
                    ),
                    key=lambda item: item[1].start,
                )
                self.raise_error(f"use of undefined value '%{name}'", span.start, span.end)
            raise
        self._check_forward_references_resolved(module)
        return module

    def _check_forward_references_resolved(self, module: ModuleOp) -> None:
        """A `CompileError` at an op left with a forward reference.

        xDSL 0.75 resolves a forward reference by replacing its uses; an op
        whose region defines a value it uses itself (`scf.for` bounds defined
        in its body) holds the reference before it has uses, and keeps it.
        """
        for op in module.walk():
            for index, operand in enumerate(op.operands):
                if isinstance(operand, ForwardDeclaredValue):
                    name = self._forward_names.get(operand, "the value")
                    raise CompileError(
                        op,
                        f"operand #{index} does not dominate this use ({name} is defined "
                        "inside a region of this op)",
                    )

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        values = self.ssa_values.get(operand.operand_name)
        if values is None:
            self._first_forward_use.setdefault(operand.operand_name, operand.span)
            value = super().resolve_operand(operand, type)
            self._forward_names[value] = operand.span.text
            return value
        elif operand.index < len(values) and values[operand.index].type != type:
            # Name the value: the type here is often one the op inferred.
            self.raise_error(
                f"{operand.span.text} has type {values[operand.index].type}, "
                f"but is used here as {type}",
                operand.span,
            )
        return super().resolve_operand(operand, type)

    def _parse_alias_definitions_first(self) -> None:
        definitions = {
            match.group(1): match.start()
            for match in _ALIAS_DEFINITION.finditer(self._text)
        }
        starts = sorted(definitions.values())
        next_start = dict(zip(starts, [*starts[1:], len(self._text)]))
        dependencies: dict[str, set[str]] = {}
        for name, start in definitions.items():
            body = self._text[start + len(name) : next_start[start]]
            dependencies[name] = {
                ref for ref in _ALIAS_REFERENCE.findall(body) if ref in definitions
            } - {name}
        try:
            order = list(TopologicalSorter(dependencies).static_order())
        except CycleError:
            return  # the in-order parse reports the offending alias
        for name in order:
            self._resume_from(definitions[name])
            self._read_alias_definition()
            self._preparsed[definitions[name]] = self._current_token.span.start

    def _parse_alias_def(self) -> None:
        end = self._preparsed.get(self._current_token.span.start)
        if end is None:
            self._read_alias_definition()
        else:  # already read ahead of the module
            self._resume_from(end)

    def _read_alias_definition(self) -> None:
        start = self._current_token.span.start
        if (match := _ALIAS_DEFINITION_AT.match(self._text, start)) and (
            match.group(1) not in self.attribute_aliases
        ):
            if read := self._locations.read(match.end()):
                self.attribute_aliases[match.group(1)] = read[0]
                self._resume_from(read[1])
                return
        super()._parse_alias_def()

    def parse_optional_type(self) -> TypeAttribute | None:
        # Kernels repeat a handful of tensor types on every op; parsing one
        # (`tensor<64x!tt.ptr<f32>>` is a dozen tokens) costs more than the
        # op.  Types without aliases always parse to the same attribute, so
        # each distinct spelling is parsed once per file.
        token = self._current_token
        if token.text != "tensor":
            return super().parse_optional_type()
        end = _end_of_angle_brackets(self._text, token.span.end)
        spelling = self._text[token.span.start : end] if end else None
        if spelling is None or "#" in spelling:
            return super().parse_optional_type()
        if (cached := self._types.get(spelling)) is None:
            cached = self._types[spelling] = super().parse_optional_type()  # pyright: ignore[reportArgumentType]  # xDSL's parser internals are annotated narrower than they behave
        else:
            self._resume_from(end)  # pyright: ignore[reportArgumentType]  # xDSL's parser internals are annotated narrower than they behave
        return cached

    def parse_optional_location(self) -> LocationAttr | None:
        token = self._current_token
        if token.text == "loc" and (read := self._locations.read(token.span.start)):
            self._resume_from(read[1])
            return read[0]
        return super().parse_optional_location()

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        # A constant its type cannot hold: MLIR's check and words.  xDSL 0.75
        # raises from inside the integer attribute, and rounds a float to infinity.
        literal = self._current_token.span
        hexadecimal = self._current_token.text[:2] in ("0x", "0X")
        try:
            attribute = super().parse_optional_builtin_int_or_float_attr()
        except (ValueError, VerifyException):
            self.raise_error("integer constant out of range for attribute", literal)
        if (
            isinstance(attribute, FloatAttr)
            and not hexadecimal
            and rounds_to_infinity(attribute.value.data, attribute.type)
        ):
            self.raise_error("floating point value too large for attribute", literal)
        return attribute

    def _parse_dense_literal_type(self) -> TensorType | VectorType | MemRefType:
        # xDSL 0.75 rebuilds this type constraint for every dense literal (it
        # was a fifth of an Inductor kernel's import); here it is built once.
        start = self._current_token.span.start
        type_ = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        # Triton's limit (TensorSizeTrait), checked before xDSL builds a splat
        # element by element: a tensor<2147483648xi64> literal would not end.
        count = math.prod(type_.get_shape()) if isinstance(type_, TensorType) else 0
        if count > tt.MAX_TENSOR_ELEMENTS:
            self.raise_error(
                f"maximum allowed number of elements is {tt.MAX_TENSOR_ELEMENTS}, but {type_} "
                f"has {count}",
                start,
                self._current_token.span.start,
            )
        if not _DENSE_LITERAL_TYPE.verifies(type_):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or "
                "complex type"
            )
        if DYNAMIC_INDEX in type_.get_shape():
            self.raise_error("Dense literal attribute should have a static shape.")
        return type_

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        self._op_start = start
        try:
            op = super().parse_operation()
        except VerifyException as error:
            # The assembly format checks the types it parsed against the op's
            # constraints while inferring the others; report that at the op.
            message = one_line(error.args[0] if error.args else error)
            name = self._op_names.get(start.start, "?")
            self.raise_error(f"'{name}' op {message}", start.start, start.end)
        if self._line_offset:
            start = dataclasses.replace(start, line_offset=self._line_offset)
        record_text_span(op, start)
        return op

    def _get_op_by_name(self, name: str) -> type[Operation]:
        assert self._op_start is not None
        if op_type := self.ctx.get_optional_op(
            name, dialect_stack=self._parser_state.dialect_stack
        ):
            self._op_names[self._op_start.start] = name
            return op_type
        # Point at the op, not at the token after its name.
        self.raise_error(
            f"Operation {name} is not registered", self._op_start.start, self._op_start.end
        )


def decode_ttir(data: bytes, name: str = "<stdin>") -> str:
    """`data` as UTF-8 text; a `ParseError` at the first byte that is not UTF-8."""
    try:
        return data.decode()
    except UnicodeDecodeError as error:
        text = data.decode(errors="replace")
        offset = len(data[: error.start].decode())
        raise ParseError(
            Span(offset, offset + 1, Input(text, name)),
            f"invalid UTF-8: byte 0x{data[error.start]:02x} (is this a binary file?)",
        ) from None


def import_ttir(
    text: str,
    name: str = "<stdin>",
    ctx: Context | None = None,
    *,
    verify: bool = True,
    allow_implicit_module: bool = True,
    line_offset: int = 0,
) -> ModuleOp:
    """Parse (and by default verify) TTIR text.

    Raises `xdsl.utils.exceptions.ParseError` for malformed text and
    `CompileError` naming the first op that does not verify.  `line_offset`
    shifts reported line numbers (for one chunk of a `--split-input-file`).
    """
    if ctx is None or not has_tnpu_dialects(ctx):
        ctx = _shared_context(allow_unregistered=bool(ctx and ctx.allow_unregistered))
    parser = TTIRParser(ctx, text, name, line_offset)
    module = parser.parse_module(allow_implicit_module)
    if verify:
        verify_with_diagnostics(module)
    return module


@functools.cache
def _shared_context(allow_unregistered: bool) -> Context:
    """The context `import_ttir` parses in when given none; loading the dialects
    into a fresh context costs as much as parsing a small kernel."""
    return tnpu_context(allow_unregistered=allow_unregistered)
