// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p rvv-allocate-registers | filecheck %s

// A loop's carried values share a register with the values that start and end
// each trip (the entry copies coalesce away); the vector result of a same-width
// op may take the register of the operand that dies there, a vsetvli's vl
// anything free.
// CHECK-LABEL: riscv_func.func @strip(%n: !riscv.reg<a0>, %p: !riscv.reg<a1>) attributes {rvv.spill_slots = 0 : i64}
// CHECK:         rvx.loop ({{%[0-9a-z_]+}}, {{%[0-9a-z_]+}}) : (!riscv.reg<[[REM:[a-z0-9]+]]>, !riscv.reg<[[PTR:[a-z0-9]+]]>)
// CHECK-NEXT:    ^bb0(%rem: !riscv.reg<[[REM]]>, %ptr: !riscv.reg<[[PTR]]>):
// CHECK-NEXT:      %vl = rvv.vsetvli %rem sew 32 eighths 64 : (!riscv.reg<[[REM]]>) -> !riscv.reg<[[VL:[a-z0-9]+]]>
// CHECK-NEXT:      %x = rvv.vle32.v %ptr : !riscv.reg<[[PTR]]> -> !rvv.reg<m8, [[X:v[0-9]+]]>
// CHECK-NEXT:      %y = rvv.vfadd.vv %x, %x : (!rvv.reg<m8, [[X]]>, !rvv.reg<m8, [[X]]>) -> !rvv.reg<m8, [[X]]>
// CHECK-NEXT:      rvv.vse32.v %y, %ptr
// CHECK-NEXT:      %left = riscv.sub %rem, %vl : (!riscv.reg<[[REM]]>, !riscv.reg<[[VL]]>) -> !riscv.reg<[[REM]]>
// CHECK:           %next = riscv.add %ptr, %bytes : (!riscv.reg<[[PTR]]>, !riscv.reg<{{[a-z0-9]+}}>) -> !riscv.reg<[[PTR]]>
// CHECK-NEXT:      rvx.repeat_if ne %left, %zero : !riscv.reg<[[REM]]>, !riscv.reg<zero> carrying %left, %next
riscv_func.func @strip(%n: !riscv.reg<a0>, %p: !riscv.reg<a1>) {
  %zero = rv64.get_register : !riscv.reg<zero>
  %n0 = riscv.mv %n : (!riscv.reg<a0>) -> !riscv.reg
  %p0 = riscv.mv %p : (!riscv.reg<a1>) -> !riscv.reg
  %r:2 = rvx.loop (%n0, %p0) : (!riscv.reg, !riscv.reg) {
  ^bb0(%rem: !riscv.reg, %ptr: !riscv.reg):
    %vl = rvv.vsetvli %rem sew 32 eighths 64 : (!riscv.reg) -> !riscv.reg
    %x = rvv.vle32.v %ptr : !riscv.reg -> !rvv.reg<m8>
    %y = rvv.vfadd.vv %x, %x : (!rvv.reg<m8>, !rvv.reg<m8>) -> !rvv.reg<m8>
    rvv.vse32.v %y, %ptr : !rvv.reg<m8>, !riscv.reg
    %left = riscv.sub %rem, %vl : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %bytes = rv64.slli %vl, 2 : (!riscv.reg) -> !riscv.reg
    %next = riscv.add %ptr, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    rvx.repeat_if ne %left, %zero : !riscv.reg, !riscv.reg<zero> carrying %left, %next : !riscv.reg, !riscv.reg
  }
  riscv_func.return
}

// -----

