// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv -t tnpu-riscv-asm | filecheck %s

// A fused map is one strip-mined loop; its body stays in vector registers,
// a scalar operand is hoisted into a float register (vfmul.vf).
// CHECK-LABEL: tnpu_kernel_axpy:
// CHECK:         # tile.map
// CHECK:         fmv.w.x
// CHECK:       .Ltnpu_kernel_axpy_loop{{[0-9]+}}:
// CHECK-NEXT:    vsetvli [[VL:[a-z0-9]+]], [[REM:[a-z0-9]+]], e32, m8, ta, mu
// CHECK-NEXT:    vle32.v [[X:v[0-9]+]], ({{[a-z0-9]+}})
// CHECK-NEXT:    vfmul.vf [[AX:v[0-9]+]], [[X]], {{f[a-z0-9]+}}
// CHECK-NEXT:    vle32.v [[Y:v[0-9]+]], ({{[a-z0-9]+}})
// CHECK-NEXT:    vfadd.vv [[R:v[0-9]+]], [[AX]], [[Y]]
// CHECK-NEXT:    vse32.v [[R]], ({{[a-z0-9]+}})
// CHECK-NEXT:    sub [[REM]], [[REM]], [[VL]]
// CHECK:         bnez [[REM]], .Ltnpu_kernel_axpy_loop
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

// Mixed widths share one vl: SEW/LMUL stays constant (e64,m8 / e32,m4;
// at most three values are live at once, which m8's three groups hold).
// A comparison makes a mask; select merges under v0.
// CHECK-LABEL: tnpu_kernel_widen:
// CHECK:         # tile.map
// CHECK:         vsetvli {{[a-z0-9]+}}, {{[a-z0-9]+}}, e64, m8, ta, mu
// CHECK:         vsetvli zero, zero, e32, m4, ta, mu
// CHECK:         vmslt.vx [[M:v[0-9]+]], {{v[0-9]+}}, {{[a-z0-9]+}}
// CHECK:         vsetvli zero, zero, e64, m8, ta, mu
// CHECK-NEXT:    vsext.vf2 [[W:v[0-9]+]], {{v[0-9]+}}
// CHECK:         vmv1r.v v0, [[M]]
// CHECK-NEXT:    vmerge.vvm {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}}, v0
// CHECK:         vse64.v
tile.kernel @widen(%x: !tile.buffer<i32>, %out: !tile.buffer<i64>) {
  %c0 = arith.constant 0 : i32
  %z = arith.constant 0 : i64
  %t = tile.load %x[0] strides [1] : !tile.buffer<i32> -> tensor<64xi32>
  %r = tile.map %t, %c0, %z : tensor<64xi32>, i32, i64 -> tensor<64xi64> {
  ^bb0(%v: i32, %zero: i32, %zero64: i64):
    %neg = arith.cmpi slt, %v, %zero : i32
    %w = arith.extsi %v : i32 to i64
    %s = arith.select %neg, %zero64, %w : i64
    tile.yield %s : i64
  }
  tile.store %r, %out[0] strides [1] : tensor<64xi64>, !tile.buffer<i64>
  tile.return
}

// -----

// Four squares held before they are summed: five groups live at the fourth
// square, more than m8's three, so the loop runs at m4 (seven groups).
// CHECK-LABEL: tnpu_kernel_squares:
// CHECK:         # tile.map
// CHECK:         vsetvli {{[a-z0-9]+}}, {{[a-z0-9]+}}, e32, m4, ta, mu
// CHECK-COUNT-4: vfmul.vv
tile.kernel @squares(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %u = tile.load %x[64] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %v = tile.load %x[128] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %w = tile.load %x[192] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %r = tile.map %t, %u, %v, %w : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %a2 = arith.mulf %a, %a : f32
    %b2 = arith.mulf %b, %b : f32
    %c2 = arith.mulf %c, %c : f32
    %d2 = arith.mulf %d, %d : f32
    %ab = arith.addf %a2, %b2 : f32
    %cd = arith.addf %c2, %d2 : f32
    %s = arith.addf %ab, %cd : f32
    tile.yield %s : f32
  }
  tile.store %r, %x[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Integer scalar ops outside tiles are integer code: the 32-bit product
// (mulw) is sign-extended, so the index_cast to index takes no instruction.
// CHECK-LABEL: tnpu_kernel_scalars:
// CHECK:         # scalar ops: arith.muli, arith.index_cast
// CHECK-NEXT:    lw [[PID:[a-z0-9]+]], -{{[0-9]+}}(s0)
// CHECK-NEXT:    li [[C:[a-z0-9]+]], 64
// CHECK-NEXT:    mulw [[S:[a-z0-9]+]], [[PID]], [[C]]
// CHECK-NEXT:    sd [[S]], -{{[0-9]+}}(s0)
// CHECK-NEXT:    # tile.load
tile.kernel @scalars(%x: !tile.buffer<f32>, %n: i32) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c = arith.constant 64 : i32
  %s = arith.muli %pid, %c : i32
  %o = arith.index_cast %s : i32 to index
  %t = tile.load %x[%o] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  tile.store %t, %x[%o] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
