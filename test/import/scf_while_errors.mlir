// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A loop without an initialization list has no loop-carried values; a
// type list that says otherwise is an error at the type.

tt.func @missing_initialization(%x: i32) {
  // CHECK: scf_while_errors.mlir:[[# @LINE + 1]]:15: error: Mismatch between block argument count (0) and operand count (1)
  scf.while : (i32) -> () {
    %t = arith.constant true
    scf.condition(%t)
  } do {
    scf.yield
  }
  tt.return
}