// 30 integers live at once, more than the 26 registers values may take:
// the value used least (inside the loop, uses weigh 8 times more) is spilled,
// stored to a stack slot after its definition and loaded before each use.
// CHECK-LABEL: riscv_func.func @pressure() attributes {rvv.spill_slots = 6 : i64}
// CHECK:         [[SP:%[0-9]+]] = rv64.get_register : !riscv.reg<sp>
// CHECK:         %v0 = rv64.li 0 : !riscv.reg<[[V0:[a-z0-9]+]]>
// CHECK-NEXT:    rv64.sd [[SP]], %v0, 0 : (!riscv.reg<sp>, !riscv.reg<[[V0]]>) -> ()
// CHECK:         rvx.loop
// CHECK:         rv64.ld [[SP]], 32
// CHECK:         [[RELOAD:%[0-9]+]] = rv64.ld [[SP]], 0 : (!riscv.reg<sp>) -> !riscv.reg<[[R:[a-z0-9]+]]>
// CHECK-NEXT:    %t0 = riscv.add %c, [[RELOAD]] : (!riscv.reg<{{[a-z0-9]+}}>, !riscv.reg<[[R]]>)
riscv_func.func @pressure() {
  %zero = rv64.get_register : !riscv.reg<zero>
  %v0 = rv64.li 0 : !riscv.reg
  %v1 = rv64.li 1 : !riscv.reg
  %v2 = rv64.li 2 : !riscv.reg
  %v3 = rv64.li 3 : !riscv.reg
  %v4 = rv64.li 4 : !riscv.reg
  %v5 = rv64.li 5 : !riscv.reg
  %v6 = rv64.li 6 : !riscv.reg
  %v7 = rv64.li 7 : !riscv.reg
  %v8 = rv64.li 8 : !riscv.reg
  %v9 = rv64.li 9 : !riscv.reg
  %v10 = rv64.li 10 : !riscv.reg
  %v11 = rv64.li 11 : !riscv.reg
  %v12 = rv64.li 12 : !riscv.reg
  %v13 = rv64.li 13 : !riscv.reg
  %v14 = rv64.li 14 : !riscv.reg
  %v15 = rv64.li 15 : !riscv.reg
  %v16 = rv64.li 16 : !riscv.reg
  %v17 = rv64.li 17 : !riscv.reg
  %v18 = rv64.li 18 : !riscv.reg
  %v19 = rv64.li 19 : !riscv.reg
  %v20 = rv64.li 20 : !riscv.reg
  %v21 = rv64.li 21 : !riscv.reg
  %v22 = rv64.li 22 : !riscv.reg
  %v23 = rv64.li 23 : !riscv.reg
  %v24 = rv64.li 24 : !riscv.reg
  %v25 = rv64.li 25 : !riscv.reg
  %v26 = rv64.li 26 : !riscv.reg
  %v27 = rv64.li 27 : !riscv.reg
  %v28 = rv64.li 28 : !riscv.reg
  %v29 = rv64.li 29 : !riscv.reg
  %one = rv64.li 1 : !riscv.reg
  %c0 = riscv.mv %one : (!riscv.reg) -> !riscv.reg
  %c = rvx.loop (%c0) : (!riscv.reg) {
  ^bb0(%k: !riscv.reg):
    %s4 = riscv.add %k, %v4 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s5 = riscv.add %s4, %v5 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s6 = riscv.add %s5, %v6 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s7 = riscv.add %s6, %v7 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s8 = riscv.add %s7, %v8 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s9 = riscv.add %s8, %v9 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s10 = riscv.add %s9, %v10 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s11 = riscv.add %s10, %v11 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s12 = riscv.add %s11, %v12 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s13 = riscv.add %s12, %v13 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s14 = riscv.add %s13, %v14 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s15 = riscv.add %s14, %v15 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s16 = riscv.add %s15, %v16 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s17 = riscv.add %s16, %v17 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s18 = riscv.add %s17, %v18 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s19 = riscv.add %s18, %v19 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s20 = riscv.add %s19, %v20 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s21 = riscv.add %s20, %v21 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s22 = riscv.add %s21, %v22 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s23 = riscv.add %s22, %v23 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s24 = riscv.add %s23, %v24 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s25 = riscv.add %s24, %v25 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s26 = riscv.add %s25, %v26 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s27 = riscv.add %s26, %v27 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s28 = riscv.add %s27, %v28 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %s29 = riscv.add %s28, %v29 : (!riscv.reg, !riscv.reg) -> !riscv.reg
    rvx.repeat_if ne %s29, %zero : !riscv.reg, !riscv.reg<zero> carrying %s29 : !riscv.reg
  }
  %t0 = riscv.add %c, %v0 : (!riscv.reg, !riscv.reg) -> !riscv.reg
  %t1 = riscv.add %t0, %v1 : (!riscv.reg, !riscv.reg) -> !riscv.reg
  %t2 = riscv.add %t1, %v2 : (!riscv.reg, !riscv.reg) -> !riscv.reg
  %t3 = riscv.add %t2, %v3 : (!riscv.reg, !riscv.reg) -> !riscv.reg
  riscv_func.return
}

