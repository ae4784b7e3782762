"""Design-space exploration: time workloads at every point of a space of NPUs, into a store.

  tnpu dse test/fixtures/corpus/inductor --base tpuv3 \\
      --vary systolic_array_rows=64,128,256 --vary dram_channels=8,16,32 \\
      --store study.sqlite --jobs 2 --plots study-plots
  tnpu dse CASE1 CASE2 --sequence my-graph --space space.yaml --executor ray --address auto
  tnpu dse --model llama_tiny --model resnet18 --base tpuv3 --vary systolic_array_rows=64,128,256
  tnpu dse --suite --vary dram_channels=8,16,32 --jobs 2
  tnpu dse --show study.sqlite [--kernels] [--csv study.csv]

A WORKLOAD is a case directory or a directory of them; cases are grouped
into workloads by model (the name before `__`), or all given into one
sequence with --sequence NAME.  --model NAME (repeatable; a suite entry, or
FILE.py:FACTORY as `tnpu model` takes) makes the launches of the entry's
compiled program a workload, and --suite every model entry of the suite
(its single-operation entries left out); each is compiled and run once and
kept in tnpu's cache (TNPU_CACHE_DIR), so another study reads it.  The
space is --base and each --vary (every combination; --constraint EXPR
keeps the points that satisfy it), or a YAML file (--space; docs/dse.md).
Each kernel compiles once per distinct native math set and is re-timed at
every point; records go into the SQLite store as they come, keyed by the
kernel's TTIR (a model's: its tile IR), its launch and the point's
canonical YAML, so running the study again skips what is done (after
Ctrl-C too).  --executor local (default) runs --jobs processes; --executor
ray runs --jobs Ray actors, on the cluster at --address or on a local Ray
runtime.  --plots DIR writes time against each varied parameter, the
Pareto front of time against the --cost proxy (default MACs × scratchpad
bytes) and the roofline of the best point, as PNG and SVG.

--serving TRACE serves an LLM request trace (a file or poisson:...; tnpu
serve --help) at every point instead: --serving-model's prefill and decode
buckets are compiled once for the base NPU and re-timed at each point, the
trace served under each point's KV budget; a row per point (throughput,
TTFT and TPOT percentiles) is printed, --csv FILE writes it, and --plots DIR
draws throughput against TTFT p99 and TPOT p99.  No store is written: each
point's step table is kept in tnpu's cache.

--show STORE prints the store's table, one row per workload and point
(--kernels: per kernel); --csv FILE writes it as CSV (`-`: standard output).
Bad input (an unknown parameter, a wrongly typed value, constraints that
exclude every point, an unknown --model) is one line and exit code 1, and
writes nothing.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from tnpu.dse.space import Space, SpaceError, space_from_options, space_from_yaml
from tnpu.dse.store import KERNEL_COLUMNS, WORKLOAD_COLUMNS, Store, StoreError, write_csv
from tnpu.dse.workload import Workload, WorkloadError, workloads_from_cases
from tnpu.execution.executors import EXECUTORS, ExecutorError
from tnpu.tools.command_line import UserError

HELP = "time workloads over a space of NPU configurations (design-space exploration)"

PER_WORKLOAD_LINES = 10
"""Up to this many workloads, each one's fastest point is printed after the study."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                        help="case directories, or directories of them")
    parser.add_argument("--model", action="append", default=[], metavar="NAME",
                        help="a suite entry (tnpu model --list) or FILE.py:FACTORY: its compiled graph's launches")
    parser.add_argument("--suite", action="store_true", help="every model entry of the suite, one workload each")
    parser.add_argument("--base", default="tpuv3", help="the NPU every point starts from (default tpuv3)")
    parser.add_argument("--vary", action="append", default=[], metavar="NAME=V1,V2,...",
                        help="an axis: an NPU parameter and its values")
    parser.add_argument("--constraint", action="append", default=[], metavar="EXPR",
                        help="keep only the points where EXPR holds")
    parser.add_argument("--space", type=Path, metavar="FILE", help="a YAML file: base, axes, constraints, cost")
    parser.add_argument("--cost", metavar="EXPR", help="the Pareto plot's cost proxy "
                        "(default total_macs * total_scratchpad_bytes)")
    parser.add_argument("--sequence", metavar="NAME", help="all cases given are one workload, NAME")
    parser.add_argument("--store", type=Path, default=Path("dse.sqlite"),
                        help="the SQLite store (default dse.sqlite; resumed if it exists)")
    parser.add_argument("--executor", choices=EXECUTORS, default="local")
    parser.add_argument("--address", help="with --executor ray: the cluster (ray start --head prints it)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes or Ray actors (default 1)")
    parser.add_argument("--plots", type=Path, metavar="DIR", help="write the plots (PNG and SVG) into DIR")
    parser.add_argument("--serving", metavar="TRACE", help="serve an LLM request trace at every point (docs/serving.md)")
    parser.add_argument("--serving-model", default="llama3_8b_4l", metavar="NAME",
                        help="with --serving: the decoder (tnpu serve --model; default llama3_8b_4l)")
    parser.add_argument("--serving-layers", type=int, metavar="N", help="with --serving: the decoder's depth")
    parser.add_argument("--serving-buckets", metavar="T,../B,../C,..",
                        help="with --serving: prefill, batch and context buckets (default tnpu serve's)")
    parser.add_argument("--show", type=Path, metavar="STORE", help="print the table of a store")
    parser.add_argument("--kernels", action="store_true", help="with --show: a row per kernel")
    parser.add_argument("--csv", metavar="FILE", help="with --show or --serving: write the table as CSV ('-': stdout with --show)")


