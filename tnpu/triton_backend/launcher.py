"""What `kernel[grid](...)` does on tnpu, once Triton has the compiled kernel.

`TnpuLauncher` is the driver's `launcher_cls`: Triton builds one per
compiled kernel and calls it with the grid, the enter and exit hooks and
the kernel's arguments as the user gave them (tensors, Python scalars,
and the constexpr parameters too).  For each launch:

0. **Scratchpad.**  A program instance's scratchpad (the compiled
   kernel's `shared`) must fit the NPU in force (`profile.npu_in_force`),
   checked at every launch:
   the NPU may change between two launches of one compiled kernel
   (`tnpu.profile(config=...)`), so it is refused with Triton's
   `OutOfResources` (which Inductor's autotuning takes as a config that
   does not fit) naming the NPU.
1. **Arguments.**  Constexpr parameters are skipped, tuples flattened,
   tensor descriptors decomposed into the base, shape and strides
   Triton's TTIR passes expect.  A pointer parameter takes a CPU torch
   tensor (or a `triton.reinterpret` view of one); a scalar is converted
   to the C type of the kernel's signature (integers wrapped to their
   width, f16/bf16 as their bits).  Anything else is refused with a
   `TypeError` or `ValueError` naming the argument, before anything runs.
2. **Memory.**  The storages behind the tensors, merged where they
   overlap (two views of one tensor, a tensor and a slice of it), are the
   launch's regions; each buffer points into its region at the tensor's
   `data_ptr()`, which already holds the storage offset.  Strided and
   aliasing arguments therefore see exactly the memory they would on a GPU.
3. **Execution** (`settings.execution`, `TNPU_EXEC`): the RVV binary under
   qemu, or the tile interpreter, runs the grid in Triton's order (x
   fastest) on copies of the regions; the regions holding a buffer the
   kernel writes are copied back into the tensors' memory once the
   launch has succeeded, so the caller's tensors hold the result in
   place, and a launch that fails (`TnpuLaunchError`) changes none.
   In the `timing` mode nothing runs (`execution` is `timing only`); outside
   a graph whose values the host computes (`profile.values_from_host`),
   a warning says once per kernel that its outputs are not written.
4. **Timing** on the modeled NPU (`profile`): every launch, re-timing the
   kernel's TOG (a repeated grid and scalars is not simulated again).  The
   timer's `Launch` holds the grid, the scalars and, per buffer, the bytes
   of its tensor's storage from the tensor's first element on (the
   compulsory roofline's traffic); the program's launches are also handed
   to `profile.capture()` scopes.

A launch identical to the kernel's previous one (the same grid, scalars
and tensors) whose storages hold the same bytes as before that launch
gets that launch's outputs without running again (`execution` is
`replayed`): `triton.testing.do_bench` repeats a call until its modeled
time adds up to 100 ms, which is thousands of calls.  Inside
`profile.benchmarking()` (the driver's benchmarker) launches are checked
and timed but not run.
"""

from __future__ import annotations

import ctypes
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
from triton.backends.driver import decompose_descriptor, expand_signature
from xdsl.utils.exceptions import DiagnosticException

from tnpu.backend_riscv.qemu_launch import BufferBinding, LaunchError, ScalarSpec, launch_in_regions, scalar_spec
from tnpu.diagnostics import one_line
from tnpu.interpreters.tile import Buffer
from tnpu.interpreters.tile import launch as interpret
from tnpu.interpreters.values import numpy_dtype
from tnpu.timing.launch_binding import Launch
from tnpu.triton_backend import profile
from tnpu.triton_backend.loaded import LoadedKernel
from tnpu.triton_backend.settings import settings


class TnpuLaunchError(RuntimeError):
    """A launch that did not run to its end (a fault, a failed device assert); one line."""


class TnpuLauncher:
    """Launches one compiled kernel; Triton calls it as `run(gx, gy, gz, stream, function, ...)`."""

    def __init__(self, src: Any, metadata: Any):
        self.parameters = list(getattr(src, "signature", {}).items())
        """(name, Triton type) of every parameter, constexprs included, in order."""
        self.scratchpad_bytes: int = getattr(metadata, "shared", 0)
        # Triton checks `shared` against the device's limit right after building the launcher,
        # through a per-process cache (a GPU's limit never changes); the NPU in force can.
        # (Imported here: Triton's package imports this module while it discovers backends.)
        from triton.compiler.compiler import max_shared_mem

        max_shared_mem.cache_clear()

    def __call__(
        self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: LoadedKernel,
        packed_metadata: Any, launch_metadata: Any, enter_hook: Any, exit_hook: Any, *args: Any,
    ) -> None:  # fmt: skip
        npu = profile.npu_in_force()
        if self.scratchpad_bytes > npu.scratchpad_bytes:
            from triton.runtime.errors import OutOfResources

            raise OutOfResources(self.scratchpad_bytes, npu.scratchpad_bytes, f"{npu.name}'s scratchpad")
        arguments = list(kernel_arguments(self.parameters, args))
        if enter_hook is not None:
            enter_hook(launch_metadata)
        launch(function, (grid_x, grid_y, grid_z), arguments)
        if exit_hook is not None:
            exit_hook(launch_metadata)


