"""The suite's whole models: random weights, no downloads, sizes that run in seconds.

Transformer configurations are Hugging Face `transformers` ones, at the
sizes of the published "tiny" checkpoints or smaller; ResNet-18,
ConvNeXtV2-atto and ViT-tiny use `transformers`' implementations with the
published depths and widths; MobileNetV3-small is `mobilenet_v3`.  Images
are 32 × 32, sequences 16 tokens.  PyTorch's own transformer modules
(encoder layer, decoder layer, multi-head attention) run in eval mode,
where eager PyTorch takes its fused fast paths.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from tnpu.models.mobilenet_v3 import MobileNetV3Small
from tnpu.models.suite_entry import ModelCall, SuiteEntry, collector

ENTRIES: list[SuiteEntry] = []
entry = collector(ENTRIES)


class Output(nn.Module):
    """A Hugging Face model called with tensors, returning the tensor named `field` of its output."""

    def __init__(self, model: nn.Module, field: str):
        super().__init__()
        self.model = model.eval()
        self.field = field

    def forward(self, *inputs):
        return getattr(self.model(*inputs), self.field)


def _image() -> torch.Tensor:
    return torch.randn(1, 3, 32, 32)


def _tokens(vocabulary: int) -> torch.Tensor:
    return torch.randint(0, vocabulary, (1, 16))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.layers(x)


@entry("mlp", ops=("aten.addmm",), kind="model")
def mlp() -> ModelCall:
    """A 784-128-64-10 MLP on a batch of 32, inference."""
    return ModelCall(MLP().eval(), (torch.randn(32, 784),))


@entry("mlp_train", ops=("aten.addmm", "aten.mm"), kind="model", train=True)
def mlp_train() -> ModelCall:
    """The MLP's training step: cross-entropy forward, backward, an SGD step with momentum."""
    labels = torch.randint(0, 10, (32,))
    return ModelCall(MLP(), (torch.randn(32, 784),), loss=lambda logits: F.cross_entropy(logits, labels))


@entry("resnet18", ops=("aten.convolution",), kind="model")
def resnet18() -> ModelCall:
    from transformers import ResNetConfig, ResNetModel

    config = ResNetConfig(layer_type="basic", depths=[2, 2, 2, 2], hidden_sizes=[64, 128, 256, 512], embedding_size=64)
    return ModelCall(Output(ResNetModel(config), "pooler_output"), (_image(),))


@entry("mobilenetv3_small", ops=("aten.convolution",), kind="model")
def mobilenetv3_small() -> ModelCall:
    return ModelCall(MobileNetV3Small(classes=10).eval(), (_image(),))


@entry("convnextv2_atto", ops=("aten.convolution", "aten.native_layer_norm"), kind="model")
def convnextv2_atto() -> ModelCall:
    from transformers import ConvNextV2Config, ConvNextV2Model

    config = ConvNextV2Config(depths=[2, 2, 6, 2], hidden_sizes=[40, 80, 160, 320])
    return ModelCall(Output(ConvNextV2Model(config), "pooler_output"), (_image(),))


@entry("vit_tiny", ops=("aten.mm", "aten.scaled_dot_product_attention"), kind="model")
def vit_tiny() -> ModelCall:
    """ViT-tiny's widths (192, 3 heads, 12 layers) on 8 × 8 patches of a 32 × 32 image."""
    from transformers import ViTConfig, ViTModel

    config = ViTConfig(hidden_size=192, num_hidden_layers=12, num_attention_heads=3, intermediate_size=768,
                       image_size=32, patch_size=8)  # fmt: skip
    return ModelCall(Output(ViTModel(config, add_pooling_layer=False), "last_hidden_state"), (_image(),))


@entry("bert_tiny", ops=("aten.addmm", "aten.scaled_dot_product_attention"), kind="model")
def bert_tiny() -> ModelCall:
    """BERT-tiny's shape (2 layers, width 128, 2 heads)."""
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=512, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=512, max_position_embeddings=64)  # fmt: skip
    return ModelCall(Output(BertModel(config), "last_hidden_state"), (_tokens(512),))


@entry("gpt2_tiny", ops=("aten.addmm", "aten.scaled_dot_product_attention"), kind="model")
def gpt2_tiny() -> ModelCall:
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=512, n_positions=64, n_embd=64, n_layer=2, n_head=4, use_cache=False,
                        bos_token_id=0, eos_token_id=0)
    return ModelCall(Output(GPT2LMHeadModel(config), "logits"), (_tokens(512),))


