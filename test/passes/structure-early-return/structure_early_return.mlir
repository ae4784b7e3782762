// RUN: tnpu-opt %s --split-input-file -p structure-early-return | filecheck %s

// The TTIR Triton emits for `return` inside `if`/`else`: each case is
// Triton 3.9's output (locations dropped) for a kernel of
// Inputs/early_return.py, or for the corpus kernel named.

// Inductor's GEMM template guard (mm_dynamic__triton_tem_fused_mm_0, reduced):
// `if M * N == 0: return`.  The code after the return is the negated branch.

// CHECK-LABEL: tt.func public @guard(
// CHECK:      %[[EMPTY:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[GO:.*]] = arith.xori %[[EMPTY]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK-NEXT:   %[[PID:.*]] = tt.get_program_id x : i32
// CHECK-NEXT:   %[[P:.*]] = tt.addptr %out, %[[PID]] : !tt.ptr<f32>, i32
// CHECK-NEXT:   tt.store %[[P]], %{{.*}} : !tt.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func public @guard(%out: !tt.ptr<f32>, %ks0: i32, %ks1: i32) {
  %cst = arith.constant 0.000000e+00 : f32
  %c0_i32 = arith.constant 0 : i32
  %0 = arith.muli %ks0, %ks1 : i32
  %1 = arith.cmpi eq, %0, %c0_i32 : i32
  cf.cond_br %1, ^bb1, ^bb2
^bb1:
  tt.return
^bb2:
  %pid = tt.get_program_id x : i32
  %2 = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  tt.store %2, %cst : !tt.ptr<f32>
  tt.return
}

// -----

// nested_return: a return inside the `if` of an `if`/`else`; both sides end
// at the function's one return block, so there is nothing to merge.

// CHECK-LABEL: tt.func public @nested_return(
// CHECK:      %[[EVEN:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[EVEN]] {
// CHECK-NEXT:   %[[LATE:.*]] = arith.cmpi sgt, %pid, %{{.*}} : i32
// CHECK-NEXT:   %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:   %[[GO:.*]] = arith.xori %[[LATE]], %[[TRUE]] : i1
// CHECK-NEXT:   scf.if %[[GO]] {
// CHECK:          arith.mulf
// CHECK-NEXT:     tt.store
// CHECK-NEXT:   }
// CHECK-NEXT: } else {
// CHECK:        arith.addf
// CHECK-NEXT:   tt.store
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @nested_return(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %cst = arith.constant dense<2.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %c4_i32 = arith.constant 4 : i32
  %c0_i32 = arith.constant 0 : i32
  %c2_i32 = arith.constant 2 : i32
  %pid = tt.get_program_id x : i32
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %0 = arith.remsi %pid, %c2_i32 : i32
  %1 = arith.cmpi eq, %0, %c0_i32 : i32
  cf.cond_br %1, ^bb1, ^bb2
^bb1:
  %2 = arith.cmpi sgt, %pid, %c4_i32 : i32
  cf.cond_br %2, ^bb3, ^bb4
^bb2:
  %v = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v_1 = tt.addptr %v, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v_2 = tt.load %v_1 : tensor<64x!tt.ptr<f32>>
  %3 = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %4 = tt.addptr %3, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %5 = arith.addf %v_2, %cst_1 : tensor<64xf32>
  tt.store %4, %5 : tensor<64x!tt.ptr<f32>>
  cf.br ^bb3
^bb3:
  tt.return
^bb4:
  %v_3 = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v_4 = tt.addptr %v_3, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v_5 = tt.load %v_4 : tensor<64x!tt.ptr<f32>>
  %6 = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %7 = tt.addptr %6, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %8 = arith.mulf %v_5, %cst : tensor<64xf32>
  tt.store %7, %8 : tensor<64x!tt.ptr<f32>>
  cf.br ^bb3
}

// -----

// return_then_join: `w` is set on both sides of an `if`/`else`, and the
// `else` may return first.  The scf.if yields whether it returned and `w`
// (a zero tile on the returning path); the store after the join runs where
// no return happened.

