"""Streams of requests on a partitioned chip: arrivals, the run, and what it reports.

A `Stream` is a program on a partition with its requests' arrival times, in
microseconds: given (`arrivals_us`, a trace) or drawn from a Poisson process
(`poisson_arrivals`, seeded).  `simulate` runs every stream's requests on
the chip (`chip.ChipScheduler`) and returns a `Run`: each request's arrival,
start, finish and latency; per stream the latency percentiles (p50, p90,
p99, nearest rank) and mean; the chip's utilization over the run (each
core's time serving, its systolic arrays' and vector units' busy time, the
DRAM's); a table, JSON, and a Perfetto trace with one track per stream and
one per core.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tnpu.scheduler.chip import Chip, ChipScheduler, Request, ScheduleError
from tnpu.scheduler.program import Program

PERCENTILES = (50, 90, 99)


@dataclass(frozen=True)
class Stream:
    """A program's requests on one partition, arriving at `arrivals_us` (µs from the run's start)."""

    name: str
    program: Program
    partition: int
    arrivals_us: tuple[float, ...]


def poisson_arrivals(rate_per_s: float, requests: int, seed: int = 0, start_us: float = 0.0) -> tuple[float, ...]:
    """`requests` arrival times (µs) of a Poisson process of `rate_per_s` requests per second.

    The gaps are exponential with mean `1e6 / rate_per_s` µs, drawn by numpy's
    `default_rng(seed)`: the same seed gives the same times; the first
    request arrives one gap after `start_us`.
    """
    if not rate_per_s > 0 or not math.isfinite(rate_per_s):
        raise ScheduleError(f"Poisson arrivals: the rate must be a positive number of requests per second, got {rate_per_s}")
    if requests < 0:
        raise ScheduleError(f"Poisson arrivals: expected a number of requests >= 0, got {requests}")
    gaps = np.random.default_rng(seed).exponential(1e6 / rate_per_s, requests)
    return tuple(float(t) for t in start_us + np.cumsum(gaps))


def check_arrivals(times: Sequence[float], origin: str) -> tuple[float, ...]:
    """Arrival times as given: finite, not negative; one-line `ScheduleError` naming the first bad one."""
    for number, time in enumerate(times):
        if not isinstance(time, int | float) or isinstance(time, bool) or not math.isfinite(time):
            raise ScheduleError(f"{origin}: arrival {number}: expected a time in µs, got {time!r}")
        if time < 0:
            raise ScheduleError(f"{origin}: arrival {number}: time {time} µs is negative")
    return tuple(float(t) for t in times)


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank `p`-th percentile: the smallest value with at least p% of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class Run:
    """Every request of a run on a chip, finished, and what they add up to."""

    chip: Chip
    streams: tuple[Stream, ...]
    requests: list[Request]
    dram_cycles: float

    @property
    def cycles(self) -> float:
        """From time 0 to the last request's finish."""
        return max((r.finish for r in self.requests if r.finish is not None), default=0.0)

    def us(self, cycles: float) -> float:
        return self.chip.npu.cycles_to_us(cycles)

    def of(self, stream: str) -> list[Request]:
        return [r for r in self.requests if r.stream == stream]

    def latency_stats(self, stream: str) -> dict[str, float]:
        """`solo`, `mean` and `pNN` latencies of a stream's requests, in µs."""
        requests = self.of(stream)
        program = next(s.program for s in self.streams if s.name == stream)
        stats = {"requests": len(requests), "solo_us": self.us(program.solo_cycles)}
        if requests:
            latencies = [self.us(r.latency) for r in requests]
            stats["mean_us"] = sum(latencies) / len(latencies)
            stats |= {f"p{p}_us": percentile(latencies, p) for p in PERCENTILES}
            stats["mean_queued_us"] = sum(self.us(r.queued) for r in requests) / len(requests)
        return stats

    def utilization(self) -> dict[str, Any]:
        """Over the run (time 0 to the last finish): each core's time serving requests, the chip's
        systolic arrays' and vector units' busy time, and the DRAM's (fractions of 1)."""
        span = self.cycles
        npu = self.chip.npu
        if span <= 0:
            return {"cores": [0.0] * npu.num_cores, "matrix": 0.0, "vector": 0.0, "dram": 0.0}
        cores = [0.0] * npu.num_cores
        matrix = vector = 0.0
        for request in self.requests:
            for core in self.chip.cores(request.partition):
                cores[core] += request.service / span
            matrix += sum(step.matrix_busy_cycles for step in request.program.steps)
            vector += sum(step.vector_busy_cycles for step in request.program.steps)
        return {
            "cores": cores,
            "matrix": matrix / (npu.num_cores * span),
            "vector": vector / (npu.num_cores * span),
            "dram": self.dram_cycles / span,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "npu": self.chip.npu.name,
            "partitions": list(self.chip.partitions),
            "cycles": self.cycles,
            "time_us": self.us(self.cycles),
            "utilization": self.utilization(),
            "streams": {
                s.name: {"program": s.program.name, "partition": s.partition,
                         "cores": list(self.chip.cores(s.partition)), **self.latency_stats(s.name)}
                for s in self.streams
            },
            "requests": [
                {"stream": r.stream, "index": r.index, "arrival_us": self.us(r.arrival),
                 "start_us": self.us(r.start or 0.0), "finish_us": self.us(r.finish or 0.0),
                 "latency_us": self.us(r.latency), "queued_us": self.us(r.queued)}
                for r in self.requests
            ],
        }  # fmt: skip

    def table(self) -> str:
        util = self.utilization()
        lines = [
            f"{self.chip.npu.name}, partitions {list(self.chip.partitions)} (cores), "
            f"{len(self.requests)} requests in {self.us(self.cycles):,.1f} µs",
            f"{'stream':<16} {'part':>4} {'reqs':>5} {'solo µs':>10} {'mean µs':>10} "
            f"{'p50 µs':>10} {'p90 µs':>10} {'p99 µs':>10} {'queued µs':>10}",
        ]
        for stream in self.streams:
            s = self.latency_stats(stream.name)
            row = [f"{s.get(k, float('nan')):>10,.1f}" for k in ("solo_us", "mean_us", "p50_us", "p90_us", "p99_us", "mean_queued_us")]
            lines.append(f"{stream.name:<16} {stream.partition:>4} {s['requests']:>5} {' '.join(row)}")
        cores = ", ".join(f"{u:.1%}" for u in util["cores"])
        lines.append(
            f"utilization: cores {cores}; systolic arrays {util['matrix']:.1%}, "
            f"vector units {util['vector']:.1%}, DRAM {util['dram']:.1%}"
        )
        return "\n".join(lines)

    def chrome_trace(self) -> dict[str, Any]:
        """Perfetto's JSON: a `streams` process with a track per stream (each request's service, its
        arrival an instant), a `cores` process with a track per core (each step it ran)."""
        npu = self.chip.npu
        events: list[dict[str, Any]] = [
            _metadata("process_name", 0, 0, "streams"), _metadata("process_name", 1, 0, "cores"),
        ]
        for tid, stream in enumerate(self.streams):
            events.append(_metadata("thread_name", 0, tid, f"{stream.name} (partition {stream.partition})"))
        for core in range(npu.num_cores):
            events.append(_metadata("thread_name", 1, core, f"core {core}"))
        track = {s.name: tid for tid, s in enumerate(self.streams)}
        for r in self.requests:
            tid = track[r.stream]
            events.append({"name": f"{r.stream} #{r.index} arrives", "ph": "i", "s": "t", "pid": 0, "tid": tid,
                           "ts": self.us(r.arrival)})
            events.append(_complete(
                f"{r.stream} #{r.index}", 0, tid, self.us(r.start or 0.0), self.us(r.service),
                {"arrival_us": self.us(r.arrival), "queued_us": self.us(r.queued), "latency_us": self.us(r.latency)},
            ))
            for name, start, end in r.step_spans:
                for core in self.chip.cores(r.partition):
                    events.append(_complete(name, 1, core, self.us(start), self.us(end - start),
                                            {"stream": r.stream, "request": r.index}))
        return {"traceEvents": events, "displayTimeUnit": "ns", "otherData": {"npu": npu.name}}


def simulate(chip: Chip, streams: Sequence[Stream]) -> Run:
    """Every stream's requests on `chip`, run to completion."""
    names = [s.name for s in streams]
    if repeated := [n for n in names if names.count(n) > 1]:
        raise ScheduleError(f"streams: '{repeated[0]}' is named twice")
    scheduler = ChipScheduler(chip)
    for stream in streams:
        for index, time in enumerate(check_arrivals(stream.arrivals_us, stream.name)):
            scheduler.submit(stream.name, index, stream.program, stream.partition, time * chip.npu.core_freq_mhz)
    requests = scheduler.run()
    requests.sort(key=lambda r: (r.arrival, r.stream, r.index))
    return Run(chip, tuple(streams), requests, scheduler.dram_cycles)


def _metadata(kind: str, pid: int, tid: int, name: str) -> dict[str, Any]:
    return {"name": kind, "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}}


def _complete(name: str, pid: int, tid: int, start_us: float, duration_us: float, args: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "ph": "X", "pid": pid, "tid": tid, "ts": start_us, "dur": duration_us, "args": args}