@entry("llama_tiny", ops=("aten.mm", "aten.scaled_dot_product_attention"), kind="model")
def llama_tiny() -> ModelCall:
    """Llama with grouped-query attention (4 query heads, 2 key/value heads), RMSNorm, SwiGLU, RoPE."""
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64, use_cache=False)  # fmt: skip
    return ModelCall(Output(LlamaForCausalLM(config), "logits"), (_tokens(512),))


@entry("mixtral_tiny", ops=("aten.mm", "aten.scaled_dot_product_attention"), kind="model")
def mixtral_tiny() -> ModelCall:
    """Mixtral: Llama's attention with a top-2 mixture of four experts.

    The experts run as `transformers`' `batched_mm`: each token's expert
    weights gathered, one batched matmul, static shapes.  (Its eager expert
    loop makes dynamo skip the MoE block at a data-dependent `where`, so the
    block would run on the host; its grouped-mm takes no float64.)"""
    from transformers import MixtralConfig, MixtralForCausalLM

    config = MixtralConfig(vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                           num_attention_heads=4, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2,
                           max_position_embeddings=64, use_cache=False, experts_implementation="batched_mm")  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations  # fmt: skip
    return ModelCall(Output(MixtralForCausalLM(config), "logits"), (_tokens(512),))


@entry("clip_vision_tiny", ops=("aten.addmm", "aten.scaled_dot_product_attention"), kind="model")
def clip_vision_tiny() -> ModelCall:
    from transformers import CLIPVisionConfig, CLIPVisionModel

    config = CLIPVisionConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                              image_size=32, patch_size=8)  # fmt: skip
    return ModelCall(Output(CLIPVisionModel(config), "pooler_output"), (_image(),))


def _padded_sequences() -> tuple[torch.Tensor, torch.Tensor]:
    """Two sequences of 8 tokens of width 32, the second's last three padding (a key padding mask)."""
    padding = torch.zeros(2, 8, dtype=torch.bool)
    padding[1, -3:] = True
    return torch.randn(2, 8, 32), padding


class SelfAttention(nn.Module):
    """`nn.MultiheadAttention` as self-attention over padded sequences: its output and its weights."""

    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(32, 2, batch_first=True)

    def forward(self, x, padding):
        return self.attention(x, x, x, key_padding_mask=padding)


class PaddedEncoderLayer(nn.Module):
    """`nn.TransformerEncoderLayer` (GELU) over sequences with a key padding mask."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(32, 2, 64, dropout=0.0, activation="gelu", batch_first=True)

    def forward(self, x, padding):
        return self.layer(x, src_key_padding_mask=padding)


@entry("transformer_encoder_layer", ops=("aten._transformer_encoder_layer_fwd",), kind="model")
def transformer_encoder_layer() -> ModelCall:
    """PyTorch's `nn.TransformerEncoderLayer` (width 32, 2 heads) over padded sequences: its fused fast path
    in eval mode, `aten._transformer_encoder_layer_fwd`."""
    return ModelCall(PaddedEncoderLayer().eval(), _padded_sequences())


class CausalDecoderLayer(nn.Module):
    """`nn.TransformerDecoderLayer` with causal self-attention, attending to a memory."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(32, 2, 64, dropout=0.0, batch_first=True)

    def forward(self, target, memory, causal):
        return self.layer(target, memory, tgt_mask=causal, tgt_is_causal=True)


@entry("transformer_decoder_layer", ops=("aten.scaled_dot_product_attention",), kind="model")
def transformer_decoder_layer() -> ModelCall:
    """PyTorch's `nn.TransformerDecoderLayer` (width 32, 2 heads): no fast path, `F.multi_head_attention_forward`
    with aten's CPU flash attention inside it."""
    causal = nn.Transformer.generate_square_subsequent_mask(8)
    return ModelCall(CausalDecoderLayer().eval(), (torch.randn(2, 8, 32), torch.randn(2, 10, 32), causal))


@entry("multihead_attention", ops=("aten._native_multi_head_attention",), kind="model")
def multihead_attention() -> ModelCall:
    """PyTorch's `nn.MultiheadAttention` (width 32, 2 heads) with a key padding mask, returning its weights:
    `aten._native_multi_head_attention` in eager mode, `F.multi_head_attention_forward` compiled."""
    return ModelCall(SelfAttention().eval(), _padded_sequences())
