"""Every launch timed on the modeled NPU, and the profiler that collects them.

    import tnpu
    with tnpu.profile(config="tpuv3") as prof:
        kernel[grid](x, y, out, n, BLOCK=1024)
    prof.launches[-1].cycles, prof.total_cycles
    print(prof.table())
    prof.export_chrome_trace("trace.json")   # Perfetto: the launches in order

Each launch through the Triton backend is timed (`LaunchRecord`) on the
NPU of the innermost active profile, else of the `config` setting
(`TNPU_CONFIG`), and recorded in every active profile.  The *modeled clock*
(`modeled_time_us`) is the modeled time of all timed launches so far: the
driver's events read it, so that `triton.testing.do_bench` reports modeled
milliseconds.  A launch the timer cannot describe still runs; its record
says why it has no time, and it leaves the clock where it was.

Launches made while benchmarking (`benchmarking()`: autotuning, which
times each candidate without running it) are not the program's: each
active profile lists them apart (`benchmarked`), and they leave the
modeled clock alone.  `fallbacks` lists the operations of a program that
ran on the host instead of on tnpu; the torch.compile route records them.

`capture()` collects what a workload is made of rather than its times:
each launch of the program (not the benchmarked ones) with its compiled
kernel and its `Launch`, from which `tnpu dse` re-times a model's graph
on other NPUs (docs/dse.md).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tnpu.compiler.kernel import Kernel
from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.report import TimingReport
from tnpu.timing.trace import chrome_trace
from tnpu.triton_backend.settings import npu_config, settings


def _reported(name: str) -> Any:
    """A property of a `LaunchRecord`: its report's `name`, None when the launch is untimed."""
    return property(lambda record: None if record.report is None else getattr(record.report, name),
                    doc=f"The report's `{name}` (None when untimed).")  # fmt: skip


@dataclass(frozen=True)
class LaunchRecord:
    """One `kernel[grid](...)` call: what ran, and its time on the modeled NPU."""

    kernel: str
    grid: tuple[int, int, int]
    execution: str
    """`qemu`, `interp`, `replayed` (outputs of an identical earlier launch) or `not run` (timed only)."""
    wall_us: float
    """Host time the launch took (running the kernel and timing it)."""
    report: TimingReport | None
    """None when the timer could not describe the launch (see `untimed`)."""
    untimed: str | None = None

    npu = _reported("npu")
    cycles = _reported("cycles")
    time_us = _reported("time_us")
    roofline_cycles = _reported("roofline_cycles")
    roofline_ratio = _reported("roofline_ratio")
    compulsory_cycles = _reported("compulsory_cycles")
    compulsory_ratio = _reported("compulsory_ratio")
    bytes_read = _reported("bytes_read")
    bytes_written = _reported("bytes_written")
    flops = _reported("flops")


@dataclass(frozen=True)
class FallbackRecord:
    """An operation of a program that ran on the host, not on tnpu."""

    op: str
    """What ran: `aten.mm.default`, `extern_kernels.bmm`, ..."""
    kind: str
    """How it was called: `extern kernel`, `aten fallback`, ..."""
    nodes: tuple[str, ...]
    """The graph nodes it came from (a torch.fx graph's node names)."""
    source: str = ""
    """Where in the program's code it came from (`file:line: code`), when the graph knows."""


