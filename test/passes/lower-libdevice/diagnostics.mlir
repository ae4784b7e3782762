// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p lower-libdevice | filecheck %s

// A function without a substitution is an error naming the symbol and the
// Python line of the call, never a silent pass-through.

tt.func @no_substitution(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op calls libdevice function '__nv_lgammaf', which has no math/arith substitution (at kernel.py:12:16 (tmp3))
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_lgammaf"} : (tensor<4xf32>) -> tensor<4xf32> loc(#tmp3)
  tt.return %0 : tensor<4xf32>
}
#tmp3 = loc("tmp3"("kernel.py":12:16))

// -----

tt.func @not_libdevice(%x: f32) -> f32 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op calls function 'my_erf', which has no math/arith substitution
  %0 = tt.extern_elementwise %x {libname = "mylib", libpath = "/tmp/mylib.bc", pure = true, symbol = "my_erf"} : (f32) -> f32
  tt.return %0 : f32
}

// -----

// Directed rounding has no IEEE op to stand for it.

tt.func @directed_rounding(%x: f32, %y: f32) -> f32 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op calls libdevice function '__nv_fadd_rz', which has no math/arith substitution
  %0 = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_fadd_rz"} : (f32, f32) -> f32
  tt.return %0 : f32
}

// -----

tt.func @impure(%x: f32) -> f32 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op calls '__nv_expf' as impure; only pure libdevice calls are substituted
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = false, symbol = "__nv_expf"} : (f32) -> f32
  tt.return %0 : f32
}

// -----

// The f32 symbol on f64 data is not libdevice's function.

tt.func @wrong_types(%x: tensor<4xf64>) -> tensor<4xf64> {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op calls '__nv_expf' as (f64) -> f64; libdevice's is (f32) -> f32
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<4xf64>) -> tensor<4xf64>
  tt.return %0 : tensor<4xf64>
}

// -----

tt.func @wrong_result(%x: f32) -> i1 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op calls '__nv_isnanf' as (f32) -> i1; libdevice's is (f32) -> i32
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isnanf"} : (f32) -> i1
  tt.return %0 : i1
}
