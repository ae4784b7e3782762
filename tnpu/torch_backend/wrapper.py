"""Inductor's Python wrapper for the `tnpu` backend: the host's operations named.

`TnpuWrapperCodegen` writes what Inductor's `PythonWrapperCodegen` writes
and, at the end of the generated module, wraps its `call`:

    call = on_tnpu(call, [("aten.sort.stable", "aten fallback", ("sort",), "model.py:12: ..."), ...], {...})

listing every operation of the graph that Inductor calls on the host — an
extern kernel (`extern_kernels.mm`), an aten fallback, any other
`ExternKernel` — with the fx nodes it came from and the line of the
program they were traced from, and the compile's options
(`graph_runtime.on_tnpu`).

It also keeps, for each kernel it defines, the nodes of the graph dynamo
captured that the kernel computes (`KERNEL_SOURCE_NODES`, from the
kernel's "Source Nodes" comment), so that a kernel tnpu refuses is named
with the program's line (`backend.py`).  Baked into the module, the list holds
for the forward and backward graphs and for a graph loaded from
Inductor's cache.  A `MultiOutput` (picking an element of a fallback's
result) is not an operation of its own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Iterable, Iterator
from typing import Any

from torch._inductor import ir
from torch._inductor.codegen.common import device_codegens, init_backend_registration
from torch._inductor.codegen.wrapper import PythonWrapperCodegen, SubgraphPythonWrapperCodegen
from torch._inductor.scheduler import ExternKernelSchedulerNode
from torch._inductor.utils import IndentedBuffer
from torch._inductor.virtualized import V

_OPTIONS: list[dict[str, Any]] = []
"""The options of the compile in progress (`compiling_with`), innermost last."""


class TnpuWrapperCodegen(PythonWrapperCodegen):
    """Inductor's Python wrapper, ending in `call = on_tnpu(call, fallbacks, options)`."""

    @staticmethod
    def create(
        is_subgraph: bool, subgraph_name: str | None, parent_wrapper: PythonWrapperCodegen | None,
        partition_signatures: ir.GraphPartitionSignature | None = None,
    ) -> PythonWrapperCodegen:  # fmt: skip
        if is_subgraph:
            assert subgraph_name is not None and parent_wrapper is not None
            return SubgraphPythonWrapperCodegen(subgraph_name, parent_wrapper, partition_signatures)
        return TnpuWrapperCodegen()

    def generate_after_suffix(self, result: IndentedBuffer) -> None:
        super().generate_after_suffix(result)
        fallbacks = [host_operation(node.node) for node in V.graph.scheduler.nodes if _is_host_call(node)]
        result.writeline("from tnpu.torch_backend.graph_runtime import on_tnpu")
        result.writeline(f"call = on_tnpu(call, {fallbacks!r}, {_OPTIONS[-1]!r})")


    def define_kernel(
        self, kernel_name: str, kernel_body: str, metadata: str | None = None, gpu: bool = True,
        cpp_definition: str | None = None,
    ) -> None:  # fmt: skip
        found = _SOURCE_NODES.search(metadata or "")
        KERNEL_SOURCE_NODES[kernel_name] = tuple(found.group(1).split(", ")) if found and found.group(1) else ()
        super().define_kernel(kernel_name, kernel_body, metadata, gpu, cpp_definition)


KERNEL_SOURCE_NODES: dict[str, tuple[str, ...]] = {}
"""The dynamo graph's nodes each kernel of the latest compiles computes, by kernel name."""

_SOURCE_NODES = re.compile(r"Source Nodes: \[([^\]]*)\]")


def source_line(nodes: Iterable[Any]) -> str:
    """Where the first of `nodes` that has a stack trace was traced from: `file:line: code`, or ""."""
    for node in nodes:
        frames = _FRAME.findall(node.meta.get("stack_trace") or "")
        if frames:
            file, line, code = frames[-1]
            return f"{file}:{line}: {code.strip()}"
    return ""


_FRAME = re.compile(r'File "([^"]+)", line (\d+), in \S+\n(.*)')


def _is_host_call(node: Any) -> bool:
    return isinstance(node, ExternKernelSchedulerNode) and not isinstance(node.node, ir.MultiOutput)


def host_operation(kernel: ir.Operation) -> tuple[str, str, tuple[str, ...], str]:
    """(op, kind, fx nodes, the program's line) of an operation Inductor calls on the host."""
    overload = getattr(kernel, "op_overload", None)
    if overload is not None:
        op = str(overload)
    else:
        op = getattr(kernel, "python_kernel_name", None) or type(kernel).__name__
    kind = {
        ir.FallbackKernel: "aten fallback", ir.ExternKernelOut: "extern kernel", ir.ExternKernelAlloc: "extern kernel",
    }.get(type(kernel), type(kernel).__name__)  # fmt: skip
    origins = sorted(kernel.get_origins(), key=lambda origin: origin.name)
    return op, kind, tuple(origin.name for origin in origins), source_line(origins)


@contextlib.contextmanager
def compiling_with(options: dict[str, Any]) -> Iterator[None]:
    """In the scope, Inductor writes CPU graphs with `TnpuWrapperCodegen`, for these options."""
    init_backend_registration()
    earlier = device_codegens["cpu"]
    device_codegens["cpu"] = dataclasses.replace(earlier, wrapper_codegen=TnpuWrapperCodegen)
    _OPTIONS.append(options)
    try:
        yield
    finally:
        _OPTIONS.pop()
        device_codegens["cpu"] = earlier
