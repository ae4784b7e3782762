// RUN: tnpu-opt %s --split-input-file -p recognise-combiners | filecheck %s

// Inductor's max2 combiner (a softmax's row maximum): greater, or NaN, picks
// the first argument.  It becomes maximumf.
// CHECK-LABEL: tile.kernel @row_max
// CHECK:         tile.reduce %t {axis = 1 : i32} : tensor<2x64xf32> -> tensor<2xf32> {
// CHECK-NEXT:    ^bb0(%a: f32, %b: f32):
// CHECK-NEXT:      %0 = arith.maximumf %a, %b : f32
// CHECK-NEXT:      tile.yield %0 : f32
// CHECK-NEXT:    }
tile.kernel @row_max(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<2x64xf32>
  %m = tile.reduce %t {axis = 1 : i32} : tensor<2x64xf32> -> tensor<2xf32> {
  ^bb0(%a: f32, %b: f32):
    %greater = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %a, %a : f32
    %pick = arith.ori %greater, %nan : i1
    %c = arith.select %pick, %a, %b : f32
    tile.yield %c : f32
  }
  tile.store %m, %out[0] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// min2, the compares and the or's operands in the other order: minimumf.
// CHECK-LABEL: tile.kernel @row_min
// CHECK:         ^bb0(%a: f32, %b: f32):
// CHECK-NEXT:      %0 = arith.minimumf %a, %b : f32
// CHECK-NEXT:      tile.yield %0 : f32
tile.kernel @row_min(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<2x64xf32>
  %m = tile.reduce %t {axis = 1 : i32} : tensor<2x64xf32> -> tensor<2xf32> {
  ^bb0(%a: f32, %b: f32):
    %nan = arith.cmpf une, %a, %a : f32
    %less = arith.cmpf olt, %a, %b : f32
    %pick = arith.ori %nan, %less : i1
    %c = arith.select %pick, %a, %b : f32
    tile.yield %c : f32
  }
  tile.store %m, %out[0] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Not the pattern, left as it is: the NaN check on the second argument
// (NaNs would not propagate from the first), and a select that picks the
// second argument when the mask holds.
// CHECK-LABEL: tile.kernel @lookalikes
// CHECK-NOT:     arith.maximumf
// CHECK:         arith.cmpf une, %a, %b
// CHECK:         arith.select %pick, %a, %b
// CHECK:         arith.select %pick_1, %d, %c
// CHECK-NOT:     arith.maximumf
tile.kernel @lookalikes(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<2x64xf32>
  %m = tile.reduce %t {axis = 1 : i32} : tensor<2x64xf32> -> tensor<2xf32> {
  ^bb0(%a: f32, %b: f32):
    %greater = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %a, %b : f32
    %pick = arith.ori %greater, %nan : i1
    %r = arith.select %pick, %a, %b : f32
    tile.yield %r : f32
  }
  %n = tile.reduce %t {axis = 1 : i32} : tensor<2x64xf32> -> tensor<2xf32> {
  ^bb0(%c: f32, %d: f32):
    %greater_1 = arith.cmpf ogt, %c, %d : f32
    %nan_1 = arith.cmpf une, %c, %c : f32
    %pick_1 = arith.ori %greater_1, %nan_1 : i1
    %r_1 = arith.select %pick_1, %d, %c : f32
    tile.yield %r_1 : f32
  }
  tile.store %m, %out[0] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.store %n, %out[2] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.return
}
