// RUN: tnpu-opt %s | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | tnpu-opt | filecheck %s

// Every kind of op prints in a form that parses back: vector groups and
// masks (allocated or not), masked ops with the value they keep, A-extension
// ops, and the structured loop and branch.
// CHECK-LABEL: riscv_func.func @f
// CHECK: %zero = rv64.get_register : !riscv.reg<zero>
// CHECK-NEXT: %n0 = riscv.mv %n : (!riscv.reg<a0>) -> !riscv.reg
// CHECK-NEXT: %p0 = riscv.mv %p : (!riscv.reg<a1>) -> !riscv.reg
// CHECK-NEXT: %r, %r_1 = rvx.loop (%n0, %p0) : (!riscv.reg, !riscv.reg) {
// CHECK-NEXT: ^bb0(%rem: !riscv.reg, %ptr: !riscv.reg):
// CHECK-NEXT:   %vl = rvv.vsetvli %rem sew 32 eighths 64 : (!riscv.reg) -> !riscv.reg
// CHECK-NEXT:   %x = rvv.vle32.v %ptr : !riscv.reg -> !rvv.reg<m8>
// CHECK-NEXT:   %y = rvv.vfmul.vf %x, %s : (!rvv.reg<m8>, !riscv.freg<fa0>) -> !rvv.reg<m8>
// CHECK-NEXT:   %m = rvv.vmfne.vv %y, %y : (!rvv.reg<m8>, !rvv.reg<m8>) -> !rvv.mask<m1, v0>
// CHECK-NEXT:   %z = rvv.vor.vi %y, 1 masked(%m : !rvv.mask<m1, v0>, %y : !rvv.reg<m8>) : !rvv.reg<m8> -> !rvv.reg<m8>
// CHECK-NEXT:   rvv.vse32.v %z, %ptr : !rvv.reg<m8>, !riscv.reg
// CHECK-NEXT:   %rem2 = riscv.sub %rem, %vl : (!riscv.reg, !riscv.reg) -> !riscv.reg
// CHECK-NEXT:   rvx.repeat_if ne %rem2, %zero : !riscv.reg, !riscv.reg<zero> carrying %rem2, %ptr : !riscv.reg, !riscv.reg
// CHECK-NEXT: }
// CHECK-NEXT: %q = rvx.if lt %n, %zero : !riscv.reg<a0>, !riscv.reg<zero> -> (!riscv.reg) {
// CHECK-NEXT:   %o = rvx.amoadd.w %n, %p : (!riscv.reg<a1>, !riscv.reg<a0>) -> !riscv.reg
// CHECK-NEXT:   rvx.yield %o : !riscv.reg
// CHECK-NEXT: } else {
// CHECK-NEXT:   %a = rvx.stack_argument 2 frame 0 : !riscv.reg
// CHECK-NEXT:   rvx.yield %a : !riscv.reg
// CHECK-NEXT: }
// CHECK-NEXT: riscv_func.return
riscv_func.func @f(%n: !riscv.reg<a0>, %p: !riscv.reg<a1>, %s: !riscv.freg<fa0>) {
  %zero = rv64.get_register : !riscv.reg<zero>
  %n0 = riscv.mv %n : (!riscv.reg<a0>) -> !riscv.reg
  %p0 = riscv.mv %p : (!riscv.reg<a1>) -> !riscv.reg
  %r:2 = rvx.loop (%n0, %p0) : (!riscv.reg, !riscv.reg) {
  ^bb0(%rem: !riscv.reg, %ptr: !riscv.reg):
    %vl = rvv.vsetvli %rem sew 32 eighths 64 : (!riscv.reg) -> !riscv.reg
    %x = rvv.vle32.v %ptr : !riscv.reg -> !rvv.reg<m8>
    %y = rvv.vfmul.vf %x, %s : (!rvv.reg<m8>, !riscv.freg<fa0>) -> !rvv.reg<m8>
    %m = rvv.vmfne.vv %y, %y : (!rvv.reg<m8>, !rvv.reg<m8>) -> !rvv.mask<m1, v0>
    %z = rvv.vor.vi %y, 1 masked(%m : !rvv.mask<m1, v0>, %y : !rvv.reg<m8>) : !rvv.reg<m8> -> !rvv.reg<m8>
    rvv.vse32.v %z, %ptr : !rvv.reg<m8>, !riscv.reg
    %rem2 = riscv.sub %rem, %vl : (!riscv.reg, !riscv.reg) -> !riscv.reg
    rvx.repeat_if ne %rem2, %zero : !riscv.reg, !riscv.reg<zero> carrying %rem2, %ptr : !riscv.reg, !riscv.reg
  }
  %q = rvx.if lt %n, %zero : !riscv.reg<a0>, !riscv.reg<zero> -> (!riscv.reg) {
    %o = rvx.amoadd.w %n, %p : (!riscv.reg<a1>, !riscv.reg<a0>) -> !riscv.reg
    rvx.yield %o : !riscv.reg
  } else {
    %a = rvx.stack_argument 2 frame 0 : !riscv.reg
    rvx.yield %a : !riscv.reg
  }
  riscv_func.return
}
