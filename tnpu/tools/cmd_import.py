"""Import a TTIR file as Triton prints it, verify it, and print it back.

The output is tnpu's custom syntax (Triton's, apart from SSA names); with
--generic the generic MLIR form, with --debuginfo every op's location.
Input that does not parse or verify gets one line on stderr,
file:line:col: error: message, and exit code 1.
"""

from __future__ import annotations

import argparse
import sys

from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.diagnostics import format_parse_error, one_line
from tnpu.tools.command_line import output_file, read_input
from tnpu.ttir_import import decode_ttir, import_ttir

HELP = "import, verify and print a TTIR file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .ttir file, or - for standard input")
    parser.add_argument("-o", "--output", help="write here instead of stdout (- for stdout)")
    parser.add_argument("--generic", action="store_true", help="print the generic op form")
    parser.add_argument(
        "--debuginfo", action="store_true", help="print each op's source location"
    )


def run(args: argparse.Namespace) -> int:
    data, name = read_input(args.file)
    try:
        module = import_ttir(decode_ttir(data, name), name)
    except ParseError as error:
        return _report(format_parse_error(error))
    except DiagnosticException as error:
        return _report(one_line(error))
    with output_file(args.output) as out:
        Printer(
            stream=out, print_generic_format=args.generic, print_debuginfo=args.debuginfo
        ).print_op(module)
        out.write("\n")
    return 0


def _report(diagnostic: str) -> int:
    """Print a `file:line:col: error: ...` line as it is (no `tnpu import:` prefix)."""
    print(diagnostic, file=sys.stderr)
    return 1
