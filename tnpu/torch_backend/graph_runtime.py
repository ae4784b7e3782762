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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

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
