"""The served model: a Llama-style decoder, its prefill and decode steps as PyTorch programs.

A `DecoderSpec` holds the widths of a Llama-style decoder (RMSNorm,
grouped-query attention with rotary embeddings, SwiGLU MLP, no biases) and
its depth.  Every layer has the same shapes, so a step is compiled and
timed for one layer, and the step's time is the layer's times the number
of layers (kernel boundaries are global barriers, docs/timing.md, so
launches' times add up).  The embedding lookup and the LM head are left
out.

Two programs per layer:

* `prefill`: one request's prompt of T tokens, hidden states (1, T, H),
  causal attention over them; returns the new hidden states and the keys
  and values the KV cache keeps.
* `decode`: a batch of B requests, one new token each, hidden states
  (B, 1, H), attention over a cache of C positions per request
  (B, KV heads, C, head dim); returns the new hidden states and the new
  token's keys and values.  The query heads of a group share their key
  and value head without copying them (a (B, KV, G, C) score tensor), as
  a grouped-query decode kernel reads the cache once.

Everything is float32, as every model of the suite (`dtype_bytes` = 4):
the weights, the KV cache and their bytes.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class DecoderSpec:
    """A Llama-style decoder's shapes (defaults: Llama-3-8B's widths, 4 of its 32 layers)."""

    name: str = "llama3_8b_4l"
    hidden: int = 4096
    heads: int = 32
    kv_heads: int = 8
    head_dim: int = 128
    mlp: int = 14336
    layers: int = 4
    rope_theta: float = 500000.0
    dtype_bytes: int = 4

    def __post_init__(self) -> None:
        for key in ("hidden", "heads", "kv_heads", "head_dim", "mlp", "layers"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) <= 0:
                raise ValueError(f"model {self.name}: {key} must be a positive integer, got {getattr(self, key)!r}")
        if self.heads % self.kv_heads:
            raise ValueError(f"model {self.name}: heads ({self.heads}) must be a multiple of kv_heads ({self.kv_heads})")

    @property
    def layer_parameters(self) -> int:
        attention = self.hidden * self.head_dim * (2 * self.heads + 2 * self.kv_heads)
        return attention + 3 * self.hidden * self.mlp + 2 * self.hidden

    @property
    def weight_bytes(self) -> int:
        """Every layer's weights (embedding and LM head left out)."""
        return self.layers * self.layer_parameters * self.dtype_bytes

    @property
    def kv_bytes_per_token(self) -> int:
        """A token's keys and values in every layer's cache."""
        return self.layers * 2 * self.kv_heads * self.head_dim * self.dtype_bytes

    def key(self) -> dict[str, object]:
        return asdict(self)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """The rotary embedding, Llama's half-split form."""
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


class DecoderLayer(nn.Module):
    """One Llama-style decoder layer with random weights; `forward` is the prefill, `decode` the decode step."""

    def __init__(self, spec: DecoderSpec):
        super().__init__()
        self.spec = spec
        h, d = spec.hidden, spec.head_dim

        def linear(inputs: int, outputs: int) -> nn.Linear:
            layer = nn.Linear(inputs, outputs, bias=False)
            nn.init.normal_(layer.weight, std=1 / math.sqrt(inputs))
            return layer

        self.attention_norm = nn.Parameter(torch.ones(h))
        self.q = linear(h, spec.heads * d)
        self.k = linear(h, spec.kv_heads * d)
        self.v = linear(h, spec.kv_heads * d)
        self.o = linear(spec.heads * d, h)
        self.mlp_norm = nn.Parameter(torch.ones(h))
        self.gate = linear(h, spec.mlp)
        self.up = linear(h, spec.mlp)
        self.down = linear(spec.mlp, h)

    def _projections(self, x, cos, sin):
        b, t, _ = x.shape
        s, d = self.spec, self.spec.head_dim
        normed = rms_norm(x, self.attention_norm)
        q = rotate(self.q(normed).view(b, t, s.heads, d).transpose(1, 2), cos, sin)
        k = rotate(self.k(normed).view(b, t, s.kv_heads, d).transpose(1, 2), cos, sin)
        v = self.v(normed).view(b, t, s.kv_heads, d).transpose(1, 2)
        return q, k, v

    def _rest(self, x, attended):
        b, t, _ = x.shape
        x = x + self.o(attended.reshape(b, t, -1))
        normed = rms_norm(x, self.mlp_norm)
        return x + self.down(nn.functional.silu(self.gate(normed)) * self.up(normed))

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor):
        """Prefill: x (1, T, H), cos and sin (T, head dim); the new states and the keys and values to cache."""
        q, k, v = self._projections(x, cos, sin)
        groups = self.spec.heads // self.spec.kv_heads
        attended = nn.functional.scaled_dot_product_attention(
            q, k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1), is_causal=True
        )
        return self._rest(x, attended.transpose(1, 2)), k, v

    def decode(self, x, cos, sin, k_cache, v_cache):
        """Decode: x (B, 1, H), cos and sin (B, 1, 1, head dim), caches (B, KV, C, head dim)."""
        q, k, v = self._projections(x, cos, sin)
        b, s = x.shape[0], self.spec
        groups = s.heads // s.kv_heads
        q = q.reshape(b, s.kv_heads, groups, s.head_dim)  # the heads of a group share a KV head
        scores = torch.matmul(q, k_cache.transpose(2, 3)) / math.sqrt(s.head_dim)  # (B, KV, G, C)
        attended = torch.matmul(torch.softmax(scores, dim=-1), v_cache)  # (B, KV, G, D)
        return self._rest(x, attended.reshape(b, 1, s.heads, s.head_dim)), k, v


class Decode(nn.Module):
    """`DecoderLayer.decode` as a module's forward, for torch.compile."""

    def __init__(self, layer: DecoderLayer):
        super().__init__()
        self.layer = layer

    def forward(self, x, cos, sin, k_cache, v_cache):
        return self.layer.decode(x, cos, sin, k_cache, v_cache)


def rope(spec: DecoderSpec, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of the rotary embedding at `positions`, shape positions.shape + (head dim,)."""
    inverse = 1.0 / spec.rope_theta ** (torch.arange(0, spec.head_dim, 2, dtype=torch.float32) / spec.head_dim)
    angles = positions.to(torch.float32).unsqueeze(-1) * inverse
    angles = torch.cat((angles, angles), dim=-1)
    return angles.cos(), angles.sin()


def prefill_program(spec: DecoderSpec, layer: DecoderLayer, tokens: int) -> tuple[nn.Module, tuple]:
    """The prefill of one prompt of `tokens` tokens: the module and its inputs."""
    cos, sin = rope(spec, torch.arange(tokens))
    return layer, (torch.randn(1, tokens, spec.hidden), cos, sin)


def decode_program(spec: DecoderSpec, layer: DecoderLayer, batch: int, context: int) -> tuple[nn.Module, tuple]:
    """A decode step of `batch` requests over `context` cached positions each: the module and its inputs."""
    cos, sin = rope(spec, torch.full((batch, 1, 1), context))
    cache = (batch, spec.kv_heads, context, spec.head_dim)
    return Decode(layer), (torch.randn(batch, 1, spec.hidden), cos, sin, torch.randn(cache), torch.randn(cache))
