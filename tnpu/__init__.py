"""tnpu: Triton kernels to a simulated NPU, as an xDSL pass pipeline.

The compile API is re-exported here (`tnpu.compile_ttir`, `tnpu.Kernel`),
the profiler of kernels launched through Triton (`tnpu.profile`) and
`tnpu.compile(model, **options)`, `torch.compile` with the `tnpu` backend;
each is imported on first use, so that importing a dialect or running a
pass does not import both backends, nor torch.
"""

from typing import Any

__version__ = "0.1.0"

__all__ = ["Kernel", "RvvKernel", "compile", "compile_ttir", "profile"]


def __getattr__(name: str) -> Any:
    if name == "profile":
        from tnpu.triton_backend.profile import profile

        return profile
    if name == "compile":
        from tnpu.torch_backend.backend import compile

        return compile
    if name in __all__:
        from tnpu.compiler import kernel

        return getattr(kernel, name)
    raise AttributeError(f"module 'tnpu' has no attribute '{name}'")
