"""A study: every launch of every workload timed at every point of a space, into a store.

The work is cut into tasks of one kernel × a chunk of points.  A worker
compiles the kernel once (the compile API lowers its TTIR once, or starts
from a model kernel's tile IR, applies the NPU's steps once per distinct
native math set, the only compile-relevant setting, and builds a timer per
point) and re-times the launch for each point of the chunk.  Chunks hold
every point of a kernel unless there are too few kernels to keep the
workers busy, when points are split so each worker gets about
`TASKS_PER_WORKER` tasks.  What the store already holds
is skipped before the tasks are cut; each task's records are committed
as it returns, so an interrupted study resumes where it stopped.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.compiler.kernel import Kernel, compile_ttir
from tnpu.compiler.tnpu_to_npu import native_math
from tnpu.diagnostics import format_parse_error, one_line
from tnpu.dse.space import Point
from tnpu.dse.store import Store
from tnpu.dse.workload import KernelLaunch, Workload
from tnpu.execution.executors import map_unordered
from tnpu.timing.npu_config import NPUConfig

TASKS_PER_WORKER = 4


@dataclass(frozen=True)
class Task:
    kernel: KernelLaunch
    points: tuple[tuple[str, NPUConfig], ...]
    """(config_hash, NPU) of each point to time."""


@dataclass(frozen=True)
class StudyOutcome:
    timed: int
    """Points timed by this run (a kernel × a configuration)."""
    skipped: int
    """Points the store held already."""
    refused: int
    """Of those timed, points refused (the kernel cannot be compiled or timed there)."""


def run_study(
    store: Store,
    workloads: Sequence[Workload],
    points: Sequence[Point],
    *,
    executor: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> StudyOutcome:
    """Time what `store` lacks; `progress(n)` after each task with the points it timed."""
    store.add_study(workloads, points)
    tasks, skipped = plan_tasks(workloads, points, store.done(), workers)
    timed = refused = 0
    for _, records in map_unordered(time_task, tasks, executor=executor, workers=workers, address=address):
        store.add_timings(records)
        timed += len(records)
        refused += sum(record["status"] != "ok" for record in records)
        if progress is not None:
            progress(len(records))
    return StudyOutcome(timed, skipped, refused)


def plan_tasks(
    workloads: Sequence[Workload],
    points: Sequence[Point],
    done: set[tuple[str, str, str]],
    workers: int,
) -> tuple[list[Task], int]:
    """The tasks that time what is not `done`, and how many points were done already."""
    kernels: dict[tuple[str, str], KernelLaunch] = {}
    for workload in workloads:
        for kernel in workload.kernels:
            kernels.setdefault((kernel.ttir_hash, kernel.launch_hash), kernel)
    # Points that share their compile-relevant setting run next to each other.
    ordered = sorted(points, key=lambda point: native_math(point.npu))
    todo = {
        key: [p for p in ordered if (*key, p.config_hash) not in done] for key in kernels
    }
    total = sum(map(len, todo.values()))
    skipped = len(kernels) * len(points) - total
    if not total:
        return [], skipped
    chunk = max(1, min(len(points), math.ceil(total / (TASKS_PER_WORKER * workers))))
    tasks = [
        Task(kernels[key], tuple((p.config_hash, p.npu) for p in remaining[start:start + chunk]))
        for key, remaining in todo.items()
        for start in range(0, len(remaining), chunk)
    ]
    return tasks, skipped


_compiled: OrderedDict[str, Kernel | str] = OrderedDict()
"""A worker's kernels (or the refusal of each), by TTIR hash; the last few kept."""

_KEPT_KERNELS = 4


def time_task(task: Task) -> list[dict]:
    """The records of one task: the kernel compiled once, timed at each point."""
    kernel = _compile(task.kernel)
    records = []
    for config_hash, npu in task.points:
        record = {
            "ttir_hash": task.kernel.ttir_hash, "launch_hash": task.kernel.launch_hash,
            "config_hash": config_hash,
        }
        if isinstance(kernel, str):
            records.append(record | {"status": "refused", "message": kernel})
            continue
        try:
            report = kernel.timer(npu).time(task.kernel.launch)
        except DiagnosticException as error:
            records.append(record | {"status": "refused", "message": one_line(error)})
        except Exception as error:  # a compiler bug: recorded, and the study goes on
            records.append(record | {
                "status": "error", "message": f"internal error: {type(error).__name__}: {one_line(error)}",
            })
        else:
            records.append(record | {"status": "ok", "report": report.to_json()})
    return records


def _compile(kernel: KernelLaunch) -> Kernel | str:
    """The compiled kernel (from TTIR, or from tile IR: nothing to lower), or its refusal as one line."""
    key = kernel.ttir_hash
    if key not in _compiled:
        try:
            _compiled[key] = (
                Kernel.from_tile(kernel.ir, kernel.kernel_name, source=kernel.source) if kernel.dialect == "tile"
                else compile_ttir(kernel.ir, kernel.kernel_name, source=kernel.source)
            )
        except ParseError as error:
            _compiled[key] = format_parse_error(error)
        except DiagnosticException as error:
            _compiled[key] = one_line(error)
        if len(_compiled) > _KEPT_KERNELS:
            _compiled.popitem(last=False)
    _compiled.move_to_end(key)
    return _compiled[key]