@dataclass(frozen=True)
class Argument:
    name: str
    type: str
    """Triton's type of it: `*fp32`, `i32`, `fp16`, ..."""
    value: Any


def kernel_arguments(parameters: Sequence[tuple[str, Any]], values: Sequence[Any]) -> Iterator[Argument]:
    """The arguments the kernel function takes: constexprs left out, tuples and descriptors flattened."""
    for (name, type_), value in zip(parameters, values, strict=True):
        if type_ == "constexpr":
            continue
        if isinstance(type_, tuple):
            if not isinstance(value, tuple | list) or len(value) != len(type_):
                raise TypeError(f"argument '{name}': expected a tuple of {len(type_)}, got {value!r}")
            yield from kernel_arguments([(f"{name}[{i}]", t) for i, t in enumerate(type_)], value)
        elif type_.startswith("tensordesc"):
            (*flat,) = expand_signature([type_], None, "")
            yield from kernel_arguments(
                [(f"{name}.{i}", t) for i, t in enumerate(flat)], decompose_descriptor(value)
            )
        else:
            yield Argument(name, type_, value)


def launch(kernel: LoadedKernel, grid: tuple[int, int, int], arguments: Sequence[Argument]) -> None:
    """Run `kernel` over `grid` on `arguments` and time it (the module docstring)."""
    start = time.perf_counter()
    c_types = kernel.binary.code.argument_types
    if len(arguments) != len(c_types):
        raise TypeError(
            f"{kernel.name} takes {len(c_types)} arguments after its constexprs, the launch gives {len(arguments)}"
        )
    converted = [
        _tensor_of(argument, c_type) if c_type.endswith("*") else _scalar_of(argument, c_type)
        for argument, c_type in zip(arguments, c_types)
    ]
    if min(grid) <= 0:
        return  # nothing to run, as on a GPU
    timing = Launch(
        grid,
        [value[0] if isinstance(value, tuple) else None for value in converted],
        {index: _storage_bytes(value) for index, value in enumerate(converted) if not isinstance(value, tuple)},
    )
    execution = "not run"
    if not profile.is_benchmarking():
        mode = settings.execution_mode()
        if mode == "timing":
            execution = "timing only"
            _warn_unwritten(kernel.name)
        else:
            execution = _execute(kernel, grid, converted, mode)
        profile.add_captured(kernel.kernel, timing)
    timed = []
    for npu, trace in profile.timing_targets():
        try:
            report, untimed = kernel.time(npu, timing, trace), None
        except DiagnosticException as refusal:
            report, untimed = None, one_line(refusal)
        wall_us = (time.perf_counter() - start) * 1e6
        timed.append((npu, profile.LaunchRecord(kernel.name, grid, execution, wall_us, report, untimed)))
    profile.record(timed)


_WARNED: set[str] = set()
"""The kernels whose unwritten outputs a timing-only launch has warned of."""


def _warn_unwritten(name: str) -> None:
    if not profile.in_values_from_host() and name not in _WARNED:
        _WARNED.add(name)
        warnings.warn(
            f"{name}: timed, not run (execution 'timing'): its outputs are not written", TimingOnlyWarning, stacklevel=4
        )


class TimingOnlyWarning(UserWarning):
    """A kernel launched in the `timing` mode outside a graph whose values come from the host."""


def _execute(kernel: LoadedKernel, grid: tuple[int, int, int], converted: Sequence[Any], mode: str) -> str:
    """Run the grid (or replay the identical previous launch); returns how it ran.

    `converted` holds a tensor per buffer argument and (value, spec) per scalar.
    """
    memory = _Memory([value for value in converted if not isinstance(value, tuple)])
    bindings = iter(memory.bindings)
    specs = [value[1] if isinstance(value, tuple) else next(bindings) for value in converted]
    written = sorted({
        spec.region for index, spec in enumerate(specs)
        if isinstance(spec, BufferBinding) and index in kernel.binary.code.written_buffers
    })  # fmt: skip
    key = (mode, grid, tuple(specs), memory.spans)
    memo = _MEMOS.get(kernel.digest)
    if memo is not None and memo.replays(key, memory.regions):
        for number, after in zip(written, memo.after):
            memory.regions[number][:] = after
        return "replayed"
    before = [region.copy() for region in memory.regions]
    try:
        if mode == "qemu":
            launch_in_regions(
                kernel.binary.code, grid, specs, memory.regions, elf=kernel.elf, vlen=settings.vector_length()
            )
        else:
            _interpret(kernel, grid, specs, memory, written)
    except (LaunchError, DiagnosticException) as failure:
        raise TnpuLaunchError(f"{kernel.name}: {one_line(failure)}") from None
    _MEMOS[kernel.digest] = _Memo(key, before, [memory.regions[number].copy() for number in written])
    return mode


