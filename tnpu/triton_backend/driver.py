"""tnpu as Triton's driver for the `cpu` target: the device is the modeled NPU.

Triton picks the driver named by `TRITON_DEFAULT_BACKEND`, else the one
driver whose `is_active()` holds.  `TnpuDriver` is active when no other
backend's driver is (a machine without a GPU), and whenever
`TRITON_DEFAULT_BACKEND=cpu` selects it; beside an active GPU driver it
steps aside, so that Triton does not see two.

* `launcher_cls` is `launcher.TnpuLauncher`; `utils.load_binary` reads a
  `KernelBinary` (once per process, `loaded.load`) and returns its
  `LoadedKernel` as the function handle.
* The device has one stream and no memory of its own: tensors are CPU
  tensors, copied to the simulated device per launch.
* `get_device_interface()` has events that read the *modeled clock* (the
  modeled time of every launch so far, `profile.modeled_time_us`), so
  `triton.testing.do_bench` reports modeled milliseconds; with
  `settings.benchmark = "wall"` (`TNPU_BENCH=wall`) they read the host's
  wall clock instead.
* `get_benchmarker()` (what `@triton.autotune` calls) times one call on the
  modeled NPU without running it, so autotuning picks the configuration
  with the fewest simulated cycles; in wall mode it is Triton's `do_bench`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase

from tnpu.triton_backend import profile
from tnpu.triton_backend.launcher import TnpuLauncher
from tnpu.triton_backend.loaded import LoadedKernel, load
from tnpu.triton_backend.settings import settings

TARGET = GPUTarget("cpu", "", 32)
"""What tnpu compiles for: Triton's `cpu` backend (the target Inductor's CPU route asks for)."""

_REGISTERS = 32
"""What `load_binary` reports as a kernel's registers: RVV's 32 vector registers."""

_C_TYPES = {
    "i1": "bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
    "u1": "bool", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t",
    "fp16": "uint16_t", "bf16": "uint16_t", "fp32": "float", "f32": "float", "fp64": "double",
}  # fmt: skip


class TnpuUtils:
    """`driver.utils`: loading binaries and the device's properties."""

    def load_binary(self, name: str, kernel: bytes, shared: int, device: Any) -> tuple[Any, LoadedKernel, int, int, int]:
        loaded = load(kernel)
        return loaded, loaded, _REGISTERS, 0, 1 << 30

    def unload_module(self, module: Any) -> None:
        pass

    def get_device_properties(self, device: Any = None) -> dict[str, Any]:
        npu = profile.npu_in_force()
        return {
            "max_shared_mem": npu.scratchpad_bytes,
            "multiprocessor_count": npu.num_cores,
            "max_num_regs": 65536,
            "warpSize": TARGET.warp_size,
            "sm_clock_rate": int(npu.core_freq_mhz * 1000),
            "mem_clock_rate": 0,
            "mem_bus_width": 0,
        }


class ModeledEvent:
    """A device event: `record()` reads the modeled clock (or the wall clock in wall mode)."""

    def __init__(self, enable_timing: bool = True):
        self.time_ms: float | None = None

    def record(self, stream: Any = None) -> None:
        self.time_ms = _clock_ms()

    def elapsed_time(self, end: ModeledEvent) -> float:
        assert self.time_ms is not None and end.time_ms is not None, "record both events first"
        return end.time_ms - self.time_ms

    def synchronize(self) -> None:
        pass


class DeviceInterface:
    """What `triton.testing` asks of a device: events, synchronisation; launches are synchronous."""

    Event = ModeledEvent

    @staticmethod
    def synchronize(device: Any = None) -> None:
        pass

    @staticmethod
    def current_device() -> int:
        return 0


def _clock_ms() -> float:
    if settings.benchmark_mode() == "wall":
        return time.perf_counter() * 1e3
    return profile.modeled_time_us() / 1e3


def modeled_benchmark(
    kernel_call: Callable[[], Any], *, quantiles: Sequence[float] | None = None, return_mode: str = "mean",
    **ignored: Any,
) -> float | list[float]:  # fmt: skip
    """The modeled milliseconds of the launches `kernel_call` makes, which are timed, not run.

    Modeled time is exact, so every quantile and statistic is that one value.
    """
    measured = profile.modeled_ms(kernel_call)
    elapsed = 0.0 if measured is None else measured
    if quantiles is not None:
        return [elapsed] * len(quantiles) if len(quantiles) > 1 else elapsed
    return [elapsed] if return_mode == "all" else elapsed


class TnpuDriver(DriverBase):
    """The modeled NPU as Triton's `cpu` device (module docstring)."""

    def __init__(self) -> None:
        self.utils = TnpuUtils()
        self.launcher_cls = TnpuLauncher
        super().__init__()

    @staticmethod
    def is_active() -> bool:
        if os.environ.get("TRITON_DEFAULT_BACKEND") == "cpu":
            return True
        from triton.backends import backends

        return not any(
            backend.driver.is_active() for name, backend in backends.items() if backend.driver is not TnpuDriver
        )

    def map_python_to_cpp_type(self, ty: str) -> str:
        return "void *" if ty.startswith("*") else _C_TYPES[ty]

    def get_current_target(self) -> GPUTarget:
        return TARGET

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: Any) -> None:
        pass

    def get_current_stream(self, device: Any = None) -> int:
        return 0

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cpu")

    def get_device_interface(self) -> DeviceInterface:
        return DeviceInterface()

    def get_benchmarker(self) -> Callable[..., Any]:
        if settings.benchmark_mode() == "wall":
            from triton.testing import do_bench

            return do_bench
        return modeled_benchmark

    def get_empty_cache_for_benchmark(self) -> Any:
        import torch

        return torch.empty(0, dtype=torch.int8)  # no cache between the host and the modeled NPU

    def clear_cache(self, cache: Any) -> None:
        pass


@contextlib.contextmanager
def tnpu_driver_active() -> Iterator[None]:
    """Triton's active driver is tnpu's in the scope (whatever another part of the process
    set, a compile-only driver, say), then the earlier one again."""
    from triton.runtime.driver import driver

    earlier = driver.active
    if not isinstance(earlier, TnpuDriver):
        driver.set_active(TnpuDriver())
    try:
        yield
    finally:
        driver.set_active(earlier)
