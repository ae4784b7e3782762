"""One suite entry compiled with the `tnpu` backend, run beside eager, compared and timed.

`run_entry` builds the program (torch seeded), runs it in eager mode, in
float64 and compiled by `torch.compile(..., backend="tnpu")` inside a
`tnpu.profile` per NPU, compares every output (`compare`) and returns a
`ModelResult`: how far the entry got, its outputs' comparisons, every
kernel launch with its modeled time on each NPU, the operations that ran
on the host, and the graph breaks.  A training entry runs one step —
forward, loss, backward, an SGD step with momentum — and compares the
loss, the outputs, every gradient and every updated weight.

Stages, in order; a result names the last one the entry cleared:

| stage | cleared when |
| --- | --- |
| `traced` | dynamo captured the program |
| `TTIR` | Triton made TTIR of every kernel |
| `tile` | tnpu lowered every kernel to tile IR |
| `RVV built` | every kernel's RVV code and ELF were built |
| `ran` | every launch ran |
| `matched` | every output matches eager (judged against float64) |
| `timed` | every launch has a modeled time |

An entry is *delivered* when it reached `timed` and nothing of it ran on
the host: no operation of its graphs (`prof.fallbacks` is empty) and no
computation between them.  Where dynamo breaks a graph, or skips a frame,
the code there runs in eager mode on the host; the compiled program runs
under `torch.profiler`, and every aten operation outside Inductor's
compiled graphs and outside compiling is listed (`eager_ops`) — apart from
allocations, views and the read of a scalar a graph break waits for.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

import tnpu
from tnpu.models.compare import OutputComparison, compare, leaves
from tnpu.models.suite_entry import ModelCall, SuiteEntry
from tnpu.torch_backend.graph_runtime import HOST_VALUES
from tnpu.triton_backend.profile import Profile
from tnpu.triton_backend.refusals import STAGES, parse_refusal, refusal_message

STAGE_ORDER = ("none", "traced", "TTIR", "tile", "RVV built", "ran", "matched", "timed")
"""Every stage an entry can have cleared, first to last."""

_REFUSED_AT = {stage: STAGE_ORDER[index] for index, stage in enumerate(STAGES, start=1)}
"""The stage cleared before the compiler stage that refused a kernel: TTIR → traced, tile IR → TTIR, ..."""


@dataclass
class LaunchSummary:
    kernel: str
    kind: str
    """`template` (a GEMM or convolution), `pointwise`, `reduction` or `other`, from Inductor's name."""
    grid: tuple[int, int, int]
    execution: str
    times: dict[str, dict[str, Any]]
    """Per NPU: cycles, time_us, roofline_ratio, compulsory_ratio, bytes_read, bytes_written, flops
    (empty when untimed, with `untimed` saying why)."""


@dataclass
class ModelResult:
    name: str
    stage: str
    """The last stage cleared (`STAGE_ORDER`)."""
    delivered: bool
    error: str | None = None
    """One line: why it stopped, or what did not match."""
    configs: list[str] = field(default_factory=list)
    outputs: list[OutputComparison] = field(default_factory=list)
    launches: list[LaunchSummary] = field(default_factory=list)
    fallbacks: list[dict[str, Any]] = field(default_factory=list)
    eager_ops: dict[str, int] = field(default_factory=dict)
    """aten operations that ran in eager mode, outside every compiled graph, with their counts."""
    graph_breaks: int = 0
    compile_and_run_seconds: float = 0.0

    def total(self, config: str) -> dict[str, float]:
        """The graph's modeled cycles and µs on `config`: every launch, back to back."""
        timed = [launch.times[config] for launch in self.launches if launch.times.get(config, {}).get("cycles")]
        return {
            "cycles": sum(time_["cycles"] for time_ in timed),
            "time_us": sum(time_["time_us"] for time_ in timed),
            "roofline_us": sum(time_["time_us"] / time_["roofline_ratio"] for time_ in timed if time_["roofline_ratio"]),
        }

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["totals"] = {config: self.total(config) for config in self.configs}
        return data


def kernel_kind(name: str) -> str:
    for prefix, kind in (("triton_tem_", "template"), ("triton_poi_", "pointwise"), ("triton_per_", "reduction"),
                         ("triton_red_", "reduction")):  # fmt: skip
        if name.startswith(prefix):
            return kind
    return "other"


