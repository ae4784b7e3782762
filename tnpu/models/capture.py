"""An entry's kernel launches: its program compiled with the `tnpu` backend, run once, each launch captured.

This is what `tnpu dse` makes a model's workload of (docs/dse.md).  The
program is built as `run_entry` builds it (torch seeded: the same weights
and inputs), compiled without autotuning, so that each GEMM or convolution
template takes its first configuration and the kernels do not depend on
any NPU, and called once inside `profile.capture()`: every launch of the
program, in order, with its compiled kernel and its `Launch`.  Nothing is
compared with eager mode; `run_entry` does that.

The kernels are timed, not run (`execution`, `timing` by default): each
compiled graph's values are its captured graph's, run by PyTorch on the
host (docs/torch-compile.md), so code between the compiled graphs that
reads what they computed (a value a graph break waits for, a
data-dependent shape) sees eager's values and the same launches follow as
in an emulated run, without emulating any.
"""

from __future__ import annotations

import torch

from tnpu.diagnostics import one_line
from tnpu.models.run import compiled_step, stage_of_failure
from tnpu.models.suite_entry import SuiteEntry
from tnpu.triton_backend.profile import CapturedLaunch, capture


class CaptureError(RuntimeError):
    """An entry whose program could not be built, compiled or run; the message is one line."""


def capture_launches(entry: SuiteEntry, execution: str = "timing") -> list[CapturedLaunch]:
    """Every launch `entry`'s program makes when compiled by tnpu and run once (module docstring)."""
    torch.manual_seed(0)
    try:
        workload = entry.build()
    except Exception as error:  # the entry's own program: its failure is reported in one line
        reason = one_line(f"{type(error).__name__}: {error}")
        raise CaptureError(f"{entry.name}: the program cannot be built: {reason}") from None
    torch._dynamo.reset()
    step = compiled_step(workload, entry.train, {"autotune": False, "execution": execution})
    try:
        with capture() as launches:
            step()
    except Exception as error:  # a kernel tnpu refuses, a failed launch: one line naming the stage
        stage, message = stage_of_failure(error)
        raise CaptureError(f"{entry.name}: tnpu cannot run it (stage reached: {stage}): {message}") from None
    return launches
