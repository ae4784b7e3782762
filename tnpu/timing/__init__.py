"""Timing: how long a tile kernel, or a sequence of them, takes on the modeled NPU.

The second consumer of the tile dialect.  Layers, each its own module:

* `npu_config`  the NPU description (YAML presets `tpuv3`, `tpuv6e`, two-core `tpuv3x2`, `tpuv4`; user files);
* `cost_model`  the analytical cost of each tile op: DMA, vector, matrix;
* `tog`         the tile-operation graph of a kernel, loops kept as structure;
* `launch_binding` binding a TOG to a launch: every program's bytes, trips, branches;
* `simulator`   the event-driven simulation: cores, DMA engines, units, shared DRAM;
* `report`      cycles, bytes, FLOPs, utilization and the two rooflines;
* `trace`, `tog_json`, `roofline_plot`  the timeline for Perfetto, the TOG for
  other simulators, the launches drawn on the roofline;
* `timer`       the entry points: `KernelTimer`, `time_sequence`.

docs/timing.md describes the model and its assumptions.
"""
