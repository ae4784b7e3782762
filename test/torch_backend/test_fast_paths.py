"""PyTorch's fused fast paths go through tnpu: eval-mode transformer modules, every kernel on tnpu, none on the host.

`tnpu.torch_backend.fast_paths` describes which module reaches which
fused operation.  The compiled tests run tiny modules under qemu; the
decomposition tests compare each decomposition with the native kernel on
random inputs, without compiling.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch
from torch import nn

import tnpu
from tnpu.torch_backend.fast_paths import decompositions
from tnpu.torch_backend.inductor import attention_by_matmul

aten = torch.ops.aten
DECOMPOSED = decompositions(attention_by_matmul)
D, HEADS, FFN, LENGTH, BATCH = 16, 2, 32, 6, 2


def _padding() -> torch.Tensor:
    """A key padding mask: the second sequence's last two positions are padding."""
    mask = torch.zeros(BATCH, LENGTH, dtype=torch.bool)
    mask[1, -2:] = True
    return mask


def _causal() -> torch.Tensor:
    """A boolean causal mask, True above the diagonal (left out)."""
    return torch.ones(LENGTH, LENGTH, dtype=torch.bool).triu(1)


def _encoder_layer(**kwargs: Any) -> nn.TransformerEncoderLayer:
    return nn.TransformerEncoderLayer(D, HEADS, FFN, dropout=0.0, **{"batch_first": True, **kwargs})


def _inputs(batch_first: bool = True) -> torch.Tensor:
    return torch.randn(BATCH, LENGTH, D) if batch_first else torch.randn(LENGTH, BATCH, D)


