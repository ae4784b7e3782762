// A configuration that cannot be read is refused with one line naming the
// problem (every problem of a bad file on it); so is a missing one.

// RUN: not tnpu-opt %s -p 'tnpu-to-npu{config=tpuv9}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not tnpu-opt %s -p 'tnpu-to-npu{config=tpuv9}' 2>&1 | wc -l | filecheck %s --check-prefix=ONE-LINE
// UNKNOWN: {{^}}tnpu-to-npu: config: unknown NPU 'tpuv9': give a preset (tpuv3, {{.*}}) or a .yaml file{{$}}

// RUN: not tnpu-opt %s -p 'tnpu-to-npu{config="%S/Inputs/bad.yaml"}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not tnpu-opt %s -p 'tnpu-to-npu{config="%S/Inputs/bad.yaml"}' 2>&1 | wc -l | filecheck %s --check-prefix=ONE-LINE
// BAD: {{^}}tnpu-to-npu: config: {{.*}}bad.yaml: dram_channel: unknown key (did you mean 'dram_channels'?) {{.*}}bad.yaml: num_cores: expected a positive integer, got 0{{$}}

// RUN: not tnpu-opt %s -p 'tnpu-to-npu{config="%S/Inputs/missing.yaml"}' 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: {{^}}tnpu-to-npu: config: {{.*}}missing.yaml: no such file{{$}}

// RUN: not tnpu-opt %s -p tnpu-to-npu 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not tnpu-opt %s -p tnpu-to-npu 2>&1 | wc -l | filecheck %s --check-prefix=ONE-LINE
// NONE: {{^}}tnpu-opt: error: tnpu-to-npu requires argument "config"{{$}}

// ONE-LINE: {{^ *1$}}

tt.func @empty() {
  tt.return
}
