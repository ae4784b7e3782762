// RUN: tnpu-opt %s --split-input-file | filecheck %s
// RUN: tnpu-opt %s --split-input-file --print-debuginfo | tnpu-opt --split-input-file | filecheck %s
// RUN: tnpu-opt %s --split-input-file --print-op-generic | tnpu-opt --split-input-file | filecheck %s

// A while loop without loop-carried values, as Triton prints
// `while tl.atomic_cas(lock, 0, 1) == 1: pass`: no initialization list.

// CHECK-LABEL: tt.func public @spin
// CHECK:         scf.while : () -> () {
// CHECK-NEXT:      %{{.*}} = tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
// CHECK-NEXT:      %[[BUSY:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      scf.condition(%[[BUSY]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
tt.func public @spin(%lock: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.while : () -> () {
    %old = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32 loc("spin.py":3:10)
    %busy = arith.cmpi eq, %old, %c1 : i32 loc("spin.py":3:10)
    scf.condition(%busy) loc("spin.py":3:10)
  } do {
    scf.yield loc("spin.py":3:4)
  } loc("spin.py":3:4)
  tt.return
}

// -----

// With loop-carried values the initialization list is printed as before.

// CHECK-LABEL: tt.func public @count
// CHECK:         %{{.*}} = scf.while (%[[I:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK:           scf.condition(%{{.*}}) %[[I]] : i32
// CHECK:         } do {
// CHECK-NEXT:    ^{{.*}}(%[[J:.*]]: i32):
tt.func public @count(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%j: i32):
    %next = arith.addi %j, %c1 : i32
    scf.yield %next : i32
  }
  tt.return %r : i32
}
