"""MobileNetV3-small (Howard et al., "Searching for MobileNetV3", 2019, table 2), random weights.

Written here because torchvision and timm, which carry it, cannot be
imported beside the CPU build of torch (their compiled operators link
CUDA).  Inverted residual blocks with depthwise convolutions, squeeze-and-
excitation and hard-swish, as the paper's table lists them.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

# (kernel, expansion, output channels, squeeze-excite, hard-swish, stride), table 2 of the paper
SMALL = (
    (3, 16, 16, True, False, 2),
    (3, 72, 24, False, False, 2),
    (3, 88, 24, False, False, 1),
    (5, 96, 40, True, True, 2),
    (5, 240, 40, True, True, 1),
    (5, 240, 40, True, True, 1),
    (5, 120, 48, True, True, 1),
    (5, 144, 48, True, True, 1),
    (5, 288, 96, True, True, 2),
    (5, 576, 96, True, True, 1),
    (5, 576, 96, True, True, 1),
)


def _divisible(channels: float, by: int = 8) -> int:
    """Channels rounded to a multiple of 8, never below 90% of the request (the paper's rule)."""
    rounded = max(by, int(channels + by / 2) // by * by)
    return rounded + by if rounded < 0.9 * channels else rounded


def _conv_bn(inputs: int, outputs: int, kernel: int, stride: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, kernel, stride, kernel // 2, groups=groups, bias=False), nn.BatchNorm2d(outputs)
    )


class SqueezeExcite(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        squeezed = _divisible(channels / 4)
        self.reduce = nn.Conv2d(channels, squeezed, 1)
        self.expand = nn.Conv2d(squeezed, channels, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = F.adaptive_avg_pool2d(x, 1)
        return x * F.hardsigmoid(self.expand(F.relu(self.reduce(scale))))


class InvertedResidual(nn.Module):
    def __init__(self, inputs: int, kernel: int, expanded: int, outputs: int, se: bool, hswish: bool, stride: int):
        super().__init__()
        self.activation = nn.Hardswish() if hswish else nn.ReLU()
        self.expand = _conv_bn(inputs, expanded, 1) if expanded != inputs else None
        self.depthwise = _conv_bn(expanded, expanded, kernel, stride, groups=expanded)
        self.squeeze_excite = SqueezeExcite(expanded) if se else None
        self.project = _conv_bn(expanded, outputs, 1)
        self.residual = stride == 1 and inputs == outputs

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x if self.expand is None else self.activation(self.expand(x))
        y = self.activation(self.depthwise(y))
        if self.squeeze_excite is not None:
            y = self.squeeze_excite(y)
        y = self.project(y)
        return x + y if self.residual else y


class MobileNetV3Small(nn.Module):
    def __init__(self, classes: int = 1000):
        super().__init__()
        layers: list[nn.Module] = [_conv_bn(3, 16, 3, stride=2), nn.Hardswish()]
        channels = 16
        for kernel, expanded, outputs, se, hswish, stride in SMALL:
            layers.append(InvertedResidual(channels, kernel, expanded, outputs, se, hswish, stride))
            channels = outputs
        layers += [_conv_bn(channels, 576, 1), nn.Hardswish()]
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Linear(576, 1024), nn.Hardswish(), nn.Linear(1024, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pooled = F.adaptive_avg_pool2d(self.features(x), 1).flatten(1)
        return self.classifier(pooled)