def run_entry(
    entry: SuiteEntry, configs: Sequence[str] = ("tpuv3",), execution: str | None = None,
    autotune: bool | None = None, trace: str | None = None,
) -> ModelResult:  # fmt: skip
    """Compile, run, compare and time `entry` (module docstring); never raises for the entry's faults."""
    result = ModelResult(entry.name, "none", False, configs=list(configs))
    torch.manual_seed(0)
    try:
        workload = entry.build()
        eager = _step(workload, compiled=False, train=entry.train)
        exact = _step(_float64(workload), compiled=False, train=entry.train)
    except Exception as error:  # the program itself, before tnpu: reported, not raised
        result.error = f"the program fails in eager mode: {_first_line(f'{type(error).__name__}: {error}')}"
        return result
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    # What a user's script passes, and nothing else: the backend's defaults hold for the rest.
    options = {"execution": execution, "config": configs[0]} | ({} if autotune is None else {"autotune": autotune})
    start = time.perf_counter()
    profiles: list[Profile] = []
    try:
        with _profiles(configs, trace is not None) as profiles:
            compiled, result.eager_ops = _with_eager_operations(compiled_step(workload, entry.train, options))
    except Exception as error:  # the entry's failure is the result, reported in one line
        result.stage, result.error = stage_of_failure(error)
        return result
    finally:
        result.compile_and_run_seconds = time.perf_counter() - start
        result.graph_breaks = sum(torch._dynamo.utils.counters["graph_break"].values())
    _record_profiles(result, profiles)
    result.stage = "ran"
    result.outputs = [
        compare(name, got, want, truth)
        for (name, got), (_, want), (_, truth) in zip(leaves(compiled), leaves(eager), leaves(exact), strict=True)
    ]
    mismatched = [output for output in result.outputs if not output.match]
    if mismatched:
        result.error = f"{mismatched[0].name} does not match eager: {mismatched[0].detail}"
        return result
    result.stage = "matched"
    untimed = [launch for launch in result.launches if any(not t.get("cycles") for t in launch.times.values())]
    if untimed:
        result.error = f"{untimed[0].kernel} has no modeled time: {next(iter(untimed[0].times.values())).get('untimed')}"
        return result
    result.stage = "timed"
    result.delivered = not result.fallbacks and not result.eager_ops and bool(result.launches)
    if result.fallbacks:
        first = result.fallbacks[0]
        result.error = f"{first['op']} ran on the host ({first['kind']}, from {', '.join(first['nodes'])})"
    elif result.eager_ops:
        result.error = f"ran in eager mode outside the compiled graphs: {', '.join(sorted(result.eager_ops))}"
    elif not result.launches:
        result.error = "no kernel ran on tnpu"
    if trace is not None:
        profiles[0].export_chrome_trace(trace)
    return result


def _step(workload: ModelCall, compiled: bool, train: bool, options: dict[str, Any] | None = None) -> Any:
    """The program's result on its inputs; for a training step: loss, output, gradients, updated weights."""
    if compiled:
        return compiled_step(workload, train, options)()
    return _prepared_step(workload, train, compile=lambda program: program)()


def compiled_step(workload: ModelCall, train: bool, options: dict[str, Any] | None) -> Callable[[], Any]:
    """A call of the program (a copy) compiled with the `tnpu` backend and `options`, as `step` makes it."""
    return _prepared_step(workload, train, lambda program: torch.compile(program, backend="tnpu", options=options))


def _prepared_step(workload: ModelCall, train: bool, compile: Callable[[Any], Any]) -> Callable[[], Any]:
    """A call of the program (a copy) on copies of its inputs, its parts passed through `compile`."""
    program = copy.deepcopy(workload.program)
    inputs = copy.deepcopy(workload.inputs)
    if not train:
        forward = compile(program)

        def infer() -> Any:
            with torch.no_grad():
                return forward(*inputs)

        return infer
    optimizer = torch.optim.SGD(program.parameters(), lr=0.05, momentum=0.9)
    forward_and_loss = compile(_WithLoss(program, workload.loss))
    update = compile(optimizer.step)
    seed = torch.ones(())

    def train_step() -> Any:
        optimizer.zero_grad(set_to_none=True)
        loss, output = forward_and_loss(*inputs)
        loss.backward(seed)
        with torch.profiler.record_function(_HARNESS):
            gradients = {name: parameter.grad.clone() for name, parameter in program.named_parameters()}
        update()
        with torch.profiler.record_function(_HARNESS):
            weights = {name: parameter.detach().clone() for name, parameter in program.named_parameters()}
        return {"loss": loss.detach(), "out": output.detach(), "grad": gradients, "weight": weights}

    return train_step


