// RUN: tnpu-opt %s -p lower-libdevice --print-debuginfo | filecheck %s

// Every op of a substitution carries the call's location, so later
// diagnostics still name the Python line.

// CHECK-LABEL: tt.func @located
// CHECK-NEXT:    %0 = math.absf %x : f32 loc("tmp5"("kernel.py":7:12))
// CHECK-NEXT:    %1 = arith.constant 0x7f800000 : f32 loc("tmp5"("kernel.py":7:12))
// CHECK-NEXT:    %2 = arith.cmpf oeq, %0, %1 : f32 loc("tmp5"("kernel.py":7:12))
// CHECK-NEXT:    %isinf = arith.extui %2 : i1 to i32 loc("tmp5"("kernel.py":7:12))
// CHECK-NEXT:    tt.return %isinf : i32 loc(unknown)
tt.func @located(%x: f32) -> i32 {
  %isinf = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isinff"} : (f32) -> i32 loc(#tmp5)
  tt.return %isinf : i32
}
#tmp5 = loc("tmp5"("kernel.py":7:12))
