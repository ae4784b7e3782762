// RUN: tnpu-opt %s --split-input-file -p strip-gpu-only | filecheck %s

// The `tl.assume(pid >= 0)` pair of a GEMM template goes, with the comparisons
// (and the constant) that only fed it; the program id stays, as it is used.

// CHECK-LABEL: tt.func @gemm_assume_pair
// CHECK-NEXT:    %pid = tt.get_program_id x : i32
// CHECK-NEXT:    %pid_n = tt.get_program_id y : i32
// CHECK-NEXT:    %sum = arith.addi %pid, %pid_n : i32
// CHECK-NEXT:    tt.return %sum : i32
tt.func @gemm_assume_pair() -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %pid_n = tt.get_program_id y : i32
  %0 = arith.cmpi sge, %pid, %c0_i32 : i32
  llvm.intr.assume %0 : i1
  %1 = arith.cmpi sge, %pid_n, %c0_i32 : i32
  llvm.intr.assume %1 : i1
  %sum = arith.addi %pid, %pid_n : i32
  tt.return %sum : i32
}

// -----

// A comparison that something else also reads is kept.

// CHECK-LABEL: tt.func @condition_used_elsewhere
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %nonneg = arith.cmpi sge, %x, %c0_i32 : i32
// CHECK-NEXT:    %y = arith.select %nonneg, %x, %c0_i32 : i32
// CHECK-NEXT:    tt.return %y : i32
tt.func @condition_used_elsewhere(%x: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %nonneg = arith.cmpi sge, %x, %c0_i32 : i32
  llvm.intr.assume %nonneg : i1
  %y = arith.select %nonneg, %x, %c0_i32 : i32
  tt.return %y : i32
}

// -----

// The whole chain that only computed the condition goes, once per producer.

// CHECK-LABEL: tt.func @condition_chain(%x: i32) {
// CHECK-NEXT:    tt.return
tt.func @condition_chain(%x: i32) {
  %twice = arith.addi %x, %x : i32
  %same = arith.cmpi eq, %twice, %twice : i32
  llvm.intr.assume %same : i1
  tt.return
}

// -----

// An assumed argument stays an argument.

// CHECK-LABEL: tt.func @assume_argument(%flag: i1) {
// CHECK-NEXT:    tt.return
tt.func @assume_argument(%flag: i1) {
  llvm.intr.assume %flag : i1
  tt.return
}

// -----

// `tl.debug_barrier` in both spellings, also inside loops.

// CHECK-LABEL: tt.func @barriers
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    scf.for %i = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return
tt.func @barriers() {
  gpu.barrier
  %c0_i32 = arith.constant 0 : i32
  %c4_i32 = arith.constant 4 : i32
  %c1_i32 = arith.constant 1 : i32
  scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 : i32 {
    ttg.barrier local|global_read
  }
  ttg.barrier all
  tt.return
}

// -----

// GPU launch attributes go; argument hints, other attributes, asserts and
// prints stay.

// CHECK:       builtin.module attributes {tt.keep = 1 : i32} {
// CHECK-NEXT:    tt.func @attributes(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: tensor<4xi1>) attributes {noinline = false} {
// CHECK-NEXT:      tt.assert %m, "index out of bounds" : tensor<4xi1>
// CHECK-NEXT:      tt.print " p: " {hex = false, isSigned = array<i32: 0>} : %p : !tt.ptr<f32>
// CHECK-NEXT:      tt.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90", "triton_gpu.num-warps" = 4 : i32, "ttng.two-ctas" = false, tt.keep = 1 : i32} {
  tt.func @attributes(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: tensor<4xi1>) attributes {noinline = false, nvvm.kernel = 1 : i32, "ttg.global_scratch_memory_size" = 0 : i32} {
    tt.assert %m, "index out of bounds" : tensor<4xi1>
    tt.print " p: " {hex = false, isSigned = array<i32: 0>} : %p : !tt.ptr<f32>
    tt.return
  }
}
