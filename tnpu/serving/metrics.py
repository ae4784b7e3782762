"""What a serving run reports: throughput, latency percentiles, batch sizes over time, utilization.

* **Throughput**: output tokens per second, and requests per second, over
  the run's span, from the first arrival to the last request's end.
* **TTFT** (time to first token): the end of a request's prefill less its
  arrival, queueing included.
* **TPOT** (time per output token): (end − first token) / (output − 1),
  for each request of two or more output tokens.
* **Latency**: end less arrival.
* Percentiles p50, p90 and p99 by linear interpolation between the
  closest ranks (numpy's default).
* **Batch sizes over time**: each decode step's batch (the series the plot
  draws), its mean weighted by time, its largest.
* **Utilization**: the NPU's busy share of the span (a step running), and
  the systolic arrays' and the DRAM's busy share of the span: each step's
  bucket's utilization (steps.BucketTime), weighted by its time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tnpu.serving.scheduler import Simulation

PERCENTILES = (50, 90, 99)


@dataclass(frozen=True)
class ServingMetrics:
    requests: int
    output_tokens: int
    prompt_tokens: int
    span_s: float
    tokens_per_s: float
    requests_per_s: float
    ttft_s: dict[int, float]
    tpot_s: dict[int, float]
    latency_s: dict[int, float]
    mean_batch: float
    max_batch: int
    busy: float
    matrix_utilization: float
    dram_utilization: float
    steps: int
    prefills: int

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for key in ("ttft_s", "tpot_s", "latency_s"):
            data[key] = {f"p{p}": value for p, value in data[key].items()}
        return data


def measure(simulation: Simulation, utilization: Any = None) -> ServingMetrics:
    """The figures of a finished run; `utilization(kind, bucket)` gives a step's (matrix, dram) shares."""
    states = simulation.requests
    start = min(state.request.arrival_s for state in states)
    span = simulation.end_s - start
    output = sum(state.request.output_tokens for state in states)
    ttft = [state.first_token_s - state.request.arrival_s for state in states]  # pyright: ignore[reportOptionalOperand]  # a finished run's requests have their times
    tpot = [
        (state.finish_s - state.first_token_s) / (state.request.output_tokens - 1)  # pyright: ignore[reportOperatorIssue]  # a finished run's requests have their times
        for state in states if state.request.output_tokens > 1
    ]
    latency = [state.finish_s - state.request.arrival_s for state in states]  # pyright: ignore[reportOptionalOperand]  # a finished run's requests have their times
    decodes = [step for step in simulation.steps if step.kind == "decode"]
    decode_time = sum(step.seconds for step in decodes)
    busy = sum(step.seconds for step in simulation.steps)
    matrix = dram = 0.0
    if utilization is not None:
        for step in simulation.steps:
            share = utilization(step.kind, step.bucket)
            matrix += step.seconds * share[0]
            dram += step.seconds * share[1]
    return ServingMetrics(
        requests=len(states), output_tokens=output, prompt_tokens=sum(s.request.prompt_tokens for s in states),
        span_s=span, tokens_per_s=output / span if span else 0.0, requests_per_s=len(states) / span if span else 0.0,
        ttft_s=_percentiles(ttft), tpot_s=_percentiles(tpot), latency_s=_percentiles(latency),
        mean_batch=sum(s.batch * s.seconds for s in decodes) / decode_time if decode_time else 0.0,
        max_batch=max((s.batch for s in decodes), default=0),
        busy=busy / span if span else 0.0, matrix_utilization=matrix / span if span else 0.0,
        dram_utilization=dram / span if span else 0.0,
        steps=len(simulation.steps), prefills=len(simulation.steps) - len(decodes),
    )  # fmt: skip


def _percentiles(values: list[float]) -> dict[int, float]:
    if not values:
        return {p: float("nan") for p in PERCENTILES}
    return {p: float(np.percentile(values, p)) for p in PERCENTILES}


def summary(metrics: ServingMetrics, title: str) -> str:
    """A few lines for a terminal."""

    def ms(values: dict[int, float]) -> str:
        return " / ".join(f"{values[p] * 1e3:,.1f}" for p in PERCENTILES)

    m = metrics
    return "\n".join([
        f"{title}: {m.requests} requests, {m.prompt_tokens:,} prompt and {m.output_tokens:,} output tokens "
        f"in {m.span_s:,.2f} s ({m.steps:,} steps, {m.prefills} prefills)",
        f"  throughput {m.tokens_per_s:,.1f} output tokens/s, {m.requests_per_s:,.2f} requests/s",
        f"  TTFT    p50 / p90 / p99 {ms(m.ttft_s)} ms",
        f"  TPOT    p50 / p90 / p99 {ms(m.tpot_s)} ms",
        f"  latency p50 / p90 / p99 {ms(m.latency_s)} ms",
        f"  decode batch mean {m.mean_batch:.1f}, max {m.max_batch}; NPU busy {m.busy:.0%}, "
        f"systolic arrays {m.matrix_utilization:.1%}, DRAM {m.dram_utilization:.1%} of the span",
    ])  # fmt: skip
