// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p inline-calls | filecheck %s

// Recursion cannot be inlined: the call left after the deepest nesting is named.

tt.func public @kernel(%x: f32) {
  %r = tt.call @forever(%x) : (f32) -> f32
  tt.return
}
tt.func private @forever(%v: f32) -> f32 attributes {noinline = true} {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op calls nested more than 32 deep (recursion?)
  %r = tt.call @forever(%v) : (f32) -> f32
  tt.return %r : f32
}

// -----

// A callee whose body is more than one block (branches left) is refused.

tt.func public @kernel(%x: f32, %c: i1) {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op calls 'branchy', whose body has more than one block (run structure-early-return)
  tt.call @branchy(%x, %c) : (f32, i1) -> ()
  tt.return
}
tt.func private @branchy(%v: f32, %c: i1) attributes {noinline = true} {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  tt.return
^bb2:
  tt.return
}
