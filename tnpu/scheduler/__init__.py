"""Several compiled programs on one NPU: partitions of cores, streams of requests, the shared DRAM.

    chip = Chip(load_npu_config("tpuv3x2"), partitions=(1, 1))
    resnet = time_program("resnet18", launches, chip.npu, cores=1)   # launches: (name, Kernel, Launch)
    run = simulate(chip, [Stream("resnet18", resnet, 0, poisson_arrivals(100, 200, seed=0)), ...])
    run.latency_stats("resnet18"), run.utilization(), run.table(), run.chrome_trace()

* `program`  a program's launches, each timed alone on a partition (`Step`, `Program`)
* `chip`     the partitioned chip and its event-driven scheduler (`ChipScheduler`), the DRAM shared
* `streams`  arrivals (given or Poisson), `simulate`, and the run's latencies, utilization and trace

docs/timing.md ("Several programs on one chip") describes the model.
"""

from tnpu.scheduler.chip import Chip, ChipScheduler, Request, ScheduleError, dram_shares
from tnpu.scheduler.program import Program, Step, partition_npu, step_of, time_program
from tnpu.scheduler.streams import Run, Stream, check_arrivals, percentile, poisson_arrivals, simulate

__all__ = [
    "Chip", "ChipScheduler", "Program", "Request", "Run", "ScheduleError", "Step", "Stream", "check_arrivals",
    "dram_shares", "partition_npu", "percentile", "poisson_arrivals", "simulate", "step_of", "time_program",
]
