"""Import PyTorch-Inductor kernel modules on a machine with no GPU.

An Inductor module runs `triton_helpers.set_driver_to_cpu()` and decorates its
kernel with `triton_heuristics.*`, which builds a `CachingAutotuner`; that
needs an active Triton driver.  `install_inductor_patches` installs a
compile-only driver reporting the sm_80 target the corpus was compiled for
and makes the driver switches no-ops, so `kernel.py` imports and its `.fn`
is the plain `@triton.jit` function.  Needs the CPU build of torch
(`pip install torch==2.13.0`).
"""

from __future__ import annotations

import functools


@functools.cache
def install_inductor_patches() -> None:
    import torch
    from torch._inductor.runtime import triton_helpers
    from triton.backends.compiler import GPUTarget
    from triton.backends.driver import DriverBase
    from triton.runtime.driver import driver

    target = GPUTarget("cuda", 80, 32)

    class NoModules:
        def unload_module(self, module: object) -> None:
            """Nothing was loaded through this driver (CompiledKernel.__del__ asks the active one)."""

    class CompileOnlyDriver(DriverBase):
        """Reports an sm_80 CUDA target; never launches anything."""

        utils = NoModules()

        @classmethod
        def is_active(cls) -> bool:
            return True

        def map_python_to_cpp_type(self, ty: str) -> str:
            return ty

        def get_current_target(self) -> GPUTarget:
            return target

        def get_active_torch_device(self):
            return torch.device("cpu")

        def get_benchmarker(self):
            raise NotImplementedError("no benchmarking without a GPU")

        def get_current_device(self) -> int:
            return 0

        def get_current_stream(self, idx=None) -> int:
            return 0

        def get_device_capability(self, idx=None) -> tuple[int, int]:
            return (8, 0)

    compile_only = CompileOnlyDriver()
    driver.set_active(compile_only)
    driver._default = compile_only
    triton_helpers.set_driver_to_cpu = lambda: None
    triton_helpers.set_driver_to_gpu = lambda: None
