"""The `tnpu` dynamo backend: `torch.compile(model, backend="tnpu", options={...})`.

Declared as the `torch_dynamo_backends` entry point `tnpu`, so no import
of tnpu is needed first.  For each graph dynamo captures, `tnpu_backend`
rewrites attention into matmuls (`inductor.rewrite_attention`) and runs
Inductor (`compile_fx`) with the route's settings (`inductor`), tnpu's
Python wrapper (`wrapper`), benchmarks in modeled time (`benchmarking`)
and the compile's options as the Triton backend's settings; the
execution mode is fixed when a graph is compiled (the option, else the
`execution` setting then in force).  In the `timing` mode each graph
Inductor compiles is a `graph_runtime.HostValues`.  Every
kernel Inductor writes is a Triton kernel, compiled by tnpu's Triton
backend, run under qemu (or in the tile interpreter) and timed on the
modeled NPU.

A bad option is refused with one line (`OptionError`) before anything is
compiled.  A kernel tnpu cannot compile stops the compile with one line
(`KernelRefusedError`): the kernel, the stage, the op, the reason, the
line of the program the kernel computes and what to do about it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import torch
from torch._inductor.compile_fx import compile_fx, compile_fx_inner

from tnpu.torch_backend.benchmarking import modeled_benchmarks
from tnpu.torch_backend.graph_runtime import HostValues, copy_of
from tnpu.torch_backend.inductor import decompositions, inductor_config, rewrite_attention
from tnpu.torch_backend.mappings import npu_mappings
from tnpu.torch_backend.options import CompileOptions
from tnpu.torch_backend.wrapper import KERNEL_SOURCE_NODES, compiling_with, source_line
from tnpu.triton_backend.binary import source_digest
from tnpu.triton_backend.compiler import KernelRefusedError
from tnpu.triton_backend.driver import tnpu_driver_active
from tnpu.triton_backend.profile import npu_in_force, profile
from tnpu.triton_backend.refusals import parse_refusal, refusal_message
from tnpu.triton_backend.settings import settings


def tnpu_backend(
    graph_module: torch.fx.GraphModule, example_inputs: Sequence[Any], options: Mapping[str, Any] | None = None
) -> Callable[..., Any]:
    """Compile one dynamo graph with every kernel on tnpu (module docstring)."""
    chosen = CompileOptions.parse(options).resolved()
    rewrite_attention(graph_module)

    def inner_compile(graph: torch.fx.GraphModule, *args: Any, **kwargs: Any) -> Any:
        # AOT autograd compiles a backward graph on its first use, after compile_fx has returned.
        on_host = copy_of(graph) if chosen.execution == "timing" else None
        try:
            with _compiling(chosen):
                compiled = compile_fx_inner(graph, *args, **kwargs)
        except Exception as error:
            refusal = parse_refusal(str(error))
            if refusal is None:
                raise
            raise KernelRefusedError(program_refusal(*refusal, graph_module)) from None
        return compiled if on_host is None else HostValues(compiled, on_host)

    with _compiling(chosen):
        return compile_fx(  # pyright: ignore[reportReturnType]  # torch's or transformers' annotations
            graph_module, list(example_inputs), inner_compile=inner_compile, config_patches=inductor_config(chosen),
            decompositions=decompositions(),
        )  # fmt: skip


def program_refusal(kernel: str, stage: str, reason: str, graph_module: torch.fx.GraphModule) -> str:
    """A refused kernel's one line, with the program's line it computes and what a user can do."""
    by_name = {node.name: node for node in graph_module.graph.nodes}
    where = source_line(by_name[name] for name in KERNEL_SOURCE_NODES.get(kernel, ()) if name in by_name)
    return (
        refusal_message(kernel, stage, reason) + (f"; in the program at {where}" if where else "")
        + "; to compile the rest, keep that operation out of the compiled function "
        "(@torch.compiler.disable on a function holding it)"
    )


@contextlib.contextmanager
def _compiling(options: CompileOptions) -> Iterator[None]:
    # The compile's NPU is the clock's too: autotuning times its candidates on it.
    with settings.scoped(config=options.config, execution=options.execution), profile(config=options.config):
        with (
            # AOT autograd's cache would serve Inductor's graph without `inner_compile`, which makes
            # a `timing` graph's values the host's: in that mode only Inductor's own cache serves.
            torch._functorch.config.patch(enable_autograd_cache=options.execution != "timing"),  # pyright: ignore[reportAttributeAccessIssue]  # torch's or transformers' annotations
            _cache_key_tag(options),
            tnpu_driver_active(),
            modeled_benchmarks(),
            npu_mappings(),
            compiling_with(options.as_dict()),
        ):
            yield


def _cache_key_tag(options: CompileOptions) -> contextlib.AbstractContextManager[Any]:
    """Inductor's caches key graphs by this tag too: a graph tnpu wrote (its wrapper, its options,
    its kernels' blocks, which the NPU in force decides) is never served to another backend's
    compile, nor to another tnpu's, nor to a compile for another NPU."""
    tag = f"tnpu-{source_digest()}-{sorted(options.as_dict().items())}-npu-{npu_in_force().digest}"
    return torch.compiler.config.patch(cache_key_tag=tag)  # pyright: ignore[reportAttributeAccessIssue]  # torch's or transformers' annotations


def compile(model: Any, **options: Any) -> Any:
    """`torch.compile(model, backend="tnpu", options=options)`: config, execution, autotune."""
    CompileOptions.parse(options)
    return torch.compile(model, backend="tnpu", options=options)
