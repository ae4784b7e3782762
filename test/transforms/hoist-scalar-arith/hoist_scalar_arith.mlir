// RUN: tnpu-opt %s --split-input-file -p hoist-scalar-arith | filecheck %s

// A store's address computed after the reduction whose value it stores
// moves up to just after what it reads (the program id): the map is then
// right before its reduction, and the address known before both.  The
// constant has no operand and goes to the top; the scalar ops keep their
// order.
// CHECK-LABEL: tile.kernel @row_sum
// CHECK-NEXT:    %c = arith.constant 64 : i32
// CHECK-NEXT:    %pid = tile.program_id {axis = 0 : i32} : i32
// CHECK-NEXT:    %row = arith.muli %pid, %c : i32
// CHECK-NEXT:    %at = arith.index_cast %pid : i32 to index
// CHECK-NEXT:    %offset = arith.index_cast %row : i32 to index
// CHECK-NEXT:    %t = tile.load %x[%offset]
// CHECK-NEXT:    %squares = tile.map %t
// CHECK:         %r = tile.reduce %squares
// CHECK:         tile.store %r, %out[%at]
tile.kernel @row_sum(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c = arith.constant 64 : i32
  %row = arith.muli %pid, %c : i32
  %offset = arith.index_cast %row : i32 to index
  %t = tile.load %x[%offset] strides [64, 1] : !tile.buffer<f32> -> tensor<1x64xf32>
  %squares = tile.map %t : tensor<1x64xf32> -> tensor<1x64xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    tile.yield %s : f32
  }
  %at = arith.index_cast %pid : i32 to index
  %r = tile.reduce %squares {axis = 1 : i32} : tensor<1x64xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %r, %out[%at] strides [1] : tensor<1xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Scalar ops that read a tile op's scalar result stay after it, and others
// pass them; the bodies of maps and reductions keep their order; a loop's
// body is a block of its own, whose ops move within it.
// CHECK-LABEL: tile.kernel @after_their_operands
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %t = tile.load
// CHECK:         %total = tile.reduce
// CHECK:         %twice = arith.addf %total, %total : f32
// CHECK:         scf.for
// CHECK-NEXT:      %k = arith.index_cast %i : index to i32
// CHECK-NEXT:      %v = tile.load
// CHECK:         tile.map
// CHECK-NEXT:    ^bb0(%p: f32, %q: f32):
// CHECK-NEXT:      %late = arith.mulf %p, %p : f32
// CHECK-NEXT:      %one = arith.constant 1.000000e+00 : f32
tile.kernel @after_their_operands(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: index) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %total = tile.reduce %t {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  %twice = arith.addf %total, %total : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = tile.load %x[%i] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
    %k = arith.index_cast %i : index to i32
    scf.yield
  }
  %m = tile.map %t, %twice : tensor<64xf32>, f32 -> tensor<64xf32> {
  ^bb0(%p: f32, %q: f32):
    %late = arith.mulf %p, %p : f32
    %one = arith.constant 1.0 : f32
    %r = arith.addf %late, %one : f32
    tile.yield %r : f32
  }
  tile.store %m, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
