"""The `timing` execution mode: every launch compiled and timed, none run; a torch.compile'd graph's
values are its captured graph's, run by PyTorch on the host.  (A Triton launch in the mode:
test/triton_backend/test_triton_launch.py.)"""

from __future__ import annotations

import warnings

import pytest
import torch

import tnpu
from tnpu.models.run import _step, compiled_step
from tnpu.models.suite import entry
from tnpu.triton_backend.launcher import TimingOnlyWarning


def _run(name: str, execution: str):
    torch._dynamo.reset()
    torch.manual_seed(0)
    workload = entry(name).build()
    with tnpu.profile(config="tpuv3") as prof:
        value = compiled_step(workload, entry(name).train, {"execution": execution, "autotune": False})()
    return value, prof


@pytest.mark.parametrize("name", ["mlp", "mlp_train"])
def test_a_suite_entry_gives_eagers_values_and_the_emulated_runs_cycles(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", TimingOnlyWarning)
        timed, timed_prof = _run(name, "timing")
    emulated, emulated_prof = _run(name, "qemu")
    torch.manual_seed(0)
    eager = _step(entry(name).build(), compiled=False, train=entry(name).train)
    assert {launch.execution for launch in timed_prof.launches} == {"timing only"}
    assert {launch.execution for launch in emulated_prof.launches} == {"qemu"}
    assert [launch.kernel for launch in timed_prof.launches] == [launch.kernel for launch in emulated_prof.launches]
    assert timed_prof.total_cycles == pytest.approx(emulated_prof.total_cycles, rel=1e-12)
    assert timed_prof.total_cycles > 0 and not timed_prof.fallbacks
    torch.testing.assert_close(timed, eager, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(emulated, eager, rtol=1e-4, atol=1e-5)
