"""Build a kernel into an ELF, and launch it under qemu-riscv64.

A `KernelSpec` gathers what a launch needs: the grid, and per argument
either a buffer (element dtype, shape, element strides; its storage is
the span those reach, passed in storage order so non-contiguous tensors
round-trip unchanged) or a scalar (C type and value).  A launch that cannot
be described is refused there, naming the argument and the missing field.

`launch` gives every buffer a storage of its own; `launch_in_regions` lets
buffers point anywhere into shared regions of memory (two views of one
tensor, at their offsets), as a caller holding real storages needs.  Each
region is a file in shared memory (`/dev/shm` where there is one) that the
runtime maps: the data is copied in once and, for regions a kernel writes,
copied out once, with no reads or writes of files in between.

The ELF links the kernel's assembly, a generated `tnpu_invoke.c` (the
typed call) and the C runtime in `runtime/`; it is cached by content.
"""

from __future__ import annotations

import hashlib
import math
import mmap
import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from tnpu.backend_riscv.codegen import CompiledKernel
from tnpu.backend_riscv.insn_count import counting_plugin, parse_count
from tnpu.backend_riscv.tile_to_rvv import GRID_ARGUMENTS
from tnpu.backend_riscv.toolchain import LaunchError, cache_dir, require_tool

CROSS_GCC = "riscv64-linux-gnu-gcc"
QEMU = "qemu-riscv64"
GCC_FLAGS = ("-O2", "-static", "-march=rv64gcv", "-mabi=lp64d")

_SCALAR_CODES = {
    "bool": "i1", "int8_t": "i8", "int16_t": "i16", "int32_t": "i32", "int64_t": "i64",
    "float": "f32", "double": "f64", "uint16_t": "bits16",
}  # fmt: skip
_BUFFER_DTYPES = {
    "bool": np.dtype(np.uint8), "uint8_t": np.dtype(np.uint8), "int8_t": np.dtype(np.int8),
    "int16_t": np.dtype(np.int16), "int32_t": np.dtype(np.int32), "int64_t": np.dtype(np.int64),
    "float": np.dtype(np.float32), "double": np.dtype(np.float64), "uint16_t": np.dtype(np.uint16),
}  # fmt: skip


@dataclass(frozen=True)
class BufferSpec:
    dtype: np.dtype
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    """In elements."""

    @property
    def storage_elements(self) -> int:
        """Elements from the base pointer to one past the farthest one the view reaches."""
        if any(size == 0 for size in self.shape):
            return 0
        return 1 + sum((size - 1) * stride for size, stride in zip(self.shape, self.strides))


@dataclass(frozen=True)
class ScalarSpec:
    code: str
    """i1, i8, i16, i32, i64, f32, f64 or bits16 (f16/bf16 bits)."""
    value: int | float


def scalar_spec(c_type: str, value: int | float) -> ScalarSpec:
    """A scalar argument of C type `c_type` (a `uint16_t` holds f16 or bf16 bits)."""
    return ScalarSpec(_SCALAR_CODES[c_type], value)


@dataclass(frozen=True)
class KernelSpec:
    grid: tuple[int, int, int]
    arguments: tuple[BufferSpec | ScalarSpec, ...]

    @staticmethod
    def describe(
        kernel: CompiledKernel,
        grid: Sequence[int],
        arguments: Sequence[Mapping[str, object] | int | float | bool | None],
        names: Sequence[str] | None = None,
    ) -> KernelSpec:
        """A spec from launch records: `{"dtype", "shape", "stride"}` per buffer, a number per scalar.

        Raises LaunchError naming the argument and the missing field.
        """
        if len(grid) == 0 or len(grid) > 3 or any(not isinstance(g, int) or g < 0 for g in grid):
            raise LaunchError(f"grid {list(grid)} is not 1 to 3 non-negative integers")
        if len(arguments) != len(kernel.argument_types):
            raise LaunchError(
                f"kernel {kernel.name} takes {len(kernel.argument_types)} arguments, "
                f"the launch gives {len(arguments)}"
            )
        described: list[BufferSpec | ScalarSpec] = []
        for index, (c_type, given) in enumerate(zip(kernel.argument_types, arguments)):
            label = f"argument {index}" + (f" ({names[index]})" if names else "")
            if c_type.endswith("*"):
                described.append(_buffer_spec(label, c_type[:-1].strip(), given))
            else:
                if not isinstance(given, int | float | bool) or given is None:
                    raise LaunchError(f"{label}: missing field 'value' (a {c_type} scalar)")
                described.append(ScalarSpec(_SCALAR_CODES[c_type], given))
        return KernelSpec(tuple(grid) + (1,) * (3 - len(grid)), tuple(described))  # pyright: ignore[reportArgumentType]


def _buffer_spec(label: str, c_type: str, given: object) -> BufferSpec:
    if not isinstance(given, Mapping):
        raise LaunchError(f"{label}: missing field 'shape' (a buffer, got {given!r})")
    for field in ("shape", "stride"):
        if field not in given:
            raise LaunchError(f"{label}: missing field '{field}'")
    shape, strides = tuple(given["shape"]), tuple(given["stride"])
    if len(shape) != len(strides):
        raise LaunchError(f"{label}: shape {list(shape)} and stride {list(strides)} differ in rank")
    return BufferSpec(_BUFFER_DTYPES[c_type], shape, strides)


