"""The serving loop: a discrete-event simulation of continuous batching, and its scheduler policies.

The loop knows nothing of the model but a `StepTimes` (how long a prefill
of T tokens and a decode step of B requests over C cached positions take)
and the KV budget in tokens.  It serves one step at a time, as an engine
with one NPU does:

* a **prefill** of one waiting request: its whole prompt, producing its
  first output token at the step's end (the time to first token is that
  end less the request's arrival);
* a **decode** step of every running request (up to `max_batch`): one
  token each.  A request is done when it has its `output_tokens`.

Which of the two comes next is the policy's choice (`Policy.next_step`).
A request is admitted (prefilled) only when its whole KV footprint,
prompt plus output tokens, fits in what the running requests leave of the
budget: reserved at admission and freed when it finishes, so no request
is ever preempted (vLLM allocates blocks as tokens come and preempts when
they run out; reserving the final length is the simpler, conservative
policy of Orca-era servers, and needs the output length, which a trace
gives).  When nothing runs and nothing waits, the NPU idles until the
next arrival.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tnpu.serving.trace import Request


class StepTimes(Protocol):
    """Seconds a step takes (`steps.StepTable`, or a stand-in in tests)."""

    def prefill(self, tokens: int) -> float: ...

    def decode(self, batch: int, context: int) -> float: ...


class ServingError(ValueError):
    """A trace or a model the budget cannot serve; the message is one line."""


@dataclass
class RequestState:
    request: Request
    generated: int = 0
    """Output tokens produced so far (the prefill produces the first)."""
    first_token_s: float | None = None
    finish_s: float | None = None

    @property
    def kv_tokens(self) -> int:
        """The KV cache the request reserves: its prompt and every output token."""
        return self.request.prompt_tokens + self.request.output_tokens

    @property
    def context(self) -> int:
        """Positions in its cache when it decodes its next token."""
        return self.request.prompt_tokens + self.generated


@dataclass(frozen=True)
class Prefill:
    request: RequestState


@dataclass(frozen=True)
class Decode:
    batch: tuple[RequestState, ...]


class Policy:
    """A scheduler policy: what the loop does next.  Subclass and override `next_step` (or `order`)."""

    name = "policy"

    def order(self, waiting: Sequence[RequestState]) -> list[RequestState]:
        """The waiting requests in the order they are considered for admission."""
        return list(waiting)

    def next_step(self, waiting: Sequence[RequestState], running: Sequence[RequestState],
                  free_kv_tokens: int, max_batch: int) -> Prefill | Decode | None:  # fmt: skip
        raise NotImplementedError


class PrefillFirst(Policy):
    """FCFS, prefill first (vLLM's default without chunked prefill): prefill the oldest waiting request
    whenever it fits in the KV budget and the batch has room; otherwise decode every running request."""

    name = "fcfs"

    def next_step(self, waiting, running, free_kv_tokens, max_batch):
        if waiting and len(running) < max_batch:
            candidate = self.order(waiting)[0]
            if candidate.kv_tokens <= free_kv_tokens:
                return Prefill(candidate)
        if running:
            return Decode(tuple(running[:max_batch]))
        return None


class ShortestPromptFirst(PrefillFirst):
    """As `PrefillFirst`, but the waiting request with the shortest prompt is admitted first (ties: arrival)."""

    name = "spf"

    def order(self, waiting):
        return sorted(waiting, key=lambda state: (state.request.prompt_tokens, state.request.arrival_s))


POLICIES: dict[str, type[Policy]] = {policy.name: policy for policy in (PrefillFirst, ShortestPromptFirst)}


@dataclass(frozen=True)
class StepRecord:
    start_s: float
    seconds: float
    kind: str
    """`prefill` or `decode`."""
    batch: int
    """Requests the step serves (1 for a prefill)."""
    tokens: int
    """Tokens it processes: the prompt, or one per request."""
    bucket: tuple[int, ...]
    """The bucket its time was read from: (tokens,) or (batch, context)."""


@dataclass
class Simulation:
    requests: list[RequestState]
    steps: list[StepRecord] = field(default_factory=list)
    end_s: float = 0.0


def simulate(requests: Sequence[Request], times: StepTimes, kv_budget_tokens: int, max_batch: int,
             policy: Policy | None = None) -> Simulation:  # fmt: skip
    """Serve `requests` (in arrival order) to the end; raise `ServingError` for one that can never fit."""
    policy = policy or PrefillFirst()
    for request in requests:
        if request.prompt_tokens + request.output_tokens > kv_budget_tokens:
            raise ServingError(
                f"request {request.id} needs {request.prompt_tokens + request.output_tokens} tokens of KV cache "
                f"(prompt {request.prompt_tokens} + output {request.output_tokens}), more than the budget's "
                f"{kv_budget_tokens}"
            )
    states = [RequestState(request) for request in sorted(requests, key=lambda r: r.arrival_s)]
    simulation = Simulation(states)
    pending = list(reversed(states))  # next arrival last
    waiting: list[RequestState] = []
    running: list[RequestState] = []
    free = kv_budget_tokens
    now = 0.0
    while pending or waiting or running:
        while pending and pending[-1].request.arrival_s <= now:
            waiting.append(pending.pop())
        step = policy.next_step(waiting, running, free, max_batch)
        if step is None:
            if not pending:
                raise ServingError(f"policy {policy.name} left {len(waiting)} requests waiting with nothing running")
            now = max(now, pending[-1].request.arrival_s)
            continue
        start = now
        if isinstance(step, Prefill):
            state = step.request
            waiting.remove(state)
            free -= state.kv_tokens
            tokens = state.request.prompt_tokens
            now += times.prefill(tokens)
            state.generated, state.first_token_s = 1, now
            record = StepRecord(start, now - start, "prefill", 1, tokens, _bucket(times, "prefill", tokens))
            finished = [state] if state.request.output_tokens == 1 else []
            if not finished:
                running.append(state)
        else:
            batch = step.batch
            context = max(state.context for state in batch)
            now += times.decode(len(batch), context)
            for state in batch:
                state.generated += 1
            record = StepRecord(start, now - start, "decode", len(batch), len(batch),
                                _bucket(times, "decode", len(batch), context))  # fmt: skip
            finished = [state for state in batch if state.generated >= state.request.output_tokens]
        simulation.steps.append(record)
        for state in finished:
            state.finish_s = now
            free += state.kv_tokens
            if state in running:
                running.remove(state)
    simulation.end_s = now
    return simulation


def _bucket(times: StepTimes, kind: str, *shape: int) -> tuple[int, ...]:
    bucket = getattr(times, "bucket", None)
    return bucket(kind, *shape) if bucket is not None else shape
