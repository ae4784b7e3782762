// RUN: tnpu-opt %s -p tile-to-rvv | filecheck %s

// One call runs every program of the grid: the function's last three
// arguments are the grid (x, y, z), and the body runs in loops over z, y and
// x (x fastest), none if an axis is empty.  The program ids live in
// scratchpad slots, counted up at the end of each trip, so no register is
// held across the body; program_id reads its slot.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_ids(%0: !riscv.reg<a0>, %1: !riscv.reg<a1>, %2: !riscv.reg<a2>, %3: !riscv.reg<a3>)
// CHECK:         rv64.sd [[S0:%[0-9]+]], %1, [[X:-[0-9]+]]
// CHECK-NEXT:    rv64.sd [[S0]], %2, [[Y:-[0-9]+]]
// CHECK-NEXT:    rv64.sd [[S0]], %3, [[Z:-[0-9]+]]
// CHECK-NEXT:    [[NZ:%[0-9]+]] = riscv.lw [[S0]], [[Z]]
// CHECK-NEXT:    rvx.if lt {{%[0-9]+}}, [[NZ]]
// CHECK:           [[NY:%[0-9]+]] = riscv.lw [[S0]], [[Y]]
// CHECK-NEXT:      rvx.if lt {{%[0-9]+}}, [[NY]]
// CHECK:             [[NX:%[0-9]+]] = riscv.lw [[S0]], [[X]]
// CHECK-NEXT:        rvx.if lt {{%[0-9]+}}, [[NX]]
// CHECK-NEXT:          riscv.sw [[S0]], {{%[0-9]+}}, [[PZ:-[0-9]+]]
// CHECK-NEXT:          rvx.loop
// CHECK:                 riscv.sw [[S0]], {{%[0-9]+}}, [[PY:-[0-9]+]]
// CHECK-NEXT:            rvx.loop
// CHECK:                   riscv.sw [[S0]], {{%[0-9]+}}, [[PX:-[0-9]+]]
// CHECK-NEXT:              rvx.loop
// CHECK:                     riscv.comment {comment = "tile.program_id"}
// CHECK:                     riscv.lw [[S0]], [[PX]]
// CHECK:                     riscv.comment {comment = "tile.store"}
// CHECK:                     [[ID:%[0-9]+]] = riscv.lw [[S0]], [[PX]]
// CHECK-NEXT:                [[NEXT:%[0-9]+]] = riscv.addi [[ID]], 1
// CHECK-NEXT:                riscv.sw [[S0]], [[NEXT]], [[PX]]
// CHECK-NEXT:                [[COUNT:%[0-9]+]] = riscv.lw [[S0]], [[X]]
// CHECK-NEXT:                rvx.repeat_if lt [[NEXT]], [[COUNT]]
tile.kernel @ids(%out: !tile.buffer<i32>) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %at = arith.index_cast %pid : i32 to index
  %v = tile.broadcast %pid : i32 -> tensor<1xi32>
  tile.store %v, %out[%at] strides [1] : tensor<1xi32>, !tile.buffer<i32>
  tile.return
}
