"""The suite's real-size models: published widths and depths, random weights, no downloads.

What people ask an NPU simulator about, at the sizes they ask: ResNet-50
(1 × 3 × 224 × 224, channels-last), a BERT-base encoder (sequence 512),
GPT-2 small (12 layers, sequence 128), one Llama-3-8B decoder layer at full
width (sequence 32), one Qwen3-30B-A3B MoE decoder layer at full width
(sequence 32), ViT-B/16 at 224, and a T5-base encoder–decoder.  Every
model is a Hugging Face `transformers` implementation built from its
configuration class (`from_pretrained` never: the weights are random).

They are too large to emulate in CI (the RVV code of a 4096-wide GEMM
under qemu takes minutes to hours), so CI's gate runs them in the `timing`
execution mode (`TNPU_EXEC=timing`): every kernel compiled and timed on
the modeled NPU, each graph's values computed by PyTorch on the host
(docs/torch-compile.md, "Which execution mode").  `SHAPES` holds the
documented sizes that `test_real_size.py` checks without compiling.
"""

from __future__ import annotations

import torch
from torch import nn

from tnpu.models.networks import Output
from tnpu.models.suite_entry import ModelCall, SuiteEntry, collector

ENTRIES: list[SuiteEntry] = []
entry = collector(ENTRIES)

SEED_VOCABULARY = 32
"""The vocabulary of the one-layer models a decoder layer is taken from (their embedding is not used)."""


def _image() -> torch.Tensor:
    return torch.randn(1, 3, 224, 224)


def _tokens(vocabulary: int, length: int) -> torch.Tensor:
    return torch.randint(0, vocabulary, (1, length))


@entry("resnet50", ops=("aten.convolution",), kind="model")
def resnet50() -> ModelCall:
    """ResNet-50 (bottleneck blocks 3-4-6-3, widths 256 to 2048) on one 224 × 224 image, channels-last."""
    from transformers import ResNetConfig, ResNetModel

    config = ResNetConfig(layer_type="bottleneck", depths=[3, 4, 6, 3], hidden_sizes=[256, 512, 1024, 2048],
                          embedding_size=64)  # fmt: skip
    model = Output(ResNetModel(config), "pooler_output").to(memory_format=torch.channels_last)  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations
    return ModelCall(model, (_image().contiguous(memory_format=torch.channels_last),))


@entry("bert_base", ops=("aten.addmm", "aten.scaled_dot_product_attention"), kind="model")
def bert_base() -> ModelCall:
    """A BERT-base encoder (12 layers, width 768, 12 heads, 3072) over 512 tokens."""
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                        intermediate_size=3072, max_position_embeddings=512)  # fmt: skip
    return ModelCall(Output(BertModel(config, add_pooling_layer=False), "last_hidden_state"), (_tokens(30522, 512),))


@entry("gpt2_small", ops=("aten.addmm", "aten.scaled_dot_product_attention"), kind="model")
def gpt2_small() -> ModelCall:
    """GPT-2 small (12 layers, width 768, 12 heads, vocabulary 50,257) over 128 tokens: its logits."""
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=50257, n_positions=1024, n_embd=768, n_layer=12, n_head=12, use_cache=False)
    return ModelCall(Output(GPT2LMHeadModel(config), "logits"), (_tokens(50257, 128),))


class DecoderLayer(nn.Module):
    """One decoder layer of a Hugging Face causal LM with its rotary embedding: hidden states in and out,
    causal attention over positions 0 .. T-1, no cache."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.rotary = model.rotary_emb
        self.layer = model.layers[0]  # pyright: ignore[reportIndexIssue]  # torch's or transformers' annotations

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(hidden.shape[1]).unsqueeze(0)
        rotary = self.rotary(hidden, positions)  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations
        return self.layer(hidden, attention_mask=None, position_ids=positions, position_embeddings=rotary)  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations


@entry("llama3_8b_layer", ops=("aten.mm", "aten.scaled_dot_product_attention"), kind="model")
def llama3_8b_layer() -> ModelCall:
    """One Llama-3-8B decoder layer at full width (hidden 4096, 32 query / 8 key-value heads, SwiGLU 14336,
    RoPE θ 500,000) over 32 tokens: 218 M parameters, 0.9 GB in float32."""
    from transformers import LlamaConfig, LlamaModel

    config = LlamaConfig(vocab_size=SEED_VOCABULARY, hidden_size=4096, intermediate_size=14336, num_hidden_layers=1,
                         num_attention_heads=32, num_key_value_heads=8, max_position_embeddings=8192,
                         rope_theta=500000.0, rms_norm_eps=1e-5, use_cache=False)  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations  # fmt: skip
    return ModelCall(DecoderLayer(LlamaModel(config)).eval(), (torch.randn(1, 32, 4096),))


def dense_experts_forward(self: nn.Module, hidden_states: torch.Tensor, top_k_index: torch.Tensor,
                          top_k_weights: torch.Tensor) -> torch.Tensor:  # fmt: skip
    """Every expert over every token, two batched matmuls, each expert's output weighted by the token's
    routing weight for it (zero where the router did not pick it): static shapes, no gather of weights.

    At 32 tokens and 8 of 128 experts per token nearly every expert is routed some token, so the expert
    weights read, which bound the layer, are a grouped GEMM's; the multiply-adds are 16 times as many."""
    experts = self.gate_up_proj.shape[0]  # pyright: ignore[reportIndexIssue]  # torch's or transformers' annotations
    picked = top_k_index.unsqueeze(-1) == torch.arange(experts, device=top_k_index.device)  # pyright: ignore[reportArgumentType, reportCallIssue]  # (T, K, E)
    weights = (picked * top_k_weights.unsqueeze(-1)).sum(1)  # (T, E)
    gate_up = torch.matmul(hidden_states.unsqueeze(0), self.gate_up_proj.transpose(1, 2))  # pyright: ignore[reportCallIssue]  # (E, T, 2I)
    gated = self._apply_gate(gate_up)  # pyright: ignore[reportCallIssue]  # (E, T, I)
    out = torch.matmul(gated, self.down_proj.transpose(1, 2))  # pyright: ignore[reportCallIssue]  # (E, T, H)
    return (out * weights.t().unsqueeze(-1)).sum(0).to(hidden_states.dtype)


