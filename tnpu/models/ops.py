"""The suite's single operations, each at a small shape that still exercises its kernel.

Each builder is called with torch seeded; it returns the program (a module
or a function) and its inputs.  `ops` names the aten operations the entry
is for: a delivered entry ran every one of them on tnpu.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from tnpu.models.suite_entry import ModelCall, SuiteEntry, collector

ENTRIES: list[SuiteEntry] = []
entry = collector(ENTRIES)


class Lambda(nn.Module):
    """A function of tensors as a module (so every entry is a module)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *inputs):
        return self.fn(*inputs)


@entry("add_broadcast", ops=("aten.add",), kind="op")
def add_broadcast() -> ModelCall:
    """x + y with y broadcast along rows and x along a new leading axis."""
    return ModelCall(Lambda(lambda x, y: x + y), (torch.randn(3, 1, 33, 65), torch.randn(4, 1, 65)))


@entry("mul_broadcast", ops=("aten.mul",), kind="op")
def mul_broadcast() -> ModelCall:
    """x * y with a per-channel scale."""
    return ModelCall(Lambda(lambda x, y: x * y), (torch.randn(2, 24, 7, 9), torch.randn(24, 1, 1)))


def _activation(function) -> ModelCall:
    return ModelCall(Lambda(function), (torch.randn(37, 130) * 4,))


@entry("relu", ops=("aten.relu",), kind="op")
def relu() -> ModelCall:
    return _activation(F.relu)


@entry("gelu", ops=("aten.gelu",), kind="op")
def gelu() -> ModelCall:
    """GELU, exact (erf) and tanh-approximated."""
    return _activation(lambda x: F.gelu(x) + F.gelu(x, approximate="tanh"))


@entry("silu", ops=("aten.silu",), kind="op")
def silu() -> ModelCall:
    return _activation(F.silu)


