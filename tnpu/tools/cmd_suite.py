"""Run the model suite: every entry through torch.compile(backend="tnpu"), each in its own process.

  tnpu suite --jobs 2 --out suite-report
  tnpu suite --only matmul,conv2d_strided,resnet18 --out r
  tnpu suite --gate test/models/delivered.txt        # exit 1 if a gated entry is not delivered

Each entry runs as `tnpu model NAME --json` in a fresh process with its own
Inductor and Triton caches and a time limit (--timeout).  OUT/report.md
and OUT/report.json count the entries by the last stage they cleared
(traced, TTIR, tile, RVV built, ran, matched, timed) and group the others
by cause; OUT/NAME/ keeps the artefacts of each entry that was not
delivered (Inductor's kernels, each stage's IR, the error).  A progress bar
shows entries done.  Entries the gate file marks `timing` (the real-size
models) run in the timing mode whatever --exec says.  Exit code 0, or 1 when --gate names an entry this run
did not deliver.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tnpu.models.suite import entries
from tnpu.models.suite_run import GATE, check_gate, read_gate, run_suite, timing_entries
from tnpu.tools.command_line import UserError
from tnpu.triton_backend.settings import EXECUTIONS

HELP = "run the model suite, each entry in its own process; a report bucketed by stage and cause"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int, default=1, help="entries run at once (default 1)")
    parser.add_argument("--out", type=Path, default=Path("suite-report"), help="report and artefacts directory")
    parser.add_argument("--only", metavar="NAMES", help="comma-separated entries (default: all)")
    parser.add_argument("--gate", nargs="?", const=GATE, type=Path, metavar="FILE",
                        help="fail if an entry this file lists is not delivered (default: the checkout's test/models/delivered.txt)")  # fmt: skip
    parser.add_argument("--config", action="append", metavar="NPU", help="NPU to time on; repeatable (default tpuv3)")
    parser.add_argument("--exec", dest="execution", choices=EXECUTIONS, default="qemu",
                        help="run kernels as RVV code under qemu (default), in the tile interpreter, or not at all "
                             "(timing: compiled and timed; values computed by PyTorch on the host)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per entry (default 1800)")


def run(args: argparse.Namespace) -> int:
    known = entries()
    names = list(known) if args.only is None else [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UserError(f"no suite entry {unknown[0]!r}: `tnpu model --list` names them")
    gate = read_gate(args.gate) if args.gate else []
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(file=sys.stderr)
    with Progress(TextColumn("entries"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console, transient=True) as progress:  # fmt: skip
        task = progress.add_task("", total=len(names))

        def done(name: str, result: dict) -> None:
            verdict = "delivered" if result.get("delivered") else f"stopped after {result.get('stage')}"
            progress.console.print(f"{name}: {verdict}")
            progress.update(task, advance=1, description=name)

        report = run_suite(
            names, args.out, args.jobs, args.config or ["tpuv3"], args.execution, args.timeout, done,
            timing_only=timing_entries(args.gate or GATE),
        )
    print(f"{len(report.delivered)} of {len(report.results)} delivered; report: {args.out / 'report.md'}")
    failed_gate = check_gate(report, gate)
    for name in failed_gate:
        print(f"gate: {name} is not delivered: {report.results[name].get('error')}", file=sys.stderr)
    return 1 if failed_gate else 0
