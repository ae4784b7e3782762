"""xDSL's `scf` dialect with `scf.while` read and printed as MLIR does.

xDSL 0.75's `WhileOp` differs from MLIR's in two places, both fixed by the
subclass below (everything else is xDSL's):

* its parser requires the parenthesised initialization list, but MLIR
  omits it for a loop without loop-carried values: Triton prints
  `while tl.atomic_cas(lock, 0, 1) == 1: pass` as `scf.while : () -> () {`;
* its printer calls `print_operation_type`, which also prints the op's
  location when debug info is on, so `--print-debuginfo` output put a
  `loc(...)` between the type and the region and did not parse back.

Drop this file when xDSL fixes `WhileOp.parse` and `WhileOp.print`.
"""

from __future__ import annotations

from typing_extensions import Self
from xdsl.dialects import scf as xdsl_scf
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer


class WhileOp(xdsl_scf.WhileOp):
    @classmethod
    def parse(cls, parser: Parser) -> Self:
        def parse_assignment():
            argument = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            return argument, parser.parse_unresolved_operand()

        assignments = parser.parse_optional_comma_separated_list(
            parser.Delimiter.PAREN, parse_assignment
        ) or []
        parser.parse_punctuation(":")
        type_position = parser.pos
        function_type = parser.parse_function_type()
        inputs = function_type.inputs.data
        if len(assignments) != len(inputs):
            parser.raise_error(
                f"Mismatch between block argument count ({len(assignments)}) "
                f"and operand count ({len(inputs)})",
                type_position,
                parser.pos,
            )
        block_arguments = [argument.resolve(t) for (argument, _), t in zip(assignments, inputs)]
        operands = [parser.resolve_operand(operand, t) for (_, operand), t in zip(assignments, inputs)]
        before = parser.parse_region(block_arguments)
        parser.parse_characters("do")
        after = parser.parse_region()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(operands, function_type.outputs.data, before, after)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        if self.arguments:
            printer.print_string(" (")
            printer.print_list(
                zip(self.before_region.block.args, self.arguments, strict=True),
                lambda pair: self._print_pair(printer, pair),
            )
            printer.print_string(")")
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)


SCF = Dialect(
    "scf",
    [WhileOp if op is xdsl_scf.WhileOp else op for op in xdsl_scf.Scf.operations],
    list(xdsl_scf.Scf.attributes),
    list(xdsl_scf.Scf._interfaces),
)
