// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// A run of integer scalar ops is integer code: 32-bit arithmetic in the `w`
// forms (results sign-extended, so index_cast takes no instruction), minsi
// and select branch-free through the mask -condition, a compare one slt,
// and a division by a value not known to be nonzero zeroed where the
// divisor is 0 (snez, the mask -flag); the result goes to its slot.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_indices
// CHECK:         riscv.comment {comment = "scalar ops: arith.muli, arith.subi, arith.minsi, arith.cmpi, arith.select, arith.divsi, arith.index_cast"}
// CHECK-NEXT:    [[PID:%[0-9]+]] = riscv.lw [[S0:%[0-9]+]], -56
// CHECK-NEXT:    [[C64:%[0-9]+]] = rv64.li 64
// CHECK-NEXT:    [[START:%[0-9]+]] = riscv.mulw [[PID]], [[C64]]
// CHECK-NEXT:    [[N:%[0-9]+]] = riscv.lw [[S0]], -16
// CHECK-NEXT:    [[LAST:%[0-9]+]] = riscv.subw [[N]], [[C64]]
// CHECK-NEXT:    [[LESS:%[0-9]+]] = riscv.slt [[START]], [[LAST]]
// CHECK-NEXT:    [[M:%[0-9]+]] = riscv.sub [[ZERO:%[0-9]+]], [[LESS]]
// CHECK-NEXT:    [[X:%[0-9]+]] = riscv.xor [[START]], [[LAST]]
// CHECK-NEXT:    [[A:%[0-9]+]] = riscv.and [[X]], [[M]]
// CHECK-NEXT:    [[MIN:%[0-9]+]] = riscv.xor [[LAST]], [[A]]
// CHECK-NEXT:    [[INSIDE:%[0-9]+]] = riscv.slt [[START]], [[N]]
// CHECK-NEXT:    [[D:%[0-9]+]] = riscv.lw [[S0]], -24
// CHECK-NEXT:    [[M2:%[0-9]+]] = riscv.sub [[ZERO]], [[INSIDE]]
// CHECK-NEXT:    [[X2:%[0-9]+]] = riscv.xor [[MIN]], [[D]]
// CHECK-NEXT:    [[A2:%[0-9]+]] = riscv.and [[X2]], [[M2]]
// CHECK-NEXT:    [[PICKED:%[0-9]+]] = riscv.xor [[D]], [[A2]]
// CHECK-NEXT:    [[Q:%[0-9]+]] = riscv.divw [[PICKED]], [[D]]
// CHECK-NEXT:    [[NONZERO:%[0-9]+]] = riscv.snez [[D]]
// CHECK-NEXT:    [[M3:%[0-9]+]] = riscv.sub [[ZERO]], [[NONZERO]]
// CHECK-NEXT:    [[R:%[0-9]+]] = riscv.and [[Q]], [[M3]]
// CHECK-NEXT:    rv64.sd [[S0]], [[R]], -80
// CHECK-NEXT:    riscv.comment {comment = "tile.load"}
tile.kernel @indices(%x: !tile.buffer<f32>, %n: i32, %d: i32) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %last = arith.subi %n, %c64 : i32
  %clamped = arith.minsi %start, %last : i32
  %inside = arith.cmpi slt, %start, %n : i32
  %picked = arith.select %inside, %clamped, %d : i32
  %q = arith.divsi %picked, %d : i32
  %o = arith.index_cast %q : i32 to index
  %t = tile.load %x[%o] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  tile.store %t, %x[%o] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Constants become immediates where one fits: a compare with slti, a
// division by a nonzero constant needs no guard, a shift by a constant
// within the width is one immediate shift; an i1 result is a byte of 0 or 1.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_immediates
// CHECK:         riscv.comment {comment = "scalar ops: arith.cmpi, arith.divui, arith.shrsi"}
// CHECK-NEXT:    [[PID:%[0-9]+]] = riscv.lw [[S0:%[0-9]+]], -40
// CHECK-NEXT:    [[SMALL:%[0-9]+]] = riscv.slti [[PID]], 100
// CHECK-NEXT:    [[C3:%[0-9]+]] = rv64.li 3
// CHECK-NEXT:    [[Q:%[0-9]+]] = riscv.divuw [[PID]], [[C3]]
// CHECK-NEXT:    [[H:%[0-9]+]] = rv64.srai [[Q]], 1
// CHECK-NEXT:    rvx.sb [[S0]], [[SMALL]], -64
// CHECK-NEXT:    riscv.sw [[S0]], [[H]], -72
tile.kernel @immediates(%x: !tile.buffer<i32>) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c100 = arith.constant 100 : i32
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %small = arith.cmpi slt, %pid, %c100 : i32
  %q = arith.divui %pid, %c3 : i32
  %h = arith.shrsi %q, %c1 : i32
  %t = tile.broadcast %h : i32 -> tensor<16xi32>
  %m = tile.broadcast %small : i1 -> tensor<16xi1>
  tile.store %t, %x[0] strides [1] mask %m : tensor<16xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// A run with a float op stays a one-element vector program.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_float_scalar
// CHECK:         riscv.comment {comment = "scalar ops: arith.sitofp, arith.mulf"}
// CHECK:         rvx.loop
// CHECK:           rvv.vsetvli {{%[0-9]+}} sew 32
// CHECK-NEXT:      rvv.vmv.v.x
// CHECK-NEXT:      rvv.vfcvt.f.x.v
// CHECK-NEXT:      rvv.vfmul.vf
// CHECK:           rvv.vse32.v
tile.kernel @float_scalar(%x: !tile.buffer<f32>, %a: f32) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %f = arith.sitofp %pid : i32 to f32
  %s = arith.mulf %f, %a : f32
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %r = tile.map %t, %s : tensor<64xf32>, f32 -> tensor<64xf32> {
  ^bb0(%u: f32, %v: f32):
    %m = arith.mulf %u, %v : f32
    tile.yield %m : f32
  }
  tile.store %r, %x[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
