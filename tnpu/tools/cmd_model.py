"""Run a PyTorch model with torch.compile(backend="tnpu") beside eager, compare, and time it.

MODEL is a suite entry (`tnpu model --list` names them) or FILE.py:FACTORY,
a function returning (module, example inputs) or a `tnpu.models.suite_entry.ModelCall`:

  tnpu model resnet18
  tnpu model llama_tiny --config tpuv3 --config tpuv6e --json
  tnpu model my_net.py:make_model --exec interp --trace graph.json
  tnpu model mlp_train                    # a training step: forward, backward, SGD step
  tnpu model mlp --train                  # the same for any entry

Every kernel of the compiled graphs runs on tnpu (the RVV binary under
qemu, or the tile interpreter with --exec interp) and is timed on each
--config NPU (default tpuv3).  The report gives whether every output
matches eager (judged against a float64 evaluation, docs/torch-compile.md),
each kernel launch with its cycles and roofline ratio, the graph's total
modeled time, the operations that ran on the host (fallbacks), graph
breaks, and the stage where it stopped if it did not finish.  Exit code 0
when the model is delivered (it matched, every launch was timed, nothing
ran on the host), 1 otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging

from tnpu.models.run import ModelResult, run_entry
from tnpu.models.suite import SuiteError, entries, entry
from tnpu.tools.command_line import UserError
from tnpu.torch_backend.options import CompileOptions, OptionError
from tnpu.triton_backend.settings import EXECUTIONS

HELP = "run a PyTorch model through torch.compile(backend='tnpu'), check it against eager, time it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", nargs="?", metavar="MODEL", help="a suite entry or FILE.py:FACTORY")
    parser.add_argument("--list", action="store_true", help="name the suite's entries and exit")
    parser.add_argument("--config", action="append", metavar="NPU",
                        help="NPU preset or YAML file to time on; repeat for several (default tpuv3)")  # fmt: skip
    parser.add_argument("--exec", dest="execution", choices=EXECUTIONS, default="qemu",
                        help="run kernels as RVV code under qemu (default), in the tile interpreter, or not at all "
                             "(timing: compiled and timed; values computed by PyTorch on the host)")  # fmt: skip
    parser.add_argument("--train", action="store_true", help="a training step: forward, backward, SGD step")
    parser.add_argument("--autotune", action=argparse.BooleanOptionalAction, default=None,
                        help="rank template configurations by modeled time (the backend's default: on)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--trace", metavar="FILE", help="write a Perfetto trace of the graph's launches (first NPU)")


def run(args: argparse.Namespace) -> int:
    if args.list:
        for name, suite_entry in entries().items():
            print(f"{name:20} {suite_entry.kind:5} {suite_entry.description.splitlines()[0] if suite_entry.description else ''}")
        return 0
    if args.model is None:
        raise UserError("give a MODEL (a suite entry or FILE.py:FACTORY), or --list")
    configs = args.config or ["tpuv3"]
    try:
        chosen = entry(args.model)
        for config in configs:
            CompileOptions.parse({"config": config})
    except (SuiteError, OptionError) as error:
        raise UserError(str(error)) from None
    if args.train:
        chosen = dataclasses.replace(chosen, train=True)
    # Inductor logs the whole source of each kernel Triton fails to compile; the report names the refusal.
    logging.getLogger("torch._inductor.runtime.triton_heuristics").setLevel(logging.CRITICAL)
    result = run_entry(chosen, configs, args.execution, args.autotune, args.trace)
    print(json.dumps(result.to_json(), indent=1) if args.json else report(result))
    return 0 if result.delivered else 1


def report(result: ModelResult) -> str:
    """The result as a person reads it: verdict, kernels, totals, fallbacks, where it stopped."""
    lines = [f"{result.name}: {'delivered' if result.delivered else 'not delivered'} "
             f"(stage reached: {result.stage}; {result.compile_and_run_seconds:.1f} s to compile and run)"]  # fmt: skip
    if result.error:
        lines.append(f"  {result.error}")
    if result.launches and all(launch.execution == "timing only" for launch in result.launches):
        lines.append("  timing only: no kernel ran; the outputs are the host's values of the captured graphs")
    elif result.outputs:
        matched = sum(output.match for output in result.outputs)
        worst = max(result.outputs, key=lambda output: output.max_error)
        lines.append(f"  outputs: {matched} of {len(result.outputs)} match eager "
                     f"(largest difference {worst.max_error:.3g} at {worst.name}, eager's own error "
                     f"against float64 {worst.eager_error:.3g})")  # fmt: skip
    if result.launches:
        first = result.configs[0]
        header = ("kernel", "kind", "grid", "cycles", "µs", "× roofline")
        rows = [header]
        for launch in result.launches:
            time_ = launch.times[first]
            ratio = time_.get("roofline_ratio")
            rows.append((launch.kernel[:60], launch.kind, "×".join(map(str, launch.grid)),  # pyright: ignore[reportArgumentType]  # rows typed by the header's string literals
                         f"{time_.get('cycles', 0):,.0f}", f"{time_.get('time_us', 0):,.2f}",
                         "-" if ratio is None else f"{ratio:.1f}"))  # fmt: skip
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        lines.append(f"  {len(result.launches)} kernel launches on {first}:")
        lines += ["    " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    for config in result.configs:
        total = result.total(config)
        if total["cycles"]:
            bound = total["roofline_us"]
            lines.append(f"  graph on {config}: {total['cycles']:,.0f} cycles, {total['time_us']:,.2f} µs"
                         + (f" ({total['time_us'] / bound:.1f} × the launches' rooflines)" if bound else ""))  # fmt: skip
    lines.append(f"  fallbacks: {'none' if not result.fallbacks else ''}")
    lines += [f"    {fallback['op']} ({fallback['kind']}) from {', '.join(fallback['nodes'])}" for fallback in result.fallbacks]
    lines.append(f"  graph breaks: {result.graph_breaks}")
    return "\n".join(lines)
