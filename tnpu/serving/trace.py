"""Request traces: each request's arrival time, prompt length and output length.

From a file, JSON or CSV:

* JSON: a list of objects, or an object whose `requests` is one, each with
  `arrival_s`, `prompt_tokens` and `output_tokens`;
* CSV: a header naming those three columns (others are ignored), a row per
  request.

Or from a generator (`generate`, the `poisson:` spec the command takes):
Poisson arrivals at a rate, prompt and output lengths drawn uniformly from
ranges, seeded.  Requests are served in arrival order (a stable sort: ties
keep the file's order).  A trace with a negative or non-finite time, a
length below 1 or no request at all is refused with one line naming the
file and the request.
"""

from __future__ import annotations

import csv
import json
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIELDS = ("arrival_s", "prompt_tokens", "output_tokens")


class TraceError(ValueError):
    """A trace that cannot be served; the message is one line."""


@dataclass(frozen=True)
class Request:
    id: int
    """The request's position in the trace, from 0."""
    arrival_s: float
    prompt_tokens: int
    output_tokens: int


def read_trace(path: Path) -> list[Request]:
    """The requests of a JSON or CSV file (module docstring), validated, in arrival order."""
    if not path.is_file():
        raise TraceError(f"{path}: no such file")
    text = path.read_text()
    if path.suffix == ".csv":
        rows: Any = list(csv.DictReader(text.splitlines()))
        if rows and (missing := [name for name in FIELDS if name not in rows[0]]):
            raise TraceError(f"{path}: the header has no column {missing[0]} (expected {', '.join(FIELDS)})")
    else:
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as error:
            raise TraceError(f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
        if isinstance(rows, dict):
            rows = rows.get("requests")
        if not isinstance(rows, list):
            raise TraceError(f"{path}: expected a list of requests, or an object with one under 'requests'")
    return requests_from_rows(rows, str(path))


def requests_from_rows(rows: Iterable[Any], origin: str) -> list[Request]:
    """Requests of mappings with the three fields, validated (one line naming `origin` and the request)."""
    requests = []
    for number, row in enumerate(rows):
        where = f"{origin}: request {number}"
        if not isinstance(row, Mapping):
            raise TraceError(f"{where}: expected an object with {', '.join(FIELDS)}, got {row!r}")
        for name in FIELDS:
            if name not in row or row[name] in (None, ""):
                raise TraceError(f"{where}: {name} is missing")
        arrival = _number(row["arrival_s"], f"{where}: arrival_s")
        if not math.isfinite(arrival) or arrival < 0:
            raise TraceError(f"{where}: arrival_s must be a finite time >= 0, got {row['arrival_s']}")
        prompt = _count(row["prompt_tokens"], f"{where}: prompt_tokens")
        output = _count(row["output_tokens"], f"{where}: output_tokens")
        requests.append(Request(number, arrival, prompt, output))
    if not requests:
        raise TraceError(f"{origin}: no requests")
    return sorted(requests, key=lambda request: request.arrival_s)


def _number(value: Any, where: str) -> float:
    try:
        if isinstance(value, bool):
            raise ValueError
        return float(value)
    except (TypeError, ValueError):
        raise TraceError(f"{where}: expected a number, got {value!r}") from None


def _count(value: Any, where: str) -> int:
    number = _number(value, where)
    if not number.is_integer() or number < 1:
        raise TraceError(f"{where}: expected a whole number of tokens >= 1, got {value!r}")
    return int(number)


def generate(requests: int, rate_per_s: float, prompt: tuple[int, int], output: tuple[int, int],
             seed: int = 0) -> list[Request]:  # fmt: skip
    """`requests` requests arriving as a Poisson process of `rate_per_s` from time 0 (exponential gaps;
    the first at its gap after 0), lengths uniform over the inclusive ranges `prompt` and `output`."""
    if requests < 1 or rate_per_s <= 0:
        raise TraceError(f"a generated trace needs requests >= 1 and rate > 0, got {requests} and {rate_per_s}")
    for name, (low, high) in (("prompt", prompt), ("output", output)):
        if not 1 <= low <= high:
            raise TraceError(f"a generated trace's {name} range must be 1 <= LOW <= HIGH, got {low}-{high}")
    rng = random.Random(seed)
    now, made = 0.0, []
    for number in range(requests):
        now += rng.expovariate(rate_per_s)
        made.append(Request(number, now, rng.randint(*prompt), rng.randint(*output)))
    return made


def parse_generator(spec: str) -> list[Request]:
    """`poisson:rate=R,requests=N,prompt=LO-HI,output=LO-HI,seed=S` (a length may be one number)."""
    kind, _, rest = spec.partition(":")
    if kind != "poisson":
        raise TraceError(f"trace '{spec}': not a file, and not a generator like "
                         "poisson:rate=4,requests=100,prompt=128-512,output=32-128,seed=0")  # fmt: skip
    values = {"rate": "1", "requests": "100", "prompt": "128-512", "output": "32-128", "seed": "0"}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key not in values or not value:
            raise TraceError(f"trace '{spec}': unknown or empty setting '{item}' (settings: {', '.join(values)})")
        values[key] = value
    try:
        ranges = {}
        for name in ("prompt", "output"):
            low, _, high = values[name].partition("-")
            ranges[name] = (int(low), int(high or low))
        return generate(int(values["requests"]), float(values["rate"]), ranges["prompt"], ranges["output"],
                        int(values["seed"]))  # fmt: skip
    except ValueError as error:
        if isinstance(error, TraceError):
            raise
        raise TraceError(f"trace '{spec}': {error}") from None


def write_trace(requests: Iterable[Request], path: Path) -> None:
    """The requests as CSV (the format `read_trace` reads)."""
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(FIELDS)
        for request in requests:
            writer.writerow([f"{request.arrival_s:.6f}", request.prompt_tokens, request.output_tokens])