def run(args: argparse.Namespace) -> int:
    if args.show is not None:
        return _show(args)
    if args.serving is not None:
        return _serving(args)
    if args.csv or args.kernels:
        raise UserError("--csv and --kernels go with --show STORE")
    if not (args.workloads or args.model or args.suite):
        raise UserError("give the workloads (case directories, --model NAME or --suite) to time, or --show STORE")
    if args.sequence is not None and not args.workloads:
        raise UserError("--sequence NAME makes one workload of the case directories given: give them")
    if args.space is not None and (args.vary or args.constraint or args.cost):
        raise UserError("--space FILE lists the axes, constraints and cost: give no --vary, --constraint or --cost")
    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    if args.address is not None and args.executor != "ray":
        raise UserError("--address needs --executor ray")
    try:
        space = _space(args)
        points = space.points()
        workloads = workloads_from_cases([Path(w) for w in args.workloads], args.sequence) if args.workloads else []
        workloads += _model_workloads(args)
    except (SpaceError, WorkloadError) as error:
        raise UserError(str(error)) from None
    names = [w.name for w in workloads]
    if repeated := [name for name in names if names.count(name) > 1]:
        raise UserError(f"two workloads are named '{repeated[0]}'")
    if args.plots is not None and args.plots.exists() and not args.plots.is_dir():
        raise UserError(f"--plots {args.plots}: not a directory")
    try:
        store = Store(args.store)
    except StoreError as error:
        raise UserError(str(error)) from None
    with store:
        outcome = _run_with_progress(store, workloads, points, args)
        if outcome is None:
            return 130
        kernels = len({(k.ttir_hash, k.launch_hash) for w in workloads for k in w.kernels})
        print(
            f"{len(points)} points × {kernels} kernels in {len(workloads)} workloads: "
            f"{outcome.timed} timed ({outcome.refused} refused), {outcome.skipped} already in {args.store}"
        )
        _print_best(store, points, workloads)
        if args.plots is not None:
            from tnpu.dse.plots import write_plots

            for path in write_plots(args.plots, store, space, points, workloads):
                print(f"wrote {path}")
    return 0


def _space(args: argparse.Namespace) -> Space:
    """The space `--space FILE` gives, or `--base`, `--vary`, `--constraint` and `--cost`."""
    if args.space is not None:
        return space_from_yaml(args.space)
    return space_from_options(args.base, args.vary, args.constraint, args.cost)


