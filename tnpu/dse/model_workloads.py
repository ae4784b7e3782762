"""Workloads of the model suite: each entry's graph of launches, captured once and cached.

`--model NAME` names an entry of the suite (`tnpu model --list`) or a
`FILE.py:FACTORY`; `--suite` is every entry of kind `model`.  An entry's
workload is the launches its program makes when compiled by the `tnpu`
backend and run once (`models.capture`), in order, each kernel as its tile
IR after `tnpu-to-tile`: a study compiles nothing again but the NPU's
steps, as for a case.  The tile IR is printed without source locations,
which name Inductor's cache files of the run that captured it, so that the
same kernel has the same hash whoever captured it and wherever.  A launch
is named after its kernel; the N-th launch of a kernel of that name is
`KERNEL#N` (a kernel of a repeated layer, or two graphs' kernels that
Inductor named alike).

Capturing compiles the whole model (tens of seconds to minutes), so each
entry's workload is kept as JSON in tnpu's cache (`TNPU_CACHE_DIR`,
`dse-workloads/ENTRY-KEY.json`: each distinct kernel's tile IR once, each
launch by its kernel's number, the capture's seconds), KEY a digest of tnpu's sources (the
suite's code and the compiler are among them), the versions of torch and
transformers, and a `FILE.py`'s bytes.  A resumed or repeated study, or
another study of the same model, reads it instead of compiling; a change
to tnpu captures again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from tnpu.backend_riscv.toolchain import cache_root
from tnpu.dse.workload import KernelLaunch, Workload, WorkloadError
from tnpu.models.suite_entry import SuiteEntry
from tnpu.timing.launch_binding import Launch
from tnpu.triton_backend.binary import source_digest

FORMAT = "tnpu-dse-workload/1"


def suite_models() -> list[str]:
    """The name of every model entry of the suite (its `op` entries left out), in the suite's order."""
    from tnpu.models.suite import entries

    return [name for name, entry in entries().items() if entry.kind == "model"]


def model_workloads(
    specs: Sequence[str], progress: Callable[[str], None] | None = None
) -> list[Workload]:
    """The workload of each entry (`tnpu model`'s MODEL), captured or read from the cache.

    Every name is checked before anything is captured; `progress` gets a
    line before and after each capture.  Raises `WorkloadError` (one line)
    for an unknown entry or one tnpu cannot compile and run.
    """
    from tnpu.models.suite import SuiteError, entry

    try:
        entries = [entry(spec) for spec in dict.fromkeys(specs)]
    except SuiteError as error:
        raise WorkloadError(str(error)) from None
    workloads = []
    for suite_entry in entries:
        path = cache_root() / "dse-workloads" / f"{_file_name(suite_entry.name)}-{_cache_key(suite_entry.name)}.json"
        if not path.is_file():
            _capture(suite_entry, path, progress)
        workloads.append(_read_workload(path))
    return workloads


def _read_workload(path: Path) -> Workload:
    """The workload a capture wrote to `path`."""
    data = json.loads(path.read_text())
    if data.get("format") != FORMAT:
        raise WorkloadError(f"{path}: not a captured workload of format {FORMAT}")
    kernels = data["kernels"]
    seen: dict[str, int] = {}
    launches = []
    for launch in data["launches"]:
        kernel = kernels[launch["kernel"]]
        seen[kernel["name"]] = seen.get(kernel["name"], 0) + 1
        name = kernel["name"] if seen[kernel["name"]] == 1 else f"{kernel['name']}#{seen[kernel['name']]}"
        timing = Launch(
            tuple(launch["grid"]), launch["arguments"],
            {int(position): size for position, size in launch["buffer_bytes"].items()},
        )
        launches.append(KernelLaunch(name, kernel["tile"], kernel["name"], f"{path}:{kernel['name']}", timing, "tile"))
    return Workload(data["entry"], tuple(launches))


def _capture(suite_entry: SuiteEntry, path: Path, progress: Callable[[str], None] | None) -> None:
    """Capture `suite_entry`'s launches and write them to `path` (atomically)."""
    from tnpu.models.capture import CaptureError, capture_launches

    if progress is not None:
        progress(f"capturing {suite_entry.name}: compiling it with the tnpu backend and running it once")
    start = time.perf_counter()
    try:
        captured = capture_launches(suite_entry)
    except CaptureError as error:
        raise WorkloadError(str(error)) from None
    seconds = time.perf_counter() - start
    kernels: dict[tuple[str, str], int] = {}
    texts: dict[int, str] = {}
    launches = []
    for launch in captured:
        kernel = launch.kernel
        if id(kernel) not in texts:
            texts[id(kernel)] = str(kernel.tile)
        number = kernels.setdefault((kernel.name, texts[id(kernel)]), len(kernels))
        launches.append({
            "kernel": number, "grid": list(launch.launch.grid), "arguments": list(launch.launch.arguments),
            "buffer_bytes": {str(position): size for position, size in sorted(launch.launch.buffer_bytes.items())},
        })  # fmt: skip
    data = {
        "format": FORMAT, "entry": suite_entry.name, "capture_seconds": round(seconds, 1),
        "kernels": [{"name": name, "tile": text} for name, text in kernels],
        "launches": launches,
    }  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{time.time_ns()}.partial")
    partial.write_text(json.dumps(data, indent=1) + "\n")
    partial.replace(path)
    if progress is not None:
        progress(f"captured {suite_entry.name}: {len(launches)} launches of {len(kernels)} kernels "
                 f"in {seconds:.1f} s (kept in {path})")  # fmt: skip


def _cache_key(spec: str) -> str:
    """What decides an entry's launches: tnpu's sources, torch's and transformers' versions, a file's bytes."""
    from tnpu.models.suite import factory_file

    parts = [spec, source_digest(), *(_version(package) for package in ("torch", "transformers"))]
    file = factory_file(spec)
    if file is not None:
        parts.append(hashlib.sha256(file.read_bytes()).hexdigest())
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _file_name(spec: str) -> str:
    """`spec` as a file name (a FILE.py:FACTORY holds slashes and a colon)."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in spec)
