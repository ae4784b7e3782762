// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p expand-math | filecheck %s
// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p 'expand-math{native=sqrt,rsqrtt}' | filecheck %s --check-prefix=NATIVE

// f64 sqrt has no expansion (every target with f64 has a square root): it is
// refused, not computed in f32 quietly.

func.func @double(%x: f64) -> f64 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'math.sqrt' op has no arith expansion for f64; the target must execute 'math.sqrt' natively (at kernel.py:9:20 (tmp4))
  %r = math.sqrt %x : f64 loc(#tmp4)
  func.return %r : f64
}
#tmp4 = loc("tmp4"("kernel.py":9:20))

// -----

// A fused multiply-add cannot be built exactly from separate roundings.

func.func @fma(%x: f32) -> f32 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'math.fma' op has no arith expansion; the target must execute it natively (expand-math{native=fma})
  %r = math.fma %x, %x, %x : f32
  func.return %r : f32
}

// -----

func.func @integer(%x: i32) -> i32 {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'math.ctpop' op has no arith expansion; the target must execute it natively (expand-math{native=ctpop})
  %r = math.ctpop %x : i32
  func.return %r : i32
}

// NATIVE: expand-math: unknown math op(s) rsqrtt in native=sqrt,rsqrtt; known: absf, absi, acos, acosh, asin, asinh, atan, atan2, atanh, cbrt, ceil, copysign, cos, cosh, ctlz, ctpop, cttz, erf, erfc, exp, exp2, expm1, floor, fma, fpowi, ipowi, log, log10, log1p, log2, powf, round, roundeven, rsqrt, sin, sinh, sqrt, tan, tanh, trunc
