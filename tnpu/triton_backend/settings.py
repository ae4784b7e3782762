"""How kernels launched through Triton run and are timed.

Each setting is read from the environment unless set in Python:

| setting | environment | values | default |
| --- | --- | --- | --- |
| `execution` | `TNPU_EXEC` | `qemu` (the RVV binary under qemu-riscv64), `interp` (the tile interpreter), `timing` (timed, not run) | `qemu` |
| `config` | `TNPU_CONFIG` | an NPU preset (`tpuv3`, `tpuv6e`) or a YAML file | `tpuv3` |
| `benchmark` | `TNPU_BENCH` | `modeled` (time on the modeled NPU), `wall` (wall-clock time of the host) | `modeled` |
| `vlen` | `TNPU_VLEN` | the RVV vector length qemu runs at (128 to 1024) | `256` |

    import tnpu.triton_backend as tnpu_triton
    tnpu_triton.settings.execution = "interp"   # None reads TNPU_EXEC again

`tnpu.profile(config=...)` times the launches in its scope on its own NPU.
A bad value is refused with one line naming the setting and the values it takes.

`timing` compiles and times every launch but runs none: a kernel launched
from Triton leaves its outputs unwritten (a warning says so, once per
kernel), while a graph compiled by `torch.compile(..., backend="tnpu")`
returns the values of its captured graph run by PyTorch on the host
(docs/torch-compile.md).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass, fields

from tnpu.timing.npu_config import NPUConfig, NPUConfigError, load_npu_config

EXECUTIONS = ("qemu", "interp", "timing")
BENCHMARKS = ("modeled", "wall")


class SettingError(ValueError):
    """A setting with a value it does not take; one line."""


@dataclass
class Settings:
    execution: str | None = None
    config: str | None = None
    benchmark: str | None = None
    vlen: int | None = None

    def execution_mode(self) -> str:
        return _choice("execution", "TNPU_EXEC", self.execution, EXECUTIONS)

    def benchmark_mode(self) -> str:
        return _choice("benchmark", "TNPU_BENCH", self.benchmark, BENCHMARKS)

    def npu_spec(self) -> str:
        """The NPU in force, as given: a preset name or a YAML file."""
        return self.config or os.environ.get("TNPU_CONFIG") or "tpuv3"

    def npu(self) -> NPUConfig:
        return npu_config(self.npu_spec())

    def vector_length(self) -> int:
        value = self.vlen if self.vlen is not None else os.environ.get("TNPU_VLEN", "256")
        try:
            vlen = int(value)
        except ValueError:
            vlen = 0
        if vlen not in (128, 256, 512, 1024):
            raise SettingError(f"vlen (TNPU_VLEN) is {value!r}: give 128, 256, 512 or 1024")
        return vlen

    @contextlib.contextmanager
    def scoped(self, **values: object) -> Iterator[None]:
        """The settings given a value other than None hold in the scope, then the earlier ones again."""
        before = {field.name: getattr(self, field.name) for field in fields(self)}
        for name, value in values.items():
            if value is not None:
                setattr(self, name, value)
        try:
            yield
        finally:
            for name, value in before.items():
                setattr(self, name, value)


settings = Settings()


@functools.cache
def npu_config(spec: str) -> NPUConfig:
    """The NPU of a preset name or YAML path, read once per process."""
    try:
        return load_npu_config(spec)
    except NPUConfigError as error:
        raise SettingError(f"config (TNPU_CONFIG): {error}") from None


def _choice(name: str, variable: str, value: str | None, choices: tuple[str, ...]) -> str:
    chosen = value if value is not None else os.environ.get(variable) or choices[0]
    if chosen not in choices:
        raise SettingError(f"{name} ({variable}) is {chosen!r}: give {' or '.join(choices)}")
    return chosen
