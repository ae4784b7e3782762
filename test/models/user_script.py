"""A suite entry run as a user runs a model: `python test/models/user_script.py NAME`.

The gate (`test_gate.py`) runs this in a fresh Python process per entry.
Between the user and the backend there is nothing of tnpu's harness: the
model and its inputs are built (the entry's builder stands for the user's
own model code), then `torch.compile(model, backend="tnpu")` with the
backend's defaults, called under `tnpu.profile()` — under `no_grad` for
inference; for a training step, the loss's backward and a compiled SGD
step, as PyTorch's tutorials write one.  Afterwards, and only to judge,
every output (and every gradient and updated weight) is compared with
eager's, itself judged against a float64 run (`tnpu.models.compare`).
Prints one JSON object; exit code 0 when everything matches, at least one
kernel ran on tnpu and nothing ran on the host.

With `TNPU_EXEC=timing` in the environment (as a user selects the mode;
the backend's `execution` setting reads it) the kernels are compiled and
timed, not run, and the program's values are eager's, computed on the
host: there is nothing to compare, so neither eager's copy nor the float64
run is made (a real-size model's weights are not copied twice); exit code
0 when at least one kernel was timed, every launch has cycles and nothing
ran on the host.
"""

import copy
import json
import os
import sys
import time

import torch

import tnpu
from tnpu.models.compare import compare, leaves
from tnpu.models.suite import entry


def infer(model, inputs):
    with torch.no_grad():
        return model(*inputs)


def train_step(model, inputs, loss_of, compile_step):
    """One step: forward, loss, backward, an SGD step with momentum; what the step computed."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    step = compile_step(optimizer.step)
    out = model(*inputs)
    loss = loss_of(out)
    loss.backward()
    gradients = {name: parameter.grad.clone() for name, parameter in model.named_parameters()}
    step()
    weights = {name: parameter.detach().clone() for name, parameter in model.named_parameters()}
    return {"loss": loss.detach(), "out": out.detach(), "grad": gradients, "weight": weights}


def main(name: str) -> int:
    torch.manual_seed(0)
    suite_entry = entry(name)
    workload = suite_entry.build()
    model, inputs = workload.program, workload.inputs
    loss_of = workload.loss or (lambda out: out.sum())

    def run(program, arguments, compile_step=lambda step: step):
        if suite_entry.train:
            return train_step(program, arguments, loss_of, compile_step)
        return infer(program, arguments)

    timing_only = os.environ.get("TNPU_EXEC") == "timing"
    if not timing_only:
        # Eager and float64 first, on copies: the compiled run then starts from the same weights.
        eager = run(copy.deepcopy(model), copy.deepcopy(inputs))
        exact_model = copy.deepcopy(model)
        exact_model = exact_model.double() if isinstance(exact_model, torch.nn.Module) else exact_model
        exact_inputs = tuple(x.double() if torch.is_tensor(x) and x.is_floating_point() else x for x in inputs)
        exact = run(exact_model, exact_inputs)

    start = time.perf_counter()
    compiled = torch.compile(model, backend="tnpu")
    with tnpu.profile() as prof:
        got = run(compiled, inputs, compile_step=lambda step: torch.compile(step, backend="tnpu"))

    if timing_only:  # the values are the host's: nothing of tnpu's to compare
        outputs = leaves(got)
        mismatched = [f"{launch.kernel} has no modeled time" for launch in prof.launches if not launch.cycles]
    else:
        outputs = [
            compare(leaf, value, want, truth)
            for (leaf, value), (_, want), (_, truth) in zip(leaves(got), leaves(eager), leaves(exact), strict=True)
        ]
        mismatched = [f"{output.name}: {output.detail}" for output in outputs if not output.match]
    fallbacks = [f"{record.op} ({record.kind}, from {', '.join(record.nodes)})" for record in prof.fallbacks]
    graph_breaks = sum(torch._dynamo.utils.counters["graph_break"].values())
    print(json.dumps({
        "name": name, "mismatched": mismatched, "fallbacks": fallbacks, "graph_breaks": graph_breaks,
        "launches": len(prof.launches), "cycles": prof.total_cycles, "execution": "timing" if timing_only else "run",
        "seconds": round(time.perf_counter() - start, 1),
    }))  # fmt: skip
    return 0 if outputs and not mismatched and not fallbacks and prof.launches else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
