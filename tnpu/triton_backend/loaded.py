"""A kernel binary as launches use it: built once per process, timed per launch.

`load(binary)` gives the `LoadedKernel` of a `KernelBinary`'s bytes, one per
distinct binary in the process.  The compile stage `remember`s the kernel it
just compiled under its bytes, so that a kernel compiled in this process
keeps its compiled objects (tile IR, timers); a kernel from Triton's cache
rebuilds them from its stored tile IR once, on first use (`Kernel.from_tile`:
no TTIR, nothing lowered again).  A `KernelTimer` is built once per NPU and
re-times every launch; a launch's report is remembered per grid, scalars and buffer sizes.
"""

from __future__ import annotations

import hashlib
import os
from functools import cached_property
from pathlib import Path

from tnpu.backend_riscv.qemu_launch import cache_dir
from tnpu.compiler.kernel import Kernel
from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.report import TimingReport
from tnpu.timing.simulator import SimulationOptions
from tnpu.triton_backend.binary import KernelBinary

_TIMINGS_KEPT = 64
"""Launch reports a kernel remembers (per NPU, grid, scalars and buffer sizes), most recent first."""


class LoadedKernel:
    def __init__(self, binary: KernelBinary, digest: str, kernel: Kernel | None = None):
        self.binary = binary
        self.digest = digest
        self._kernel = kernel
        self._timings: list[tuple[object, TimingReport]] = []

    @property
    def name(self) -> str:
        return self.binary.name

    @cached_property
    def kernel(self) -> Kernel:
        """The compile API's kernel: as compiled in this process, or rebuilt from the tile IR."""
        if self._kernel is not None:
            return self._kernel
        return Kernel.from_tile(self.binary.tile, self.binary.name, source=f"{self.name}.tile")

    @cached_property
    def elf(self) -> Path:
        """The ELF on disk, in tnpu's cache (qemu runs a file).  A kernel compiled in the `timing`
        mode has none in its binary: it is built here, from the tile IR, the first time one runs."""
        path = cache_dir() / f"{self.name}-{self.digest[:20]}.elf"
        if not path.exists():
            partial = path.with_suffix(f".{os.getpid()}.partial")
            partial.write_bytes(self.binary.elf or self.kernel.rvv.elf.read_bytes())
            partial.chmod(0o755)  # qemu-user runs executable files only
            partial.replace(path)
        return path

    def time(self, npu: NPUConfig, launch: Launch, trace: bool) -> TimingReport:
        """`launch` timed on `npu` (remembered: a repeated launch is not simulated again)."""
        key = (npu, launch.grid, tuple(launch.arguments), tuple(sorted(launch.buffer_bytes.items())), trace)
        for index, (known, report) in enumerate(self._timings):
            if known == key:
                self._timings.insert(0, self._timings.pop(index))
                return report
        report = self.kernel.timer(npu).time(launch, SimulationOptions(trace=trace))
        self._timings.insert(0, (key, report))
        del self._timings[_TIMINGS_KEPT:]
        return report


_LOADED: dict[str, LoadedKernel] = {}


def load(data: bytes) -> LoadedKernel:
    """The loaded kernel of a binary's bytes (`BinaryError` if they are not one)."""
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _LOADED:
        _LOADED[digest] = LoadedKernel(KernelBinary.read(data), digest)
    return _LOADED[digest]


def remember(data: bytes, binary: KernelBinary, kernel: Kernel) -> None:
    """Keep `kernel`, just compiled to `binary` (whose bytes are `data`), for its launches."""
    digest = hashlib.sha256(data).hexdigest()
    _LOADED.setdefault(digest, LoadedKernel(binary, digest, kernel))
