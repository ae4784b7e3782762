// RUN: tnpu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect | filecheck %s

// The verifier rules of the vector- and matrix-unit ops: tile.map, tile.reduce
// and tile.scan (with their combine regions), tile.broadcast, tile.iota,
// tile.reshape, tile.transpose, tile.take, tile.matmul and tile.assert.  Each case breaks
// one, in the generic form where the custom syntax cannot say it.

tile.kernel @map_no_result(%f: f32) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op expected at least one result
  "tile.map"(%f) ({
  ^bb0(%a: f32):
    "tile.yield"() : () -> ()
  }) : (f32) -> ()
  tile.return
}

// -----

tile.kernel @map_result_shapes(%f: f32) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op all results must have one shape
  %r:2 = "tile.map"(%f) ({
  ^bb0(%a: f32):
    tile.yield %a, %a : f32, f32
  }) : (f32) -> (tensor<4xf32>, tensor<8xf32>)
  tile.return
}

// -----

tile.kernel @map_operand_shape(%f: f32) {
  %t = tile.broadcast %f : f32 -> tensor<8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op operand tensor<8xf32> is neither a scalar nor of the result shape [4]
  %r = tile.map %t : tensor<8xf32> -> tensor<4xf32> {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @map_body_arguments(%f: f32) {
  %t = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op body arguments must be f32
  %r = tile.map %t : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%a: f16):
    %e = arith.extf %a : f16 to f32
    tile.yield %e : f32
  }
  tile.return
}

// -----

tile.kernel @map_terminator(%f: f32) {
  %t = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op body must end with tile.yield
  %r = "tile.map"(%t) ({
  ^bb0(%a: f32):
    "test.op"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @map_yield_type(%f: f32) {
  %t = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op body must yield one value of each result's element type
  %r = tile.map %t : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%a: f32):
    %i = arith.fptosi %a : f32 to i32
    tile.yield %i : i32
  }
  tile.return
}

// -----

tile.kernel @map_scalar_result(%f: f32) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.map' op result 'results_' at position 0 does not verify: f32 should be of base attribute tensor
  %r = "tile.map"(%f) ({
  ^bb0(%a: f32):
    tile.yield %a : f32
  }) : (f32) -> f32
  tile.return
}

// -----

tile.kernel @reduce_no_operand() {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op expected at least one operand
  "tile.reduce"() <{axis = 0 : i32}> ({
  ^bb0:
    "tile.yield"() : () -> ()
  }) : () -> ()
  tile.return
}

// -----

tile.kernel @reduce_operand_shapes(%f: f32, %k: i32) {
  %a = tile.broadcast %f : f32 -> tensor<4xf32>
  %b = tile.broadcast %k : i32 -> tensor<8xi32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op all operands must have one shape
  %r:2 = tile.reduce %a, %b {axis = 0 : i32} : tensor<4xf32>, tensor<8xi32> -> f32, i32 {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.yield %x, %i : f32, i32
  }
  tile.return
}

// -----

tile.kernel @reduce_axis(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op axis 2 out of range for rank 2
  %r = tile.reduce %a {axis = 2 : i32} : tensor<4x8xf32> -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  tile.return
}

// -----

tile.kernel @combiner_arguments(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op combine region arguments must be f32, f32
  %r = tile.reduce %a {axis = 0 : i32} : tensor<4xf32> -> f32 {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tile.return
}

// -----

tile.kernel @combiner_terminator(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op combine region must end with tile.yield
  %r = "tile.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    "test.op"() : () -> ()
  }) : (tensor<4xf32>) -> f32
  tile.return
}

// -----

tile.kernel @combiner_yield(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op combine region must yield one value per operand, of the element types
  %r = tile.reduce %a {axis = 0 : i32} : tensor<4xf32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x, %y : f32, f32
  }
  tile.return
}

// -----

tile.kernel @reduce_result_type(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reduce' op result types must be tensor<4xf32>
  %r = tile.reduce %a {axis = 1 : i32} : tensor<4x8xf32> -> tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  tile.return
}

// -----

tile.kernel @scan_result_type(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.scan' op result types must equal the operand types
  %r = tile.scan %a {axis = 0 : i32, reverse = 0 : i1} : tensor<4xf32> -> tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  tile.return
}

