"""Step times: the model's prefill and decode steps compiled per shape bucket, timed on an NPU, tabled.

A bucket is a prefill of T tokens (one prompt), or a decode step of B
requests over C cached positions each.  Each bucket's program
(`model.prefill_program`, `model.decode_program`: one layer) is compiled
with the `tnpu` backend in the `timing` execution mode (compiled and timed,
nothing emulated; docs/torch-compile.md), without autotuning, the GEMM
blocks mapped for the NPU given (`mapping`), and run once inside
`profile.capture()`; its launches are then timed on each NPU asked for.
The step's time is the sum of its launches' times (a kernel boundary is a
global barrier) times the model's layers.

A step between buckets takes the time of the next bucket up: a prompt of
300 tokens the 512-token prefill's, a batch of 5 the batch-8 decode's, a
context of 700 the 1,024-position decode's — what an engine that pads to
static shapes runs, and an upper bound otherwise.  A prompt longer than
the largest prefill bucket, or a request whose prompt and output exceed
the largest context, is refused (`bucket_for`).

Both are cached in tnpu's cache (`TNPU_CACHE_DIR`, `serving/`): each
bucket's captured launches (its kernels' tile IR and the launches, keyed
by the layer's shapes (not the model's depth or name: every layer is
the same program), the mapping NPU, the bucket, torch's version and a digest of
the tnpu sources that decide kernels and times), and each timed table
(keyed by that and the timing NPU's description), so serving another trace,
or the same one again, compiles and times nothing.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tnpu.backend_riscv.toolchain import cache_root
from tnpu.compiler.kernel import Kernel
from tnpu.serving.model import DecoderSpec
from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import NPUConfig

FORMAT = "tnpu-serving-steps/1"

DEFAULT_PREFILL = (64, 128, 256, 512)
"""Up to 512, the buckets docs/serving.md's figures are for; `--prefill-buckets` gives others."""
DEFAULT_BATCHES = (1, 2, 4, 8, 16, 32, 64)
DEFAULT_CONTEXTS = (256, 512, 1024, 2048)

IRRELEVANT_SOURCES = ("tools/", "dse/", "models/", "execution/", "serving/trace.py", "serving/scheduler.py",
                      "serving/metrics.py", "serving/serve.py", "serving/plots.py", "serving/__init__.py")  # fmt: skip
"""tnpu's sources that decide no kernel and no time: left out of the cache keys, so that a change to
the serving loop does not compile the model again."""


class BucketError(ValueError):
    """A step no bucket holds, or bad buckets; the message is one line."""


@dataclass(frozen=True)
class Buckets:
    prefill: tuple[int, ...] = DEFAULT_PREFILL
    """Prompt lengths, tokens."""
    batches: tuple[int, ...] = DEFAULT_BATCHES
    contexts: tuple[int, ...] = DEFAULT_CONTEXTS
    """Cached positions per request of a decode step."""

    def __post_init__(self) -> None:
        for item in fields(self):
            values = getattr(self, item.name)
            if not values or any(not isinstance(v, int) or v < 1 for v in values) or list(values) != sorted(set(values)):
                raise BucketError(f"{item.name} buckets must be increasing whole numbers >= 1, got {values}")

    def shapes(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("prefill", (tokens,)) for tokens in self.prefill] + [  # pyright: ignore[reportReturnType]  # list is invariant; every shape is (kind, ints)
            ("decode", (batch, context)) for batch in self.batches for context in self.contexts
        ]


def bucket_for(buckets: Sequence[int], value: int, what: str) -> int:
    """The smallest bucket >= `value`; `BucketError` when `value` is beyond the largest."""
    index = bisect.bisect_left(buckets, value)
    if index == len(buckets):
        raise BucketError(f"{what} {value} is beyond the largest bucket, {buckets[-1]}")
    return buckets[index]


@dataclass(frozen=True)
class BucketTime:
    seconds: float
    """The whole model's step: one layer's launches times the layers."""
    launches: int
    """Launches of one layer."""
    matrix_utilization: float
    """The systolic arrays' busy share of the step (cycle-weighted over its launches)."""
    dram_utilization: float


