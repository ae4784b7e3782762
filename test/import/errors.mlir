// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Bad input gives one line naming the file position and the problem.

tt.func @unknown() {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: Operation tt.not_an_op is not registered
  tt.not_an_op
  tt.return
}

// -----

tt.func @undefined(%p: !tt.ptr<f32>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:16: error: use of undefined value '%undefined'
  %0 = tt.load %undefined : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @mask_shape(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:20: error: operand is used with type tensor<16xi1>, but has been previously used or defined with type tensor<8xi1>
  %0 = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @broadcast(%x: tensor<4x8xf32>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: 'tt.broadcast' op Different dimensions at index 0 between source and result. Broadcast requires the source dimension to be 1.
  %0 = tt.broadcast %x : tensor<4x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>, %c: tensor<16x8xf32>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: 'tt.dot' op the K dimensions of a (8) and b (16) must match
  %0 = tt.dot %a, %b, %c : tensor<16x8xf32> * tensor<16x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @reduce(%x: tensor<16xf32>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op nested block must take 2 arguments, but given block with 1 arguments
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}
