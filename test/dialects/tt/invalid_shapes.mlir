// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Shape rules Triton's verifier enforces, each with its diagnostic: one line,
// file:line:col of the op, Triton's wording where it has one.

tt.func @make_range_empty() {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.make_range' op start must be less than end
  %0 = tt.make_range {end = 0 : i32, start = 0 : i32} : tensor<0xi32>
  tt.return
}

// -----

tt.func @make_range_count() {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.make_range' op number of elements in returned tensor, 8, must match size of range [0, 16), which has 16 elements
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @make_range_rank() {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.make_range' op return type must be a 1D tensor
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  tt.return
}

// -----

tt.func @make_range_element() {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.make_range' op returned tensor must have i32 elements
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func @splat_element(%x: f32) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.splat' op requires the same element type for all operands and results
  %0 = tt.splat %x : f32 -> tensor<16xf16>
  tt.return
}

// -----

tt.func @splat_to_scalar(%x: f32) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.splat' op expected a tensor of integers, floats or pointers, got f32
  %0 = tt.splat %x : f32 -> f32
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<4xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.broadcast' op rank of source must be same as rank of result
  %0 = tt.broadcast %x : tensor<4xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @broadcast_dimension(%x: tensor<4x8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.broadcast' op Different dimensions at index 0 between source and result. Broadcast requires the source dimension to be 1.
  %0 = tt.broadcast %x : tensor<4x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @broadcast_element(%x: tensor<1x8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.broadcast' op requires the same element type for all operands and results
  %0 = tt.broadcast %x : tensor<1x8xf32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.expand_dims' op axis 2 out of bounds for rank 1
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_result(%x: tensor<8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.expand_dims' op result type must be tensor<1x8xf32>, got tensor<8x1xf32>
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @reshape_count(%x: tensor<8x8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.reshape' op number of src and dst elements of reshape must be the same
  %0 = tt.reshape %x : tensor<8x8xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @trans_order_size(%x: tensor<4x8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.trans' op order must have the same size as the source tensor
  %0 = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_not_permutation(%x: tensor<4x8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.trans' op order must be a permutation of 0..n-1
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.trans' op result shape must match the permutation of the source shape
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @cat_count(%x: tensor<8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.cat' op result element count must equal the sum of the operand element counts, expected 16 but got 32
  %0 = tt.cat %x, %x : tensor<8xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.join' op result shape must be (8, 2), but got (2, 8)
  %0 = tt.join %x, %x : tensor<8xf32> -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @join_element(%x: tensor<8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.join' op result element type must match the input element type
  %0 = tt.join %x, %x : tensor<8xf32> -> tensor<8x2xf16>
  tt.return
}

// -----

tt.func @split_last_dimension(%x: tensor<8x4xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.split' op last dimension of input tensor must be 2
  %0, %1 = tt.split %x : tensor<8x4xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @split_result(%x: tensor<8x2xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.split' op result type must be tensor<8xf32>, got tensor<4xf32>
  %0, %1 = tt.split %x : tensor<8x2xf32> -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_shape(%x: tensor<8xf32>, %i: tensor<4xi32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.gather' op indices and output shapes must match
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<8xf32>, tensor<4xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_element(%x: tensor<8xf32>, %i: tensor<8xi32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.gather' op input and output element types must match
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @gather_rank(%x: tensor<8x4xf32>, %i: tensor<8xi32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.gather' op input and indices ranks must match
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<8x4xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_axis(%x: tensor<8xf32>, %i: tensor<8xi32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.gather' op gather dimension must be less than the input rank
  %0 = tt.gather %x[%i] {axis = 1 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_other_dimension(%x: tensor<8x4xf32>, %i: tensor<8x2xi32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.gather' op indices dimension 1 must match the corresponding input dimension
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<8x4xf32>, tensor<8x2xi32>) -> tensor<8x2xf32>
  tt.return
}

// -----

tt.func @gather_float_indices(%x: tensor<8xf32>, %i: tensor<8xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.gather' op expected a tensor of integers, got tensor<8xf32>
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @histogram_mask(%x: tensor<64xi32>, %m: tensor<32xi1>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:25: error: %m has type tensor<32xi1>, but is used here as tensor<64xi1>
  %0 = tt.histogram %x, %m : tensor<64xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @histogram_float(%x: tensor<64xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.histogram' op expected a tensor of integers, got tensor<64xf32>
  %0 = tt.histogram %x : tensor<64xf32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @unsplat_count(%x: tensor<2xf32>) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.unsplat' op source tensor must have exactly one element
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @not_power_of_two(%x: f32) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.splat' op number of elements must be a power of two, but tensor<12xf32> has 12
  %0 = tt.splat %x : f32 -> tensor<12xf32>
  tt.return
}

// -----

tt.func @too_many_elements(%x: f32) {
  // CHECK: invalid_shapes.mlir:[[# @LINE + 1]]:3: error: 'tt.splat' op maximum allowed number of elements is 1048576, but tensor<2048x1024xf32> has 2097152
  %0 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}
