// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// tt.join stacks two tiles along a new last dimension of size 2: each is
// broadcast along it, and a map selects the first where the coordinate along
// it is 0.  tl.interleave is that join reshaped (a view).

// CHECK-LABEL: tile.kernel @join(%X: !tile.buffer<f32>, %Y: !tile.buffer<f32>, %Out: !tile.buffer<f32>)
// CHECK:      %[[X:.*]] = tile.load %X[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[Y:.*]] = tile.load %Y[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK-NEXT: %[[XU:.*]] = tile.reshape %[[X]] : tensor<16xf32> -> tensor<16x1xf32>
// CHECK-NEXT: %[[XB:.*]] = tile.broadcast %[[XU]] : tensor<16x1xf32> -> tensor<16x2xf32>
// CHECK-NEXT: %[[YU:.*]] = tile.reshape %[[Y]] : tensor<16xf32> -> tensor<16x1xf32>
// CHECK-NEXT: %[[YB:.*]] = tile.broadcast %[[YU]] : tensor<16x1xf32> -> tensor<16x2xf32>
// CHECK-NEXT: %[[IOTA:.*]] = tile.iota {start = 0 : i32} : tensor<2xi32>
// CHECK-NEXT: %[[ROW:.*]] = tile.reshape %[[IOTA]] : tensor<2xi32> -> tensor<1x2xi32>
// CHECK-NEXT: %[[POS:.*]] = tile.broadcast %[[ROW]] : tensor<1x2xi32> -> tensor<16x2xi32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[FIRST:.*]] = tile.map %[[POS]], %[[ZERO]] : tensor<16x2xi32>, i32 -> tensor<16x2xi1> {
// CHECK:        arith.cmpi eq
// CHECK:      %j = tile.map %[[FIRST]], %[[XB]], %[[YB]] : tensor<16x2xi1>, tensor<16x2xf32>, tensor<16x2xf32> -> tensor<16x2xf32> {
// CHECK:        arith.select
// CHECK:      %iv = tile.reshape %j : tensor<16x2xf32> -> tensor<32xf32>
// CHECK-NEXT: tile.store %iv, %Out[0] strides [1] : tensor<32xf32>, !tile.buffer<f32>
tt.func public @join(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xp = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xq = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %xq : tensor<16x!tt.ptr<f32>>
  %yp = tt.splat %Y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %yq = tt.addptr %yp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %y = tt.load %yq : tensor<16x!tt.ptr<f32>>
  %j = tt.join %x, %y : tensor<16xf32> -> tensor<16x2xf32>
  %iv = tt.reshape %j : tensor<16x2xf32> -> tensor<32xf32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r32 : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  tt.store %oq, %iv : tensor<32x!tt.ptr<f32>>
  tt.return
}

// -----

// tt.cat (tl.cat with can_reorder=True) keeps the operands' order, as Triton's
// interpreter does: stacked along a new first dimension, reshaped.

// CHECK-LABEL: tile.kernel @cat(
// CHECK:      tile.broadcast %{{.*}} : tensor<1x16xf32> -> tensor<2x16xf32>
// CHECK:      tile.broadcast %{{.*}} : tensor<1x16xf32> -> tensor<2x16xf32>
// CHECK:      %[[COLUMN:.*]] = tile.reshape %{{.*}} : tensor<2xi32> -> tensor<2x1xi32>
// CHECK-NEXT: tile.broadcast %[[COLUMN]] : tensor<2x1xi32> -> tensor<2x16xi32>
// CHECK:      %[[STACKED:.*]] = tile.map %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16xi1>, tensor<2x16xf32>, tensor<2x16xf32> -> tensor<2x16xf32> {
// CHECK:      %both = tile.reshape %[[STACKED]] : tensor<2x16xf32> -> tensor<32xf32>
tt.func public @cat(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xp = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xq = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %xq : tensor<16x!tt.ptr<f32>>
  %yp = tt.splat %Y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %yq = tt.addptr %yp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %y = tt.load %yq : tensor<16x!tt.ptr<f32>>
  %both = tt.cat %x, %y : tensor<16xf32> -> tensor<32xf32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r32 : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  tt.store %oq, %both : tensor<32x!tt.ptr<f32>>
  tt.return
}
