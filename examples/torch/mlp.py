"""A three-layer MLP through `torch.compile(model, backend="tnpu")`, as a user writes it.

    .venv/bin/python examples/torch/mlp.py

Every kernel of the compiled graph runs as RVV code under qemu and is
timed on the modeled NPU (tpuv3 unless `TNPU_CONFIG` says otherwise).
"""

import torch
import torch.nn as nn

import tnpu

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32)).eval()
x = torch.randn(8, 32)

compiled = torch.compile(model, backend="tnpu")
with torch.no_grad(), tnpu.profile() as prof:
    out = compiled(x)
    expected = model(x)

print(prof.table())
error = (out - expected).abs().max().item()
print(f"max |tnpu - eager| = {error:.3g}; {len(prof.launches)} launches, {prof.total_cycles:,} cycles; "
      f"on the host: {prof.fallbacks or 'nothing'}")
assert error < 1e-4 and not prof.fallbacks
