"""The `timing` rung of `tnpu run` and `tnpu sweep`: the case timed on the NPU of `--config`.

It runs under every `--exec` mode, `none` included, when a configuration is
given (the runner selects it only then; a context without one is
`skipped`).  It times the run's compiled kernel (`RunContext.kernel`,
whose tile IR for the NPU is `tnpu-to-npu`'s).  It computes no tensors, so the runner
compares nothing against it; its figures go into the run's JSON record:
cycles, time_us, both rooflines and the rest of `REPORTED`, and its
message summarizes them for the table.  A kernel the
lowering or the timer cannot describe is `refused` with the reason; a bad
configuration is an `error`.
"""

from __future__ import annotations

from xdsl.utils.exceptions import DiagnosticException

from tnpu.diagnostics import one_line
from tnpu.execution.case import case_launch
from tnpu.execution.rungs import RunContext, Rung, RungResult
from tnpu.timing.npu_config import NPUConfigError, load_npu_config

REPORTED = (
    "npu", "cycles", "time_us", "roofline_cycles", "roofline_bound", "roofline_ratio",
    "compulsory_cycles", "compulsory_bound", "compulsory_ratio",
    "bytes_read", "bytes_written", "dram_bytes", "flops", "achieved_bandwidth_gbps",
    "achieved_gflops", "utilization", "assumptions",
)
"""The keys of a `TimingReport`'s JSON the rung reports."""


class TimingRung(Rung):
    """The analytical cost model and TOG simulator (no execution)."""

    name = "timing"
    modes = frozenset({"none", "interp", "qemu"})

    def execute(self, context: RunContext) -> RungResult:
        if context.config is None:
            return RungResult(self.name, "skipped", message="no NPU configuration (--config)")
        try:
            npu = load_npu_config(context.config)
        except NPUConfigError as error:
            return RungResult(self.name, "error", message=one_line(error))
        case = context.case
        try:
            report = context.kernel.timer(npu).time(case_launch(case))
        except DiagnosticException as error:
            return RungResult(self.name, "refused", message=one_line(error))
        record = report.to_json()
        ratios = [
            f"{ratio:.2f} × {name} ({bound})"
            for name, ratio, bound in (
                ("roofline", report.roofline_ratio, report.roofline_bound),
                ("compulsory", report.compulsory_ratio, report.compulsory_bound),
            )
            if ratio is not None
        ]
        summary = ", ".join(
            [f"{report.cycles:,.0f} cycles ({report.time_us:.2f} µs) on {npu.name}", *ratios]
        )
        return RungResult(
            self.name, "ok", message=summary, notes={key: record[key] for key in REPORTED}
        )