def _self_attention(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return x, x, x


def _unpadded(encoder: nn.TransformerEncoder) -> Callable[..., torch.Tensor]:
    """The encoder with zeros at the padding, as its nested-tensor path leaves them in eager mode."""

    def encode(x: torch.Tensor, src_key_padding_mask: torch.Tensor) -> torch.Tensor:
        return encoder(x, src_key_padding_mask=src_key_padding_mask).masked_fill(src_key_padding_mask[..., None], 0.0)

    return encode


def _mha(batch_first: bool = True) -> nn.MultiheadAttention:
    return nn.MultiheadAttention(D, HEADS, batch_first=batch_first)


def _native_mha() -> tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]:
    """`torch._native_multi_head_attention` called as the modules call it, with a key padding mask."""
    m = _mha()

    def attention(x: torch.Tensor, padding: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return torch._native_multi_head_attention(
            x, x, x, D, HEADS, m.in_proj_weight, m.in_proj_bias, m.out_proj.weight, m.out_proj.bias, padding,
            True, True, 1,
        )  # fmt: skip

    return attention, (_inputs(), _padding()), {}


# name -> (program, args, kwargs); each reaches the fused operation, or the slow path, named in its comment
MODULES: dict[str, Callable[[], tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]] = {
    # aten._transformer_encoder_layer_fwd, no mask
    "encoder_layer": lambda: (_encoder_layer(), (_inputs(),), {}),
    # aten._transformer_encoder_layer_fwd, pre-norm, GELU, a key padding mask (mask_type 1)
    "encoder_layer_norm_first_gelu_padding": lambda: (
        _encoder_layer(norm_first=True, activation="gelu"), (_inputs(),), {"src_key_padding_mask": _padding()}
    ),
    # aten._transformer_encoder_layer_fwd, an attention mask (mask_type 0)
    "encoder_layer_causal": lambda: (_encoder_layer(), (_inputs(),), {"src_mask": _causal(), "is_causal": True}),
    # aten._transformer_encoder_layer_fwd, both masks merged (mask_type 2)
    "encoder_layer_both_masks": lambda: (
        _encoder_layer(activation="gelu"), (_inputs(),), {"src_mask": _causal(), "src_key_padding_mask": _padding()}
    ),
    # the slow path: F.multi_head_attention_forward, CPU flash attention inside it
    "encoder_layer_sequence_first": lambda: (_encoder_layer(batch_first=False), (_inputs(False),), {}),
    # aten._transformer_encoder_layer_fwd per layer: under torch.compile, no nested tensor (mask_check);
    # eager's nested tensor leaves zeros at the padding, the compiled layers values: zeros for both
    "encoder_nested_tensor_padding": lambda: (
        _unpadded(nn.TransformerEncoder(_encoder_layer(), 2, enable_nested_tensor=True).eval()), (_inputs(),),
        {"src_key_padding_mask": _padding()},
    ),  # fmt: skip
    # no fast path: F.multi_head_attention_forward twice, CPU flash attention inside it
    "decoder_layer": lambda: (
        nn.TransformerDecoderLayer(D, HEADS, FFN, dropout=0.0, batch_first=True), (_inputs(), _inputs()),
        {"tgt_mask": _causal(), "tgt_is_causal": True, "memory_key_padding_mask": _padding()},
    ),  # fmt: skip
    # the encoder's layer fused, the decoder's the slow path; the memory's padding masked (eager's is zeros)
    "transformer": lambda: (
        nn.Transformer(D, HEADS, 1, 1, FFN, dropout=0.0, batch_first=True), (_inputs(), _inputs()),
        {"src_key_padding_mask": _padding(), "memory_key_padding_mask": _padding()},
    ),  # fmt: skip
    # F.multi_head_attention_forward (MultiheadAttention's fast path is off while tracing): weights per head
    "mha_weights_per_head": lambda: (_mha(), _self_attention(_inputs()), {"average_attn_weights": False}),
    # F.multi_head_attention_forward: no weights, CPU flash attention with the padding mask
    "mha_no_weights_padding": lambda: (
        _mha(), _self_attention(_inputs()), {"need_weights": False, "key_padding_mask": _padding()}
    ),
    "mha_sequence_first_mask": lambda: (
        _mha(batch_first=False), _self_attention(_inputs(False)), {"attn_mask": _causal()}
    ),
    # aten._native_multi_head_attention
    "native_multi_head_attention": _native_mha,
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_with_a_fast_path_runs_on_tnpu(name):
    torch.manual_seed(0)
    program, args, kwargs = MODULES[name]()
    if isinstance(program, nn.Module):
        program.eval()
    torch._dynamo.reset()
    compiled = torch.compile(program, backend="tnpu", options={"autotune": False})
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the modules' own notes on nested tensors and masks
        expected = program(*args, **kwargs)
        with tnpu.profile() as prof:
            out = compiled(*args, **kwargs)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)
    assert prof.fallbacks == []
    assert prof.launches


def test_the_encoder_layer_reaches_the_fused_operation_under_dynamo():
    """What the decomposition is for: dynamo captures the fused call, which Inductor alone would leave to aten."""
    captured: list[Any] = []

    def backend(graph_module: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
        captured.extend(node.target for node in graph_module.graph.nodes if node.op == "call_function")
        return graph_module.forward

    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(_encoder_layer().eval(), backend=backend)(_inputs())
    assert torch._transformer_encoder_layer_fwd in captured


def _encoder_args(norm_first: bool, use_gelu: bool, masks: str) -> tuple[Any, ...]:
    layer = _encoder_layer(norm_first=norm_first, activation="gelu" if use_gelu else "relu").eval()
    x, attention = _inputs(), layer.self_attn
    padding = torch.zeros(BATCH, LENGTH).masked_fill(_padding(), float("-inf"))  # as the modules pass it
    causal = torch.zeros(LENGTH, LENGTH).masked_fill(_causal(), float("-inf"))
    mask, mask_type = {
        "none": (None, None), "attention": (causal, 0), "attention_bool": (_causal(), 0), "padding": (padding, 1),
        "padding_bool": (_padding(), 1), "both": attention.merge_masks(causal, padding, x),
    }[masks]  # fmt: skip
    return (
        x, D, HEADS, attention.in_proj_weight, attention.in_proj_bias, attention.out_proj.weight,
        attention.out_proj.bias, use_gelu, norm_first, layer.norm1.eps, layer.norm1.weight, layer.norm1.bias,
        layer.norm2.weight, layer.norm2.bias, layer.linear1.weight, layer.linear1.bias, layer.linear2.weight,
        layer.linear2.bias, mask, mask_type,
    )  # fmt: skip


MASKS = ("none", "attention", "attention_bool", "padding", "padding_bool", "both")


@pytest.mark.parametrize("norm_first, use_gelu, masks", list(itertools.product((False, True), (False, True), MASKS)))
def test_the_encoder_layer_decomposition_is_the_native_kernel(norm_first, use_gelu, masks):
    torch.manual_seed(0)
    args = _encoder_args(norm_first, use_gelu, masks)
    op = aten._transformer_encoder_layer_fwd.default
    with torch.no_grad():
        torch.testing.assert_close(DECOMPOSED[op](*args), op(*args))


@pytest.mark.parametrize(
    "need_weights, average, masks", list(itertools.product((False, True), (False, True), MASKS))
)  # fmt: skip
def test_the_multi_head_attention_decomposition_is_the_native_kernel(need_weights, average, masks):
    torch.manual_seed(0)
    layer_args = _encoder_args(False, False, masks)
    x, weights, (mask, mask_type) = layer_args[0], layer_args[3:7], layer_args[-2:]
    op = aten._native_multi_head_attention.default
    for query, key in ((x, x), (x, torch.randn_like(x))):  # self-attention: one packed projection; or three
        args = (query, key, key, D, HEADS, *weights, mask, need_weights, average, mask_type)
        with torch.no_grad():
            (out, attn), (expected, expected_attn) = DECOMPOSED[op](*args), op(*args)
        torch.testing.assert_close(out, expected)
        assert (attn is None) == (expected_attn is None) == (not need_weights)
        if need_weights:
            torch.testing.assert_close(attn, expected_attn)


@pytest.mark.parametrize("mask", ["none", "causal", "additive"])
def test_cpu_flash_attention_is_attention_by_matmul_with_its_log_sum_exp(mask):
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 2, 5, 8) for _ in range(3))
    kwargs: dict[str, Any] = {
        "none": {}, "causal": {"is_causal": True}, "additive": {"attn_mask": torch.randn(5, 5)},
    }[mask]  # fmt: skip
    op = aten._scaled_dot_product_flash_attention_for_cpu.default
    for got, expected in zip(DECOMPOSED[op](q, k, v, **kwargs), op(q, k, v, **kwargs)):
        torch.testing.assert_close(got, expected)