// -----

tile.kernel @broadcast_element_type(%f: f32) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.broadcast' op source and result must have one element type
  %b = tile.broadcast %f : f32 -> tensor<4xf16>
  tile.return
}

// -----

tile.kernel @broadcast_rank(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.broadcast' op source and result must have one rank
  %b = tile.broadcast %a : tensor<4xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @broadcast_dimension(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<2x4xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.broadcast' op cannot broadcast dimension of size 2 to 8
  %b = tile.broadcast %a : tensor<2x4xf32> -> tensor<8x4xf32>
  tile.return
}

// -----

tile.kernel @iota_rank() {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.iota' op result must be 1-D
  %i = tile.iota {start = 0 : i32} : tensor<4x4xi32>
  tile.return
}

// -----

tile.kernel @reshape_count(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<16xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reshape' op source and result must have the same number of elements
  %b = tile.reshape %a : tensor<16xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @reshape_element_type(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<16xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.reshape' op source and result must have one element type
  %b = tile.reshape %a : tensor<16xf32> -> tensor<4x4xi32>
  tile.return
}

// -----

tile.kernel @transpose_permutation(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.transpose' op [0, 0] is not a permutation
  %b = tile.transpose %a {permutation = array<i64: 0, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @transpose_shape(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.transpose' op result shape must be the permuted source shape
  %b = tile.transpose %a {permutation = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @transpose_element_type(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.transpose' op source and result must have one element type
  %b = tile.transpose %a {permutation = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xi32>
  tile.return
}

// -----

tile.kernel @take_rank(%f: f32, %i: i32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  %idx = tile.broadcast %i : i32 -> tensor<8xi32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.take' op source and indices must have one rank
  %b = tile.take %a[%idx] {axis = 0 : i32} : tensor<4x8xf32>, tensor<8xi32> -> tensor<8xf32>
  tile.return
}

// -----

tile.kernel @take_axis(%f: f32, %i: i32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  %idx = tile.broadcast %i : i32 -> tensor<4x8xi32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.take' op axis 2 out of range for rank 2
  %b = tile.take %a[%idx] {axis = 2 : i32} : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @take_other_dimension(%f: f32, %i: i32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  %idx = tile.broadcast %i : i32 -> tensor<2x3xi32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.take' op indices dimension 0 has size 2, the source's 4
  %b = tile.take %a[%idx] {axis = 1 : i32} : tensor<4x8xf32>, tensor<2x3xi32> -> tensor<2x3xf32>
  tile.return
}

// -----

tile.kernel @take_result(%f: f32, %i: i32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  %idx = tile.broadcast %i : i32 -> tensor<4x3xi32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.take' op result must have the indices' shape and the source's element type
  %b = tile.take %a[%idx] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf64>
  tile.return
}

// -----

tile.kernel @take_float_indices(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<4x8xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.take' op f32 should be of base attribute integer_type
  %b = tile.take %a[%a] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @matmul_rank(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<16xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.matmul' op operands must be 2-D or 3-D
  %m = tile.matmul %a, %a, %a : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @matmul_inner(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<16x8xf32>
  %b = tile.broadcast %f : f32 -> tensor<16x16xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.matmul' op inner dimensions differ: [16, 8] and [16, 16]
  %m = tile.matmul %a, %b, %b : tensor<16x8xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @matmul_accumulator(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<16x8xf32>
  %b = tile.broadcast %f : f32 -> tensor<8x32xf32>
  %c = tile.broadcast %f : f32 -> tensor<16x16xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.matmul' op accumulator [16, 16] does not match [16, 8] times [8, 32]
  %m = tile.matmul %a, %b, %c : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @matmul_result(%f: f32) {
  %a = tile.broadcast %f : f32 -> tensor<16x16xf32>
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.matmul' op result 'result' at position 0 does not verify: attribute tensor<16x16xf32> expected from variable 'T', but got tensor<16x16xf16>
  %m = "tile.matmul"(%a, %a, %a) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf16>
  tile.return
}

// -----

tile.kernel @assert_condition(%f: f32) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tile.assert' op operand 'condition' at position 0 does not verify: Unexpected attribute f32
  "tile.assert"(%f) <{message = "not a condition"}> : (f32) -> ()
  tile.return
}
