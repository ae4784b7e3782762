"""Inductor as the `tnpu` backend runs it: the Triton route for CPU tensors, templates on.

`inductor_config` is what changes in Inductor's configuration:

* `cpu_backend = "triton"`: kernels for CPU tensors are Triton kernels,
  which Triton compiles for its `cpu` target — tnpu's Triton backend;
* the GEMM and convolution templates on (`max_autotune_gemm`, Triton as
  the only GEMM and conv backend), so that mm, bmm, addmm, baddbmm and
  convolutions become Triton kernels rather than calls of aten's;
* without `autotune`, one configuration per template
  (`test_configs.max_mm_configs`, Inductor's own knob for it) and one per
  pointwise kernel (a reduction's few configurations are still ranked, by
  modeled time);
* its pattern-matcher passes off (`pattern_matcher`): their attention
  patterns turn a softmax between two matmuls back into aten's CPU flash
  attention, an operation of the host, and the others rewrite for GPU
  libraries (padded and bias-fused cuBLAS calls).
* fusions decided, not benchmarked (`benchmark_epilogue_fusion`,
  `benchmark_fusion` off): a template's epilogue (the bias, the
  activation after a GEMM) is fused into it, as an NPU compiler applies
  it to the accumulator before the one write to DRAM (XLA's output
  fusion).  Inductor's fusion benchmark has no CPU route: the module it
  writes for CPU devices does not import (its `get_raw_stream` stand-in
  breaks the dedent of the benchmark harness: `IndentationError`), CPU
  devices have no device context to run it in, and it runs each
  candidate once for real before timing it.  With `max_autotune_gemm` it
  is on by default, so a `Linear` followed by an activation failed to
  compile from a plain script.
* kernels compiled in the compiling process (`compile_threads = 1`):
  Inductor's compile workers are other processes, which see neither the
  compile's scoped settings (the NPU in force, the execution mode) nor the
  mappings' scope, so a kernel compiled there was offered Inductor's
  configurations, not the NPU's (a softmax of 512 rows got one row per
  program once the worker pool had warmed up), and was built for the
  default NPU and execution mode.
* the autotuning tables Inductor prints to stderr in max-autotune mode
  off (`autotune_num_choices_displayed`, `max_autotune_report_choices_stats`): the user asked for tnpu, not
  for max-autotune, and the choices are in the profile
  (`prof.benchmarked`).

Before Inductor, the graph is rewritten where Inductor would leave an
operation to the host:

* `F.scaled_dot_product_attention` becomes its definition in matmuls and
  a softmax (`attention_by_matmul`), which Inductor's bmm template and
  reduction kernels compile; Inductor would call aten's CPU flash
  attention;
* mm, bmm, addmm and baddbmm over an empty axis, for which the GEMM
  templates have no configuration (`NoValidChoicesError`), are their
  values (`decompositions`): an empty result, zeros for a sum over nothing
  (K = 0), `beta * bias` for addmm and baddbmm with K = 0;
* PyTorch's fused fast paths (`aten._transformer_encoder_layer_fwd`,
  `aten._native_multi_head_attention`) are the operations they compute,
  and aten's CPU flash attention, which attention inside a traced function
  (`F.multi_head_attention_forward`) becomes, is `attention_by_matmul`
  (`fast_paths`);
* a softmax or log-softmax along a dimension other than the last is
  computed along the last dimension of the tensor with that dimension
  moved last, and moved back (views), so that its reductions iterate it
  innermost: each a persistent kernel reading a strided column block.  The
  softmax is `exp(x − max − log Σ exp(x − max))`, not `exp(x − max) / Σ`:
  the unnormalised `exp`, used by the sum and by the division, would be a
  tensor of its own, whose loops Inductor orders by its input's strides
  (`pick_loop_orders`: rows, where the reductions iterate columns), so it
  was a kernel writing and reading the whole tensor.  Written so, the max
  and the sum are one kernel and the output fuses into its consumer
  (PyTorchSim's attention along dim −2: 3 kernels, 113,848 cycles, where
  Inductor's decomposition gave 6 and 236,203).  `pick_loop_orders` off
  would also fuse the quotient form, but costs convolution networks their
  epilogue fusions (ResNet-50: 83 kernels, 1,436k cycles, against 56 and
  1,160k);
* `topk` is a stable sort and the first k of it (values and indices),
  which Inductor writes as a Triton kernel; Inductor leaves `topk` to aten;
* a convolution with a bias is the convolution without it plus the bias
  broadcast over its channels: Inductor (2.13) peels the bias off so for
  GPUs only, and its Triton convolution template for CPU tensors drops it
  (the result misses the bias);
* a 2-D depthwise convolution (one filter per channel) is a reduction
  over its kh × kw window of the inputs under the filter times its
  weights, which Inductor writes as one reduction kernel for the vector
  unit.  The convolution template
  runs each channel as a GEMM of one output column padded to its blocks:
  for a 7 × 7 depthwise layer of ConvNeXt, three orders of magnitude more
  multiply-adds on the systolic array than the layer has.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
from torch._inductor.decomposition import select_decomp_table
from torch._prims_common import get_computation_dtype
from torch.fx.experimental.symbolic_shapes import guard_or_false

from tnpu.torch_backend import fast_paths
from tnpu.torch_backend.options import CompileOptions

aten = torch.ops.aten


def inductor_config(options: CompileOptions) -> dict[str, Any]:
    """Inductor's configuration for a compile with `options` (module docstring)."""
    return {
        "cpu_backend": "triton",
        "max_autotune_gemm": True,
        "max_autotune_gemm_backends": "TRITON",
        "max_autotune_conv_backends": "TRITON",
        "test_configs.max_mm_configs": None if options.autotune else 1,
        "triton.autotune_pointwise": options.autotune,
        "pattern_matcher": False,
        "benchmark_epilogue_fusion": False,
        "benchmark_fusion": False,
        "autotune_num_choices_displayed": 0,
        "max_autotune_report_choices_stats": False,
        "compile_threads": 1,
    }