// CHECK-LABEL: tt.func public @return_then_join(
// CHECK:      %[[RETURNED:.*]], %[[W:.*]] = scf.if %{{.*}} -> (i1, tensor<64xf32>) {
// CHECK-NEXT:   %[[W1:.*]] = arith.mulf
// CHECK-NEXT:   %[[NO:.*]] = arith.constant false
// CHECK-NEXT:   scf.yield %[[NO]], %[[W1]] : i1, tensor<64xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[FIFTH:.*]] = arith.cmpi eq, %pid, %{{.*}} : i32
// CHECK-NEXT:   %[[R2:.*]], %[[W2:.*]] = scf.if %[[FIFTH]] -> (i1, tensor<64xf32>) {
// CHECK-NEXT:     %[[YES:.*]] = arith.constant true
// CHECK-NEXT:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-NEXT:     scf.yield %[[YES]], %[[ZERO]] : i1, tensor<64xf32>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %[[W3:.*]] = arith.addf
// CHECK-NEXT:     %[[NO2:.*]] = arith.constant false
// CHECK-NEXT:     scf.yield %[[NO2]], %[[W3]] : i1, tensor<64xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.yield %[[R2]], %[[W2]] : i1, tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[GO:.*]] = arith.xori %[[RETURNED]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK:        tt.store %{{.*}}, %[[W]] : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @return_then_join(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %cst = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %c5_i32 = arith.constant 5 : i32
  %cst_1 = arith.constant dense<2.000000e+00> : tensor<64xf32>
  %c4_i32 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %v = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v_1 = tt.addptr %v, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v_2 = tt.load %v_1 : tensor<64x!tt.ptr<f32>>
  %0 = arith.cmpi slt, %pid, %c4_i32 : i32
  cf.cond_br %0, ^bb1, ^bb2
^bb1:
  %w = arith.mulf %v_2, %cst_1 : tensor<64xf32>
  cf.br ^bb5(%w : tensor<64xf32>)
^bb2:
  %1 = arith.cmpi eq, %pid, %c5_i32 : i32
  cf.cond_br %1, ^bb3, ^bb4
^bb3:
  tt.return
^bb4:
  %w_1 = arith.addf %v_2, %cst : tensor<64xf32>
  cf.br ^bb5(%w_1 : tensor<64xf32>)
^bb5(%2: tensor<64xf32>):
  %3 = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %4 = tt.addptr %3, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %4, %2 : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// three_levels: a scalar set at three depths, a return at the deepest (Triton
// folds the branches to pass `scale` straight to the join), then a second
// return after more code.

