"""PyTorch's own transformer encoder layer through `torch.compile(model, backend="tnpu")`.

    .venv/bin/python examples/torch/transformer.py

In eval mode, under `no_grad`, `nn.TransformerEncoderLayer` takes PyTorch's
fast path, one fused native operation (`aten._transformer_encoder_layer_fwd`)
that would run on the host; tnpu decomposes it into its matmuls, softmax,
layer norms and activation, which run on the NPU.  Every kernel runs as RVV
code under qemu and is timed on the modeled NPU.
"""

import torch
import torch.nn as nn

import tnpu

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True).eval()
x = torch.randn(2, 8, 32)

compiled = torch.compile(layer, backend="tnpu")
with torch.no_grad(), tnpu.profile() as prof:
    out = compiled(x)
    expected = layer(x)

print(prof.table())
error = (out - expected).abs().max().item()
print(f"max |tnpu - eager| = {error:.3g}; {len(prof.launches)} launches, {prof.total_cycles:,.0f} cycles; "
      f"on the host: {prof.fallbacks or 'nothing'}")
assert error < 1e-4 and not prof.fallbacks
