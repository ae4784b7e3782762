// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p structure-early-return | filecheck %s

// Control flow with no structured form is refused with the op, the reason and
// the Python line.  Triton emits none of these for a kernel (its loops are
// scf.for/scf.while, its ifs nest), so the inputs are return_then_join of
// Inputs/early_return.py with one branch retargeted.

// A branch back to the block that led to it: a loop.

tt.func public @loop(%out: !tt.ptr<f32>, %n: i32) {
  %c4_i32 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %0 = arith.cmpi slt, %pid, %c4_i32 : i32
  cf.cond_br %0, ^bb1, ^bb2
^bb1:
  %1 = arith.cmpi slt, %n, %c4_i32 : i32
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'cf.cond_br' op branches back to an earlier block: a loop of unstructured control flow (Triton emits loops as scf.for and scf.while) (at kernel.py:14:12)
  cf.cond_br %1, ^bb1, ^bb2 loc(#if14)
^bb2:
  tt.return
}
#if14 = loc("kernel.py":14:12)

// -----

// The `else` branches into the middle of the `if`'s code: the first block
// both sides reach is also reached from inside the `if` past its own join
// (undoing that takes copying code).

tt.func public @crossing(%out: !tt.ptr<f32>, %v: f32) {
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %pid = tt.get_program_id x : i32
  %0 = arith.cmpi slt, %pid, %c4_i32 : i32
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'cf.cond_br' op branches to a block that another branch reaches too, with no structured join (unstructured control flow)
  cf.cond_br %0, ^bb1, ^bb2
^bb1:
  %1 = arith.cmpi eq, %pid, %c5_i32 : i32
  cf.cond_br %1, ^bb3, ^bb4
^bb2:
  cf.br ^bb3
^bb3:
  tt.store %out, %v : !tt.ptr<f32>
  cf.br ^bb4
^bb4:
  %2 = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  tt.store %2, %v : !tt.ptr<f32>
  tt.return
}

// -----

tt.func public @switch(%out: !tt.ptr<f32>, %v: f32) {
  %pid = tt.get_program_id x : i32
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'cf.switch' op ends a block of unstructured control flow; only cf.br and cf.cond_br are structured
  cf.switch %pid : i32, [default: ^bb1, 0: ^bb2]
^bb1:
  tt.store %out, %v : !tt.ptr<f32>
  tt.return
^bb2:
  tt.return
}

// -----

// A device function with a return of a value on each side (Triton merges
// them into one block; these are kept apart).

tt.func private @two_returns(%pid: i32) -> f32 {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 2.000000e+00 : f32
  %c0_i32 = arith.constant 0 : i32
  %0 = arith.cmpi eq, %pid, %c0_i32 : i32
  cf.cond_br %0, ^bb1, ^bb2
^bb1:
  tt.return %cst_0 : f32
^bb2:
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.return' op returns values, as another return does: only one return of values is structured
  tt.return %cst : f32
}

// -----

// A tensor of pointers merged past a return: no kernel argument has its type.

tt.func public @pointers_past_return(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %c5_i32 = arith.constant 5 : i32
  %c4_i32 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %0 = arith.cmpi slt, %pid, %c4_i32 : i32
  cf.cond_br %0, ^bb3(%xs : tensor<64x!tt.ptr<f32>>), ^bb1
^bb1:
  %1 = arith.cmpi eq, %pid, %c5_i32 : i32
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'cf.cond_br' op merges a tensor<64x!tt.ptr<f32>> past an early return, and no kernel argument of that type can stand in for it on the returning path (at kernel.py:13:12)
  cf.cond_br %1, ^bb2, ^bb3(%outs : tensor<64x!tt.ptr<f32>>) loc(#if13)
^bb2:
  tt.return
^bb3(%2: tensor<64x!tt.ptr<f32>>):
  %3 = tt.addptr %2, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %4 = tt.load %3 : tensor<64x!tt.ptr<f32>>
  %5 = tt.addptr %outs, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %5, %4 : tensor<64x!tt.ptr<f32>>
  tt.return
}
#if13 = loc("kernel.py":13:12)