class _WithLoss(torch.nn.Module):
    """The program and its loss as one module: (loss, output); the output detached, so that
    backward needs no (zero) gradient for it."""

    def __init__(self, program: Any, loss: Callable[[Any], Any] | None):
        super().__init__()
        self.program = program
        self.loss = loss

    def forward(self, *inputs: Any) -> tuple[Any, Any]:
        output = self.program(*inputs)
        return (self.loss(output) if self.loss is not None else output.sum()), output.detach()


_NOT_COMPUTATION = {
    "aten::empty", "aten::empty_strided", "aten::empty_like", "aten::view", "aten::_unsafe_view", "aten::reshape",
    "aten::as_strided", "aten::expand", "aten::permute", "aten::transpose", "aten::t", "aten::select",
    "aten::slice", "aten::unsqueeze", "aten::squeeze", "aten::alias", "aten::detach", "aten::detach_",
    "aten::lift_fresh", "aten::item", "aten::_local_scalar_dense", "aten::resolve_conj", "aten::resolve_neg",
}  # fmt: skip
"""aten operations that compute nothing: allocations, views, reading a scalar."""

_COMPILING = "(dynamo_timed)"
"""What dynamo's compile phases are named with (a recompile traces on fake tensors, computing nothing)."""

_HARNESS = "tnpu.models: the harness's copies"
"""The profiler range around what the harness itself computes (copies of gradients and weights)."""


def _with_eager_operations(call: Callable[[], Any]) -> tuple[Any, dict[str, int]]:
    """`call()`, and the aten operations it ran outside compiling and every compiled graph, with their counts."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as trace:
        value = call()
    found: dict[str, int] = {}

    def visit(event: Any) -> None:
        if event.name.startswith("## Call CompiledFxGraph") or event.name in (_HARNESS, HOST_VALUES) or _COMPILING in event.name:
            return
        if event.name.startswith("aten::"):
            if event.name not in _NOT_COMPUTATION:
                found[event.name] = found.get(event.name, 0) + 1
            return
        for child in event.cpu_children:
            visit(child)

    for event in trace.events():  # pyright: ignore[reportOptionalIterable]  # torch's or transformers' annotations
        if event.cpu_parent is None:
            visit(event)
    return value, found


def _float64(workload: ModelCall) -> ModelCall:
    """The same program and inputs with every floating tensor in float64."""
    program = copy.deepcopy(workload.program)
    if isinstance(program, torch.nn.Module):
        program = program.double()
    inputs = tuple(x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in workload.inputs)
    return ModelCall(program, inputs, workload.loss)


class _profiles:
    """One `tnpu.profile` per NPU, all active: each launch is timed on every one."""

    def __init__(self, configs: Sequence[str], trace: bool):
        self.scopes = [tnpu.profile(config=config, trace=trace) for config in configs]

    def __enter__(self) -> list[Profile]:
        return [scope.__enter__() for scope in self.scopes]

    def __exit__(self, *exc: Any) -> None:
        for scope in reversed(self.scopes):
            scope.__exit__(*exc)


def _record_profiles(result: ModelResult, profiles: list[Profile]) -> None:
    first = profiles[0]
    for index, launch in enumerate(first.launches):
        times = {}
        for config, profile in zip(result.configs, profiles):
            record = profile.launches[index]
            if record.report is None:
                times[config] = {"untimed": record.untimed}
                continue
            times[config] = {
                "cycles": record.cycles, "time_us": record.time_us, "roofline_ratio": record.roofline_ratio,
                "compulsory_ratio": record.compulsory_ratio, "bytes_read": record.bytes_read,
                "bytes_written": record.bytes_written, "flops": record.flops,
            }  # fmt: skip
        result.launches.append(LaunchSummary(launch.kernel, kernel_kind(launch.kernel), launch.grid, launch.execution, times))
    result.fallbacks = [asdict(fallback) for fallback in first.fallbacks]


def stage_of_failure(error: BaseException) -> tuple[str, str]:
    """The last stage cleared before `error`, and the error in one line."""
    text = f"{type(error).__name__}: {error}"
    refusal = parse_refusal(text)
    if refusal:
        kernel, stage, reason = refusal
        return _REFUSED_AT[stage], refusal_message(kernel, stage, reason)
    if "TnpuLaunchError" in text:
        return "RVV built", _first_line(text[text.index("TnpuLaunchError") :])
    if isinstance(error, torch._dynamo.exc.BackendCompilerFailed) or "InductorError" in text:  # pyright: ignore[reportAttributeAccessIssue]  # torch's or transformers' annotations
        return "traced", _first_line(text)
    return "none", _first_line(text)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), text)
