// RUN: tnpu-opt %s --split-input-file -p inline-calls | filecheck %s

// A noinline function's body replaces each call (its arguments the call's
// operands, its returned values the call's results), calls in it too; the
// private functions are erased.

// CHECK-LABEL: tt.func public @kernel(%x: f32, %out: !tt.ptr<f32>)
// CHECK-NEXT:    %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[H:.*]] = arith.mulf %x, %[[HALF]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[P:.*]] = arith.addf %[[H]], %[[ONE]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[P]], %x : f32
// CHECK-NEXT:    tt.store %out, %[[S]] : !tt.ptr<f32>
// CHECK-NEXT:    tt.return
// CHECK-NEXT:  }
// CHECK-NOT:   tt.func
tt.func public @kernel(%x: f32, %out: !tt.ptr<f32>) {
  %r:2 = tt.call @pair(%x) : (f32) -> (f32, f32)
  %s = arith.addf %r#0, %r#1 : f32
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}
tt.func private @pair(%v: f32) -> (f32, f32) attributes {noinline = true} {
  %half = arith.constant 5.000000e-01 : f32
  %h = arith.mulf %v, %half : f32
  %p = tt.call @plus_one(%h) : (f32) -> f32
  tt.return %p, %v : f32, f32
}
tt.func private @plus_one(%v: f32) -> f32 attributes {noinline = true} {
  %one = arith.constant 1.000000e+00 : f32
  %r = arith.addf %v, %one : f32
  tt.return %r : f32
}
