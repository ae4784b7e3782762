// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// tt.split of a [..., 2] tile is two tile.takes along the last dimension, of
// index 0 and of index 1, reshaped to drop it.

// CHECK-LABEL: tile.kernel @split(%X: !tile.buffer<i32>, %Out: !tile.buffer<i32>)
// CHECK:      %pairs = tile.reshape %{{.*}} : tensor<32xi32> -> tensor<4x4x2xi32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ZEROS:.*]] = tile.broadcast %[[ZERO]] : i32 -> tensor<4x4x1xi32>
// CHECK-NEXT: %[[EVEN:.*]] = tile.take %pairs[%[[ZEROS]]] {axis = 2 : i32} : tensor<4x4x2xi32>, tensor<4x4x1xi32> -> tensor<4x4x1xi32>
// CHECK-NEXT: %even = tile.reshape %[[EVEN]] : tensor<4x4x1xi32> -> tensor<4x4xi32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[ONES:.*]] = tile.broadcast %[[ONE]] : i32 -> tensor<4x4x1xi32>
// CHECK-NEXT: %[[ODD:.*]] = tile.take %pairs[%[[ONES]]] {axis = 2 : i32} : tensor<4x4x2xi32>, tensor<4x4x1xi32> -> tensor<4x4x1xi32>
// CHECK-NEXT: %odd = tile.reshape %[[ODD]] : tensor<4x4x1xi32> -> tensor<4x4xi32>
// CHECK-NEXT: %d = tile.map %even, %odd : tensor<4x4xi32>, tensor<4x4xi32> -> tensor<4x4xi32> {
tt.func public @split(%X: !tt.ptr<i32>, %Out: !tt.ptr<i32>) {
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %xp = tt.splat %X : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %xq = tt.addptr %xp, %r : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %x = tt.load %xq : tensor<32x!tt.ptr<i32>>
  %pairs = tt.reshape %x : tensor<32xi32> -> tensor<4x4x2xi32>
  %even, %odd = tt.split %pairs : tensor<4x4x2xi32> -> tensor<4x4xi32>
  %d = arith.subi %even, %odd : tensor<4x4xi32>
  %flat = tt.reshape %d : tensor<4x4xi32> -> tensor<16xi32>
  %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %op = tt.splat %Out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %oq = tt.addptr %op, %r16 : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  tt.store %oq, %flat : tensor<16x!tt.ptr<i32>>
  tt.return
}

// -----

// tl.split of two elements gives scalars: Triton splits a [1, 2] tensor and
// tt.unsplat takes each [1] half's element, a reduce of one element (its
// combiner never runs).

// CHECK-LABEL: tile.kernel @split_to_scalars(
// CHECK:      %[[FIRST:.*]] = tile.take %row[%{{.*}}] {axis = 1 : i32} : tensor<1x2xi64>, tensor<1x1xi32> -> tensor<1x1xi64>
// CHECK-NEXT: %first = tile.reshape %[[FIRST]] : tensor<1x1xi64> -> tensor<1xi64>
// CHECK:      %a = tile.reduce %first {axis = 0 : i32} : tensor<1xi64> -> i64 {
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT:   tile.yield %[[A]] : i64
// CHECK-NEXT: }
// CHECK:      tile.scatter %a, %Z1[%{{.*}}] : i64, !tile.buffer<i64>, i64
tt.func public @split_to_scalars(%X: !tt.ptr<i64>, %Z1: !tt.ptr<i64>, %Z2: !tt.ptr<i64>) {
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %xp = tt.splat %X : !tt.ptr<i64> -> tensor<2x!tt.ptr<i64>>
  %xq = tt.addptr %xp, %r : tensor<2x!tt.ptr<i64>>, tensor<2xi32>
  %x = tt.load %xq : tensor<2x!tt.ptr<i64>>
  %row = tt.expand_dims %x {axis = 0 : i32} : tensor<2xi64> -> tensor<1x2xi64>
  %first, %second = tt.split %row : tensor<1x2xi64> -> tensor<1xi64>
  %a = tt.unsplat %first : tensor<1xi64>
  %b = tt.unsplat %second : tensor<1xi64>
  tt.store %Z1, %a : !tt.ptr<i64>
  tt.store %Z2, %b : !tt.ptr<i64>
  tt.return
}