@entry("swiglu", ops=("aten.silu", "aten.mul", "aten.mm"), kind="op")
def swiglu() -> ModelCall:
    """SwiGLU: silu(x W1) * (x W3), projected by W2, as in Llama's MLP."""

    class SwiGLU(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1, self.w3, self.w2 = nn.Linear(48, 96, bias=False), nn.Linear(48, 96, bias=False), nn.Linear(96, 48, bias=False)

        def forward(self, x):
            return self.w2(F.silu(self.w1(x)) * self.w3(x))

    return ModelCall(SwiGLU(), (torch.randn(2, 10, 48),))


@entry("sigmoid", ops=("aten.sigmoid",), kind="op")
def sigmoid() -> ModelCall:
    return _activation(torch.sigmoid)


@entry("tanh", ops=("aten.tanh",), kind="op")
def tanh() -> ModelCall:
    return _activation(torch.tanh)


@entry("softmax", ops=("aten._softmax",), kind="op")
def softmax() -> ModelCall:
    """Softmax over the last axis and over a middle one."""
    return ModelCall(Lambda(lambda x: (F.softmax(x, dim=-1), F.softmax(x, dim=1))), (torch.randn(4, 50, 77) * 3,))


@entry("log_softmax", ops=("aten._log_softmax",), kind="op")
def log_softmax() -> ModelCall:
    return ModelCall(Lambda(lambda x: F.log_softmax(x, dim=-1)), (torch.randn(16, 1000) * 3,))


@entry("layernorm", ops=("aten.native_layer_norm",), kind="op")
def layernorm() -> ModelCall:
    norm = nn.LayerNorm(96)
    with torch.no_grad():
        norm.weight.normal_()
        norm.bias.normal_()
    return ModelCall(norm, (torch.randn(3, 17, 96) * 2 + 1,))


@entry("rmsnorm", ops=("aten.rms_norm",), kind="op")
def rmsnorm() -> ModelCall:
    norm = nn.RMSNorm(80, eps=1e-6)
    with torch.no_grad():
        norm.weight.normal_()
    return ModelCall(norm, (torch.randn(5, 13, 80),))


@entry("batchnorm", ops=("aten._native_batch_norm_legit_no_training",), kind="op")
def batchnorm() -> ModelCall:
    """BatchNorm2d in inference, with running statistics of its own."""
    norm = nn.BatchNorm2d(12)
    with torch.no_grad():
        assert norm.running_mean is not None and norm.running_var is not None  # track_running_stats is on
        norm.running_mean.normal_()
        norm.running_var.uniform_(0.5, 2.0)
        norm.weight.normal_()
        norm.bias.normal_()
    return ModelCall(norm.eval(), (torch.randn(2, 12, 9, 11),))


@entry("matmul", ops=("aten.mm",), kind="op")
def matmul() -> ModelCall:
    return ModelCall(Lambda(torch.matmul), (torch.randn(70, 96), torch.randn(96, 50)))


@entry("matmul_bf16", ops=("aten.mm",), kind="op")
def matmul_bf16() -> ModelCall:
    """A bf16 matmul (products summed in f32, as the MXU does)."""
    return ModelCall(Lambda(torch.matmul), (torch.randn(64, 80, dtype=torch.bfloat16), torch.randn(80, 48, dtype=torch.bfloat16)))


@entry("bmm", ops=("aten.bmm",), kind="op")
def bmm() -> ModelCall:
    return ModelCall(Lambda(torch.bmm), (torch.randn(6, 33, 40), torch.randn(6, 40, 24)))


@entry("addmm", ops=("aten.addmm",), kind="op")
def addmm() -> ModelCall:
    """addmm with its bias first, broadcast over the rows, scaled by beta and alpha; and a Linear."""

    class AddMM(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(64, 40)

        def forward(self, b, x, w, y):
            return torch.addmm(b, x, w, beta=0.5, alpha=1.5), self.linear(y)

    return ModelCall(AddMM(), (torch.randn(40), torch.randn(30, 64), torch.randn(64, 40), torch.randn(4, 7, 64)))


@entry("baddbmm", ops=("aten.baddbmm",), kind="op")
def baddbmm() -> ModelCall:
    return ModelCall(
        Lambda(lambda b, x, y: torch.baddbmm(b, x, y, beta=0.25, alpha=2.0)),
        (torch.randn(1, 24), torch.randn(3, 20, 32), torch.randn(3, 32, 24)),
    )


def _conv(**options) -> ModelCall:
    channels = options.pop("channels", 16)
    conv = nn.Conv2d(channels, channels, **options)
    return ModelCall(conv, (torch.randn(2, channels, 14, 14),))


@entry("conv2d_strided", ops=("aten.convolution",), kind="op")
def conv2d_strided() -> ModelCall:
    return _conv(kernel_size=3, stride=2)


@entry("conv2d_padded", ops=("aten.convolution",), kind="op")
def conv2d_padded() -> ModelCall:
    return _conv(kernel_size=5, padding=2)


@entry("conv2d_depthwise", ops=("aten.convolution",), kind="op")
def conv2d_depthwise() -> ModelCall:
    return _conv(kernel_size=3, padding=1, groups=16)


@entry("conv2d_grouped", ops=("aten.convolution",), kind="op")
def conv2d_grouped() -> ModelCall:
    return _conv(kernel_size=3, padding=1, stride=2, groups=4, bias=False)


@entry("maxpool2d", ops=("aten.max_pool2d_with_indices",), kind="op")
def maxpool2d() -> ModelCall:
    return ModelCall(nn.MaxPool2d(3, stride=2, padding=1), (torch.randn(2, 8, 15, 15),))


@entry("avgpool2d", ops=("aten.avg_pool2d", "aten.mean"), kind="op")
def avgpool2d() -> ModelCall:
    """Average pooling, and the global average pool of a classifier head."""
    pool = nn.AvgPool2d(2)
    return ModelCall(Lambda(lambda x: (pool(x), F.adaptive_avg_pool2d(x, 1))), (torch.randn(2, 8, 14, 14),))


@entry("cat", ops=("aten.cat",), kind="op")
def cat() -> ModelCall:
    return ModelCall(
        Lambda(lambda a, b, c: torch.cat([a, b.sin(), c], dim=1)),
        (torch.randn(4, 10, 6), torch.randn(4, 3, 6), torch.randn(4, 7, 6)),
    )


@entry("permute_view", ops=("aten.permute", "aten.view", "aten.transpose"), kind="op")
def permute_view() -> ModelCall:
    """Transpose, permute and view chains, as attention heads are split and merged."""

    def heads(x):
        b, s, d = x.shape
        split = x.view(b, s, 4, d // 4).transpose(1, 2)
        mixed = split.permute(0, 2, 3, 1).contiguous() * 2
        return mixed.view(b, s, d) + x.transpose(1, 2).reshape(b, s, d)

    return ModelCall(Lambda(heads), (torch.randn(2, 12, 32),))


@entry("embedding", ops=("aten.embedding",), kind="op")
def embedding() -> ModelCall:
    table = nn.Embedding(100, 32)
    return ModelCall(table, (torch.randint(0, 100, (4, 9)),))


@entry("index_select", ops=("aten.index_select",), kind="op")
def index_select() -> ModelCall:
    return ModelCall(
        Lambda(lambda x, i: torch.index_select(x, 1, i)), (torch.randn(5, 40, 6), torch.randint(0, 40, (17,)))
    )


@entry("gather", ops=("aten.gather",), kind="op")
def gather() -> ModelCall:
    return ModelCall(
        Lambda(lambda x, i: torch.gather(x, 1, i)), (torch.randn(8, 30), torch.randint(0, 30, (8, 12)))
    )


@entry("sdpa", ops=("aten.scaled_dot_product_attention",), kind="op")
def sdpa() -> ModelCall:
    """Scaled dot-product attention, causal and with an additive mask."""

    def attention(q, k, v, mask):
        causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        masked = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return causal, masked

    q, k, v = (torch.randn(2, 4, 24, 16) for _ in range(3))
    return ModelCall(Lambda(attention), (q, k, v, torch.randn(24, 24)))


@entry("gqa", ops=("aten.scaled_dot_product_attention",), kind="op")
def gqa() -> ModelCall:
    """Grouped-query attention: 8 query heads sharing 2 key/value heads."""
    q = torch.randn(1, 8, 20, 16)
    k, v = torch.randn(1, 2, 20, 16), torch.randn(1, 2, 20, 16)
    return ModelCall(Lambda(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)), (q, k, v))


@entry("cumsum", ops=("aten.cumsum",), kind="op")
def cumsum() -> ModelCall:
    return ModelCall(Lambda(lambda x: (torch.cumsum(x, dim=-1), torch.cumsum(x, dim=0))), (torch.randn(12, 300),))


@entry("sort", ops=("aten.sort",), kind="op")
def sort() -> ModelCall:
    return ModelCall(Lambda(lambda x: torch.sort(x, dim=-1, descending=True)), (torch.randn(6, 64),))


@entry("topk", ops=("aten.topk",), kind="op")
def topk() -> ModelCall:
    return ModelCall(Lambda(lambda x: torch.topk(x, 5, dim=-1)), (torch.randn(10, 48),))


class MoERouter(nn.Module):
    """Top-2 routing over four experts; the router's bias sends no token to the last one.

    The tokens are grouped by expert (a stable sort of the choices) and each
    expert's GEMMs take exactly its tokens: the per-expert counts are read
    once (`tolist`, a graph break outside the loop), so every expert's
    GEMMs have static shapes and the idle expert's are [0, K] @ [K, N].
    """

    def __init__(self, width: int = 32, experts: int = 4):
        super().__init__()
        self.router = nn.Linear(width, experts)
        with torch.no_grad():
            self.router.bias.zero_()
            self.router.bias[-1] = -100.0  # never in the top 2
        self.up = nn.ModuleList(nn.Linear(width, 2 * width) for _ in range(experts))
        self.down = nn.ModuleList(nn.Linear(2 * width, width) for _ in range(experts))

    def forward(self, x):
        weights, chosen = torch.topk(self.router(x).softmax(dim=-1), 2, dim=-1)
        choices = chosen.flatten()
        order = torch.argsort(choices, stable=True)
        counts = (choices[:, None] == torch.arange(len(self.up))).sum(0).tolist()
        out = torch.zeros_like(x)
        start = 0
        for expert, count in enumerate(counts):
            slots = order[start : start + count]
            start += count
            token = slots // 2
            hidden = F.silu(self.up[expert](x[token]))
            out = out.index_add(0, token, self.down[expert](hidden) * weights.flatten()[slots, None])
        return out


@entry("moe_router", ops=("aten.mm", "aten.topk"), kind="op")
def moe_router() -> ModelCall:
    """An MoE layer whose router leaves one expert without tokens (its GEMMs are [0, K] @ [K, N])."""
    return ModelCall(MoERouter(), (torch.randn(24, 32),))
