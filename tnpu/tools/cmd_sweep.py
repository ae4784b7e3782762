"""Run every case under DIR through every rung, in parallel, and report where each
kernel stopped and why (bucketed by stage reached and cause).

  tnpu sweep test/fixtures/corpus/inductor --jobs 2 --out sweep-report
  tnpu sweep test/fixtures/corpus/inductor --jobs 8 --executor ray --address auto

With --out REPORT: REPORT.md (the report), REPORT.json (every result record)
and REPORT-artifacts/<case>/ for each failure (TTIR, IR after each stage,
error, record).  A case that crashes its job, runs past --time-limit or
holds more than --memory-limit is recorded as such and the sweep goes on.
Exit code 0 when every case matches, else 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tnpu.execution.executors import EXECUTORS, ExecutorError
from tnpu.execution.sweep import DEFAULT_MEMORY_LIMIT, DEFAULT_TIME_LIMIT_S, find_cases, report, sweep
from tnpu.tools.command_line import UserError

HELP = "run every case under a directory and report"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", help="a directory of case directories")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once (default 1)")
    parser.add_argument("--out", help="write REPORT.md, REPORT.json and REPORT-artifacts/")
    parser.add_argument("--exec", choices=["interp", "qemu", "none"], default="interp", dest="mode")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--config", help="the NPU configuration for timing (e.g. tpuv3)")
    parser.add_argument("--executor", choices=EXECUTORS, default="local",
                        help="local: --jobs processes (default); ray: --jobs Ray actors")
    parser.add_argument("--address", help="with --executor ray: the cluster (ray start --head prints it)")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT_S, metavar="SECONDS",
                        help=f"seconds one case may take (default {DEFAULT_TIME_LIMIT_S:g})")
    parser.add_argument("--memory-limit", type=float, default=DEFAULT_MEMORY_LIMIT / 2**30, metavar="GIB",
                        help=f"GiB one case's job may hold (default {DEFAULT_MEMORY_LIMIT / 2**30:g}; "
                        "local executor)")


def run(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    directory = Path(args.directory)
    if not directory.is_dir():
        raise UserError(f"{directory}: no such directory")
    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    if args.address is not None and args.executor != "ray":
        raise UserError("--address needs --executor ray")
    if args.time_limit <= 0 or args.memory_limit <= 0:
        raise UserError("--time-limit and --memory-limit must be positive")
    total = len(find_cases(directory))
    if total == 0:
        raise UserError(f"{directory}: no case directories (with meta.json) under it")
    artifacts = Path(f"{args.out}-artifacts") if args.out else None
    with Progress(transient=True) as progress:
        task = progress.add_task("cases", total=total)
        try:
            records = sweep(
                directory, jobs=args.jobs, mode=args.mode, seed=args.seed, artifacts=artifacts,
                config=args.config, executor=args.executor, address=args.address,
                progress=lambda record: progress.advance(task), time_limit=args.time_limit,
                memory_limit=round(args.memory_limit * 2**30),
            )
        except ExecutorError as error:
            raise UserError(str(error)) from None
    text = report(records)
    if args.out:
        Path(f"{args.out}.md").write_text(text)
        Path(f"{args.out}.json").write_text(json.dumps(records, indent=1) + "\n")
    sys.stdout.write(text)
    return 0 if all(r["match"] and r["error"] is None for r in records) else 1
