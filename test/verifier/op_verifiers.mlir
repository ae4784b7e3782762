// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// An op's own verifier that raises a bare Exception instead of xDSL's
// VerifyException (scf.while does) still gives a diagnostic at the op.

tt.func @while_arguments(%flag: i1) {
  // CHECK: op_verifiers.mlir:[[# @LINE + 1]]:3: error: 'scf.while' op Block arguments with wrong type, expected i1, got i32
  %r = "scf.while"(%flag) ({
  ^bb0(%i: i32):
    %go = arith.constant true
    scf.condition(%go) %i : i32
  }, {
  ^bb0(%j: i32):
    scf.yield %j : i32
  }) : (i1) -> i32
  tt.return
}