@dataclass
class StepTable:
    """The time of every bucket of one model on one NPU (`prefill`, `decode`: a step's seconds)."""

    model: str
    npu: str
    buckets: Buckets
    times: dict[tuple[str, tuple[int, ...]], BucketTime] = field(default_factory=dict)

    def bucket(self, kind: str, *shape: int) -> tuple[int, ...]:
        if kind == "prefill":
            return (bucket_for(self.buckets.prefill, shape[0], "a prompt of tokens"),)
        return (bucket_for(self.buckets.batches, shape[0], "a decode batch of"),
                bucket_for(self.buckets.contexts, shape[1], "a context of tokens"))  # fmt: skip

    def prefill(self, tokens: int) -> float:
        return self.times["prefill", self.bucket("prefill", tokens)].seconds

    def decode(self, batch: int, context: int) -> float:
        return self.times["decode", self.bucket("decode", batch, context)].seconds

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "model": self.model, "npu": self.npu, "buckets": asdict(self.buckets),
            "times": [{"kind": kind, "shape": list(shape), **asdict(time)} for (kind, shape), time in self.times.items()],
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepTable:
        buckets = Buckets(**{key: tuple(value) for key, value in data["buckets"].items()})
        times = {
            (row["kind"], tuple(row["shape"])): BucketTime(
                row["seconds"], row["launches"], row["matrix_utilization"], row["dram_utilization"]
            )
            for row in data["times"]
        }
        return cls(data["model"], data["npu"], buckets, times)


def step_table(spec: DecoderSpec, npu: NPUConfig, mapping: str, buckets: Buckets = Buckets(),
               progress: Callable[[str], None] | None = None) -> StepTable:  # fmt: skip
    """The table of `spec` on `npu`, its kernels compiled for the NPU `mapping` (a preset or YAML
    file; `npu`'s own spec for a plain run), from the cache or built (module docstring)."""
    layer_shape = {key: value for key, value in spec.key().items() if key not in ("name", "layers")}
    capture_key = _digest([layer_shape, _mapping_key(mapping), _sources(), version("torch")])
    path = cache_root() / "serving" / "tables" / f"{spec.name}-{npu.name}-{_digest([capture_key, spec.key(), config_key(npu), asdict(buckets)])}.json"
    if path.is_file():
        return StepTable.from_json(json.loads(path.read_text()))
    table = StepTable(spec.name, npu.name, buckets)
    layer = None
    for kind, shape in buckets.shapes():
        launch_path = cache_root() / "serving" / "launches" / f"{kind}-{'x'.join(map(str, shape))}-{capture_key}.json"
        if not launch_path.is_file():
            if layer is None:
                layer = _layer(spec)
            _capture(spec, layer, mapping, kind, shape, launch_path, progress)
        table.times[kind, shape] = _time(spec, json.loads(launch_path.read_text()), npu)
    _write(path, table.to_json())
    return table


def config_key(npu: NPUConfig) -> str:
    """A digest of an NPU's description, every key but its name."""
    values = {item.name: getattr(npu, item.name) for item in fields(npu) if item.name != "name"}
    return _digest(values)


def _mapping_key(mapping: str) -> str:
    path = Path(mapping)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.suffix in (".yaml", ".yml") else mapping


def _layer(spec: DecoderSpec):
    import torch

    from tnpu.serving.model import DecoderLayer

    torch.manual_seed(0)
    return DecoderLayer(spec).eval()