def _model_workloads(args: argparse.Namespace) -> list[Workload]:
    """The workloads of --model and --suite, captured (a line on standard error each) or from the cache."""
    if not (args.model or args.suite):
        return []
    from tnpu.dse.model_workloads import model_workloads, suite_models

    # Inductor logs the whole source of each kernel Triton fails to compile; the capture's error names it.
    logging.getLogger("torch._inductor.runtime.triton_heuristics").setLevel(logging.CRITICAL)
    specs = [*args.model, *(suite_models() if args.suite else [])]
    return model_workloads(specs, progress=lambda line: print(f"tnpu dse: {line}", file=sys.stderr))


def _run_with_progress(store, workloads, points, args):
    """The study's outcome, or None when interrupted (what was timed stays in the store)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    from tnpu.dse.study import run_study

    columns = (
        TextColumn("points"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"), TextColumn("ETA"), TimeRemainingColumn(),
    )
    kernels = {(k.ttir_hash, k.launch_hash) for w in workloads for k in w.kernels}
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as progress:
        bar = progress.add_task("points", total=len(kernels) * len(points), rate="")
        done = store.done()
        progress.update(bar, completed=sum(
            (*key, p.config_hash) in done for key in kernels for p in points
        ))

        def advance(count: int) -> None:
            progress.advance(bar, count)
            speed = progress.tasks[0].speed
            progress.update(bar, rate=f"{speed:,.1f} points/s" if speed else "")

        try:
            return run_study(store, workloads, points, executor=args.executor, workers=args.jobs,
                             address=args.address, progress=advance)
        except ExecutorError as error:
            raise UserError(str(error)) from None
        except KeyboardInterrupt:
            stored = len(store.done())
            print(f"tnpu dse: interrupted; {stored} timings are in {args.store}: run the same "
                  "command again to resume", file=sys.stderr)
            return None


def _print_best(store: Store, points, workloads) -> None:
    """The fastest and slowest points over all workloads; each workload's fastest when few."""
    from tnpu.dse.results import total_time, workload_figures

    figures = workload_figures(store, points, workloads)
    timed = sorted(points, key=lambda p: total_time(figures, p))
    counted = len(figures[timed[0].config_hash])
    print(f"all {counted} workloads timed at every point: fastest at {timed[0].label} "
          f"({total_time(figures, timed[0]):,.2f} µs), slowest at {timed[-1].label} "
          f"({total_time(figures, timed[-1]):,.2f} µs)")
    if len(workloads) > PER_WORKLOAD_LINES:
        print(f"  per workload: tnpu dse --show {store.path}")
        return
    for workload in sorted(w.name for w in workloads):
        per_point = [(figures[p.config_hash][workload], p) for p in points if workload in figures[p.config_hash]]
        if not per_point:
            print(f"  {workload}: refused (tnpu dse --show {store.path} --kernels)")
            continue
        best, point = min(per_point, key=lambda pair: pair[0].time_us)
        ratio = "-" if best.roofline_ratio is None else f"{best.roofline_ratio:.2f}"
        print(f"  {workload}: fastest at {point.label}: {best.time_us:.2f} µs, {ratio} × roofline")


def _show(args: argparse.Namespace) -> int:
    if args.workloads or args.vary or args.space:
        raise UserError("--show STORE prints a store: give no workloads or space")
    try:
        store = Store(args.show, create=False)
    except StoreError as error:
        raise UserError(str(error)) from None
    with store:
        columns, rows = (
            (KERNEL_COLUMNS, store.kernel_table()) if args.kernels
            else (WORKLOAD_COLUMNS, store.workload_table())
        )
    if args.csv == "-":
        write_csv(sys.stdout, columns, rows)
    elif args.csv:
        with open(args.csv, "w", newline="") as stream:
            write_csv(stream, columns, rows)
        print(f"wrote {len(rows)} rows to {args.csv}")
    else:
        _print_table(columns, rows)
    return 0