def _register_dense_experts() -> None:
    from transformers.integrations.moe import ALL_EXPERTS_FUNCTIONS

    ALL_EXPERTS_FUNCTIONS.register("tnpu_dense", dense_experts_forward)


@entry("qwen3_moe_layer", ops=("aten.bmm", "aten.topk", "aten.scaled_dot_product_attention"), kind="model")
def qwen3_moe_layer() -> ModelCall:
    """One Qwen3-30B-A3B MoE decoder layer at full width (hidden 2048, 32 query / 4 key-value heads of 128,
    128 experts of 768, 8 per token) over 32 tokens: 623 M parameters, 2.5 GB in float32.  The experts run
    as `dense_experts_forward` (every expert over every token, weighted by the router: static shapes);
    transformers' own loop breaks the graph at a data-dependent `where`, and its `batched_mm` would gather
    4.8 GB of expert weights."""
    from transformers import Qwen3MoeConfig, Qwen3MoeModel

    _register_dense_experts()
    config = Qwen3MoeConfig(vocab_size=SEED_VOCABULARY, hidden_size=2048, intermediate_size=6144, num_hidden_layers=1,
                            num_attention_heads=32, num_key_value_heads=4, head_dim=128, num_experts=128,  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations
                            num_experts_per_tok=8, moe_intermediate_size=768, norm_topk_prob=True,
                            max_position_embeddings=4096, use_cache=False,
                            experts_implementation="tnpu_dense")  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations  # fmt: skip
    return ModelCall(DecoderLayer(Qwen3MoeModel(config)).eval(), (torch.randn(1, 32, 2048),))


@entry("vit_base", ops=("aten.convolution", "aten.mm", "aten.scaled_dot_product_attention"), kind="model")
def vit_base() -> ModelCall:
    """ViT-B/16 (12 layers, width 768, 12 heads, 3072) on one 224 × 224 image: 197 tokens."""
    from transformers import ViTConfig, ViTModel

    config = ViTConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
                       image_size=224, patch_size=16)  # fmt: skip
    return ModelCall(Output(ViTModel(config, add_pooling_layer=False), "last_hidden_state"), (_image(),))


class EncoderDecoder(nn.Module):
    """A T5 model called with encoder and decoder tokens: the decoder's last hidden state."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model.eval()

    def forward(self, tokens: torch.Tensor, decoder_tokens: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=tokens, decoder_input_ids=decoder_tokens).last_hidden_state


@entry("t5_base", ops=("aten.mm", "aten.bmm"), kind="model")
def t5_base() -> ModelCall:
    """A T5-base encoder–decoder (12 + 12 layers, width 768, 12 heads, 3072, relative position buckets)
    over 128 encoder and 32 decoder tokens."""
    from transformers import T5Config, T5Model

    config = T5Config(vocab_size=32128, d_model=768, d_kv=64, d_ff=3072, num_layers=12, num_decoder_layers=12,
                      num_heads=12, use_cache=False)  # fmt: skip
    return ModelCall(EncoderDecoder(T5Model(config)), (_tokens(32128, 128), _tokens(32128, 32)))


SHAPES: dict[str, dict[str, object]] = {
    "resnet50": {"inputs": [(1, 3, 224, 224)], "output": (1, 2048, 1, 1), "parameters_m": 23.5},
    "bert_base": {"inputs": [(1, 512)], "output": (1, 512, 768), "parameters_m": 108.9},
    "gpt2_small": {"inputs": [(1, 128)], "output": (1, 128, 50257), "parameters_m": 124.4},
    "llama3_8b_layer": {"inputs": [(1, 32, 4096)], "output": (1, 32, 4096), "parameters_m": 218.1},
    "qwen3_moe_layer": {"inputs": [(1, 32, 2048)], "output": (1, 32, 2048), "parameters_m": 623.1},
    "vit_base": {"inputs": [(1, 3, 224, 224)], "output": (1, 197, 768), "parameters_m": 85.8},
    "t5_base": {"inputs": [(1, 128), (1, 32)], "output": (1, 32, 768), "parameters_m": 222.9},
}
"""Each entry's input shapes, output shape and parameters (millions, rounded) as documented."""
