"""Diagnostics that name the op, the problem and where it came from.

Two positions matter for an op of an imported kernel: where it sits in the
TTIR text (recorded by the importer, `kernel.ttir:45:5`) and the Python
source location Triton attached to it (`loc(...)`, `kernel.py:47:14`, with the
variable name Triton recorded).  `CompileError` carries the op and prints
both, on one line:

    kernel.ttir:45:5: error: 'tt.load' op mask type ... (kernel.py:47:14, tmp0)

A failure that is not a diagnostic is a bug of tnpu.  Each stage (a pass, a
backend's compile step) runs under `compiling(stage)`, which turns such an
exception into an `InternalError` that still fits on one line and names
the stage and the op it was working on:

    internal error in ttir-to-tile at 'tt.splat' (kernel.ttir:12:5): KeyError: ...
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    ModuleOp,
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


def share_text_position(source: Operation, op: Operation) -> None:
    """Give `op` (made by a pass from `source`) the position `source` has in its text."""
    current: Operation | None = source
    while current is not None and current not in _TEXT_SPANS:
        current = current.parent_op()
    if current is not None:
        _TEXT_SPANS[op] = _TEXT_SPANS[current]


def text_position(op: Operation) -> str | None:
    """`file:line:col` of `op` (or its nearest imported ancestor) in its TTIR text.

    A module's own position (its first line) is never an op's inside it.
    """
    current: Operation | None = op
    while current is not None:
        span = _TEXT_SPANS.get(current)
        if span is not None and (current is op or not isinstance(current, ModuleOp)):
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
    for op, copy in zip(module.walk(), clone.walk()):
        if op is not module:
            keep_positions(op, copy)
    return clone


def keep_positions(op: Operation, copy: Operation) -> None:
    """`copy` (of `op`, without its regions' ops) at `op`'s TTIR text and Python positions."""
    copy.location = op.location
    span = _TEXT_SPANS.get(op)
    if span is not None:
        _TEXT_SPANS[copy] = span


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
                loc = next(iter(loc.locations), UnknownLoc())  # pyright: ignore[reportArgumentType, reportCallIssue]
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


class InternalError(Exception):
    """A bug of tnpu met in a stage of compilation: the stage, the op, the exception; one line."""

    def __init__(self, stage: str, op: Operation | None, error: Exception):
        self.stage = stage
        self.op = op
        where = ""
        if op is not None:
            position = text_position(op)
            where = f" at '{op.name}'" + (f" ({position})" if position else "")
        super().__init__(
            f"internal error in {stage}{where}: {type(error).__name__}: {one_line(error)[:300]}"
        )


@contextmanager
def compiling(stage: str) -> Iterator[None]:
    """Run a stage of compilation; an exception that is not a diagnostic becomes an
    `InternalError` naming `stage` and the op it happened at.

    The op is read off the traceback: the innermost frame with an `Operation`
    called `op` (how xDSL's patterns and tnpu's lowerings name the op they
    work on), preferring an op of the input text to one a pass made.
    """
    try:
        yield
    except (DiagnosticException, InternalError):
        raise
    except Exception as error:  # every other exception is a bug: named, one line
        raise InternalError(stage, _op_at_fault(error), error) from error


def _op_at_fault(error: BaseException) -> Operation | None:
    ops: list[Operation] = []
    traceback = error.__traceback__
    while traceback is not None:
        op = traceback.tb_frame.f_locals.get("op")
        if isinstance(op, Operation):
            ops.append(op)
        traceback = traceback.tb_next
    from_text = [op for op in ops if op in _TEXT_SPANS]
    return (from_text or ops or [None])[-1]
