// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A masked instruction reads its mask from v0.
// CHECK: 'rvv.vor.vi' op rvv.vor.vi: a mask operand is read from v0, not v1
riscv_func.func @mask_not_in_v0(%x: !rvv.reg<m1, v2>, %m: !rvv.mask<m1, v1>) {
  %z = rvv.vor.vi %x, 1 masked(%m : !rvv.mask<m1, v1>, %x : !rvv.reg<m1, v2>) : !rvv.reg<m1, v2> -> !rvv.reg<m1, v3>
  riscv_func.return
}

// -----

// A group of four registers starts at a multiple of four.
// CHECK: a group of 4 registers starts at a multiple of 4, not at v2
riscv_func.func @misaligned(%x: !rvv.reg<m4, v2>) {
  riscv_func.return
}

// -----

// CHECK: expected m1, m2, m4 or m8, got m3
riscv_func.func @bad_lmul(%x: !rvv.reg<m3>) {
  riscv_func.return
}

// -----

// The carried values of a loop and its block arguments agree.
// CHECK: rvx.loop's block takes one argument per carried value, of its type
riscv_func.func @loop_arguments(%n: !riscv.reg) {
  %zero = rv64.get_register : !riscv.reg<zero>
  %r = rvx.loop (%n) : (!riscv.reg) {
  ^bb0(%k: !riscv.freg):
    rvx.repeat_if ne %zero, %zero : !riscv.reg<zero>, !riscv.reg<zero> carrying %n : !riscv.reg
  }
  riscv_func.return
}

// -----

// CHECK: each region of rvx.if yields values of its result types
riscv_func.func @if_yields(%n: !riscv.reg) {
  %zero = rv64.get_register : !riscv.reg<zero>
  %r = rvx.if eq %n, %zero : !riscv.reg, !riscv.reg<zero> -> (!riscv.reg) {
    rvx.yield %n : !riscv.reg
  } else {
    rvx.yield
  }
  riscv_func.return
}

// -----

// CHECK: expected one of eq, ne, lt, ge, ltu, geu
riscv_func.func @condition(%n: !riscv.reg) {
  %zero = rv64.get_register : !riscv.reg<zero>
  %r = rvx.if gt %n, %zero : !riscv.reg, !riscv.reg<zero> -> () {
    rvx.yield
  } else {
    rvx.yield
  }
  riscv_func.return
}
