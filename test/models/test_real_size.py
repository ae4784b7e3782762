"""The real-size entries build with the documented sizes (`real_size.SHAPES`); nothing is compiled.

Their outputs' shapes come from running each model on fake tensors (no arithmetic), so the test costs
the models' construction (random initialisation of 1.4 G parameters) and no forward pass."""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from tnpu.models import real_size
from tnpu.models.suite import entries

BUILDS = {suite_entry.name: suite_entry for suite_entry in real_size.ENTRIES}


def test_every_real_size_entry_is_in_the_suite_and_documented():
    assert set(BUILDS) == set(real_size.SHAPES)
    assert set(BUILDS) <= set(entries())
    assert all(suite_entry.kind == "model" and not suite_entry.train for suite_entry in BUILDS.values())


@pytest.mark.parametrize("name", sorted(BUILDS))
def test_a_real_size_entry_has_its_documented_shapes(name):
    torch.manual_seed(0)
    workload = BUILDS[name].build()
    shapes = real_size.SHAPES[name]
    assert [tuple(x.shape) for x in workload.inputs] == shapes["inputs"]
    parameters = sum(parameter.numel() for parameter in workload.program.parameters())
    assert round(parameters / 1e6, 1) == shapes["parameters_m"]
    with FakeTensorMode(allow_non_fake_inputs=True), torch.no_grad():
        out = workload.program(*workload.inputs)
    assert tuple(out.shape) == shapes["output"]


def test_resnet50_runs_channels_last():
    torch.manual_seed(0)
    workload = BUILDS["resnet50"].build()
    (image,) = workload.inputs
    assert image.is_contiguous(memory_format=torch.channels_last)
    convolution = next(m for m in workload.program.modules() if isinstance(m, torch.nn.Conv2d))
    assert convolution.weight.is_contiguous(memory_format=torch.channels_last)


def test_the_dense_experts_are_transformers_own_experts():
    """The MoE layer's experts (every expert over every token, weighted) compute what transformers' eager
    expert loop computes, at a small width."""
    from transformers import Qwen3MoeConfig, Qwen3MoeModel

    real_size._register_dense_experts()
    outputs = []
    for implementation in ("eager", "tnpu_dense"):
        torch.manual_seed(0)
        config = Qwen3MoeConfig(vocab_size=32, hidden_size=64, intermediate_size=128, num_hidden_layers=1,
                                num_attention_heads=4, num_key_value_heads=2, head_dim=16, num_experts=16,
                                num_experts_per_tok=4, moe_intermediate_size=32, use_cache=False,
                                experts_implementation=implementation)  # fmt: skip
        layer = real_size.DecoderLayer(Qwen3MoeModel(config)).eval()
        with torch.no_grad():
            outputs.append(layer(torch.ones(1, 8, 64).cumsum(1) / 8))
    torch.testing.assert_close(outputs[0], outputs[1])