// CHECK-LABEL: tt.func public @three_levels(
// CHECK:      %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK:      %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:      %[[RETURNED:.*]], %[[SCALE:.*]] = scf.if %{{.*}} -> (i1, f32) {
// CHECK-NEXT:   arith.cmpi sgt
// CHECK-NEXT:   %{{.*}}, %{{.*}} = scf.if %{{.*}} -> (i1, f32) {
// CHECK-NEXT:     arith.cmpi eq
// CHECK-NEXT:     %{{.*}}, %{{.*}} = scf.if %{{.*}} -> (i1, f32) {
// CHECK-NEXT:       %[[YES:.*]] = arith.constant true
// CHECK-NEXT:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:       scf.yield %[[YES]], %[[ZERO]] : i1, f32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %[[NO:.*]] = arith.constant false
// CHECK-NEXT:       scf.yield %[[NO]], %[[THREE]] : i1, f32
// CHECK-NEXT:     }
// CHECK:        } else {
// CHECK-NEXT:     arith.constant false
// CHECK-NEXT:     scf.yield %{{.*}}, %[[FOUR]] : i1, f32
// CHECK-NEXT:   }
// CHECK:      } else {
// CHECK-NEXT:   arith.constant false
// CHECK-NEXT:   scf.yield %{{.*}}, %[[ONE]] : i1, f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[GO:.*]] = arith.xori %[[RETURNED]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK:        tt.splat %[[SCALE]] : f32 -> tensor<64xf32>
// CHECK:        tt.store
// CHECK-NEXT:   %[[SECOND:.*]] = arith.cmpi eq, %pid, %{{.*}} : i32
// CHECK-NEXT:   %[[TRUE2:.*]] = arith.constant true
// CHECK-NEXT:   %[[GO2:.*]] = arith.xori %[[SECOND]], %[[TRUE2]] : i1
// CHECK-NEXT:   scf.if %[[GO2]] {
// CHECK:          tt.store
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @three_levels(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %cst = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %c2_i32 = arith.constant 2 : i32
  %cst_3 = arith.constant 4.000000e+00 : f32
  %c6_i32 = arith.constant 6 : i32
  %cst_4 = arith.constant 3.000000e+00 : f32
  %c3_i32 = arith.constant 3 : i32
  %c1_i32 = arith.constant 1 : i32
  %cst_5 = arith.constant 1.000000e+00 : f32
  %pid = tt.get_program_id x : i32
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %0 = arith.cmpi sgt, %pid, %c1_i32 : i32
  cf.cond_br %0, ^bb1, ^bb4(%cst_5 : f32)
^bb1:
  %1 = arith.cmpi sgt, %pid, %c3_i32 : i32
  cf.cond_br %1, ^bb2, ^bb4(%cst_3 : f32)
^bb2:
  %2 = arith.cmpi eq, %pid, %c6_i32 : i32
  cf.cond_br %2, ^bb3, ^bb4(%cst_4 : f32)
^bb3:
  tt.return
^bb4(%3: f32):
  %v = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v_1 = tt.addptr %v, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v_2 = tt.load %v_1 : tensor<64x!tt.ptr<f32>>
  %4 = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %5 = tt.addptr %4, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %6 = tt.splat %3 : f32 -> tensor<64xf32>
  %7 = arith.mulf %v_2, %6 : tensor<64xf32>
  tt.store %5, %7 : tensor<64x!tt.ptr<f32>>
  %8 = arith.cmpi eq, %pid, %c2_i32 : i32
  cf.cond_br %8, ^bb3, ^bb5
^bb5:
  %12 = arith.addf %7, %cst : tensor<64xf32>
  tt.store %5, %12 : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// inlined_return: an inlined device function's two returns become branches
// to one block with an argument: no return is early, the scf.if just
// yields the value.

// CHECK-LABEL: tt.func public @inlined_return(
// CHECK:      %[[V:.*]] = scf.if %{{.*}} -> (tensor<64xf32>) {
// CHECK-NEXT:   %[[A:.*]] = arith.mulf
// CHECK-NEXT:   scf.yield %[[A]] : tensor<64xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[B:.*]] = arith.addf
// CHECK-NEXT:   scf.yield %[[B]] : tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.store %{{.*}}, %[[V]] : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func public @inlined_return(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c3_i32 = arith.constant 3 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<2.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %pid = tt.get_program_id x : i32
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %v = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v_1 = tt.addptr %v, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v_2 = tt.load %v_1 : tensor<64x!tt.ptr<f32>>
  %0 = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %1 = tt.addptr %0, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %2 = arith.remsi %pid, %c3_i32 : i32
  %3 = arith.cmpi eq, %2, %c0_i32 : i32
  cf.cond_br %3, ^bb1, ^bb2
^bb1:
  %4 = arith.mulf %v_2, %cst : tensor<64xf32>
  cf.br ^bb3(%4 : tensor<64xf32>)
^bb2:
  %5 = arith.addf %v_2, %cst_1 : tensor<64xf32>
  cf.br ^bb3(%5 : tensor<64xf32>)
^bb3(%6: tensor<64xf32>):
  tt.store %1, %6 : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// return_before_loop: a store then a return on one side, a loop and a
// reduction on the other; the loop moves into the `else` whole.

// CHECK-LABEL: tt.func public @return_before_loop(
// CHECK:      scf.if %{{.*}} {
// CHECK-NEXT:   arith.cmpi sgt
// CHECK-NEXT:   arith.constant true
// CHECK-NEXT:   %[[GO:.*]] = arith.xori
// CHECK-NEXT:   scf.if %[[GO]] {
// CHECK-NEXT:     tt.addptr %out, %pid
// CHECK-NEXT:     tt.store
// CHECK-NEXT:   }
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[ACC:.*]] = scf.for
// CHECK:          scf.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   tt.addptr %out, %pid
// CHECK-NEXT:   "tt.reduce"(%[[ACC]])
// CHECK:        tt.store
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @return_before_loop(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c64_i32 = arith.constant 64 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant -1.000000e+00 : f32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %0 = arith.remsi %pid, %c4_i32 : i32
  %1 = arith.cmpi eq, %0, %c3_i32 : i32
  cf.cond_br %1, ^bb1, ^bb4
^bb1:
  %2 = arith.cmpi sgt, %pid, %c4_i32 : i32
  cf.cond_br %2, ^bb2, ^bb3
^bb2:
  tt.return
^bb3:
  %3 = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  tt.store %3, %cst_1 : !tt.ptr<f32>
  tt.return
^bb4:
  %acc = scf.for %start = %c0_i32 to %n step %c64_i32 iter_args(%acc_1 = %cst) -> (tensor<64xf32>) : i32 {
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %offs_1 = tt.splat %start : i32 -> tensor<64xi32>
    %offs_2 = arith.addi %offs_1, %offs : tensor<64xi32>
    %acc_4 = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %acc_5 = tt.addptr %acc_4, %offs_2 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %acc_6 = tt.load %acc_5 : tensor<64x!tt.ptr<f32>>
    %acc_7 = arith.addf %acc_1, %acc_6 : tensor<64xf32>
    scf.yield %acc_7 : tensor<64xf32>
  }
  %4 = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  %6 = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
  ^bb0(%arg3: f32, %arg4: f32):
    %7 = arith.addf %arg3, %arg4 : f32
    tt.reduce.return %7 : f32
  }) : (tensor<64xf32>) -> f32
  tt.store %4, %6 : !tt.ptr<f32>
  tt.return
}

