"""tnpu as a `torch.compile` backend: whole PyTorch programs with every kernel on tnpu.

    model = torch.compile(model, backend="tnpu", options={"config": "tpuv3"})
    with tnpu.profile() as prof:
        model(x)
    prof.launches, prof.fallbacks, prof.total_cycles

The dynamo backend `tnpu` (entry point `torch_dynamo_backends`) runs
Inductor with its Triton route for CPU tensors, whose kernels Triton
compiles through tnpu's Triton backend (`tnpu.triton_backend`):

* `backend`         the dynamo backend and `tnpu.torch_backend.compile(model, ...)`;
* `options`         what a compile may choose: the NPU, the execution mode, autotuning;
* `inductor`        the Inductor settings of the route (GEMM and conv templates on, nothing
                    that has a template left to aten) and the graph rewrites before it
                    (attention as matmuls, GEMMs over an empty axis);
* `benchmarking`    Inductor's benchmarks of tnpu kernels read modeled time;
* `wrapper`         Inductor's Python wrapper, naming the operations that run on the host;
* `graph_runtime`   what a compiled graph does around each call (settings, fallbacks).

docs/torch-compile.md describes the route.
"""
