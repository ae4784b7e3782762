"""Serving a trace on an NPU: the KV budget, the step table, the loop, the figures (docs/serving.md).

    from tnpu.serving.serve import MODELS, serve
    from tnpu.serving.trace import parse_generator
    from tnpu.timing.npu_config import load_npu_config

    result = serve(MODELS["llama3_8b_4l"], load_npu_config("tpuv6e"), parse_generator("poisson:rate=2"))
    print(result.metrics.tokens_per_s, result.metrics.ttft_s[99])

Everything that can refuse refuses before anything compiles: an NPU with
no DRAM capacity, a model whose weights fill it, a request no bucket or
the budget can hold (each `ServingError`, `BucketError` or `TraceError`,
one line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tnpu.serving.metrics import ServingMetrics, measure
from tnpu.serving.model import DecoderSpec
from tnpu.serving.scheduler import POLICIES, Policy, ServingError, Simulation, StepTimes, simulate
from tnpu.serving.steps import BucketError, Buckets, StepTable, step_table
from tnpu.serving.trace import Request
from tnpu.timing.npu_config import NPUConfig

GIB = 2**30

MODELS: dict[str, DecoderSpec] = {
    "llama3_8b_4l": DecoderSpec(),
    "llama3_8b": DecoderSpec(name="llama3_8b", layers=32),
    "tiny": DecoderSpec(name="tiny", hidden=64, heads=4, kv_heads=2, head_dim=16, mlp=128, layers=2),
}
"""Models by name: Llama-3-8B's widths at 4 and at all 32 layers; a tiny one for tests.  `model(name, layers)`
changes the depth."""


def model(name: str, layers: int | None = None) -> DecoderSpec:
    if name not in MODELS:
        raise ServingError(f"unknown model '{name}' (models: {', '.join(MODELS)})")
    spec = MODELS[name]
    if layers is not None and layers != spec.layers:
        if layers < 1:
            raise ServingError(f"--layers must be >= 1, got {layers}")
        spec = replace(spec, name=f"{name.removesuffix('_4l')}_{layers}l", layers=layers)
    return spec


@dataclass(frozen=True)
class KVBudget:
    capacity_bytes: int
    weight_bytes: int
    kv_bytes_per_token: int

    @property
    def tokens(self) -> int:
        """Tokens of KV cache the DRAM holds besides the weights."""
        return (self.capacity_bytes - self.weight_bytes) // self.kv_bytes_per_token


def kv_budget(spec: DecoderSpec, npu: NPUConfig) -> KVBudget:
    """The DRAM left by the weights, in tokens of KV cache; `ServingError` when nothing is left."""
    if npu.dram_capacity_gib is None:
        raise ServingError(f"NPU {npu.name} states no dram_capacity_gib: give one in its YAML to budget a KV cache")
    budget = KVBudget(int(npu.dram_capacity_gib * GIB), spec.weight_bytes, spec.kv_bytes_per_token)
    if budget.tokens < 1:
        raise ServingError(
            f"model {spec.name} does not fit {npu.name}: its weights take {spec.weight_bytes / GIB:.1f} GiB "
            f"of the {npu.dram_capacity_gib:g} GiB of DRAM, leaving no room for a KV cache"
        )
    return budget


def check_requests(requests: Sequence[Request], buckets: Buckets, budget: KVBudget, where: str) -> None:
    """Refuse (one line) the first request whose prompt or whole context no bucket or the budget holds."""
    for request in requests:
        context = request.prompt_tokens + request.output_tokens
        if request.prompt_tokens > buckets.prefill[-1]:
            raise BucketError(f"{where}: request {request.id}'s prompt of {request.prompt_tokens} tokens is "
                              f"longer than the largest prefill bucket, {buckets.prefill[-1]}")  # fmt: skip
        if context > buckets.contexts[-1]:
            raise BucketError(f"{where}: request {request.id} needs a context of {context} tokens, more than "
                              f"the largest context bucket, {buckets.contexts[-1]}")  # fmt: skip
        if context > budget.tokens:
            raise ServingError(f"{where}: request {request.id} needs {context} tokens of KV cache, more than "
                               f"the {budget.tokens} the DRAM holds besides the weights")  # fmt: skip


@dataclass(frozen=True)
class ServingResult:
    model: DecoderSpec
    npu: NPUConfig
    policy: str
    budget: KVBudget
    max_batch: int
    table: StepTimes
    simulation: Simulation
    metrics: ServingMetrics


def serve(spec: DecoderSpec, npu: NPUConfig, requests: Sequence[Request], *, mapping: str | None = None,
          buckets: Buckets = Buckets(), policy: Policy | str = "fcfs", max_batch: int | None = None,
          table: StepTimes | None = None, where: str = "trace",
          progress: Callable[[str], None] | None = None) -> ServingResult:  # fmt: skip
    """Serve `requests` with `spec` on `npu`.  The step table is `table`, or `step_table`'s for `npu`
    with kernels compiled for `mapping` (a preset or YAML file; default `npu`'s name, a preset)."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ServingError(f"unknown policy '{policy}' (policies: {', '.join(POLICIES)})")
        policy = POLICIES[policy]()
    budget = kv_budget(spec, npu)
    check_requests(requests, buckets, budget, where)
    max_batch = max_batch or buckets.batches[-1]
    if max_batch > buckets.batches[-1]:
        raise BucketError(f"--max-batch {max_batch} is beyond the largest batch bucket, {buckets.batches[-1]}")
    if table is None:
        table = step_table(spec, npu, mapping or npu.name, buckets, progress)
    simulation = simulate(requests, table, budget.tokens, max_batch, policy)
    utilization = None  # pyright: ignore[reportAssignmentType]  # None until the table has step times (below)
    if isinstance(table, StepTable):
        times = table.times

        def utilization(kind: str, bucket: tuple[int, ...]) -> tuple[float, float]:
            time = times[kind, bucket]
            return time.matrix_utilization, time.dram_utilization

    metrics = measure(simulation, utilization)
    return ServingResult(spec, npu, policy.name, budget, max_batch, table, simulation, metrics)
