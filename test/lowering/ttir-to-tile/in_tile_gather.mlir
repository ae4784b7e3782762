// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// tt.gather (tl.gather(x, i, axis)) picks elements of a tile along an axis:
// tile.take, whose index outside the axis fails the launch.

// CHECK-LABEL: tile.kernel @gather(%X: !tile.buffer<f32>, %I: !tile.buffer<i32>, %Out: !tile.buffer<f32>)
// CHECK-NEXT: %x = tile.load %X[0] strides [8, 1] : !tile.buffer<f32> -> tensor<4x8xf32>
// CHECK-NEXT: %i = tile.load %I[0] strides [8, 1] : !tile.buffer<i32> -> tensor<4x8xi32>
// CHECK-NEXT: %g = tile.take %x[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4x8xf32>
// CHECK-NEXT: tile.store %g, %Out[0] strides [8, 1] : tensor<4x8xf32>, !tile.buffer<f32>
tt.func public @gather(%X: !tt.ptr<f32>, %I: !tt.ptr<i32>, %Out: !tt.ptr<f32>) {
  %c8 = arith.constant dense<8> : tensor<4x1xi32>
  %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %cols = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %r3 = arith.muli %r2, %c8 : tensor<4x1xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %rb = tt.broadcast %r3 : tensor<4x1xi32> -> tensor<4x8xi32>
  %cb = tt.broadcast %c2 : tensor<1x8xi32> -> tensor<4x8xi32>
  %o = arith.addi %rb, %cb : tensor<4x8xi32>
  %xp = tt.splat %X : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %xq = tt.addptr %xp, %o : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
  %x = tt.load %xq : tensor<4x8x!tt.ptr<f32>>
  %ip = tt.splat %I : !tt.ptr<i32> -> tensor<4x8x!tt.ptr<i32>>
  %iq = tt.addptr %ip, %o : tensor<4x8x!tt.ptr<i32>>, tensor<4x8xi32>
  %i = tt.load %iq : tensor<4x8x!tt.ptr<i32>>
  %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %oq = tt.addptr %op, %o : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
  tt.store %oq, %g : tensor<4x8x!tt.ptr<f32>>
  tt.return
}
