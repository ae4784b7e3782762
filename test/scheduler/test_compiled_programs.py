"""A torch.compile'd graph as a scheduler program: its captured launches, timed per partition, agree
with `tnpu.profile` on the whole chip, and two of them share a partitioned chip."""

from __future__ import annotations

import pytest
import torch

import tnpu
from tnpu.models.run import compiled_step
from tnpu.models.suite import entry
from tnpu.scheduler import Chip, Stream, simulate, time_program
from tnpu.timing.npu_config import load_npu_config
from tnpu.triton_backend.profile import capture


def test_a_compiled_graph_is_a_program_timed_as_the_profile_times_it():
    torch._dynamo.reset()
    torch.manual_seed(0)
    step = compiled_step(entry("mlp").build(), False, {"execution": "timing", "autotune": False})
    with tnpu.profile(config="tpuv3x2") as profile, capture() as launches:
        step()
    chip = load_npu_config("tpuv3x2")
    steps = [(launch.kernel.name, launch.kernel, launch.launch) for launch in launches]
    whole = time_program("mlp", steps, chip, cores=2)
    half = time_program("mlp", steps, chip, cores=1)
    assert [s.name for s in whole.steps] == [record.kernel for record in profile.launches]
    assert whole.solo_cycles == pytest.approx(profile.total_cycles, rel=1e-12)
    assert half.solo_cycles >= whole.solo_cycles
    run = simulate(Chip(chip, (1, 1)), [Stream("a", half, 0, (0.0, 1.0)), Stream("b", half, 1, (0.0,))])
    assert all(request.latency >= half.solo_cycles * (1 - 1e-12) for request in run.requests)
