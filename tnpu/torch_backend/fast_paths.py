"""PyTorch's fused inference kernels (its "fast paths") as the aten operations they compute.

In eval mode without gradients, `nn.TransformerEncoderLayer` (and each
layer of `nn.TransformerEncoder` and of `nn.Transformer`'s encoder) calls
one fused native kernel, `aten._transformer_encoder_layer_fwd`, and
`nn.MultiheadAttention` calls `aten._native_multi_head_attention`.
Inductor has no lowering for either and would call them on the host.
Dynamo captures the Python call as a graph node; AOT autograd traces it
to the aten operation, and there the decomposition table replaces it: the
table is the mechanism that reaches both, so they are its entries
(`decompositions`, which `inductor.decompositions` adds).

The semantics are the native kernels' (aten/src/ATen/native/transformers/
attention.cpp and transformer.cpp), which differ from the modules' Python
(slow) paths:

* `_native_multi_head_attention(query, key, value, embed_dim, num_head,
  qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
  average_attn_weights, mask_type)`: inputs batch first, (B, T, D); q, k
  and v are the input projections (one GEMM of the packed weight when
  query, key and value are one tensor), split into heads; the scores are
  q·kᵀ/√(D/H), masked and soft-maxed; the heads' outputs are joined and
  projected.  The mask is boolean, True where a key is left out; a
  floating-point mask is made boolean (`mask.to(bool)`: every non-zero
  entry, not only -inf, masks — the modules pass their masks as 0/-inf).
  `mask_type` says its shape: 0 a (T, T) attention mask, 1 a (B, T) key
  padding mask, 2 (or none) one that broadcasts to (B, H, T, T) (the
  modules' `merge_masks` expands both masks so).  A row with every key
  masked is NaN, as the native softmax leaves it (compiled too; eager
  `F.scaled_dot_product_attention` makes it 0).  The weights are
  returned when `need_weights` (averaged over the heads when
  `average_attn_weights`), else None.
* `_transformer_encoder_layer_fwd(src, embed_dim, num_heads, <attention
  weights>, use_gelu, norm_first, eps, <norm and feed-forward weights>,
  mask, mask_type)`: self-attention without weights, then the
  feed-forward block (linear, ReLU or exact GELU, linear), each added to
  its input and layer-normed after it (post-norm) or its input normed
  first (`norm_first`), both norms with the one `eps`.  The module passes
  `use_gelu` for `F.gelu` and any `nn.GELU`, a tanh-approximate one
  included: the kernel computes the exact GELU all the same.

Without weights, the attention is `F.scaled_dot_product_attention`, as
in the native kernel.  That is a composite operation: tracing decomposes
it before consulting the table, on CPU into aten's flash attention
(`aten._scaled_dot_product_flash_attention_for_cpu`), which Inductor
calls on the host.  So the table maps that operation to the route's
attention (`attention_by_matmul`, passed in by `inductor.decompositions`:
this module is below it), which also catches attention inside any traced
function.  That matters most where the fast paths are not taken:
`nn.MultiheadAttention` leaves its fast path while make_fx traces, which
dynamo's tracing counts as, so under `torch.compile` it runs
`F.multi_head_attention_forward`, whose attention without weights is
`F.scaled_dot_product_attention` inside the function, out of reach of
the graph rewrite before Inductor (`inductor.rewrite_attention`, which
sees the graph's own calls).  Encoder layers with `batch_first=False`, an
odd head count or in training mode, and `nn.TransformerDecoderLayer`
(which has no fast path), go the same way.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import torch
from torch.nn import functional as F

aten = torch.ops.aten

_KEY_PADDING = 1
"""`mask_type` of a (B, T) key padding mask; 0 is a (T, T) attention mask, 2 one of (B, H, T, T)."""


def native_multi_head_attention(
    query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, embed_dim: int, num_head: int,
    qkv_weight: torch.Tensor, qkv_bias: torch.Tensor, proj_weight: torch.Tensor, proj_bias: torch.Tensor,
    mask: torch.Tensor | None = None, need_weights: bool = True, average_attn_weights: bool = True,
    mask_type: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor | None]:  # fmt: skip
    """`aten._native_multi_head_attention` (module docstring): the output and the weights or None."""
    batch, length, _ = query.shape
    if query is key and key is value:
        q, k, v = F.linear(query, qkv_weight, qkv_bias).chunk(3, dim=-1)
    else:
        weights, biases = qkv_weight.chunk(3), qkv_bias.chunk(3)
        q, k, v = (F.linear(x, w, b) for x, w, b in zip((query, key, value), weights, biases))
    q, k, v = (x.view(batch, length, num_head, -1).transpose(1, 2) for x in (q, k, v))
    masked = _masked(mask, mask_type, batch, length)
    if need_weights:
        weights = _attention_weights(q, k, masked)
        context = weights @ v
    else:
        weights = None
        context = F.scaled_dot_product_attention(q, k, v, attn_mask=None if masked is None else ~masked)
    output = F.linear(context.transpose(1, 2).reshape(batch, length, embed_dim), proj_weight, proj_bias)
    if weights is not None and average_attn_weights:
        weights = weights.sum(dim=1) / num_head
    return output, weights


def _masked(mask: torch.Tensor | None, mask_type: int | None, batch: int, length: int) -> torch.Tensor | None:
    """The native mask as a boolean one, True where a key is left out, broadcasting to (B, H, T, S)."""
    if mask is None:
        return None
    masked = mask if mask.dtype == torch.bool else mask.to(torch.bool)
    if mask_type == _KEY_PADDING:
        return masked.view(batch, 1, 1, length)
    return masked


def _attention_weights(q: torch.Tensor, k: torch.Tensor, masked: torch.Tensor | None) -> torch.Tensor:
    """softmax(q·kᵀ/√d), left-out keys at -inf: the weights, which scaled-dot-product attention does not return."""
    return torch.softmax(_scores(q, k, None, masked), dim=-1)


def _scores(
    q: torch.Tensor, k: torch.Tensor, scale: float | None, masked: torch.Tensor | None, bias: torch.Tensor | None = None
) -> torch.Tensor:
    """q·kᵀ·scale (1/√d by default; q scaled first, as the native kernels do), + bias, left-out keys at -inf."""
    scores = (q * (1.0 / math.sqrt(q.size(-1)) if scale is None else scale)) @ k.transpose(-2, -1)
    if bias is not None:
        scores = scores + bias
    return scores if masked is None else scores.masked_fill(masked, float("-inf"))


def transformer_encoder_layer_fwd(
    src: torch.Tensor, embed_dim: int, num_heads: int, qkv_weight: torch.Tensor, qkv_bias: torch.Tensor,
    proj_weight: torch.Tensor, proj_bias: torch.Tensor, use_gelu: bool, norm_first: bool, eps: float,
    norm_weight_1: torch.Tensor, norm_bias_1: torch.Tensor, norm_weight_2: torch.Tensor, norm_bias_2: torch.Tensor,
    ffn_weight_1: torch.Tensor, ffn_bias_1: torch.Tensor, ffn_weight_2: torch.Tensor, ffn_bias_2: torch.Tensor,
    mask: torch.Tensor | None = None, mask_type: int | None = None,
) -> torch.Tensor:  # fmt: skip
    """`aten._transformer_encoder_layer_fwd` (module docstring): one post-norm or pre-norm encoder layer."""

    def norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, (embed_dim,), weight, bias, eps)

    x = norm(src, norm_weight_1, norm_bias_1) if norm_first else src
    attended, _ = native_multi_head_attention(
        x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, False, True, mask_type
    )
    x = attended + src
    if not norm_first:
        x = norm(x, norm_weight_1, norm_bias_1)
    residual = x
    if norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    hidden = F.linear(x, ffn_weight_1, ffn_bias_1)
    hidden = F.gelu(hidden) if use_gelu else F.relu(hidden)
    x = F.linear(hidden, ffn_weight_2, ffn_bias_2) + residual
    return norm(x, norm_weight_2, norm_bias_2) if not norm_first else x


def _flash_attention_for_cpu(
    attention: Callable[..., torch.Tensor], query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
    dropout_p: float = 0.0, is_causal: bool = False, *, attn_mask: torch.Tensor | None = None,
    scale: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """`aten._scaled_dot_product_flash_attention_for_cpu`: the output `attention`'s, and each row's log-sum-exp.

    Only the operation's backward reads the log-sum-exp: in a graph
    without one Inductor drops it, and with one (a training step) the
    backward stays aten's, on the host, and needs it right."""
    output = attention(query, key, value, attn_mask, dropout_p, is_causal, scale)
    masked = None  # its mask is additive: scaled_dot_product_attention makes a boolean one so first
    if is_causal:
        masked = ~torch.ones(query.size(-2), key.size(-2), dtype=torch.bool, device=query.device).tril()
    scores = _scores(query, key, scale, masked, attn_mask).to(torch.promote_types(query.dtype, torch.float32))
    return output, torch.logsumexp(scores, dim=-1)


def decompositions(attention: Callable[..., torch.Tensor]) -> dict[Any, Callable[..., Any]]:
    """The fused operations' decompositions; CPU flash attention's output is `attention`'s (SDPA's signature)."""
    return {
        aten._native_multi_head_attention.default: native_multi_head_attention,
        aten._transformer_encoder_layer_fwd.default: transformer_encoder_layer_fwd,
        aten._scaled_dot_product_flash_attention_for_cpu.default: functools.partial(
            _flash_attention_for_cpu, attention
        ),
    }
