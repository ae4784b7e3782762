// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// SSA dominance, as MLIR's verifier checks it (xDSL 0.75's does not): a value
// is used only where its definition dominates the use.  MLIR's words, with
// where the value is defined; the position is the use's line in the input.

tt.func @used_before_defined(%n: i32) {
  // CHECK: dominance.mlir:[[# @LINE + 1]]:3: error: 'arith.addi' op operand #0 does not dominate this use (%b is defined by 'arith.constant' at {{.*}}dominance.mlir:[[# @LINE + 2]]:3)
  %a = arith.addi %b, %n : i32
  %b = arith.constant 1 : i32
  tt.return
}

// -----

// Inside a tt.reduce combine region: the case that reached the tile IR unchanged.
tt.func @in_a_combine_region(%x: tensor<4xf32>) {
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    // CHECK: dominance.mlir:[[# @LINE + 1]]:5: error: 'arith.addf' op operand #0 does not dominate this use (%t is defined by 'arith.addf' at {{.*}}dominance.mlir:[[# @LINE + 2]]:5)
    %s = arith.addf %t, %b : f32
    %t = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4xf32>) -> f32
  tt.return
}

// -----

tt.func @in_a_scan_region(%x: tensor<4xi32>) {
  %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    // CHECK: dominance.mlir:[[# @LINE + 1]]:5: error: 'arith.muli' op operand #1 does not dominate this use (%s is defined by 'arith.addi' at {{.*}}dominance.mlir:[[# @LINE + 2]]:5)
    %m = arith.muli %a, %s : i32
    %s = arith.addi %a, %b : i32
    tt.scan.return %m : i32
  }) : (tensor<4xi32>) -> tensor<4xi32>
  tt.return
}

// -----

// A value defined in a loop's body is not visible after the loop: the parser
// scopes names by region, as MLIR's does.
tt.func @out_of_a_loop_body(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %inner = arith.addi %i, %c1 : i32
  }
  // CHECK: dominance.mlir:[[# @LINE + 1]]:23: error: use of undefined value '%inner'
  %after = arith.muli %inner, %n : i32
  tt.return
}

// -----

// A loop's bounds defined in its own body (xDSL's parser keeps the forward
// reference in the op instead of resolving it).
tt.func @bound_defined_in_the_body() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: dominance.mlir:[[# @LINE + 1]]:3: error: 'scf.for' op operand #1 does not dominate this use (%n is defined inside a region of this op)
  scf.for %i = %c0 to %n step %c1 : i32 {
    %n = arith.constant 8 : i32
  }
  tt.return
}

// -----

// Uses later in the block, in nested regions and of block arguments dominate.
// CHECK-LABEL: tt.func @dominated
tt.func @dominated(%x: tensor<4xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %y = arith.addf %x, %x : tensor<4xf32>
  %z = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (tensor<4xf32>) : i32 {
    %w = arith.mulf %acc, %y : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  tt.return
}
