// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv -t tnpu-riscv-asm | filecheck %s

// A bounded unit-stride load: columns [lo, hi) move with vle32, the rest
// read the pad value.
// CHECK-LABEL: tnpu_kernel_bounded:
// CHECK:         # tile.load
// CHECK:         vmv.v.x [[PAD:v[0-9]+]], {{[a-z0-9]+}}
// CHECK-NEXT:    vse32.v [[PAD]]
// CHECK:         vle32.v [[DATA:v[0-9]+]], ({{[a-z0-9]+}})
// CHECK-NEXT:    vse32.v [[DATA]]
// CHECK:         vmv.v.x [[PAD2:v[0-9]+]], {{[a-z0-9]+}}
// CHECK-NEXT:    vse32.v [[PAD2]]
tile.kernel @bounded(%x: !tile.buffer<f32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  %t = tile.load %x[0] strides [1] upper [%n] pad %zero : !tile.buffer<f32> -> tensor<128xf32>
  tile.store %t, %x[0] strides [1] upper [%n] : tensor<128xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A 2-D load with a dynamic row stride walks the rows; a mask tile makes
// the load and the store masked (v0.t), the load pre-filled with the pad.
// CHECK-LABEL: tnpu_kernel_masked_rows:
// CHECK:         # tile.load
// CHECK:         # tile.load
// CHECK:       .Ltnpu_kernel_masked_rows_loop{{[0-9]+}}:
// CHECK:         vle8.v [[BYTES:v[0-9]+]]
// CHECK-NEXT:    vmsne.vi v0, [[BYTES]], 0
// CHECK:         vmv.v.x [[D:v[0-9]+]], {{[a-z0-9]+}}
// CHECK-NEXT:    vle32.v [[D]], ({{[a-z0-9]+}}), v0.t
// CHECK:         # tile.store
// CHECK:         vse32.v {{v[0-9]+}}, ({{[a-z0-9]+}}), v0.t
tile.kernel @masked_rows(%x: !tile.buffer<f32>, %m: !tile.buffer<i1>, %stride: index) {
  %one = arith.constant 1.0 : f32
  %mask = tile.load %m[0] strides [16, 1] : !tile.buffer<i1> -> tensor<4x16xi1>
  %t = tile.load %x[0] strides [%stride, 1] mask %mask pad %one : !tile.buffer<f32> -> tensor<4x16xf32>
  tile.store %t, %x[0] strides [%stride, 1] mask %mask : tensor<4x16xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A column load is strided (vlse32 with the stride in bytes).
// CHECK-LABEL: tnpu_kernel_column:
// CHECK:         # tile.load
// CHECK:         li [[STRIDE:[a-z0-9]+]], 96
// CHECK:         vlse32.v {{v[0-9]+}}, ({{[a-z0-9]+}}), [[STRIDE]]
tile.kernel @column(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [24] : !tile.buffer<f32> -> tensor<32xf32>
  tile.store %t, %x[1] strides [24] : tensor<32xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Gather: indices widened to 64-bit byte offsets, then vluxei64; scatter
// is ordered (vsoxei64) so the last write wins.
// CHECK-LABEL: tnpu_kernel_indexed:
// CHECK:         # tile.gather
// CHECK:         vsext.vf2 [[OFF:v[0-9]+]]
// CHECK-NEXT:    vsll.vi [[BYTES:v[0-9]+]], [[OFF]], 2
// CHECK:         vluxei64.v {{v[0-9]+}}, ({{[a-z0-9]+}}), [[BYTES]]
// CHECK:         # tile.scatter
// CHECK:         vsoxei64.v {{v[0-9]+}}, ({{[a-z0-9]+}}), {{v[0-9]+}}
tile.kernel @indexed(%x: !tile.buffer<f32>, %i: !tile.buffer<i32>) {
  %idx = tile.load %i[0] strides [1] : !tile.buffer<i32> -> tensor<64xi32>
  %g = tile.gather %x[%idx] : !tile.buffer<f32>, tensor<64xi32> -> tensor<64xf32>
  tile.scatter %g, %x[%idx] : tensor<64xf32>, !tile.buffer<f32>, tensor<64xi32>
  tile.return
}

// -----

// Float atomic add is an LR/SC loop; integer add is one AMO.
// CHECK-LABEL: tnpu_kernel_atomics:
// CHECK:         lr.w [[OLD:[a-z0-9]+]], ([[ADDRESS:[a-z0-9]+]])
// CHECK:         fadd.s
// CHECK:         sc.w [[FAILED:[a-z0-9]+]], {{[a-z0-9]+}}, ([[ADDRESS]])
// CHECK-NEXT:    bnez [[FAILED]]
// CHECK:         amoadd.d {{[a-z0-9]+}}, {{[a-z0-9]+}}, ({{[a-z0-9]+}})
tile.kernel @atomics(%x: !tile.buffer<f32>, %c: !tile.buffer<i64>, %v: f32) {
  %i = arith.constant 3 : i64
  %one = arith.constant 1 : i64
  %old = tile.atomic_rmw fadd %x[%i], %v : !tile.buffer<f32>, i64, f32
  %count = tile.atomic_rmw add %c[%i], %one : !tile.buffer<i64>, i64, i64
  tile.return
}

// -----

// A 16-bit atomic (no AMO for it) computes its aligned word's new value from a
// plain load, f16 add on the vector unit through f32, and swaps the word in
// with LR/SC only if it still holds what was loaded, else starts over.
// CHECK-LABEL: tnpu_kernel_half_atomic:
// CHECK:         andi [[WORD:[a-z0-9]+]], {{[a-z0-9]+}}, -4
// CHECK:       [[RETRY:\.L[a-z0-9_]+loop[0-9]+]]:
// CHECK-NEXT:    lw [[SEEN:[a-z0-9]+]], 0([[WORD]])
// CHECK:         vsetivli zero, 1, e16, mf2, ta, mu
// CHECK:         vfadd.vv
// CHECK:         vmv.x.s
// CHECK:       [[SWAP:\.L[a-z0-9_]+loop[0-9]+]]:
// CHECK-NEXT:    lr.w [[CURRENT:[a-z0-9]+]], ([[WORD]])
// CHECK:         bne [[CURRENT]], [[SEEN]], [[CHANGED:\.L[a-z0-9_]+else[0-9]+]]
// CHECK-NEXT:    sc.w [[FAILED:[a-z0-9]+]], {{[a-z0-9]+}}, ([[WORD]])
// CHECK:       [[CHANGED]]:
// CHECK:         bnez [[FAILED]], [[SWAP]]
// CHECK-NEXT:    bne [[CURRENT]], [[SEEN]], [[RETRY]]
tile.kernel @half_atomic(%x: !tile.buffer<f16>, %v: f16) {
  %i = arith.constant 3 : i64
  %old = tile.atomic_rmw fadd %x[%i], %v : !tile.buffer<f16>, i64, f16
  tile.return
}