def _capture(spec: DecoderSpec, layer: Any, mapping: str, kind: str, shape: tuple[int, ...], path: Path,
             progress: Callable[[str], None] | None) -> None:  # fmt: skip
    """Compile one bucket's program for `mapping` in the timing mode, run it once, write its launches."""
    import torch

    from tnpu.serving.model import decode_program, prefill_program
    from tnpu.triton_backend.profile import capture

    start = time.perf_counter()
    module, inputs = prefill_program(spec, layer, *shape) if kind == "prefill" else decode_program(spec, layer, *shape)
    torch._dynamo.reset()
    options = {"autotune": False, "execution": "timing", "config": mapping}
    compiled = torch.compile(module, backend="tnpu", options=options, dynamic=False)
    try:
        with torch.no_grad(), capture() as launches:
            compiled(*inputs)
    except Exception as error:  # Inductor's or Triton's refusal of a kernel: one line, its last
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = next((line for line in reversed(lines) if "Error" in line), lines[-1] if lines else "")
        raise BucketError(f"{spec.name}: the {kind} bucket {'x'.join(map(str, shape))} does not compile for "
                          f"{mapping}: {type(error).__name__}: {reason[:300]}") from None
    texts: dict[int, str] = {}
    kernels: dict[tuple[str, str], int] = {}
    rows = []
    for launch in launches:
        if id(launch.kernel) not in texts:
            texts[id(launch.kernel)] = str(launch.kernel.tile)
        number = kernels.setdefault((launch.kernel.name, texts[id(launch.kernel)]), len(kernels))
        rows.append({
            "kernel": number, "grid": list(launch.launch.grid), "arguments": list(launch.launch.arguments),
            "buffer_bytes": {str(k): v for k, v in sorted(launch.launch.buffer_bytes.items())},
        })  # fmt: skip
    seconds = time.perf_counter() - start
    _write(path, {
        "format": FORMAT, "model": spec.key(), "kind": kind, "shape": list(shape), "mapping": mapping,
        "capture_seconds": round(seconds, 1), "kernels": [{"name": n, "tile": t} for n, t in kernels], "launches": rows,
    })  # fmt: skip
    if progress is not None:
        progress(f"compiled {spec.name} {kind} {'x'.join(map(str, shape))} for {mapping}: "
                 f"{len(rows)} launches of {len(kernels)} kernels in {seconds:.1f} s")  # fmt: skip


def _time(spec: DecoderSpec, captured: dict[str, Any], npu: NPUConfig) -> BucketTime:
    """One bucket's launches timed on `npu`; a launch repeated alike is timed once."""
    kernels = [Kernel.from_tile(k["tile"], k["name"], source=k["name"]) for k in captured["kernels"]]
    timers = [kernel.timer(npu) for kernel in kernels]
    reports: dict[str, Any] = {}
    cycles = matrix = dram = 0.0
    for row in captured["launches"]:
        key = json.dumps(row, sort_keys=True)
        if key not in reports:
            launch = Launch(tuple(row["grid"]), row["arguments"], {int(k): v for k, v in row["buffer_bytes"].items()})
            reports[key] = timers[row["kernel"]].time(launch)
        report = reports[key]
        cycles += report.cycles
        matrix += report.cycles * report.units["matrix"].utilization
        dram += report.cycles * report.units["dram"].utilization
    seconds = spec.layers * npu.cycles_to_us(cycles) * 1e-6
    return BucketTime(seconds, len(captured["launches"]), matrix / cycles if cycles else 0.0,
                      dram / cycles if cycles else 0.0)  # fmt: skip


def _sources() -> str:
    """A digest of tnpu's sources but `IRRELEVANT_SOURCES`."""
    digest = hashlib.sha256()
    root = resources.files("tnpu")
    for path in sorted(_files(root, ""), key=lambda item: item[0]):
        name, entry = path
        if name.startswith(IRRELEVANT_SOURCES):
            continue
        digest.update(name.encode())
        digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]


def _files(directory: Any, prefix: str) -> list[tuple[str, Any]]:
    found = []
    for entry in directory.iterdir():
        if entry.is_dir():
            if entry.name != "__pycache__":
                found += _files(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith((".py", ".c", ".h", ".yaml")):
            found.append((f"{prefix}{entry.name}", entry))
    return found


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=list).encode()).hexdigest()[:16]


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{time.time_ns()}.partial")
    partial.write_text(json.dumps(data, indent=1) + "\n")
    partial.replace(path)
