"""Run a kernel through every rung (Triton's interpreter, the TTIR interpreter, ...)
on the same inputs, compare, and print a table (or one JSON object).

CASE is a case directory (meta.json + kernel.ttir and/or kernel.py), or a
kernel file described on the command line:

  tnpu run test/fixtures/corpus/inductor/softmax__triton_per_fused__softmax_0
  tnpu run kernel.ttir --grid 4 --arg x=float32[1024] --arg y=float32[1024] --arg n=1000
  tnpu run add.py:add_kernel --signature 'x=*fp32,y=*fp32,n=i32,BLOCK=constexpr' \\
      --constexpr BLOCK=256 --grid 4 --arg x=float32[1024] --arg y=float32[1024] --arg n=1000

A tensor argument is DTYPE[SHAPE] (torch dtype names), strides optional
after a slash: x=float32[64,32]/1,64 is a transposed view.  Exit code 0 when
every rung agrees, 1 on a mismatch, a refusal or an error.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from tnpu.execution.case import Case, CaseError, contiguous_strides, load_case
from tnpu.execution.kernel_file import case_from_kernel_file
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import RunResult, run_case
from tnpu.tools.command_line import (
    STANDARD_STREAM,
    UserError,
    literal,
    parse_assignment,
    parse_assignments,
    parse_target,
    read_input,
)

HELP = "run a kernel on every rung and compare the results"

_TENSOR = re.compile(r"^(\w+)\[([\d,\s]*)\](?:/([\d,\s]+))?$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("case", help="a case directory, a .ttir file (- for stdin), or FILE.py:FUNCTION")
    parser.add_argument(
        "--exec", choices=["interp", "qemu", "none"], default="interp", dest="mode",
        help="interp: the interpreters (default); qemu: also the compiled code; none: import only",
    )
    parser.add_argument("--config", help="the NPU configuration for timing (e.g. tpuv3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument("--grid", help="grid for a kernel file: X[,Y[,Z]]")
    parser.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                        help="an argument of a kernel file (repeatable)")
    parser.add_argument("--signature", help="NAME=TYPE,... for a .py kernel (as tnpu ttir)")
    parser.add_argument("--constexpr", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--target",
        help="Triton target of a .py kernel as BACKEND:ARCH (default cuda:80; cuda:90 keeps "
        "tensor descriptors, which Triton rewrites to pointers below sm_90)",
    )


def run(args: argparse.Namespace) -> int:
    path = Path(args.case)
    try:
        case = load_case(path) if path.is_dir() else case_from_options(args)
    except CaseError as error:
        raise UserError(str(error)) from None
    with Oracle() as oracle:
        result = run_case(case, mode=args.mode, oracle=oracle, config=args.config, seed=args.seed)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print_table(result)
    succeeded = result.error is None and result.match is not False
    return 0 if succeeded else 1


def case_from_options(args: argparse.Namespace) -> Case:
    """The case of a kernel file described by --grid, --arg, --signature, --constexpr:
    the options' text parsed here, the case built by `case_from_kernel_file`."""
    file, _, function = args.case.rpartition(":") if ".py:" in args.case else (args.case, "", "")
    path = Path(file)
    if file == STANDARD_STREAM:  # a .ttir kernel on standard input, kept as a file for the rungs
        path = Path(tempfile.mkdtemp(prefix="tnpu-run-")) / "stdin.ttir"
        path.write_bytes(read_input(file)[0])
    if args.grid is None:
        raise CaseError("--grid is required for a kernel file")
    try:
        grid = [int(n) for n in args.grid.split(",")]
    except ValueError:
        raise CaseError(f"--grid: expected 1 to 3 positive integers, got '{args.grid}'") from None
    # One NAME=VALUE per --arg: a tensor's shape has commas of its own.
    arguments = {name: _argument(name, value) for name, value in (parse_assignment(a, "--arg") for a in args.arg)}
    constexprs = {n: literal(v) for n, v in parse_assignments(args.constexpr, "--constexpr").items()}
    signature = None if args.signature is None else parse_assignments([args.signature], "signature entry")
    return case_from_kernel_file(
        path, grid, arguments, function=function or None, signature=signature, constexprs=constexprs,
        target=parse_target(args.target),
    )


def _argument(name: str, value: str) -> object:
    """An --arg value as a case's meta.json holds it: DTYPE[SHAPE][/STRIDES] or a number."""
    match = _TENSOR.match(value)
    if match:
        dtype, shape_text, stride_text = match.groups()
        shape = [int(n) for n in shape_text.split(",") if n.strip()]
        stride = [int(n) for n in stride_text.split(",")] if stride_text else list(contiguous_strides(shape))
        return {"shape": shape, "stride": stride, "dtype": dtype}
    number = literal(value)
    if not isinstance(number, int | float):
        raise CaseError(f"--arg {name}: expected DTYPE[SHAPE] or a number, got '{value}'")
    return number


def print_table(result: RunResult) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=result.kernel, title_justify="left")
    for column in ("rung", "status", "seconds", "note"):
        table.add_column(column)
    for rung in result.rungs:
        note = rung.message or ", ".join(
            f"{key}: {', '.join(value)}" for key, value in rung.notes.items() if value
        )
        table.add_row(rung.name, rung.status, f"{rung.seconds:.2f}", note)
    console = Console(file=sys.stdout, width=max(Console().width, 100))
    console.print(table)
    verdict = {True: "match", False: "MISMATCH", None: "nothing to compare"}[result.match]
    line = f"stage reached: {result.stage_reached}; {verdict}"
    if result.max_abs_err is not None:
        line += f" (max abs error {result.max_abs_err:.3g} against {result.reference})"
    console.print(line, highlight=False)
    if result.error:
        console.print(f"error: {result.error}", highlight=False)