@dataclass(eq=False)  # a profile is its scope, not its contents: two alike are still two
class Profile:
    """The launches made while the profile was active, in order, all timed on `npu`."""

    npu: NPUConfig
    spec: str
    """The NPU as given: a preset's name or a YAML file's path (what a compile in the scope is for)."""
    trace: bool = False
    """Whether each launch's simulation recorded its units' tasks (for the Chrome trace)."""
    launches: list[LaunchRecord] = field(default_factory=list)
    benchmarked: list[LaunchRecord] = field(default_factory=list)
    """Launches timed, not run, while benchmarking (autotuning): not part of the program's time."""
    fallbacks: list[FallbackRecord] = field(default_factory=list)
    """Operations that ran on the host instead (the torch.compile route records them), in order."""

    @property
    def config(self) -> str:
        return self.npu.name

    @property
    def timed(self) -> list[LaunchRecord]:
        return [record for record in self.launches if record.report is not None]

    @property
    def total_cycles(self) -> float:
        return sum(record.report.cycles for record in self.timed)  # pyright: ignore[reportOptionalMemberAccess]  # a timed record has a report

    @property
    def total_time_us(self) -> float:
        return sum(record.report.time_us for record in self.timed)  # pyright: ignore[reportOptionalMemberAccess]  # a timed record has a report

    def table(self) -> str:
        """One line per launch, then the total: kernel, grid, cycles, µs, × roofline,
        × compulsory roofline, bytes, FLOPs."""
        header = ("kernel", "grid", "run", "cycles", "time µs", "× roofline", "× compulsory", "bytes r/w", "FLOPs")
        rows = [header]
        for record in self.launches:
            grid = "×".join(map(str, record.grid))
            if record.report is None:
                rows.append((record.kernel, grid, record.execution, "-", "-", "-", "-", "-",  # pyright: ignore[reportArgumentType]  # rows typed by the header's string literals
                             f"untimed: {record.untimed}"))  # fmt: skip
                continue
            report = record.report
            rows.append((  # pyright: ignore[reportArgumentType]  # rows typed by the header's string literals
                record.kernel, grid, record.execution, f"{report.cycles:,.0f}", f"{report.time_us:,.2f}",
                *("-" if ratio is None else f"{ratio:.2f}" for ratio in (report.roofline_ratio, report.compulsory_ratio)),
                f"{report.bytes_read:,}/{report.bytes_written:,}", f"{report.flops:,}",
            ))  # fmt: skip
        rows.append(("total", f"{len(self.launches)} launches", "", f"{self.total_cycles:,.0f}",  # pyright: ignore[reportArgumentType]  # rows typed by the header's string literals
                     f"{self.total_time_us:,.2f}", "", "", "", ""))  # fmt: skip
        widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        lines.insert(1, "-" * len(lines[0]))
        return "\n".join(lines) + f"\n(modeled on {self.npu.name})"

    def export_chrome_trace(self, path: str | Path) -> None:
        """The timed launches, back to back on the modeled timeline, as a Perfetto/Chrome trace."""
        reports = [record.report for record in self.timed]
        Path(path).write_text(json.dumps(chrome_trace(reports, self.npu)))  # pyright: ignore[reportArgumentType]


_ACTIVE: list[Profile] = []
_CLOCK_US = [0.0]


@contextlib.contextmanager
def profile(config: str | None = None, *, trace: bool = False) -> Iterator[Profile]:
    """Record every launch in the scope, timed on `config` (a preset or YAML file; default
    the `config` setting, `TNPU_CONFIG`); `trace=True` also records each unit's tasks."""
    spec = config or settings.npu_spec()
    active = Profile(npu_config(spec), spec, trace)
    _ACTIVE.append(active)
    try:
        yield active
    finally:
        _ACTIVE.remove(active)


def npu_in_force() -> NPUConfig:
    """The NPU a launch is timed on now (the clock's), and so the one a kernel's scratchpad is
    checked against and a compile maps its kernels for: the innermost active profile's, else the
    `config` setting's."""
    return _ACTIVE[-1].npu if _ACTIVE else settings.npu()


def npu_spec_in_force() -> str:
    """`npu_in_force()` as given: a preset's name or a YAML file's path."""
    return _ACTIVE[-1].spec if _ACTIVE else settings.npu_spec()


def timing_targets() -> list[tuple[NPUConfig, bool]]:
    """The NPUs the next launch is timed on (and whether to trace its tasks), each once.

    The first is the clock's (`npu_in_force`); then those of the other active profiles.
    """
    targets: list[tuple[NPUConfig, bool]] = []
    for npu in [npu_in_force(), *(active.npu for active in reversed(_ACTIVE))]:
        if all(npu != known for known, _ in targets):
            traced = any(active.trace and active.npu == npu for active in _ACTIVE)
            targets.append((npu, traced))
    return targets


