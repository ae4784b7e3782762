"""Every suite entry builds and runs in eager mode, in float32 and in float64, with stable outputs.

The real-size entries are left out here (their float64 copies hold gigabytes and run for seconds each):
`test_real_size.py` checks that they build with their documented shapes."""

from __future__ import annotations

import pytest
import torch

from tnpu.models import real_size
from tnpu.models.run import _float64, _step
from tnpu.models.suite import entries

ENTRIES = entries()
REAL_SIZE = {suite_entry.name for suite_entry in real_size.ENTRIES}
REQUIRED_OPS = {
    "add_broadcast", "mul_broadcast", "relu", "gelu", "silu", "swiglu", "sigmoid", "tanh", "softmax", "log_softmax",
    "layernorm", "rmsnorm", "batchnorm", "matmul", "bmm", "addmm", "conv2d_strided", "conv2d_padded",
    "conv2d_depthwise", "conv2d_grouped", "maxpool2d", "avgpool2d", "cat", "permute_view", "embedding",
    "index_select", "gather", "sdpa", "gqa", "cumsum", "sort", "topk", "moe_router",
}  # fmt: skip
REQUIRED_MODELS = {
    "mlp", "mlp_train", "resnet18", "mobilenetv3_small", "convnextv2_atto", "vit_tiny", "bert_tiny", "gpt2_tiny",
    "llama_tiny", "mixtral_tiny", "clip_vision_tiny", "transformer_encoder_layer", "transformer_decoder_layer",
    "multihead_attention",
}  # fmt: skip
REQUIRED_REAL_SIZE = {
    "resnet50", "bert_base", "gpt2_small", "llama3_8b_layer", "qwen3_moe_layer", "vit_base", "t5_base",
}  # fmt: skip


def test_the_suite_holds_what_it_is_for():
    assert REQUIRED_OPS <= {name for name, entry in ENTRIES.items() if entry.kind == "op"}
    assert REQUIRED_MODELS <= {name for name, entry in ENTRIES.items() if entry.kind == "model"}
    assert REQUIRED_REAL_SIZE <= REAL_SIZE
    assert ENTRIES["mlp_train"].train


@pytest.mark.parametrize("name", sorted(set(ENTRIES) - REAL_SIZE))
def test_an_entry_runs_in_eager_mode_the_same_twice_and_close_to_float64(name):
    entry = ENTRIES[name]
    results = []
    for _ in range(2):
        torch.manual_seed(0)
        workload = entry.build()
        results.append(_step(workload, compiled=False, train=entry.train))
    exact = _step(_float64(workload), compiled=False, train=entry.train)
    from tnpu.models.compare import leaves

    first, second, wide = leaves(results[0]), leaves(results[1]), leaves(exact)
    assert first and len(first) == len(second) == len(wide)
    for (place, a), (_, b), (_, c) in zip(first, second, wide):
        assert torch.equal(a, b), f"{name} {place} is not deterministic"
        if a.is_floating_point():
            assert c.dtype == torch.float64 or not c.is_floating_point()
            torch.testing.assert_close(a.double(), c.double(), rtol=0.05, atol=0.05)


def test_the_moe_router_leaves_an_expert_without_tokens():
    torch.manual_seed(0)
    workload = ENTRIES["moe_router"].build()
    router, (x,) = workload.program, workload.inputs
    chosen = torch.topk(router.router(x).softmax(-1), 2, dim=-1).indices
    assert not (chosen == len(router.up) - 1).any() and all((chosen == e).any() for e in range(len(router.up) - 1))