# -- building ---------------------------------------------------------------


def invoke_source(kernel: CompiledKernel) -> str:
    """The C call of the kernel, with typed arguments, that runs every program of the grid."""
    parameters = [*kernel.argument_types, *(["int32_t"] * len(GRID_ARGUMENTS))]
    arguments = []
    for index, c_type in enumerate(kernel.argument_types):
        if c_type.endswith("*"):
            arguments.append(f"({c_type})buffers[{index}]")
        else:
            arguments.append(f"scalars[{index}].{_SCALAR_CODES[c_type]}")
    arguments += [f"grid[{axis}]" for axis in range(3)]
    return "\n".join(
        [
            "#include \"tnpu_launch.h\"",
            f"void {kernel.symbol}({', '.join(parameters)});",
            "const int tnpu_argument_count = " + str(len(kernel.argument_types)) + ";",
            "void tnpu_invoke(void *const *buffers, const tnpu_scalar *scalars, const int32_t grid[3]) {",
            "    (void)buffers; (void)scalars;",
            f"    {kernel.symbol}({', '.join(arguments)});",
            "}",
            "",
        ]
    )


def _runtime_dir() -> Path:
    return Path(str(resources.files("tnpu.backend_riscv") / "runtime"))


def build_elf(kernel: CompiledKernel) -> Path:
    """The kernel's ELF, built with the cross gcc (cached by content)."""
    runtime = _runtime_dir()
    invoke = invoke_source(kernel)
    digest = hashlib.sha256()
    for part in (kernel.assembly, invoke, " ".join(GCC_FLAGS)):
        digest.update(part.encode())
    for source in sorted(runtime.iterdir()):
        digest.update(source.read_bytes())
    elf = cache_dir() / f"{kernel.name}-{digest.hexdigest()[:20]}.elf"
    if elf.exists():
        return elf
    gcc = require_tool(CROSS_GCC)
    with tempfile.TemporaryDirectory(prefix="tnpu-build-") as work:
        (Path(work) / "kernel.s").write_text(kernel.assembly)
        (Path(work) / "tnpu_invoke.c").write_text(invoke)
        partial = Path(work) / "kernel.elf"
        result = subprocess.run(
            [gcc, *GCC_FLAGS, f"-I{runtime}", str(runtime / "tnpu_launch.c"),
             str(Path(work) / "tnpu_invoke.c"), str(Path(work) / "kernel.s"), "-o", str(partial)],
            capture_output=True, text=True,
        )  # fmt: skip
        if result.returncode != 0:
            first = next((line for line in result.stderr.splitlines() if "rror" in line), result.stderr)
            raise LaunchError(f"assembling {kernel.name} failed: {first.strip()}")
        partial.replace(elf)
    return elf


# -- running ----------------------------------------------------------------


@dataclass(frozen=True)
class LaunchResult:
    storages: list[np.ndarray | None]
    """Every buffer's storage after the launch (None for scalars)."""
    instructions: int | None
    """Dynamic instructions retired, when counted."""


def qemu_command(elf: Path, vlen: int, plugin: Path | None = None) -> list[str]:
    command = [require_tool(QEMU), "-cpu", f"rv64,v=true,vlen={vlen},vext_spec=v1.0"]
    if plugin is not None:
        command += ["-plugin", str(plugin), "-d", "plugin"]
    return [*command, str(elf)]


@dataclass(frozen=True)
class BufferBinding:
    """Where a buffer argument points: `offset` bytes into the launch's region `region`."""

    region: int
    offset: int


def launch(
    kernel: CompiledKernel,
    spec: KernelSpec,
    storages: Sequence[np.ndarray | None],
    *,
    vlen: int = 256,
    count_instructions: bool = False,
    timeout: float = 600,
    elf: Path | None = None,
) -> LaunchResult:
    """Run the grid under qemu; return the buffers' storages afterwards.

    `storages[i]` is the 1-D storage of buffer argument i (None for scalars),
    left unchanged; `elf` is the kernel's, when already built (else
    `build_elf` builds it).
    """
    regions: list[np.ndarray] = []
    arguments: list[ScalarSpec | BufferBinding] = []
    for index, (argument, storage) in enumerate(zip(spec.arguments, storages)):
        if isinstance(argument, ScalarSpec):
            arguments.append(argument)
        else:
            arguments.append(BufferBinding(len(regions), 0))
            regions.append(_checked_storage(index, argument, storage).copy())
    instructions = launch_in_regions(
        kernel, spec.grid, arguments, [region.view(np.uint8) for region in regions],
        vlen=vlen, count_instructions=count_instructions, timeout=timeout, elf=elf,
    )  # fmt: skip
    after: list[np.ndarray | None] = [
        regions[argument.region] if isinstance(argument, BufferBinding) else None
        for argument in arguments
    ]
    return LaunchResult(after, instructions)


