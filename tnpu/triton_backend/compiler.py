"""tnpu as Triton's compiler for the `cpu` target.

Triton finds this module through the `triton.backends` entry point `cpu`
and runs, for every kernel it compiles for a `GPUTarget("cpu", ...)`, the
stages `add_stages` lists, in order:

* `ttir`:  Triton's own TTIR passes, the ones every GPU backend runs first
  (inliner, canonicalizer, combine, broadcast reordering, CSE, symbol DCE,
  loop unrolling; tensor descriptors rewritten to pointers, as on GPUs
  without TMA);
* `tile`:  tnpu's compile API (`tnpu.compile_ttir`): the kernel lowered to
  the tile dialect, once; its text;
* `rvv`:   the RISC-V target's assembly, built from that compiled kernel;
* `tnpu`:  the binary the driver loads (`binary.KernelBinary`): ELF,
  argument C types, written buffers and tile IR, self-contained, because
  on a cache hit Triton runs no stage and hands the driver these bytes only.

In the `timing` execution mode (the setting in force when Triton parses
the options: `TnpuOptions.machine_code` is off) no launch runs the code,
so none is built: `rvv` is empty and the binary holds no ELF, only what a
launch must know and the tile IR, which the timer reads.  Should such a
kernel run after all (Inductor shares a kernel's module between compiles
of the same source, whatever the mode), its ELF is built from the tile IR
on its first run (`LoadedKernel.elf`).

A kernel tnpu cannot compile raises `KernelRefusedError`, one line naming
the op, the reason and the Python source line; no tnpu traceback is
chained to it.  `TnpuBackend.hash` holds tnpu's version and a digest of
its sources, and `TnpuOptions.hash` every option, so Triton's cache never
returns a binary another tnpu or other options built.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any

from triton._C.libtriton import ir, passes
from triton.backends.compiler import BaseBackend, GPUTarget, Language
from triton.errors import TritonError
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.backend_riscv.codegen import signature_only
from tnpu.backend_riscv.qemu_launch import LaunchError
from tnpu.compiler.kernel import compile_ttir
from tnpu.diagnostics import InternalError, format_parse_error, one_line
from tnpu.timing.npu_config import load_npu_config
from tnpu.triton_backend.binary import TNPU_VERSION, KernelBinary, source_digest
from tnpu.triton_backend.loaded import remember
from tnpu.triton_backend.refusals import refusal_message
from tnpu.triton_backend.settings import settings

BINARY_EXT = "tnpu"


class KernelRefusedError(TritonError):
    """A kernel tnpu cannot compile: the stage, the op, the reason and its source line, on one
    line (`refusals.refusal_message`)."""


@dataclass(frozen=True)
class TnpuOptions:
    """The compile options: the fields Triton's code generator and launch path read.

    GPU-only fields (warps, CTAs, stages, cooperative grids) are accepted and
    change nothing in tnpu's code; they are part of the cache key all the same.
    """

    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 3
    warp_size: int = 32
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    # As Triton's interpreter: the fp8 formats it accepts (tnpu refuses their casts).
    supported_fp8_dtypes: tuple[str, ...] = ("fp8e5", "fp8e5b16", "fp8e4nv", "fp8e4b8", "fp8e4b15")
    deprecated_fp8_dot_operand_dtypes: tuple[str, ...] = ()
    # tnpu's matmul is IEEE f32; the GPU precisions are accepted and computed as accurately.
    default_dot_input_precision: str = "ieee"
    allowed_dot_input_precisions: tuple[str, ...] = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")
    max_num_imprecise_acc_default: int = 0
    extern_libs: tuple[tuple[str, str], ...] | None = None
    debug: bool = False
    sanitize_overflow: bool = True
    arch: str = ""
    backend_name: str = "cpu"
    machine_code: bool = True
    """Build the RVV code and its ELF; off in the `timing` execution mode, where nothing runs."""
    instrumentation_mode: str = ""
    fpsan_homomorphic_casts: bool = False
    # Options of the NVIDIA and AMD backends that configurations written for them set.
    maxnreg: int | None = None
    waves_per_eu: int = 0
    matrix_instr_nonkdim: int = 0
    kpack: int = 1

    def hash(self) -> str:
        key = "_".join(f"{field.name}-{getattr(self, field.name)}" for field in fields(self))
        return hashlib.sha256(key.encode()).hexdigest()


class TnpuBackend(BaseBackend):
    """Triton's `cpu` target compiled by tnpu: TTIR → tile IR → RVV → `KernelBinary`."""

    binary_ext = BINARY_EXT

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == "cpu"

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)

    def hash(self) -> str:
        return f"tnpu-{TNPU_VERSION}-{source_digest()}"

    def parse_options(self, options: dict[str, Any]) -> TnpuOptions:
        known = {field.name for field in fields(TnpuOptions)}
        given = {k: v for k, v in options.items() if k in known and v is not None}
        for name in ("supported_fp8_dtypes", "deprecated_fp8_dot_operand_dtypes", "allowed_dot_input_precisions"):
            if name in given:
                given[name] = tuple(given[name])
        if "extern_libs" in given:
            given["extern_libs"] = tuple(dict(given["extern_libs"]).items())
        given.setdefault("machine_code", settings.execution_mode() != "timing")
        return TnpuOptions(**given)

    def pack_metadata(self, metadata: Any) -> tuple[int, int, int]:
        return (metadata.num_warps, metadata.num_ctas, metadata.shared)

    def get_codegen_implementation(self, options: TnpuOptions) -> dict[str, Any]:
        # Any dot shape compiles on the NPU, as in Triton's interpreter.
        return {"min_dot_size": lambda lhs_type, rhs_type: (1, 1, 1)}

    def get_module_map(self) -> dict[str, ModuleType]:
        # libdevice calls become tt.extern_elementwise of CUDA's __nv_* symbols,
        # which lower-libdevice replaces by math/arith ops of the same meaning.
        from triton.language.extra.cuda import libdevice

        return {"triton.language.extra.libdevice": libdevice}

    def load_dialects(self, context: Any) -> None:
        pass  # TTIR needs only Triton's own dialects

    def add_stages(self, stages: dict[str, Any], options: TnpuOptions, language: Language) -> None:
        if language != Language.TRITON:
            raise KernelRefusedError(f"tnpu compiles Triton kernels, not {language.name.lower()} ones")
        compilation = _Compilation(options.machine_code)
        stages["ttir"] = lambda src, metadata: make_ttir(src)
        stages["tile"] = compilation.lower
        stages["rvv"] = compilation.assemble
        stages[BINARY_EXT] = compilation.link


