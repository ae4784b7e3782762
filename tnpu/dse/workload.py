"""Workloads: named sequences of kernel launches, each kernel identified by content.

A workload is what a study times at every point: its kernels run back to
back (an Inductor graph's launches), so its time is the sum of theirs.
A workload comes from case directories (the corpus layout,
docs/execution.md), here, or from a model of the suite (`model_workloads`):

* a case directory, or a directory of them (`test/fixtures/corpus/inductor`:
  a whole suite): the cases are grouped by model, the part of the case's
  name before `__` (Inductor's corpus names cases `MODEL__KERNEL`), each
  model one workload of its cases in name order;
* `--sequence NAME`: every case given, in the order given, one workload.

A kernel is keyed by the SHA-256 of its name and IR text (`ttir_hash`:
a case's TTIR, or a model's kernel's tile IR) and of its launch: grid,
scalar arguments and buffer sizes (`launch_hash`).  Equal kernels launched
alike are timed once per point however many workloads hold them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tnpu.execution.case import CaseError, case_launch, load_case
from tnpu.execution.sweep import find_cases
from tnpu.timing.launch_binding import Launch


class WorkloadError(ValueError):
    """A workload that cannot be read; the message is one line."""


@dataclass(frozen=True)
class KernelLaunch:
    """One launch of a workload: the kernel's IR, its name and how it is launched."""

    name: str
    """Unique in its workload: the case's name, or the launch's in a model's workload."""
    ir: str
    """The kernel's TTIR, or its tile IR after `tnpu-to-tile` (`dialect` says which)."""
    kernel_name: str
    source: str
    """Where the IR came from, for messages."""
    launch: Launch
    dialect: str = "ttir"
    """`ttir` or `tile`."""

    @property
    def ttir_hash(self) -> str:
        """The SHA-256 of the kernel's name and IR (the store's column keeps the name it had
        when every kernel was TTIR; a TTIR and a tile IR text never coincide)."""
        return _sha256(f"{self.kernel_name}\n{self.ir}")

    @property
    def launch_hash(self) -> str:
        launch = self.launch
        return _sha256(json.dumps(
            [list(launch.grid), list(launch.arguments), sorted(launch.buffer_bytes.items())]
        ))


@dataclass(frozen=True)
class Workload:
    name: str
    kernels: tuple[KernelLaunch, ...]


def workloads_from_cases(paths: Sequence[Path], sequence: str | None = None) -> list[Workload]:
    """The workloads of case directories (see the module docstring)."""
    cases: list[Path] = []
    for path in paths:
        if not path.is_dir():
            raise WorkloadError(f"{path}: no such directory")
        found = find_cases(path)
        if not found:
            raise WorkloadError(f"{path}: no case directories (with meta.json) under it")
        cases += found
    kernels = [_kernel_launch(case) for case in cases]
    if sequence is not None:
        names = [k.name for k in kernels]
        if repeated := [n for n in names if names.count(n) > 1]:
            raise WorkloadError(f"--sequence: case '{repeated[0]}' is given twice")
        return [Workload(sequence, tuple(kernels))]
    models: dict[str, dict[str, KernelLaunch]] = {}
    for kernel in kernels:
        models.setdefault(kernel.name.partition("__")[0], {})[kernel.name] = kernel
    return [
        Workload(model, tuple(launches[name] for name in sorted(launches)))
        for model, launches in sorted(models.items())
    ]


def _kernel_launch(directory: Path) -> KernelLaunch:
    try:
        case = load_case(directory)
    except CaseError as error:
        raise WorkloadError(str(error)) from None
    if case.ttir_path is None:
        raise WorkloadError(f"{directory}: no kernel.ttir (tnpu ttir {directory} -o {directory}/kernel.ttir)")
    return KernelLaunch(
        case.name, case.ttir_path.read_text(), case.kernel_name, str(case.ttir_path), case_launch(case)
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
