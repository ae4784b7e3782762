"""Diagnostics that name the op, the problem and where it came from.

Two positions matter for an op of an imported kernel: where it sits in the
TTIR text (recorded by the importer, `kernel.ttir:45:5`) and the Python
source location Triton attached to it (`loc(...)`, `kernel.py:47:14`, with the
variable name Triton recorded).  `CompileError` carries the op and prints
both, on one line:

    kernel.ttir:45:5: error: 'tt.load' op mask type ... (kernel.py:47:14, tmp0)
"""

from __future__ import annotations

import weakref
from typing import TypeVar

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span

OperationT = TypeVar("OperationT", bound=Operation)

_TEXT_SPANS: weakref.WeakKeyDictionary[Operation, Span] = weakref.WeakKeyDictionary()
"""Where each imported op starts in its TTIR text; filled by the importer."""


def record_text_span(op: Operation, span: Span) -> None:
    _TEXT_SPANS[op] = span


def text_position(op: Operation) -> str | None:
    """`file:line:col` of `op` (or its nearest imported ancestor) in its TTIR text."""
    current: Operation | None = op
    while current is not None:
        span = _TEXT_SPANS.get(current)
        if span is not None:
            where = span.get_location()
            return f"{where.file}:{where.line}:{where.col}"
        current = current.parent_op()
    return None


def clone_keeping_text_positions(module: OperationT) -> OperationT:
    """A clone of an imported `module` whose ops keep their TTIR text positions.

    The module itself keeps none, so that an op created later in the clone
    (by a lowering) is not reported at the module's line.
    """
    clone = module.clone()
    for original, copy in zip(module.walk(), clone.walk()):
        span = _TEXT_SPANS.get(original)
        if span is not None and original is not module:
            _TEXT_SPANS[copy] = span
    return clone


def describe_location(loc: Attribute) -> str | None:
    """The Python source position of a location, with its variable name if any.

    `loc("tmp0"("kernel.py":47:14))` gives `kernel.py:47:14 (tmp0)`; a call
    site gives the callee's position, as that is the line that did the work.
    """
    name: str | None = None
    while True:
        match loc:
            case NameLoc():
                name = name or loc.desc.data
                loc = loc.location
            case CallSiteLoc():
                loc = loc.callee
            case FusedLoc():
                loc = next(iter(loc.locations), UnknownLoc())  # type: ignore[arg-type]
            case FileLineColLoc():
                where = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
                return f"{where} ({name})" if name else where
            case _:
                return name


class CompileError(DiagnosticException):
    """An op tnpu cannot handle, with the reason; formats as one line."""

    def __init__(self, op: Operation, message: str):
        self.op = op
        self.message = message
        super().__init__(format_op_error(op, message))


def format_op_error(op: Operation, message: str) -> str:
    position = text_position(op)
    source = describe_location(op.location)
    head = f"{position}: error: " if position else "error: "
    tail = f" (at {source})" if source else ""
    return f"{head}'{op.name}' op {message}{tail}"


def one_line(text: object) -> str:
    """`text` (a message, an exception) with its white space folded: one terminal line."""
    return " ".join(str(text).split())


def format_parse_error(error: ParseError) -> str:
    """One line for a parse error: `file:line:col: error: message`.

    Control characters the message quotes from the input (a NUL of a binary
    file) are escaped, so the line stays one printable line.
    """
    where = error.span.get_location()
    message = one_line(error.msg)
    message = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in message)
    return f"{where.file}:{where.line}:{where.col}: error: {message}"