// -----

// A loop carrying 28 pointers, more than the integer registers: the variables
// it reads least are spilled whole, each kept in a stack slot: stored before the
// loop and where advanced, loaded where read, and no longer carried.
// CHECK-LABEL: riscv_func.func @carried(%n: !riscv.reg<a0>, %base: !riscv.reg<a1>) attributes {rvv.spill_slots = 5 : i64}
// CHECK:         [[SP:%[0-9]+]] = rv64.get_register : !riscv.reg<sp>
// CHECK:         %p1 = riscv.addi %base, 64
// CHECK-NEXT:    rv64.sd [[SP]], %p1, 0
// CHECK:         rvx.loop (%n0, %p0, %p6,
// CHECK:           %x0 = rvv.vle32.v %q0
// CHECK-NEXT:      [[P1:%[0-9]+]] = rv64.ld [[SP]], 0
// CHECK-NEXT:      %y1 = rvv.vle32.v [[P1]]
// CHECK:           [[Q1:%[0-9]+]] = rv64.ld [[SP]], 0
// CHECK-NEXT:      %next1 = riscv.add [[Q1]], %bytes
// CHECK-NEXT:      rv64.sd [[SP]], %next1, 0
// CHECK:           rvx.repeat_if ne %left, %zero : !riscv.reg<{{[a-z0-9]+}}>, !riscv.reg<zero> carrying %left, %next0, %next6,
riscv_func.func @carried(%n: !riscv.reg<a0>, %base: !riscv.reg<a1>) {
  %zero = rv64.get_register : !riscv.reg<zero>
  %n0 = riscv.mv %n : (!riscv.reg<a0>) -> !riscv.reg
  %p0 = riscv.addi %base, 0 : (!riscv.reg<a1>) -> !riscv.reg
  %p1 = riscv.addi %base, 64 : (!riscv.reg<a1>) -> !riscv.reg
  %p2 = riscv.addi %base, 128 : (!riscv.reg<a1>) -> !riscv.reg
  %p3 = riscv.addi %base, 192 : (!riscv.reg<a1>) -> !riscv.reg
  %p4 = riscv.addi %base, 256 : (!riscv.reg<a1>) -> !riscv.reg
  %p5 = riscv.addi %base, 320 : (!riscv.reg<a1>) -> !riscv.reg
  %p6 = riscv.addi %base, 384 : (!riscv.reg<a1>) -> !riscv.reg
  %p7 = riscv.addi %base, 448 : (!riscv.reg<a1>) -> !riscv.reg
  %p8 = riscv.addi %base, 512 : (!riscv.reg<a1>) -> !riscv.reg
  %p9 = riscv.addi %base, 576 : (!riscv.reg<a1>) -> !riscv.reg
  %p10 = riscv.addi %base, 640 : (!riscv.reg<a1>) -> !riscv.reg
  %p11 = riscv.addi %base, 704 : (!riscv.reg<a1>) -> !riscv.reg
  %p12 = riscv.addi %base, 768 : (!riscv.reg<a1>) -> !riscv.reg
  %p13 = riscv.addi %base, 832 : (!riscv.reg<a1>) -> !riscv.reg
  %p14 = riscv.addi %base, 896 : (!riscv.reg<a1>) -> !riscv.reg
  %p15 = riscv.addi %base, 960 : (!riscv.reg<a1>) -> !riscv.reg
  %p16 = riscv.addi %base, 1024 : (!riscv.reg<a1>) -> !riscv.reg
  %p17 = riscv.addi %base, 1088 : (!riscv.reg<a1>) -> !riscv.reg
  %p18 = riscv.addi %base, 1152 : (!riscv.reg<a1>) -> !riscv.reg
  %p19 = riscv.addi %base, 1216 : (!riscv.reg<a1>) -> !riscv.reg
  %p20 = riscv.addi %base, 1280 : (!riscv.reg<a1>) -> !riscv.reg
  %p21 = riscv.addi %base, 1344 : (!riscv.reg<a1>) -> !riscv.reg
  %p22 = riscv.addi %base, 1408 : (!riscv.reg<a1>) -> !riscv.reg
  %p23 = riscv.addi %base, 1472 : (!riscv.reg<a1>) -> !riscv.reg
  %p24 = riscv.addi %base, 1536 : (!riscv.reg<a1>) -> !riscv.reg
  %p25 = riscv.addi %base, 1600 : (!riscv.reg<a1>) -> !riscv.reg
  %p26 = riscv.addi %base, 1664 : (!riscv.reg<a1>) -> !riscv.reg
  %p27 = riscv.addi %base, 1728 : (!riscv.reg<a1>) -> !riscv.reg
  %r:29 = rvx.loop (%n0, %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7, %p8, %p9, %p10, %p11, %p12, %p13, %p14, %p15, %p16, %p17, %p18, %p19, %p20, %p21, %p22, %p23, %p24, %p25, %p26, %p27) : (!riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg) {
  ^bb0(%rem: !riscv.reg, %q0: !riscv.reg, %q1: !riscv.reg, %q2: !riscv.reg, %q3: !riscv.reg, %q4: !riscv.reg, %q5: !riscv.reg, %q6: !riscv.reg, %q7: !riscv.reg, %q8: !riscv.reg, %q9: !riscv.reg, %q10: !riscv.reg, %q11: !riscv.reg, %q12: !riscv.reg, %q13: !riscv.reg, %q14: !riscv.reg, %q15: !riscv.reg, %q16: !riscv.reg, %q17: !riscv.reg, %q18: !riscv.reg, %q19: !riscv.reg, %q20: !riscv.reg, %q21: !riscv.reg, %q22: !riscv.reg, %q23: !riscv.reg, %q24: !riscv.reg, %q25: !riscv.reg, %q26: !riscv.reg, %q27: !riscv.reg):
    %vl = rvv.vsetvli %rem sew 32 eighths 8 : (!riscv.reg) -> !riscv.reg
    %x0 = rvv.vle32.v %q0 : !riscv.reg -> !rvv.reg<m1>
    %y1 = rvv.vle32.v %q1 : !riscv.reg -> !rvv.reg<m1>
    %x1 = rvv.vfadd.vv %x0, %y1 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y2 = rvv.vle32.v %q2 : !riscv.reg -> !rvv.reg<m1>
    %x2 = rvv.vfadd.vv %x1, %y2 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y3 = rvv.vle32.v %q3 : !riscv.reg -> !rvv.reg<m1>
    %x3 = rvv.vfadd.vv %x2, %y3 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y4 = rvv.vle32.v %q4 : !riscv.reg -> !rvv.reg<m1>
    %x4 = rvv.vfadd.vv %x3, %y4 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y5 = rvv.vle32.v %q5 : !riscv.reg -> !rvv.reg<m1>
    %x5 = rvv.vfadd.vv %x4, %y5 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y6 = rvv.vle32.v %q6 : !riscv.reg -> !rvv.reg<m1>
    %x6 = rvv.vfadd.vv %x5, %y6 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y7 = rvv.vle32.v %q7 : !riscv.reg -> !rvv.reg<m1>
    %x7 = rvv.vfadd.vv %x6, %y7 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y8 = rvv.vle32.v %q8 : !riscv.reg -> !rvv.reg<m1>
    %x8 = rvv.vfadd.vv %x7, %y8 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y9 = rvv.vle32.v %q9 : !riscv.reg -> !rvv.reg<m1>
    %x9 = rvv.vfadd.vv %x8, %y9 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y10 = rvv.vle32.v %q10 : !riscv.reg -> !rvv.reg<m1>
    %x10 = rvv.vfadd.vv %x9, %y10 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y11 = rvv.vle32.v %q11 : !riscv.reg -> !rvv.reg<m1>
    %x11 = rvv.vfadd.vv %x10, %y11 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y12 = rvv.vle32.v %q12 : !riscv.reg -> !rvv.reg<m1>
    %x12 = rvv.vfadd.vv %x11, %y12 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y13 = rvv.vle32.v %q13 : !riscv.reg -> !rvv.reg<m1>
    %x13 = rvv.vfadd.vv %x12, %y13 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y14 = rvv.vle32.v %q14 : !riscv.reg -> !rvv.reg<m1>
    %x14 = rvv.vfadd.vv %x13, %y14 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y15 = rvv.vle32.v %q15 : !riscv.reg -> !rvv.reg<m1>
    %x15 = rvv.vfadd.vv %x14, %y15 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y16 = rvv.vle32.v %q16 : !riscv.reg -> !rvv.reg<m1>
    %x16 = rvv.vfadd.vv %x15, %y16 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y17 = rvv.vle32.v %q17 : !riscv.reg -> !rvv.reg<m1>
    %x17 = rvv.vfadd.vv %x16, %y17 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y18 = rvv.vle32.v %q18 : !riscv.reg -> !rvv.reg<m1>
    %x18 = rvv.vfadd.vv %x17, %y18 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y19 = rvv.vle32.v %q19 : !riscv.reg -> !rvv.reg<m1>
    %x19 = rvv.vfadd.vv %x18, %y19 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y20 = rvv.vle32.v %q20 : !riscv.reg -> !rvv.reg<m1>
    %x20 = rvv.vfadd.vv %x19, %y20 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y21 = rvv.vle32.v %q21 : !riscv.reg -> !rvv.reg<m1>
    %x21 = rvv.vfadd.vv %x20, %y21 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y22 = rvv.vle32.v %q22 : !riscv.reg -> !rvv.reg<m1>
    %x22 = rvv.vfadd.vv %x21, %y22 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y23 = rvv.vle32.v %q23 : !riscv.reg -> !rvv.reg<m1>
    %x23 = rvv.vfadd.vv %x22, %y23 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y24 = rvv.vle32.v %q24 : !riscv.reg -> !rvv.reg<m1>
    %x24 = rvv.vfadd.vv %x23, %y24 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y25 = rvv.vle32.v %q25 : !riscv.reg -> !rvv.reg<m1>
    %x25 = rvv.vfadd.vv %x24, %y25 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y26 = rvv.vle32.v %q26 : !riscv.reg -> !rvv.reg<m1>
    %x26 = rvv.vfadd.vv %x25, %y26 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    %y27 = rvv.vle32.v %q27 : !riscv.reg -> !rvv.reg<m1>
    %x27 = rvv.vfadd.vv %x26, %y27 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
    rvv.vse32.v %x27, %q0 : !rvv.reg<m1>, !riscv.reg
    %left = riscv.sub %rem, %vl : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %bytes = rv64.slli %vl, 2 : (!riscv.reg) -> !riscv.reg
    %next0 = riscv.add %q0, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next1 = riscv.add %q1, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next2 = riscv.add %q2, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next3 = riscv.add %q3, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next4 = riscv.add %q4, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next5 = riscv.add %q5, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next6 = riscv.add %q6, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next7 = riscv.add %q7, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next8 = riscv.add %q8, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next9 = riscv.add %q9, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next10 = riscv.add %q10, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next11 = riscv.add %q11, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next12 = riscv.add %q12, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next13 = riscv.add %q13, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next14 = riscv.add %q14, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next15 = riscv.add %q15, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next16 = riscv.add %q16, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next17 = riscv.add %q17, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next18 = riscv.add %q18, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next19 = riscv.add %q19, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next20 = riscv.add %q20, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next21 = riscv.add %q21, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next22 = riscv.add %q22, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next23 = riscv.add %q23, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next24 = riscv.add %q24, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next25 = riscv.add %q25, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next26 = riscv.add %q26, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    %next27 = riscv.add %q27, %bytes : (!riscv.reg, !riscv.reg) -> !riscv.reg
    rvx.repeat_if ne %left, %zero : !riscv.reg, !riscv.reg<zero> carrying %left, %next0, %next1, %next2, %next3, %next4, %next5, %next6, %next7, %next8, %next9, %next10, %next11, %next12, %next13, %next14, %next15, %next16, %next17, %next18, %next19, %next20, %next21, %next22, %next23, %next24, %next25, %next26, %next27 : !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg, !riscv.reg
  }
  riscv_func.return
}

