// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Malformed TTIR gets one line naming the file position and the problem
// (with --verify-diagnostics on stdout; otherwise on stderr, exit code 1).
// The verifier's diagnostics are in test/dialects/tt/invalid_*.mlir.

tt.func @unknown_op() {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: Operation tt.not_an_op is not registered
  tt.not_an_op
  tt.return
}

// -----

tt.func @undefined_value(%p: !tt.ptr<f32>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:16: error: use of undefined value '%undefined'
  %0 = tt.load %undefined : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @type_mismatch(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:20: error: %m has type tensor<8xi1>, but is used here as tensor<16xi1>
  %0 = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @redefined_value(%x: i32) {
  %0 = arith.addi %x, %x : i32
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: SSA value %0 is already defined
  %0 = arith.addi %x, %x : i32
  tt.return
}

// -----

tt.func @result_count(%x: tensor<8x2xf32>) {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: Operation has 2 results, but was given 1 to bind.
  %0 = tt.split %x : tensor<8x2xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @unclosed_location() {
  // The missing ')' is noticed at the next token.
  // CHECK: errors.mlir:[[# @LINE + 2]]:1: error: ')' expected
  tt.return loc("kernel.py":3:4
}

// -----

tt.func @bad_location() {
  // CHECK: errors.mlir:[[# @LINE + 1]]:17: error: Unexpected location syntax.
  tt.return loc(3:4)
}

// -----

tt.func @undefined_alias() {
  // CHECK: errors.mlir:[[# @LINE + 1]]:22: error: undefined symbol alias '#loc9'
  tt.return loc(#loc9)
}

// -----

// CHECK: errors.mlir:[[# @LINE + 1]]:1: error: expected an operation, found '}'
}