def _interpret(
    kernel: LoadedKernel, grid: tuple[int, int, int], specs: Sequence[ScalarSpec | BufferBinding],
    memory: _Memory, written: Sequence[int],
) -> None:  # fmt: skip
    """The tile interpreter over copies of the regions; the written ones copied back at the end."""
    tile_kernel = kernel.kernel.tile_kernel
    copies = [region.copy() for region in memory.regions]
    values: list[Any] = []
    for spec, type_ in zip(specs, tile_kernel.function_type.inputs.data):
        if isinstance(spec, BufferBinding):
            region = copies[spec.region][spec.offset :]
            values.append(Buffer(region).viewed_as(numpy_dtype(type_.element_type)))  # pyright: ignore[reportAttributeAccessIssue]
        else:
            values.append(spec.value)
    interpret(tile_kernel, grid, values)
    for number in written:
        memory.regions[number][:] = copies[number]


@dataclass(frozen=True)
class _Memo:
    """A kernel's last launch: its key, every region before it, the written regions after it."""

    key: tuple[Any, ...]
    before: list[np.ndarray]
    after: list[np.ndarray]

    def replays(self, key: tuple[Any, ...], regions: Sequence[np.ndarray]) -> bool:
        return key == self.key and all(np.array_equal(a, b) for a, b in zip(regions, self.before))


_MEMOS: dict[str, _Memo] = {}


class _Memory:
    """The host memory a launch reads and writes: its tensors' storages, merged where they overlap."""

    def __init__(self, tensors: Sequence[Any]):
        spans = []
        for tensor in tensors:
            storage = tensor.untyped_storage()
            spans.append((storage.data_ptr(), storage.data_ptr() + storage.nbytes()))
        merged: list[list[int]] = []
        for start, end in sorted(set(spans)):
            if merged and start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.spans = tuple((start, end - start) for start, end in merged)
        self.regions = [_host_bytes(start, size) for start, size in self.spans]
        self.bindings = []
        for tensor in tensors:
            address = tensor.data_ptr()
            number = next(i for i, (start, size) in enumerate(self.spans) if start <= address <= start + size)
            self.bindings.append(BufferBinding(number, address - self.spans[number][0]))


def _storage_bytes(tensor: Any) -> int:
    """The bytes of `tensor`'s storage from its first element to the storage's end: what the launch passes."""
    storage = tensor.untyped_storage()
    return storage.data_ptr() + storage.nbytes() - tensor.data_ptr()


def _host_bytes(address: int, size: int) -> np.ndarray:
    """The `size` bytes at `address` of this process, as a writable numpy array (no copy)."""
    if size == 0:
        return np.zeros(0, np.uint8)
    return np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(address))


def _tensor_of(argument: Argument, c_type: str) -> Any:
    """The CPU torch tensor behind a pointer argument."""
    import torch

    value = argument.value
    if not argument.type.startswith("*"):
        raise TypeError(f"argument '{argument.name}' is a {argument.type} where the kernel takes a {c_type}")
    tensor = getattr(value, "base", None) if not isinstance(value, torch.Tensor) else value
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(
            f"argument '{argument.name}' ({argument.type}) is a {type(value).__name__}: "
            "tnpu takes a torch tensor for a pointer parameter"
        )
    if tensor.device.type != "cpu":
        raise ValueError(
            f"argument '{argument.name}' is a tensor on '{tensor.device}': tnpu runs kernels "
            "on CPU tensors (their storage is copied to the simulated device)"
        )
    return tensor


_WIDTHS = {"i1": 1, "u1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}


def _scalar_of(argument: Argument, c_type: str) -> tuple[int | float, ScalarSpec]:
    """A scalar argument's value (integers wrapped to their width) and its spec for qemu."""
    type_, value = argument.type, argument.value
    if type_.startswith("*"):
        raise TypeError(f"argument '{argument.name}': a {type_} parameter where the kernel takes a {c_type}")
    if type_ in _WIDTHS:
        if not isinstance(value, int | bool | np.integer | np.bool_):
            raise TypeError(f"argument '{argument.name}' ({type_}) is {value!r}, not an integer")
        width = _WIDTHS[type_]
        bits = int(value) & ((1 << width) - 1)
        wrapped = bits - (1 << width) if width > 1 and bits >> (width - 1) else bits
        return wrapped, scalar_spec(c_type, wrapped)
    if type_ in ("fp16", "bf16", "fp32", "fp64"):
        if not isinstance(value, int | float | np.number):
            raise TypeError(f"argument '{argument.name}' ({type_}) is {value!r}, not a number")
        number = float(value)
        if c_type == "uint16_t":
            half = np.float16 if type_ == "fp16" else ml_dtypes.bfloat16
            return number, scalar_spec(c_type, int(np.array(number, half).view(np.uint16)))
        return number, scalar_spec(c_type, number)
    raise TypeError(f"argument '{argument.name}': tnpu cannot pass a {type_} scalar")
