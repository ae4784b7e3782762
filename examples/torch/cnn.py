"""A small convolutional network through `torch.compile(model, backend="tnpu")`, as a user writes it.

    .venv/bin/python examples/torch/cnn.py

Convolutions (3 × 3, strided, 1 × 1 squeeze and expand as in SqueezeNet),
batch norm, ReLU, pooling and a linear classifier: each convolution runs as
Inductor's Triton convolution template on the NPU's systolic arrays, the
rest on its vector unit; every kernel runs as RVV code under qemu and is
timed on the modeled NPU (tpuv3 unless `TNPU_CONFIG` says otherwise).
"""

import torch
import torch.nn as nn

import tnpu


class Fire(nn.Module):
    """SqueezeNet's block: a 1 × 1 squeeze, then 1 × 1 and 3 × 3 expands side by side."""

    def __init__(self, channels: int, squeeze: int, expand: int):
        super().__init__()
        self.squeeze = nn.Sequential(nn.Conv2d(channels, squeeze, 1), nn.ReLU())
        self.expand1 = nn.Conv2d(squeeze, expand, 1)
        self.expand3 = nn.Conv2d(squeeze, expand, 3, padding=1)

    def forward(self, x):
        x = self.squeeze(x)
        return torch.relu(torch.cat([self.expand1(x), self.expand3(x)], dim=1))


torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
    nn.MaxPool2d(2),
    Fire(16, 8, 16),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
).eval()
x = torch.randn(2, 3, 32, 32)

compiled = torch.compile(model, backend="tnpu")
with torch.no_grad(), tnpu.profile() as prof:
    out = compiled(x)
    expected = model(x)

print(prof.table())
error = (out - expected).abs().max().item()
print(f"max |tnpu - eager| = {error:.3g}; {len(prof.launches)} launches, {prof.total_cycles:,.0f} cycles; "
      f"on the host: {prof.fallbacks or 'nothing'}")
assert error < 1e-4 and not prof.fallbacks