def attention_by_matmul(
    query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, attn_mask: torch.Tensor | None = None,
    dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None, enable_gqa: bool = False,
) -> torch.Tensor:  # fmt: skip
    """`F.scaled_dot_product_attention` as its documented definition: softmax(QKᵀ·scale + mask)·V."""
    length, source = query.size(-2), key.size(-2)
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    if enable_gqa:
        repeats = query.size(-3) // key.size(-3)
        key = key.repeat_interleave(repeats, dim=-3)
        value = value.repeat_interleave(repeats, dim=-3)
    scores = (query @ key.transpose(-2, -1)) * scale
    if is_causal:
        allowed = torch.ones(length, source, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    weights = torch.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = torch.nn.functional.dropout(weights, p=dropout_p)
    return weights @ value


ATTENTION = (torch._C._nn.scaled_dot_product_attention, torch.nn.functional.scaled_dot_product_attention)  # pyright: ignore[reportAttributeAccessIssue]  # torch's or transformers' annotations


def rewrite_attention(graph_module: torch.fx.GraphModule) -> int:
    """Point every call of scaled-dot-product attention at `attention_by_matmul`; how many."""
    calls = [node for node in graph_module.graph.nodes if node.op == "call_function" and node.target in ATTENTION]
    for node in calls:
        node.target = attention_by_matmul
    if calls:
        graph_module.recompile()
    return len(calls)


def _empty(*sizes: Any) -> bool:
    return any(guard_or_false(size == 0) for size in sizes)


def _mm(self: torch.Tensor, mat2: torch.Tensor) -> torch.Tensor | Any:
    if _empty(self.size(0), self.size(1), mat2.size(1)):
        return self.new_zeros(self.size(0), mat2.size(1))
    return NotImplemented


def _bmm(self: torch.Tensor, mat2: torch.Tensor) -> torch.Tensor | Any:
    if _empty(self.size(0), self.size(1), self.size(2), mat2.size(2)):
        return self.new_zeros(self.size(0), self.size(1), mat2.size(2))
    return NotImplemented


def _with_bias(bias: torch.Tensor, shape: tuple[Any, ...], inner: Any, beta: Any) -> torch.Tensor | Any:
    """addmm/baddbmm's value over an empty axis: empty, or beta * bias for K = 0 (bias ignored if beta is 0)."""
    if _empty(*shape):
        return bias.new_zeros(shape)
    if _empty(inner):
        if beta == 0:
            return bias.new_zeros(shape)
        return (bias * beta).expand(shape).clone()
    return NotImplemented


def _addmm(bias: torch.Tensor, mat1: torch.Tensor, mat2: torch.Tensor, *, beta: Any = 1, alpha: Any = 1) -> Any:
    return _with_bias(bias, (mat1.size(0), mat2.size(1)), mat1.size(1), beta)


def _baddbmm(bias: torch.Tensor, batch1: torch.Tensor, batch2: torch.Tensor, *, beta: Any = 1, alpha: Any = 1) -> Any:
    return _with_bias(bias, (batch1.size(0), batch1.size(1), batch2.size(2)), batch1.size(2), beta)


def _convolution(
    input: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Any, padding: Any,
    dilation: Any, transposed: bool, output_padding: Any, groups: int,
) -> torch.Tensor | Any:  # fmt: skip
    channels = input.size(1)
    if input.dim() == 4 and not transposed and groups == channels == weight.size(0) and weight.size(1) == 1:
        return _depthwise(input, weight, bias, stride, padding, dilation)
    if bias is None:
        return NotImplemented
    result = aten.convolution.default(input, weight, None, stride, padding, dilation, transposed, output_padding, groups)
    return result + bias.view(bias.size(0), *[1] * (result.dim() - 2))


def _along_last(self: torch.Tensor, dim: int) -> bool:
    """Whether `dim` is the last dimension of `self` (a 0-d tensor's only one included)."""
    return self.dim() <= 1 or dim % self.dim() == self.dim() - 1


def _softmax(self: torch.Tensor, dim: int, half_to_float: bool) -> torch.Tensor | Any:
    """Along a dimension other than the last: `exp(x - max - log(sum(exp(x - max))))` along the
    last dimension of the tensor with `dim` moved last (views), moved back (module docstring)."""
    if _along_last(self, dim):
        return NotImplemented
    computation = get_computation_dtype(self.dtype)
    moved = self.movedim(dim, -1).to(computation)
    shifted = moved - moved.amax(-1, keepdim=True)
    result = torch.exp(shifted - torch.log(torch.exp(shifted).sum(-1, keepdim=True)))
    return result.to(computation if half_to_float else self.dtype).movedim(-1, dim)


def _log_softmax(self: torch.Tensor, dim: int, half_to_float: bool) -> torch.Tensor | Any:
    """Along a dimension other than the last: along the last of the tensor with `dim` moved
    last (views), moved back."""
    if _along_last(self, dim):
        return NotImplemented
    return aten._log_softmax.default(self.movedim(dim, -1), -1, half_to_float).movedim(-1, dim)


def _topk(self: torch.Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    values, indices = torch.sort(self, dim=dim, descending=largest, stable=True)
    return values.narrow(dim, 0, k), indices.narrow(dim, 0, k)


def _depthwise(
    input: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Any, padding: Any, dilation: Any
) -> torch.Tensor:
    """A depthwise 2-D convolution as a reduction over its window: each output element the sum of
    the kh × kw inputs under the filter times its weights (the windows a strided view, not copies)."""
    batch, channels, _, _ = input.shape
    (kernel_h, kernel_w), (stride_h, stride_w), (pad_h, pad_w), (dilation_h, dilation_w) = (
        weight.shape[2:], stride, padding, dilation
    )
    padded = torch.nn.functional.pad(input, (pad_w, pad_w, pad_h, pad_h)).contiguous()
    out_h = (padded.size(2) - dilation_h * (kernel_h - 1) - 1) // stride_h + 1
    out_w = (padded.size(3) - dilation_w * (kernel_w - 1) - 1) // stride_w + 1
    row, column = padded.stride(2), padded.stride(3)
    windows = padded.as_strided(
        (batch, channels, out_h, out_w, kernel_h, kernel_w),
        (padded.stride(0), padded.stride(1), stride_h * row, stride_w * column, dilation_h * row, dilation_w * column),
    )  # fmt: skip
    total = (windows * weight.view(1, channels, 1, 1, kernel_h, kernel_w)).sum((-2, -1))
    return total if bias is None else total + bias.view(1, -1, 1, 1)


_TAKEN_FIRST: dict[Any, Callable[..., Any]] = {
    aten.mm.default: _mm, aten.bmm.default: _bmm, aten.addmm.default: _addmm, aten.baddbmm.default: _baddbmm,
    aten.convolution.default: _convolution, aten.topk.default: _topk,
    aten._softmax.default: _softmax, aten._log_softmax.default: _log_softmax,
}  # fmt: skip


class _Decompositions(dict):
    """The route's decomposition table, pickled as what makes it: a call of `decompositions`.

    Inductor's FX graph cache keys a compile by its arguments, this table
    among them, pickled; Inductor's own table holds functions pickle cannot
    name, so every tnpu graph bypassed the cache ("Cannot produce stable
    cache key").  The table is decided by tnpu's sources and torch's
    version, both in the key already (`cache_key_tag`)."""

    def __reduce__(self) -> tuple[Callable[[], dict[Any, Callable[..., Any]]], tuple[()]]:
        return decompositions, ()


def decompositions() -> dict[Any, Callable[..., Any]]:
    """Inductor's decompositions, with the route's own (module docstring) taken first."""
    table = dict(select_decomp_table())
    for op, rewrite in _TAKEN_FIRST.items():
        table[op] = _first_of(rewrite, table.get(op))
    return _Decompositions(table | fast_paths.decompositions(attention_by_matmul))


def _first_of(first: Callable[..., Any], then: Callable[..., Any] | None) -> Callable[..., Any]:
    def decomposition(*args: Any, **kwargs: Any) -> Any:
        value = first(*args, **kwargs)
        if value is NotImplemented and then is not None:
            return then(*args, **kwargs)
        return value

    return decomposition
