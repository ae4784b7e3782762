"""What a graph compiled by the `tnpu` backend does around each call.

Inductor's generated module ends with `call = on_tnpu(call, ...)`
(`wrapper.TnpuWrapperCodegen`), so this holds for the forward and the
backward graphs alike, and for a graph Inductor loads from its cache:

* the compile's options (`config`, `execution`) are the Triton backend's
  settings for the kernels the call launches, on tnpu's Triton driver;
* Inductor's benchmarks of kernels autotuned on their first call read
  modeled time (`benchmarking.modeled_benchmarks`);
* the operations of the graph that run on the host instead of on tnpu are
  added to every active `tnpu.profile` (`prof.fallbacks`).

In the `timing` mode a compiled graph is a `HostValues`: each call
launches the graph's kernels, which are compiled and timed but not run,
then returns the values of the graph Inductor was given (the forward or
backward graph AOT autograd made), run by PyTorch on the host.  So the
program's values are eager's wherever a later step reads them — a
comparison, a branch of the program on a value, the next graph, an
optimizer step — and the profile holds every launch as in the other
modes.  It is made where the graph is compiled (`tnpu_backend`), not in
the generated module, because the graph is not in Inductor's module or
its cache; the compile's options name the mode, so a graph compiled for
another mode is never served to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import torch

from tnpu.torch_backend.benchmarking import modeled_benchmarks
from tnpu.triton_backend import profile
from tnpu.triton_backend.driver import tnpu_driver_active
from tnpu.triton_backend.settings import settings


def on_tnpu(
    call: Callable[[list[Any]], Any], fallbacks: Sequence[tuple[str, str, tuple[str, ...]]],
    options: Mapping[str, Any],
) -> Callable[[list[Any]], Any]:  # fmt: skip
    """`call` (Inductor's graph function) run with the compile's options, recording its fallbacks."""
    records = [profile.FallbackRecord(op, kind, nodes) for op, kind, nodes in fallbacks]

    def run(args: list[Any]) -> Any:
        with (
            settings.scoped(config=options.get("config"), execution=options.get("execution")),
            tnpu_driver_active(),
            modeled_benchmarks(),
        ):
            profile.record_fallbacks(records)
            return call(args)

    return run


HOST_VALUES = "tnpu: a compiled graph's values on the host (timing only)"
"""The profiler range of the host's run of a `timing` graph: part of the compiled graph, not eager code."""


def copy_of(graph: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """A copy of `graph` that Inductor's passes, which rewrite a graph in place, leave as it is."""
    copied = torch.fx.Graph()
    copied.output(copied.graph_copy(graph.graph, {}))
    return torch.fx.GraphModule(graph, copied)


class HostValues:
    """A graph compiled in the `timing` mode: its launches timed, its values the host's (module docstring)."""

    def __init__(self, compiled: Callable[[list[Any]], Any], graph: torch.fx.GraphModule):
        self.compiled = compiled
        self.graph = graph
        # Called as Inductor's compiled graphs are, with the list of inputs, which the call
        # empties.  An attribute of the instance: wrappers (functools.wraps) copy its __dict__.
        self._boxed_call = True

    def __call__(self, inputs: list[Any]) -> Any:
        with profile.values_from_host():
            self.compiled(list(inputs))
        with torch.profiler.record_function(HOST_VALUES):
            values = self.graph(*inputs)
        inputs.clear()
        return values
