"""The two programs of PyTorchSim's scheduler scenario, as `tnpu model` factories (`FILE.py:FACTORY`).

* `resnet18`: ResNet-18 (torchvision's depths and widths: basic blocks
  [2, 2, 2, 2], widths 64-128-256-512, through `transformers`' ResNet) on one
  1 × 3 × 224 × 224 image, inference.
* `encoder`: one transformer encoder block, 768 wide with 12 heads and a
  3072-wide feed-forward layer (BERT-base's layer; `nn.TransformerEncoderLayer`),
  on 128 tokens of width 768 (a batch of one), inference.

Weights are random (the caller seeds torch); nothing is downloaded.
"""

from __future__ import annotations

import torch
from torch import nn

from tnpu.models.networks import Output
from tnpu.models.suite_entry import ModelCall


def resnet18() -> ModelCall:
    from transformers import ResNetConfig, ResNetModel

    config = ResNetConfig(layer_type="basic", depths=[2, 2, 2, 2], hidden_sizes=[64, 128, 256, 512], embedding_size=64)
    return ModelCall(Output(ResNetModel(config), "pooler_output"), (torch.randn(1, 3, 224, 224),))


def encoder() -> ModelCall:
    layer = nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072, batch_first=True)
    return ModelCall(layer.eval(), (torch.randn(1, 128, 768),))
