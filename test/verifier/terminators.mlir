// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every block of a region ends with a terminator, as MLIR's verifier checks
// (a module's block has none).  A kernel whose tt.return was lost reached
// structure-early-return, which assumed one.

tt.func @no_return(%x: i32) {
  // CHECK: terminators.mlir:[[# @LINE + 1]]:3: error: 'arith.addi' op block with no terminator, has 'arith.addi'
  %y = arith.addi %x, %x : i32
}

// -----

// CHECK: terminators.mlir:[[# @LINE + 1]]:1: error: 'tt.func' op empty block: expect at least a terminator
tt.func @empty_block() {
^bb0:
}