// -----

// A vector group the allocator cannot place is refused: 32 groups of one
// register live at once (v0 is kept for masks), and vectors do not spill.
// CHECK: error: 'rvv.vle32.v' op out of vector registers
riscv_func.func @vectors(%p: !riscv.reg<a0>) {
  %x0 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x1 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x2 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x3 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x4 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x5 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x6 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x7 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x8 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x9 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x10 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x11 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x12 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x13 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x14 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x15 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x16 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x17 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x18 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x19 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x20 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x21 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x22 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x23 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x24 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x25 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x26 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x27 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x28 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x29 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x30 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %x31 = rvv.vle32.v %p : !riscv.reg<a0> -> !rvv.reg<m1>
  %s1 = rvv.vfadd.vv %x0, %x1 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s2 = rvv.vfadd.vv %s1, %x2 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s3 = rvv.vfadd.vv %s2, %x3 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s4 = rvv.vfadd.vv %s3, %x4 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s5 = rvv.vfadd.vv %s4, %x5 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s6 = rvv.vfadd.vv %s5, %x6 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s7 = rvv.vfadd.vv %s6, %x7 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s8 = rvv.vfadd.vv %s7, %x8 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s9 = rvv.vfadd.vv %s8, %x9 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s10 = rvv.vfadd.vv %s9, %x10 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s11 = rvv.vfadd.vv %s10, %x11 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s12 = rvv.vfadd.vv %s11, %x12 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s13 = rvv.vfadd.vv %s12, %x13 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s14 = rvv.vfadd.vv %s13, %x14 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s15 = rvv.vfadd.vv %s14, %x15 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s16 = rvv.vfadd.vv %s15, %x16 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s17 = rvv.vfadd.vv %s16, %x17 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s18 = rvv.vfadd.vv %s17, %x18 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s19 = rvv.vfadd.vv %s18, %x19 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s20 = rvv.vfadd.vv %s19, %x20 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s21 = rvv.vfadd.vv %s20, %x21 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s22 = rvv.vfadd.vv %s21, %x22 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s23 = rvv.vfadd.vv %s22, %x23 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s24 = rvv.vfadd.vv %s23, %x24 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s25 = rvv.vfadd.vv %s24, %x25 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s26 = rvv.vfadd.vv %s25, %x26 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s27 = rvv.vfadd.vv %s26, %x27 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s28 = rvv.vfadd.vv %s27, %x28 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s29 = rvv.vfadd.vv %s28, %x29 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s30 = rvv.vfadd.vv %s29, %x30 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  %s31 = rvv.vfadd.vv %s30, %x31 : (!rvv.reg<m1>, !rvv.reg<m1>) -> !rvv.reg<m1>
  rvv.vse32.v %s31, %p : !rvv.reg<m1>, !riscv.reg<a0>
  riscv_func.return
}
