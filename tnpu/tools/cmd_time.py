"""Time kernels on the modeled NPU: the analytical cost model and the TOG simulator.

Each CASE is a case directory (meta.json + kernel.ttir); several CASEs are a
sequence, timed in the order given, each launch starting when the one
before has finished (an Inductor graph's kernels, in launch order):

  tnpu time test/fixtures/corpus/inductor/ew_add__triton_poi_fused_add_0 --config tpuv3
  tnpu time CASE1 CASE2 CASE3 --config tpuv6e --json --trace timeline.json

--config is a preset (tpuv3, tpuv6e; two-core tpuv3x2, tpuv4) or a YAML file with the same keys
(docs/timing.md).  --trace writes a Chrome/Perfetto trace of the simulated
timeline; --tog writes each launch's tile-operation graph as JSON
(docs/tog-format.md); --plot draws the launches on the NPU's roofline
(.png or .svg).  Exit code 0, or 1 with one line on stderr when a case
cannot be read, compiled or timed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.compiler.kernel import compile_ttir
from tnpu.diagnostics import format_parse_error, one_line
from tnpu.execution.case import CaseError, case_launch, load_case
from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import NPUConfig, NPUConfigError, load_npu_config
from tnpu.timing.report import SequenceReport
from tnpu.timing.roofline_plot import FORMATS, write_roofline_plot
from tnpu.timing.simulator import SimulationOptions, Simulator
from tnpu.timing.timer import KernelTimer
from tnpu.timing.tog_json import tog_to_json
from tnpu.timing.trace import write_chrome_trace
from tnpu.tools.command_line import UserError

HELP = "time kernels (a sequence of them) on the modeled NPU"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cases", nargs="+", metavar="CASE", help="case directories, in launch order")
    parser.add_argument("--config", default="tpuv3", help="NPU preset or YAML file (default tpuv3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--trace", type=Path, metavar="FILE", help="write a Chrome/Perfetto trace")
    parser.add_argument("--tog", type=Path, metavar="FILE", help="write the TOGs as JSON")
    parser.add_argument(
        "--plot", type=Path, metavar="FILE",
        help="draw the launches on the NPU's roofline (.png or .svg)",
    )
    parser.add_argument(
        "--no-double-buffering", dest="double_buffering", action="store_false",
        help="one iteration (and one program instance) in flight at a time",
    )


def run(args: argparse.Namespace) -> int:
    try:
        npu = load_npu_config(args.config)
    except NPUConfigError as error:
        raise UserError(str(error)) from None
    if args.plot and args.plot.suffix not in FORMATS:
        raise UserError(f"{args.plot}: --plot writes {' or '.join(FORMATS)} files")
    options = SimulationOptions(double_buffering=args.double_buffering, trace=args.trace is not None)
    launches = [_timed_case(Path(directory), npu) for directory in args.cases]
    sequence = SequenceReport(npu.name, [timer.time(launch, options) for timer, launch in launches])
    if args.trace:
        write_chrome_trace(args.trace, sequence.launches, npu)
    if args.plot:
        write_roofline_plot(args.plot, sequence.launches, npu)
    if args.tog:
        simulator = Simulator(npu, options)
        togs = [tog_to_json(timer.bind(launch), simulator) for timer, launch in launches]
        args.tog.write_text(json.dumps(togs[0] if len(togs) == 1 else togs, indent=1))
    if args.json:
        print(json.dumps(sequence.to_json()))
    else:
        print_table(sequence, npu)
    return 0


def _timed_case(directory: Path, npu: NPUConfig) -> tuple[KernelTimer, Launch]:
    try:
        case = load_case(directory)
        if case.ttir_path is None:
            raise UserError(f"{directory}: no kernel.ttir (tnpu ttir {directory} -o {directory}/kernel.ttir)")
        kernel = compile_ttir(case.ttir_path.read_text(), case.kernel_name, source=str(case.ttir_path))
        return kernel.timer(npu), case_launch(case)
    except CaseError as error:
        raise UserError(str(error)) from None
    except ParseError as error:
        raise UserError(format_parse_error(error)) from None
    except DiagnosticException as error:
        raise UserError(one_line(error)) from None


def print_table(sequence: SequenceReport, npu: NPUConfig) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"on {npu.name}", title_justify="left")
    for column in ("kernel", "cycles", "µs", "× roofline", "bound", "× compulsory", "bound",
                   "GB/s", "GFLOP/s", "dma", "vector", "matrix"):
        table.add_column(column, justify="left" if column in ("kernel", "bound") else "right")
    for launch in sequence.launches:
        table.add_row(
            launch.kernel, f"{launch.cycles:,.0f}", f"{launch.time_us:.2f}",
            _ratio(launch.roofline_ratio), launch.roofline_bound,
            _ratio(launch.compulsory_ratio), launch.compulsory_bound,
            f"{launch.achieved_bandwidth_gbps:.1f}", f"{launch.achieved_gflops:.1f}",
            *(f"{launch.units[unit].utilization:.0%}" for unit in ("dma", "vector", "matrix")),
        )
    console = Console(file=sys.stdout, width=max(Console().width, 140))
    console.print(table)
    if len(sequence.launches) > 1:
        console.print(
            f"sequence: {sequence.cycles:,.0f} cycles, {sequence.time_us:.2f} µs, "
            f"{_ratio(sequence.roofline_ratio)} × roofline, "
            f"{_ratio(sequence.compulsory_ratio)} × compulsory",
            highlight=False,
        )
    for launch in sequence.launches:
        for assumption in launch.assumptions:
            console.print(f"note: {assumption}", highlight=False)


def _ratio(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.2f}"