def make_ttir(module: Any) -> Any:
    """Triton's TTIR passes, as its GPU backends run them (descriptors become pointers)."""
    manager = ir.pass_manager(module.context)
    manager.enable_debug()
    passes.common.add_inliner(manager)
    passes.ttir.add_rewrite_tensor_descriptor_to_pointer(manager)
    passes.common.add_canonicalizer(manager)
    passes.ttir.add_combine(manager)
    passes.ttir.add_reorder_broadcast(manager)
    passes.common.add_cse(manager)
    passes.common.add_symbol_dce(manager)
    passes.ttir.add_loop_unroll(manager)
    manager.run(module, "make_ttir")
    return module


class _Compilation:
    """One kernel's passage through the tnpu stages: the compiled kernel, shared by them."""

    def __init__(self, machine_code: bool):
        self.machine_code = machine_code

    def lower(self, ttir: Any, metadata: dict[str, Any]) -> str:
        metadata["name"] = name = ttir.get_entry_func_name()
        try:
            self.kernel = compile_ttir(str(ttir), name, source=f"{name}.ttir")
        except ParseError as error:
            raise _refused(metadata, "TTIR", format_parse_error(error)) from None
        except DiagnosticException as error:
            raise _refused(metadata, "tile IR", one_line(error)) from None
        # The scratchpad one program instance needs on the NPU, in place of GPU shared memory.
        graph = self._timer_of_default_npu(metadata).tog.graph
        metadata["shared"], _ = graph.holds({body: 1 for body in graph.loop_bodies()})
        self.tile = _print_with_locations(self.kernel.tile)
        return self.tile

    def assemble(self, tile: str, metadata: dict[str, Any]) -> str:
        if not self.machine_code:
            return ""
        try:
            return self.kernel.rvv.assembly
        except DiagnosticException as error:
            raise _refused(metadata, "RVV code", one_line(error)) from None
        except InternalError as bug:  # a bug of the RISC-V backend: its one line, stage and op named
            raise _refused(metadata, "RVV code", one_line(bug)) from None

    def link(self, assembly: str, metadata: dict[str, Any]) -> bytes:
        if self.machine_code:
            rvv = self.kernel.rvv
            try:
                code, elf = rvv.code, rvv.elf.read_bytes()
            except LaunchError as error:
                raise _refused(metadata, "ELF", str(error)) from None
        else:
            code, elf = signature_only(self.kernel.tile_kernel), b""
        binary = KernelBinary(code, elf, self.tile)
        data = binary.write()
        remember(data, binary, self.kernel)
        return data

    def _timer_of_default_npu(self, metadata: dict[str, Any]) -> Any:
        try:
            return self.kernel.timer(load_npu_config("tpuv3"))
        except DiagnosticException as error:
            raise _refused(metadata, "tile IR", one_line(error)) from None


def _refused(metadata: dict[str, Any], stage: str, reason: str) -> KernelRefusedError:
    return KernelRefusedError(refusal_message(metadata["name"], stage, reason))


def _print_with_locations(module: Any) -> str:
    out = io.StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()
