// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// tile.map: one strip loop (rvx.loop) carrying the remaining count and each
// stream's pointer; the uniform operand is read once, before the loop, into
// a float register (vfmul.vf); the body's values are vector groups, here at
// LMUL m8 (64 eighths), since at most two are live at once.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_axpy
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         [[BITS:%[0-9]+]] = rvx.lwu
// CHECK-NEXT:    [[A:%[0-9]+]] = riscv.fmv.w.x [[BITS]]
// CHECK:         rvx.loop ([[COUNT:%[0-9]+]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}})
// CHECK-NEXT:    ^bb0([[REM:%[0-9]+]]: !riscv.reg, [[PX:%[0-9]+]]: !riscv.reg, [[PY:%[0-9]+]]: !riscv.reg, [[PR:%[0-9]+]]: !riscv.reg):
// CHECK-NEXT:      [[VL:%[0-9]+]] = rvv.vsetvli [[REM]] sew 32 eighths 64
// CHECK-NEXT:      [[X:%[0-9]+]] = rvv.vle32.v [[PX]] : !riscv.reg -> !rvv.reg<m8>
// CHECK-NEXT:      [[AX:%[0-9]+]] = rvv.vfmul.vf [[X]], [[A]]
// CHECK-NEXT:      [[Y:%[0-9]+]] = rvv.vle32.v [[PY]]
// CHECK-NEXT:      [[R:%[0-9]+]] = rvv.vfadd.vv [[AX]], [[Y]]
// CHECK-NEXT:      rvv.vse32.v [[R]], [[PR]]
// CHECK-NEXT:      [[LEFT:%[0-9]+]] = riscv.sub [[REM]], [[VL]]
// CHECK:           rvx.repeat_if ne [[LEFT]], {{%[0-9]+}} : !riscv.reg, !riscv.reg<zero> carrying [[LEFT]],
tile.kernel @axpy(%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %a: f32) {
  %tx = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<256xf32>
  %ty = tile.load %y[0] strides [1] : !tile.buffer<f32> -> tensor<256xf32>
  %r = tile.map %tx, %ty, %a : tensor<256xf32>, tensor<256xf32>, f32 -> tensor<256xf32> {
  ^bb0(%u: f32, %v: f32, %s: f32):
    %m = arith.mulf %u, %s : f32
    %t = arith.addf %m, %v : f32
    tile.yield %t : f32
  }
  tile.store %r, %y[0] strides [1] : tensor<256xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A select merges under the mask in v0: the compare's mask is copied there
// (vmv1r.v), and an i1 result is stored as bytes (vmerge.vim of 1 into zeros).
// A mask is one register at any LMUL (a bit per element).
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_select
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         [[M:%[0-9]+]] = rvv.vmflt.vv {{%[0-9]+}}, {{%[0-9]+}} : (!rvv.reg<m8>, !rvv.reg<m8>) -> !rvv.mask<m1>
// CHECK-NEXT:    [[V0:%[0-9]+]] = rvv.vmv1r.v [[M]] : (!rvv.mask<m1>) -> !rvv.mask<m1, v0>
// CHECK-NEXT:    {{%[0-9]+}} = rvv.vmerge.vvm {{%[0-9]+}}, {{%[0-9]+}}, [[V0]]
// CHECK:         [[ZEROS:%[0-9]+]] = rvv.vmv.v.i 0
// CHECK-NEXT:    {{%[0-9]+}} = rvv.vmerge.vim [[ZEROS]], 1, [[V0]]
tile.kernel @select(%x: !tile.buffer<f32>, %flags: !tile.buffer<i1>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %u = tile.load %x[64] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %r, %lt = tile.map %t, %u : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>, tensor<64xi1> {
  ^bb0(%a: f32, %b: f32):
    %less = arith.cmpf olt, %a, %b : f32
    %min = arith.select %less, %a, %b : f32
    tile.yield %min, %less : f32, i1
  }
  tile.store %r, %x[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.store %lt, %flags[0] strides [1] : tensor<64xi1>, !tile.buffer<i1>
  tile.return
}

// -----

// fp8 has no vector instructions: an f32 is rounded to e4m3fnuz on its bits at
// SEW 32 and narrowed to bytes in two halving steps.  A NaN becomes the one NaN,
// 0x80, which is also -0's pattern: FNUZ has no -0, so the sign goes only to a
// result that is not zero.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_fp8_narrow
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         [[NAN_BITS:%[0-9]+]] = rv64.li 128
// CHECK:         rvx.loop
// CHECK:           rvv.vsetvli {{%[0-9]+}} sew 32
// CHECK:           rvv.vmv.v.x [[NAN_BITS]]
// CHECK:           [[NONZERO:%[0-9]+]] = rvv.vmsne.vi [[ROUNDED:%[0-9]+]], 0
// CHECK-NEXT:      [[SIGNED:%[0-9]+]] = rvv.vor.vv [[ROUNDED]], {{%[0-9]+}} masked([[NONZERO]] : !rvv.mask<m1, v0>, [[ROUNDED]] : {{.*}})
// CHECK-NEXT:      rvv.vsetvli_keep sew 16
// CHECK-NEXT:      [[HALF:%[0-9]+]] = rvv.vnsrl.wi [[SIGNED]], 0
// CHECK-NEXT:      rvv.vsetvli_keep sew 8
// CHECK-NEXT:      [[BYTES:%[0-9]+]] = rvv.vnsrl.wi [[HALF]], 0
// CHECK-NEXT:      rvv.vse8.v [[BYTES]]
tile.kernel @fp8_narrow(%x: !tile.buffer<f32>, %y: !tile.buffer<f8E4M3FNUZ>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %n = tile.map %t : tensor<64xf32> -> tensor<64xf8E4M3FNUZ> {
  ^bb0(%v: f32):
    %r = arith.truncf %v : f32 to f8E4M3FNUZ
    tile.yield %r : f8E4M3FNUZ
  }
  tile.store %n, %y[0] strides [1] : tensor<64xf8E4M3FNUZ>, !tile.buffer<f8E4M3FNUZ>
  tile.return
}
