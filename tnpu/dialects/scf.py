"""xDSL's `scf` dialect with `scf.while` printing its location once, at the end.

xDSL 0.75's `WhileOp.print` calls `print_operation_type`, which also prints
the op's location when debug info is on, so `--print-debuginfo` output put a
`loc(...)` between the type and the region and did not parse back.  The
subclass below prints the bare function type; everything else is xDSL's.
Drop this file when xDSL fixes `WhileOp.print`.
"""

from __future__ import annotations

from xdsl.dialects import scf as xdsl_scf
from xdsl.ir import Dialect
from xdsl.printer import Printer


class WhileOp(xdsl_scf.WhileOp):
    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(
            zip(self.before_region.block.args, self.arguments, strict=True),
            lambda pair: self._print_pair(printer, pair),
        )
        printer.print_string(") : ")
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
    list(xdsl_scf.Scf._interfaces),  # pyright: ignore[reportPrivateUsage]
)
