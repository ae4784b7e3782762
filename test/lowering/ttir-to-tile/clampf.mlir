// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// tl.clamp(x, lo, hi) with propagateNan = none takes the number where an
// operand is NaN (maxnumf, then minnumf), as Triton's interpreter's
// np.fmax/np.fmin do: two one-op maps, which fuse-tile-maps joins.

// CHECK-LABEL: tile.kernel @clamp_numbers(%X: !tile.buffer<f32>, %Out: !tile.buffer<f32>)
// CHECK-DAG:  %[[HI:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:  %[[LO:.*]] = arith.constant -5.000000e-01 : f32
// CHECK:      %[[X:.*]] = tile.load %X[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[ABOVE:.*]] = tile.map %[[X]], %[[LO]] : tensor<16xf32>, f32 -> tensor<16xf32> {
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.maxnumf %[[A]], %[[B]] : f32
// CHECK-NEXT:   tile.yield %[[M]] : f32
// CHECK:      %[[C:.*]] = tile.map %[[ABOVE]], %[[HI]] : tensor<16xf32>, f32 -> tensor<16xf32> {
// CHECK:        arith.minnumf
// CHECK:      tile.store %[[C]], %Out[0] strides [1]
tt.func public @clamp_numbers(%X: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %hi = arith.constant dense<5.000000e-01> : tensor<16xf32>
  %lo = arith.constant dense<-5.000000e-01> : tensor<16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xp = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xq = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %xq : tensor<16x!tt.ptr<f32>>
  %c = tt.clampf %x, %lo, %hi, propagateNan = none : tensor<16xf32>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %oq, %c : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// propagateNan = all: a NaN anywhere gives NaN (maximumf, then minimumf),
// as np.clip does; the bounds may be tensors.

// CHECK-LABEL: tile.kernel @clamp_propagating(%X: !tile.buffer<f32>, %Out: !tile.buffer<f32>)
// CHECK:      %[[X:.*]] = tile.load %X[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[LO:.*]] = tile.load %X[16] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[HI:.*]] = tile.load %X[32] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[ABOVE:.*]] = tile.map %[[X]], %[[LO]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32> {
// CHECK:        arith.maximumf
// CHECK:      tile.map %[[ABOVE]], %[[HI]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32> {
// CHECK:        arith.minimumf
tt.func public @clamp_propagating(%X: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %c16 = arith.constant dense<16> : tensor<16xi32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xp = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xq = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %xq : tensor<16x!tt.ptr<f32>>
  %lq = tt.addptr %xq, %c16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %lo = tt.load %lq : tensor<16x!tt.ptr<f32>>
  %hq = tt.addptr %lq, %c16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %hi = tt.load %hq : tensor<16x!tt.ptr<f32>>
  %c = tt.clampf %x, %lo, %hi, propagateNan = all : tensor<16xf32>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %oq, %c : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A scalar clamp is scalar arithmetic.

// CHECK-LABEL: tile.kernel @clamp_scalar(%Out: !tile.buffer<f16>, %x: f16, %lo: f16, %hi: f16)
// CHECK-NEXT: %[[ABOVE:.*]] = arith.maxnumf %x, %lo : f16
// CHECK-NEXT: %[[C:.*]] = arith.minnumf %[[ABOVE]], %hi : f16
// CHECK:      tile.scatter %[[C]], %Out[{{.*}}] : f16, !tile.buffer<f16>, i64
tt.func public @clamp_scalar(%Out: !tt.ptr<f16>, %x: f16, %lo: f16, %hi: f16) {
  %c = tt.clampf %x, %lo, %hi, propagateNan = none : f16
  tt.store %Out, %c : !tt.ptr<f16>
  tt.return
}