def record(timed: list[tuple[NPUConfig, LaunchRecord]]) -> None:
    """Add a launch to every active profile and advance the modeled clock.

    `timed` holds the launch's record on each of `timing_targets()`, in order.
    While benchmarking, the launch goes to the profiles' `benchmarked` lists
    and to the benchmark's, and the modeled clock stays where it is.
    """
    for active in _ACTIVE:
        listed = active.benchmarked if _BENCHMARKS else active.launches
        listed.append(next(launch for npu, launch in timed if npu == active.npu))
    clock = timed[0][1].report
    if _BENCHMARKS:
        _BENCHMARKS[-1].append(timed[0][1])
    elif clock is not None:
        _CLOCK_US[0] += clock.time_us


_BENCHMARKS: list[list[LaunchRecord]] = []


@contextlib.contextmanager
def benchmarking() -> Iterator[list[LaunchRecord]]:
    """Launches in the scope are checked and timed, not run; yields their records on the clock's NPU."""
    launches: list[LaunchRecord] = []
    _BENCHMARKS.append(launches)
    try:
        yield launches
    finally:
        _BENCHMARKS.pop()


def is_benchmarking() -> bool:
    return bool(_BENCHMARKS)


_VALUES_FROM_HOST: list[bool] = []


@contextlib.contextmanager
def values_from_host() -> Iterator[None]:
    """Launches in the scope belong to a graph whose values the host computes (the torch route's
    `timing` mode): a launch that is timed and not run leaves nothing unwritten that anyone reads."""
    _VALUES_FROM_HOST.append(True)
    try:
        yield
    finally:
        _VALUES_FROM_HOST.pop()


def in_values_from_host() -> bool:
    return bool(_VALUES_FROM_HOST)


def modeled_ms(call: Callable[[], Any]) -> float | None:
    """The modeled milliseconds of the launches `call` makes, timed and not run.

    None when it launches no tnpu kernel; infinite when a launch cannot be
    timed, so that a ranking never prefers what it cannot measure.
    """
    with benchmarking() as launches:
        call()
    if not launches:
        return None
    if any(launch.report is None for launch in launches):
        return float("inf")
    return sum(launch.report.time_us for launch in launches) / 1e3  # pyright: ignore[reportOptionalMemberAccess]  # a timed record has a report


def record_fallbacks(fallbacks: list[FallbackRecord]) -> None:
    """Add operations that ran on the host to every active profile."""
    for active in _ACTIVE:
        active.fallbacks.extend(fallbacks)


def modeled_time_us() -> float:
    """Modeled time of every timed launch of this process so far, on each launch's clock NPU."""
    return _CLOCK_US[0]


@dataclass(frozen=True)
class CapturedLaunch:
    """A launch of the program as the timer takes it: the compiled kernel and its `Launch`."""

    kernel: Kernel
    """The compile API's kernel; its `tile` is the tile IR after `tnpu-to-tile`."""
    launch: Launch
    """The grid, the scalar arguments and the buffers' sizes."""


_CAPTURES: list[list[CapturedLaunch]] = []


@contextlib.contextmanager
def capture() -> Iterator[list[CapturedLaunch]]:
    """Collect the launches the program makes in the scope, in order.

    Launches made while benchmarking are not the program's and are left
    out, as are launches of an empty grid, which run nothing.
    """
    launches: list[CapturedLaunch] = []
    _CAPTURES.append(launches)
    try:
        yield launches
    finally:
        _CAPTURES.remove(launches)


def add_captured(kernel: Kernel, launch: Launch) -> None:
    """Add a launch the program ran to every active capture."""
    for launches in _CAPTURES:
        launches.append(CapturedLaunch(kernel, launch))
