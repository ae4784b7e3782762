// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p rvv-insert-frame | filecheck %s

// Two spill slots at the bottom, then ra (the function calls), s0 and the
// s-register the function writes (s3), rounded up to 48 bytes; an argument
// passed on the stack is read past the frame, relative to the sp the
// function was entered with.
// CHECK-LABEL: riscv_func.func @framed
// CHECK-SAME:    rvv.frame_size = 48 : i32
// CHECK-NEXT:    [[SP:%[0-9]+]] = rv64.get_register : !riscv.reg<sp>
// CHECK-NEXT:    {{%[0-9]+}} = riscv.addi [[SP]], -48 : (!riscv.reg<sp>) -> !riscv.reg<sp>
// CHECK:         rv64.sd [[SP]], {{%[0-9]+}}, 16 : (!riscv.reg<sp>, !riscv.reg<ra>) -> ()
// CHECK:         rv64.sd [[SP]], {{%[0-9]+}}, 24 : (!riscv.reg<sp>, !riscv.reg<s0>) -> ()
// CHECK:         rv64.sd [[SP]], {{%[0-9]+}}, 32 : (!riscv.reg<sp>, !riscv.reg<s3>) -> ()
// CHECK:         rvx.stack_argument 1 frame 48 : !riscv.reg<t0>
// CHECK:         {{%[0-9]+}} = rv64.ld [[SP]], 32 : (!riscv.reg<sp>) -> !riscv.reg<s3>
// CHECK-NEXT:    {{%[0-9]+}} = riscv.addi [[SP]], 48 : (!riscv.reg<sp>) -> !riscv.reg<sp>
// CHECK-NEXT:    riscv_func.return
riscv_func.func @framed() attributes {rvv.spill_slots = 2 : i64} {
  %a = rvx.stack_argument 1 frame 0 : !riscv.reg<t0>
  %b = riscv.mv %a : (!riscv.reg<t0>) -> !riscv.reg<s3>
  %message = rv64.li 0 : !riscv.reg<a0>
  rvx.call "tnpu_assert_fail"(%message) : !riscv.reg<a0>
  riscv_func.return
}

// -----

// A function that calls nothing keeps ra where it is: s0 alone, in 16 bytes.
// CHECK-LABEL: riscv_func.func @leaf
// CHECK-SAME:    rvv.frame_size = 16 : i32
// CHECK-NEXT:    [[SP:%[0-9]+]] = rv64.get_register : !riscv.reg<sp>
// CHECK-NEXT:    {{%[0-9]+}} = riscv.addi [[SP]], -16 : (!riscv.reg<sp>) -> !riscv.reg<sp>
// CHECK-NEXT:    [[S0:%[0-9]+]] = rv64.get_register : !riscv.reg<s0>
// CHECK-NEXT:    rv64.sd [[SP]], [[S0]], 0 : (!riscv.reg<sp>, !riscv.reg<s0>) -> ()
// CHECK-NOT:     !riscv.reg<ra>
riscv_func.func @leaf() attributes {rvv.spill_slots = 0 : i64} {
  riscv_func.return
}

// -----

// A function is framed after its registers are allocated.
// CHECK: rvv-insert-frame: @unallocated is not allocated (run rvv-allocate-registers first)
riscv_func.func @unallocated() {
  riscv_func.return
}

// -----

// sp moves by one addi: a frame of more than 2032 bytes (the largest multiple
// of 16 a 12-bit immediate reaches) is refused, naming the function.
// CHECK: error: 'riscv_func.func' op a stack frame of 2416 bytes (more than addi reaches): 300 spill slots
riscv_func.func @huge_frame() attributes {rvv.spill_slots = 300 : i64} {
  riscv_func.return
}
