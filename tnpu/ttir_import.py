"""Import TTIR text, as Triton prints it, into an xDSL module.

Triton (like MLIR) prints the `#loc` aliases its locations use at the END of
the file, after the module that refers to them; xDSL's parser wants every
alias defined before use.  `TTIRParser` therefore reads all top-level alias
definitions first, in dependency order, then parses the file from the top.
Positions in diagnostics stay those of the original text, and every op's
start in the text is recorded so later errors can point at it.
"""

from __future__ import annotations

import re
from graphlib import CycleError, TopologicalSorter

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from tnpu.context import has_tnpu_dialects, tnpu_context
from tnpu.diagnostics import CompileError, record_text_span

_ALIAS_DEFINITION = re.compile(r"^(#[A-Za-z_][\w.$-]*)[ \t]*=", re.MULTILINE)
_ALIAS_REFERENCE = re.compile(r"#[A-Za-z_][\w.$-]*")


class TTIRParser(Parser):
    """An MLIR parser that accepts attribute aliases defined after their uses."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>"):
        super().__init__(ctx, text, name)
        self._text = text
        self._preparsed: set[int] = set()

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        self._parse_alias_definitions_first()
        self._resume_from(0)
        return super().parse_module(allow_implicit_module)

    def _parse_alias_definitions_first(self) -> None:
        definitions = {
            match.group(1): match.start()
            for match in _ALIAS_DEFINITION.finditer(self._text)
        }
        offsets = sorted(definitions.values()) + [len(self._text)]
        dependencies: dict[str, set[str]] = {}
        for name, start in definitions.items():
            end = offsets[offsets.index(start) + 1]
            body = self._text[start + len(name) : end]
            dependencies[name] = {
                ref for ref in _ALIAS_REFERENCE.findall(body) if ref in definitions
            } - {name}
        try:
            order = list(TopologicalSorter(dependencies).static_order())
        except CycleError:
            return  # the in-order parse reports the offending alias
        for name in order:
            self._resume_from(definitions[name])
            self._parse_alias_def()
            self._preparsed.add(definitions[name])

    def _parse_alias_def(self) -> None:
        start = self._current_token.span.start
        if start in self._preparsed:
            # Already read ahead of the module: parse it again, to move past it.
            del self.attribute_aliases[self._current_token.text]
        super()._parse_alias_def()

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        op = super().parse_operation()
        record_text_span(op, span)
        return op


def import_ttir(
    text: str,
    name: str = "<stdin>",
    ctx: Context | None = None,
    *,
    verify: bool = True,
    allow_implicit_module: bool = True,
) -> ModuleOp:
    """Parse (and by default verify) TTIR text.

    Raises `xdsl.utils.exceptions.ParseError` for malformed text and
    `CompileError` naming the first op that does not verify.
    """
    if ctx is None or not has_tnpu_dialects(ctx):
        ctx = tnpu_context(allow_unregistered=bool(ctx and ctx.allow_unregistered))
    module = TTIRParser(ctx, text, name).parse_module(allow_implicit_module)
    if verify:
        verify_with_diagnostics(module)
    return module


def verify_with_diagnostics(module: Operation) -> None:
    """Verify `module`; on failure raise a `CompileError` naming the first bad op."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as error:
            message = str(error.args[0] if error.args else error)
            message = message.removeprefix("Operation does not verify: ")
            raise CompileError(op, " ".join(message.split())) from None
