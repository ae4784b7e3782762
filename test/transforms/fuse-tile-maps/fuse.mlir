// RUN: tnpu-opt %s --split-input-file -p fuse-tile-maps | filecheck %s

// A chain of single-use maps becomes one body; a broadcast scalar operand is
// passed as the scalar.

// CHECK-LABEL: tile.kernel @chain
// CHECK:      %[[R:.*]] = tile.map %x, %y, %c : tensor<64xf32>, tensor<64xf32>, f32 -> tensor<64xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[K:.*]]: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[S]], %[[K]] : f32
// CHECK-NEXT:   tile.yield %[[M]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: tile.store %[[R]]
tile.kernel @chain(%buf: !tile.buffer<f32>, %c: f32) {
  %x = tile.load %buf[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %y = tile.load %buf[64] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %s = tile.map %x, %y : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %cs = tile.broadcast %c : f32 -> tensor<64xf32>
  %m = tile.map %s, %cs : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %k: f32):
    %t = arith.mulf %a, %k : f32
    tile.yield %t : f32
  }
  tile.store %m, %buf[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A producer with another user stays; its consumer reads its result.

// CHECK-LABEL: tile.kernel @shared
// CHECK:      %[[S:.*]] = tile.map %x, %y
// CHECK:      %[[M:.*]] = tile.map %[[S]] : tensor<64xf32> -> tensor<64xf32>
// CHECK:      tile.store %[[S]]
// CHECK:      tile.store %[[M]]
tile.kernel @shared(%buf: !tile.buffer<f32>) {
  %x = tile.load %buf[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %y = tile.load %buf[64] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %s = tile.map %x, %y : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %m = tile.map %s : tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32):
    %t = arith.negf %a : f32
    tile.yield %t : f32
  }
  tile.store %s, %buf[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.store %m, %buf[64] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
