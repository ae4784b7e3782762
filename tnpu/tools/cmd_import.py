"""Import a TTIR file as Triton prints it, verify it, and print it back.

The output is tnpu's custom syntax (Triton's, apart from SSA names); with
--generic the generic MLIR form, with --debuginfo every op's location.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.diagnostics import format_parse_error
from tnpu.tools.tnpu_main import UserError
from tnpu.ttir_import import import_ttir

HELP = "import, verify and print a TTIR file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .ttir file, or - for standard input")
    parser.add_argument("-o", "--output", help="write here instead of stdout")
    parser.add_argument("--generic", action="store_true", help="print the generic op form")
    parser.add_argument(
        "--debuginfo", action="store_true", help="print each op's source location"
    )


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        text, name = sys.stdin.read(), "<stdin>"
    else:
        path = Path(args.file)
        if not path.is_file():
            raise UserError(f"{path}: no such file")
        text, name = path.read_text(errors="replace"), str(path)
    try:
        module = import_ttir(text, name)
    except ParseError as error:
        raise UserError(format_parse_error(error)) from None
    except DiagnosticException as error:
        raise UserError(" ".join(str(error).split())) from None
    out = open(args.output, "w") if args.output else sys.stdout
    try:
        Printer(
            stream=out, print_generic_format=args.generic, print_debuginfo=args.debuginfo
        ).print_op(module)
        out.write("\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0
