"""Training steps of an MLP through `torch.compile(model, backend="tnpu")`, as a user writes them.

    .venv/bin/python examples/torch/train_step.py

The forward pass and the backward pass AOT autograd derives from it are
compiled graphs on tnpu, and so is the optimizer's step; every kernel
runs as RVV code under qemu and is timed on the modeled NPU.  The losses
and the trained weights are checked against the same steps in eager mode.
"""

import copy

import torch
import torch.nn as nn

import tnpu

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
reference = copy.deepcopy(model)
x, target = torch.randn(8, 16), torch.randint(0, 4, (8,))


def steps(model, compile, count=3):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    forward, step = compile(model), compile(optimizer.step)
    losses = []
    for _ in range(count):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(forward(x), target)
        loss.backward()
        step()
        losses.append(loss.item())
    return losses


with tnpu.profile() as prof:
    losses = steps(model, lambda f: torch.compile(f, backend="tnpu"))
expected = steps(reference, lambda f: f)

print(f"losses on tnpu {[f'{loss:.5f}' for loss in losses]}, eager {[f'{loss:.5f}' for loss in expected]}")
print(f"{len(prof.launches)} launches, {prof.total_cycles:,.0f} cycles; on the host: {prof.fallbacks or 'nothing'}")
for trained, wanted in zip(model.parameters(), reference.parameters()):
    torch.testing.assert_close(trained, wanted, rtol=1e-4, atol=1e-5)
torch.testing.assert_close(torch.tensor(losses), torch.tensor(expected), rtol=1e-4, atol=1e-5)
assert not prof.fallbacks