// -----

// pointer_past_return: Triton merged the two `source = ... + offs` blocks
// into one taking the base pointer, so a scalar pointer reaches the join;
// on the returning path a kernel argument of that type stands in.

// CHECK-LABEL: tt.func public @pointer_past_return(
// CHECK:      %[[RETURNED:.*]], %[[SOURCE:.*]] = scf.if %{{.*}} -> (i1, !tt.ptr<f32>) {
// CHECK:        scf.yield %{{.*}}, %x : i1, !tt.ptr<f32>
// CHECK:          scf.yield %{{.*}}, %x : i1, !tt.ptr<f32>
// CHECK:          scf.yield %{{.*}}, %out : i1, !tt.ptr<f32>
// CHECK:      scf.if %{{.*}} {
// CHECK-NEXT:   tt.splat %[[SOURCE]] : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
tt.func public @pointer_past_return(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %cst = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %c5_i32 = arith.constant 5 : i32
  %c4_i32 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %0 = arith.cmpi slt, %pid, %c4_i32 : i32
  cf.cond_br %0, ^bb1(%x : !tt.ptr<f32>), ^bb2
^bb1(%x_1: !tt.ptr<f32>):
  %source = tt.splat %x_1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %source_1 = tt.addptr %source, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  cf.br ^bb4
^bb2:
  %1 = arith.cmpi eq, %pid, %c5_i32 : i32
  cf.cond_br %1, ^bb3, ^bb1(%out : !tt.ptr<f32>)
^bb3:
  tt.return
^bb4:
  %2 = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %3 = tt.addptr %2, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %4 = tt.load %source_1 : tensor<64x!tt.ptr<f32>>
  %5 = arith.addf %4, %cst : tensor<64xf32>
  tt.store %3, %5 : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// A noinline device function `return 2.0 if pid % 3 == 0 else 1.0`: one
// block reached from both sides with different arguments, and a return of
// a value.

// CHECK-LABEL: tt.func private @scale(
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:      %[[S:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:   scf.yield %[[TWO]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[ONE]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[S]] : f32
tt.func private @scale(%pid: i32) -> f32 attributes {noinline = true} {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 2.000000e+00 : f32
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %0 = arith.remsi %pid, %c3_i32 : i32
  %1 = arith.cmpi eq, %0, %c0_i32 : i32
  cf.cond_br %1, ^bb1(%cst_0 : f32), ^bb1(%cst : f32)
^bb1(%2: f32):
  tt.return %2 : f32
}

// -----

// A single-block body is left as it is.

// CHECK-LABEL: tt.func public @straight(
// CHECK-NEXT:   tt.store
// CHECK-NEXT:   tt.return
tt.func public @straight(%out: !tt.ptr<f32>, %v: f32) {
  tt.store %out, %v : !tt.ptr<f32>
  tt.return
}