def launch_in_regions(
    kernel: CompiledKernel,
    grid: tuple[int, int, int],
    arguments: Sequence[ScalarSpec | BufferBinding],
    regions: Sequence[np.ndarray],
    *,
    vlen: int = 256,
    count_instructions: bool = False,
    timeout: float = 600,
    elf: Path | None = None,
) -> int | None:
    """Run the grid under qemu with buffers bound into `regions` (1-D `uint8` arrays).

    The regions a written buffer points into are updated in place, and only
    once the launch has succeeded: a launch that fails (a LaunchError)
    leaves every region as it was.  Returns the instructions retired when
    `count_instructions`, else None.
    """
    elf = elf or build_elf(kernel)
    plugin = None
    if count_instructions:
        plugin = counting_plugin()
    written = {
        argument.region
        for index, argument in enumerate(arguments)
        if isinstance(argument, BufferBinding) and index in kernel.written_buffers
    }
    with tempfile.TemporaryDirectory(prefix="tnpu-launch-", dir=_shared_memory_dir()) as work:
        lines = ["grid " + " ".join(map(str, grid))]
        maps: dict[int, mmap.mmap] = {}
        try:
            for number, region in enumerate(regions):
                path = Path(work) / f"region{number}.raw"
                lines.append(f"region {number} {region.nbytes} {path}")
                if region.nbytes:
                    maps[number] = _mapped_copy(path, region)
            for index, argument in enumerate(arguments):
                if isinstance(argument, ScalarSpec):
                    lines.append(f"scalar {index} {argument.code} {_scalar_text(argument)}")
                else:
                    lines.append(f"buffer {index} {argument.region} {argument.offset}")
            launch_file = Path(work) / "launch.txt"
            launch_file.write_text("\n".join(lines) + "\n")
            command = [*qemu_command(elf, vlen, plugin), str(launch_file)]
            try:
                result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise LaunchError(f"{kernel.name} ran longer than {timeout:.0f} s under qemu") from None
            if result.returncode != 0:
                message = result.stderr.strip().splitlines()
                raise LaunchError(
                    f"{kernel.name} failed under qemu (exit {result.returncode}): "
                    + (message[-1] if message else "no message")
                )
            for number in written & maps.keys():
                regions[number][:] = np.frombuffer(maps[number], np.uint8, regions[number].size)
        finally:
            for mapping in maps.values():
                mapping.close()
    if count_instructions:
        return parse_count(result.stderr)
    return None


_SPARE_BYTES = 64
"""Bytes past a region's end the runtime maps (it may read, never use, one vector more)."""


def _shared_memory_dir() -> str | None:
    """`/dev/shm` where the system has one (a tmpfs: regions never reach a disk), else None."""
    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def _mapped_copy(path: Path, region: np.ndarray) -> mmap.mmap:
    """A file at `path` holding `region` (and spare bytes), and its shared mapping."""
    with open(path, "w+b") as file:
        file.truncate(region.nbytes + _SPARE_BYTES)
        mapping = mmap.mmap(file.fileno(), region.nbytes + _SPARE_BYTES)
    np.frombuffer(mapping, np.uint8, region.nbytes)[:] = region
    return mapping


def _checked_storage(index: int, argument: BufferSpec, storage: np.ndarray | None) -> np.ndarray:
    if storage is None:
        raise LaunchError(f"argument {index}: missing field 'storage' (a buffer)")
    data = np.ascontiguousarray(storage).reshape(-1)
    if data.dtype.itemsize != argument.dtype.itemsize:
        raise LaunchError(
            f"argument {index}: storage dtype {data.dtype} is not {argument.dtype}"
        )
    if data.size < argument.storage_elements:
        raise LaunchError(
            f"argument {index}: storage of {data.size} elements, the view reaches "
            f"{argument.storage_elements}"
        )
    return data


def _scalar_text(argument: ScalarSpec) -> str:
    if argument.code in ("f32", "f64"):
        return float(argument.value).hex()
    return str(int(argument.value))


def storage_of(view: np.ndarray) -> np.ndarray:
    """The storage a (possibly strided) view reaches, from its first element, in storage order."""
    if view.size == 0:
        return np.zeros(0, view.dtype)
    itemsize = view.dtype.itemsize
    if any(s < 0 or s % itemsize for s in view.strides):
        raise LaunchError("negative or unaligned strides cannot be launched")
    span = 1 + sum((n - 1) * s // itemsize for n, s in zip(view.shape, view.strides))
    return np.lib.stride_tricks.as_strided(view, (span,), (itemsize,)).copy()


def element_strides(view: np.ndarray) -> tuple[int, ...]:
    return tuple(s // view.dtype.itemsize for s in view.strides)


def view_of(storage: np.ndarray, shape: Sequence[int], strides: Sequence[int]) -> np.ndarray:
    """The strided view of a storage (a copy)."""
    if math.prod(shape) == 0:
        return np.zeros(shape, storage.dtype)
    itemsize = storage.dtype.itemsize
    return np.lib.stride_tricks.as_strided(
        storage, tuple(shape), tuple(s * itemsize for s in strides)
    ).copy()
