// RUN: tnpu-opt %s --split-input-file -p hoist-map-invariants | filecheck %s

// Inductor's row sum: `r0_index < 500 & xmask` selects the loaded value.
// The program's flag goes into the bound (no index is below the least i32),
// and the select of the bound, which is the same for every element, moves
// before the map.
// CHECK-LABEL: tile.kernel @row_sum_mask
// CHECK:         %[[NEVER:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[BOUND:.*]] = arith.select %flag, %n, %[[NEVER]] : i32
// CHECK-NEXT:    %m = tile.map %i, %t : tensor<1x64xi32>, tensor<1x64xf32> -> tensor<1x64xf32> {
// CHECK-NEXT:    ^bb0(%a: i32, %v: f32):
// CHECK-NEXT:      %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %{{.*}} = arith.cmpi slt, %a, %[[BOUND]] : i32
// CHECK-NEXT:      %r = arith.select %{{.*}}, %v, %zero : f32
tile.kernel @row_sum_mask(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32, %flag: i1) {
  %iota = tile.iota {start = 0 : i32} : tensor<64xi32>
  %i = tile.reshape %iota : tensor<64xi32> -> tensor<1x64xi32>
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<1x64xf32>
  %m = tile.map %i, %t : tensor<1x64xi32>, tensor<1x64xf32> -> tensor<1x64xf32> {
  ^bb0(%a: i32, %v: f32):
    %zero = arith.constant 0.0 : f32
    %below = arith.cmpi slt, %a, %n : i32
    %keep = arith.andi %flag, %below : i1
    %r = arith.select %keep, %v, %zero : f32
    tile.yield %r : f32
  }
  tile.store %m, %out[0] strides [64, 1] : tensor<1x64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// An op of scalar inputs (here the map's own scalar operand, and a
// constant of the body, which goes with it) is computed once before the
// map; ops of an element stay, and so does a compare another op also reads.
// CHECK-LABEL: tile.kernel @invariants
// CHECK:         %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[SCALE:.*]] = arith.mulf %s, %[[C]] : f32
// CHECK-NEXT:    %m = tile.map %t, %s, %k : tensor<64xf32>, f32, i32 -> tensor<64xi1> {
// CHECK-NEXT:    ^bb0(%v: f32, %p: f32, %q: i32):
// CHECK-NEXT:      %w = arith.mulf %v, %[[SCALE]] : f32
// CHECK-NEXT:      %bits = arith.bitcast %w : f32 to i32
// CHECK-NEXT:      %below = arith.cmpi slt, %bits, %q : i32
// CHECK-NEXT:      %both = arith.andi %below, %flag : i1
// CHECK-NEXT:      %either = arith.ori %both, %below : i1
tile.kernel @invariants(%x: !tile.buffer<f32>, %out: !tile.buffer<i1>, %s: f32, %k: i32, %flag: i1) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %m = tile.map %t, %s, %k : tensor<64xf32>, f32, i32 -> tensor<64xi1> {
  ^bb0(%v: f32, %p: f32, %q: i32):
    %two = arith.constant 2.0 : f32
    %scale = arith.mulf %p, %two : f32
    %w = arith.mulf %v, %scale : f32
    %bits = arith.bitcast %w : f32 to i32
    %below = arith.cmpi slt, %bits, %q : i32
    %both = arith.andi %below, %flag : i1
    %either = arith.ori %both, %below : i1
    tile.yield %either : i1
  }
  tile.store %m, %out[0] strides [1] : tensor<64xi1>, !tile.buffer<i1>
  tile.return
}
