"""Serve examples/serving/trace.csv on tpuv3 with FCFS and with a policy of one's own.

    python examples/serving/custom_policy.py

The policy below caps the decode batch at 16 and admits the waiting request
with the fewest output tokens first; it is the only model-independent part
one writes.  The step table comes from the cache `tnpu serve` filled (or is
built on first use: every bucket compiled in the timing mode, a few minutes).
"""

from pathlib import Path

from tnpu.serving.metrics import summary
from tnpu.serving.scheduler import Decode, Policy, Prefill
from tnpu.serving.serve import MODELS, serve
from tnpu.serving.trace import read_trace
from tnpu.timing.npu_config import load_npu_config


class ShortOutputFirst(Policy):
    """Admit the waiting request with the fewest output tokens first; decode at most 16 at a time."""

    name = "short-output-first"

    def next_step(self, waiting, running, free_kv_tokens, max_batch):
        batch = min(max_batch, 16)
        if waiting and len(running) < batch:
            candidate = min(waiting, key=lambda state: state.request.output_tokens)
            if candidate.kv_tokens <= free_kv_tokens:
                return Prefill(candidate)
        return Decode(tuple(running[:batch])) if running else None


requests = read_trace(Path(__file__).parent / "trace.csv")
npu = load_npu_config("tpuv3")
for policy in ("fcfs", ShortOutputFirst()):
    result = serve(MODELS["llama3_8b_4l"], npu, requests, policy=policy)
    print(summary(result.metrics, f"{result.model.name} on {npu.name}, {result.policy}"))