def _print_table(columns, rows) -> None:
    from rich.console import Console
    from rich.table import Table

    shown = [c for c in columns if not c.endswith("hash") and c not in ("report", "message")]
    table = Table(box=None, pad_edge=False)
    for column in shown:
        table.add_column(column.removesuffix("_utilization"), justify="left" if column in (
            "workload", "kernel", "config", "status", "roofline_bound", "compulsory_bound") else "right")
    for row in rows:
        values = dict(zip(columns, row))
        table.add_row(*(_cell(column, values[column]) for column in shown))
    Console(file=sys.stdout, width=max(Console().width, 200)).print(table)


def _cell(column: str, value) -> str:
    if value is None:
        return "-"
    if column.endswith("utilization"):
        return f"{value:.0%}"
    if isinstance(value, float):
        return f"{value:,.2f}" if column.endswith("ratio") or column == "time_us" else f"{value:,.0f}"
    return str(value)


def _serving(args: argparse.Namespace) -> int:
    """`--serving TRACE`: the trace served at every point of the space."""
    from tnpu.dse.serving import serving_study, write_csv, write_serving_plot
    from tnpu.serving.scheduler import ServingError
    from tnpu.serving.serve import model
    from tnpu.serving.steps import BucketError, Buckets
    from tnpu.serving.trace import TraceError, parse_generator, read_trace

    if args.workloads or args.model or args.suite or args.kernels:
        raise UserError("--serving TRACE is a workload of its own: give no case directories, --model or --suite")
    try:
        space = _space(args)
        points = space.points()
        spec = model(args.serving_model, args.serving_layers)
        buckets = Buckets()
        if args.serving_buckets is not None:
            parts = args.serving_buckets.split("/")
            if len(parts) != 3:
                raise BucketError(f"--serving-buckets '{args.serving_buckets}' is not PREFILL/BATCHES/CONTEXTS")
            try:
                buckets = Buckets(*(tuple(int(v) for v in part.split(",")) for part in parts))
            except ValueError:
                raise BucketError(f"--serving-buckets '{args.serving_buckets}': expected whole numbers") from None
        path = Path(args.serving)
        requests = read_trace(path) if path.suffix in (".json", ".csv") or path.exists() else parse_generator(args.serving)
    except (SpaceError, ServingError, BucketError, TraceError) as error:
        raise UserError(str(error)) from None
    logging.getLogger("torch._inductor.runtime.triton_heuristics").setLevel(logging.CRITICAL)
    served = serving_study(space, points, spec, requests, buckets, where=args.serving,
                           progress=lambda line: print(f"tnpu dse: {line}", file=sys.stderr))  # fmt: skip
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for column in ("point", "tokens/s", "TTFT p50 ms", "TTFT p99 ms", "TPOT p50 ms", "TPOT p99 ms", "batch", "busy"):
        table.add_column(column, justify="left" if column == "point" else "right")
    for item in served:
        row = item.row()
        if item.result is None:
            table.add_row(str(row["point"]), f"refused: {item.refused}")
            continue
        table.add_row(str(row["point"]), f"{row['tokens_per_s']:,.1f}", f"{row['ttft_p50_ms']:,.1f}",
                      f"{row['ttft_p99_ms']:,.1f}", f"{row['tpot_p50_ms']:,.2f}", f"{row['tpot_p99_ms']:,.2f}",
                      f"{row['mean_batch']:.1f}", f"{row['busy']:.0%}")  # fmt: skip
    if all(item.result is None for item in served):
        raise UserError(f"no point can serve {args.serving}: {served[0].refused}")
    Console(file=sys.stdout, width=max(Console().width, 160)).print(table)
    if args.csv:
        write_csv(Path(args.csv), served)
        print(f"wrote {len(served)} rows to {args.csv}")
    if args.plots is not None:
        for written in write_serving_plot(args.plots, served, f"{spec.name} serving {args.serving}"):
            print(f"wrote {written}")
    return 0
