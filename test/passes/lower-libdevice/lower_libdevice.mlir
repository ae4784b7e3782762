// RUN: tnpu-opt %s --split-input-file -p lower-libdevice | filecheck %s

// Every libdevice symbol Inductor emits in the corpus, on tensors.

// CHECK-LABEL: tt.func @corpus_symbols
// CHECK-NEXT:    %exp = math.exp %x : tensor<4xf32>
// CHECK-NEXT:    %exp2 = math.exp2 %x : tensor<4xf32>
// CHECK-NEXT:    %expm1 = math.expm1 %x : tensor<4xf32>
// CHECK-NEXT:    %log1p = math.log1p %x : tensor<4xf32>
// CHECK-NEXT:    %log2 = math.log2 %x : tensor<4xf32>
// CHECK-NEXT:    %rsqrt = math.rsqrt %x : tensor<4xf32>
// CHECK-NEXT:    %tanh = math.tanh %x : tensor<4xf32>
// CHECK-NEXT:    %erf = math.erf %x : tensor<4xf32>
// CHECK-NEXT:    %atan = math.atan %x : tensor<4xf32>
// CHECK-NEXT:    %asinh = math.asinh %x : tensor<4xf32>
// CHECK-NEXT:    %floor = math.floor %x : tensor<4xf32>
// CHECK-NEXT:    %ceil = math.ceil %x : tensor<4xf32>
// CHECK-NEXT:    %nearbyint = math.roundeven %x : tensor<4xf32>
// CHECK-NEXT:    %pow = math.powf %x, %y : tensor<4xf32>
// CHECK-NEXT:    %atan2 = math.atan2 %x, %y : tensor<4xf32>
// CHECK-NEXT:    %fmod = arith.remf %x, %y : tensor<4xf32>
// CHECK-NEXT:    tt.return
tt.func @corpus_symbols(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %exp = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<4xf32>) -> tensor<4xf32>
  %exp2 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_exp2f"} : (tensor<4xf32>) -> tensor<4xf32>
  %expm1 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expm1f"} : (tensor<4xf32>) -> tensor<4xf32>
  %log1p = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_log1pf"} : (tensor<4xf32>) -> tensor<4xf32>
  %log2 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_log2f"} : (tensor<4xf32>) -> tensor<4xf32>
  %rsqrt = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_rsqrtf"} : (tensor<4xf32>) -> tensor<4xf32>
  %tanh = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<4xf32>) -> tensor<4xf32>
  %erf = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_erff"} : (tensor<4xf32>) -> tensor<4xf32>
  %atan = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_atanf"} : (tensor<4xf32>) -> tensor<4xf32>
  %asinh = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_asinhf"} : (tensor<4xf32>) -> tensor<4xf32>
  %floor = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_floorf"} : (tensor<4xf32>) -> tensor<4xf32>
  %ceil = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_ceilf"} : (tensor<4xf32>) -> tensor<4xf32>
  %nearbyint = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_nearbyintf"} : (tensor<4xf32>) -> tensor<4xf32>
  %pow = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %atan2 = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_atan2f"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %fmod = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_fmodf"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tt.return
}

// -----

// Predicates return libdevice's i32 0/1: isnan is `cmpf uno`, isinf compares
// |x| with infinity, on scalars as on tensors.

// CHECK-LABEL: tt.func @predicates
// CHECK-NEXT:    %0 = arith.cmpf uno, %x, %x : tensor<4xf32>
// CHECK-NEXT:    %isnan = arith.extui %0 : tensor<4xi1> to tensor<4xi32>
// CHECK-NEXT:    %1 = math.absf %s : f32
// CHECK-NEXT:    %2 = arith.constant 0x7f800000 : f32
// CHECK-NEXT:    %3 = arith.cmpf oeq, %1, %2 : f32
// CHECK-NEXT:    %isinf = arith.extui %3 : i1 to i32
// CHECK-NEXT:    %4 = math.absf %x : tensor<4xf32>
// CHECK-NEXT:    %5 = arith.constant dense<0x7f800000> : tensor<4xf32>
// CHECK-NEXT:    %6 = arith.cmpf one, %4, %5 : tensor<4xf32>
// CHECK-NEXT:    %finite = arith.extui %6 : tensor<4xi1> to tensor<4xi32>
// CHECK-NEXT:    %7 = arith.bitcast %x : tensor<4xf32> to tensor<4xi32>
// CHECK-NEXT:    %8 = arith.constant dense<0> : tensor<4xi32>
// CHECK-NEXT:    %9 = arith.cmpi slt, %7, %8 : tensor<4xi32>
// CHECK-NEXT:    %signbit = arith.extui %9 : tensor<4xi1> to tensor<4xi32>
// CHECK-NEXT:    tt.return %isnan, %isinf, %finite, %signbit : tensor<4xi32>, i32, tensor<4xi32>, tensor<4xi32>
tt.func @predicates(%x: tensor<4xf32>, %s: f32) -> (tensor<4xi32>, i32, tensor<4xi32>, tensor<4xi32>) {
  %isnan = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isnanf"} : (tensor<4xf32>) -> tensor<4xi32>
  %isinf = tt.extern_elementwise %s {libname = "", libpath = "", pure = true, symbol = "__nv_isinff"} : (f32) -> i32
  %finite = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_finitef"} : (tensor<4xf32>) -> tensor<4xi32>
  %signbit = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_signbitf"} : (tensor<4xf32>) -> tensor<4xi32>
  tt.return %isnan, %isinf, %finite, %signbit : tensor<4xi32>, i32, tensor<4xi32>, tensor<4xi32>
}

// -----

// The f64 forms become the same ops on f64.

// CHECK-LABEL: tt.func @double_precision
// CHECK-NEXT:    %exp = math.exp %x : tensor<4xf64>
// CHECK-NEXT:    %tanh = math.tanh %x : tensor<4xf64>
// CHECK-NEXT:    %0 = arith.cmpf uno, %x, %x : tensor<4xf64>
// CHECK-NEXT:    %isnan = arith.extui %0 : tensor<4xi1> to tensor<4xi32>
// CHECK-NEXT:    %pow = math.powf %x, %x : tensor<4xf64>
// CHECK-NEXT:    %powi = math.fpowi %x, %n : tensor<4xf64>, tensor<4xi32>
tt.func @double_precision(%x: tensor<4xf64>, %n: tensor<4xi32>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xi32>, tensor<4xf64>, tensor<4xf64>) {
  %exp = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_exp"} : (tensor<4xf64>) -> tensor<4xf64>
  %tanh = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanh"} : (tensor<4xf64>) -> tensor<4xf64>
  %isnan = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isnand"} : (tensor<4xf64>) -> tensor<4xi32>
  %pow = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_pow"} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %powi = tt.extern_elementwise %x, %n {libname = "", libpath = "", pure = true, symbol = "__nv_powi"} : (tensor<4xf64>, tensor<4xi32>) -> tensor<4xf64>
  tt.return %exp, %tanh, %isnan, %pow, %powi : tensor<4xf64>, tensor<4xf64>, tensor<4xi32>, tensor<4xf64>, tensor<4xf64>
}

// -----

// fmin/fmax ignore a single NaN (minnumf/maxnumf); the rest of the module by
// substitution.

// CHECK-LABEL: tt.func @other_functions
// CHECK-NEXT:    %fmin = arith.minnumf %x, %y : f32
// CHECK-NEXT:    %fmax = arith.maxnumf %x, %y : f32
// CHECK-NEXT:    %copysign = math.copysign %x, %y : f32
// CHECK-NEXT:    %fma = math.fma %x, %y, %x : f32
// CHECK-NEXT:    %round = math.round %x : f32
// CHECK-NEXT:    %rint = math.roundeven %x : f32
// CHECK-NEXT:    %trunc = math.trunc %x : f32
// CHECK-NEXT:    %fabs = math.absf %x : f32
// CHECK-NEXT:    %erfc = math.erfc %x : f32
// CHECK-NEXT:    %cbrt = math.cbrt %x : f32
// CHECK-NEXT:    %acosh = math.acosh %x : f32
// CHECK-NEXT:    %0 = arith.constant 1.000000e+01 : f32
// CHECK-NEXT:    %exp10 = math.powf %0, %x : f32
// CHECK-NEXT:    %1 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %rcp = arith.divf %1, %x : f32
// CHECK-NEXT:    %add = arith.addf %x, %y : f32
tt.func @other_functions(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %fmin = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_fminf"} : (f32, f32) -> f32
  %fmax = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_fmaxf"} : (f32, f32) -> f32
  %copysign = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_copysignf"} : (f32, f32) -> f32
  %fma = tt.extern_elementwise %x, %y, %x {libname = "", libpath = "", pure = true, symbol = "__nv_fmaf"} : (f32, f32, f32) -> f32
  %round = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_roundf"} : (f32) -> f32
  %rint = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_rintf"} : (f32) -> f32
  %trunc = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_truncf"} : (f32) -> f32
  %fabs = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_fabsf"} : (f32) -> f32
  %erfc = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_erfcf"} : (f32) -> f32
  %cbrt = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_cbrtf"} : (f32) -> f32
  %acosh = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_acoshf"} : (f32) -> f32
  %exp10 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_exp10f"} : (f32) -> f32
  %rcp = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_frcp_rn"} : (f32) -> f32
  %add = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_fadd_rn"} : (f32, f32) -> f32
  tt.return %fmin, %fmax, %copysign, %fma, %round, %rint, %trunc, %fabs, %erfc, %cbrt, %acosh, %exp10, %rcp, %add : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// hypot scales by the larger magnitude so that neither square overflows; an
// infinite operand wins over a NaN, two zeros give +0.

// CHECK-LABEL: tt.func @hypot
// CHECK-NEXT:    %0 = math.absf %x : f32
// CHECK-NEXT:    %1 = math.absf %y : f32
// CHECK-NEXT:    %2 = arith.cmpf ogt, %0, %1 : f32
// CHECK-NEXT:    %3 = arith.select %2, %0, %1 : f32
// CHECK-NEXT:    %4 = arith.select %2, %1, %0 : f32
// CHECK-NEXT:    %5 = arith.divf %4, %3 : f32
// CHECK-NEXT:    %6 = arith.mulf %5, %5 : f32
// CHECK-NEXT:    %7 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %8 = arith.addf %6, %7 : f32
// CHECK-NEXT:    %9 = math.sqrt %8 : f32
// CHECK-NEXT:    %10 = arith.mulf %3, %9 : f32
// CHECK-NEXT:    %11 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %12 = arith.cmpf oeq, %3, %11 : f32
// CHECK-NEXT:    %13 = arith.select %12, %4, %10 : f32
// CHECK-NEXT:    %14 = arith.constant 0x7f800000 : f32
// CHECK-NEXT:    %15 = arith.cmpf oeq, %0, %14 : f32
// CHECK-NEXT:    %16 = arith.cmpf oeq, %1, %14 : f32
// CHECK-NEXT:    %17 = arith.ori %15, %16 : i1
// CHECK-NEXT:    %r = arith.select %17, %14, %13 : f32
// CHECK-NEXT:    tt.return %r : f32
tt.func @hypot(%x: f32, %y: f32) -> f32 {
  %r = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_hypotf"} : (f32, f32) -> f32
  tt.return %r : f32
}

// -----

// saturate clamps to [0, 1] with NaN going to 0; fdim is +0 unless x > y.

// CHECK-LABEL: tt.func @clamps
// CHECK-NEXT:    %0 = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %1 = arith.maxnumf %x, %0 : tensor<4xf32>
// CHECK-NEXT:    %2 = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %sat = arith.minnumf %1, %2 : tensor<4xf32>
// CHECK-NEXT:    %3 = arith.cmpf ole, %x, %y : tensor<4xf32>
// CHECK-NEXT:    %4 = arith.subf %x, %y : tensor<4xf32>
// CHECK-NEXT:    %5 = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %fdim = arith.select %3, %5, %4 : tensor<4xi1>, tensor<4xf32>
tt.func @clamps(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %sat = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_saturatef"} : (tensor<4xf32>) -> tensor<4xf32>
  %fdim = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_fdimf"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tt.return %sat, %fdim : tensor<4xf32>, tensor<4xf32>
}

// -----

// Bit reinterpretations, round-to-nearest conversions and bit counts.

// CHECK-LABEL: tt.func @bits_and_conversions
// CHECK-NEXT:    %as_int = arith.bitcast %x : f32 to i32
// CHECK-NEXT:    %as_double = arith.bitcast %l : i64 to f64
// CHECK-NEXT:    %from_uint = arith.uitofp %i : i32 to f32
// CHECK-NEXT:    %from_ll = arith.sitofp %l : i64 to f32
// CHECK-NEXT:    %narrow = arith.truncf %as_double : f64 to f32
// CHECK-NEXT:    %0 = math.ctpop %l : i64
// CHECK-NEXT:    %popcll = arith.trunci %0 : i64 to i32
// CHECK-NEXT:    %clz = math.ctlz %i : i32
// CHECK-NEXT:    %abs = math.absi %i : i32
tt.func @bits_and_conversions(%x: f32, %i: i32, %l: i64) -> (i32, f32, f32, f32, i32, i32, i32) {
  %as_int = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_float_as_int"} : (f32) -> i32
  %as_double = tt.extern_elementwise %l {libname = "", libpath = "", pure = true, symbol = "__nv_longlong_as_double"} : (i64) -> f64
  %from_uint = tt.extern_elementwise %i {libname = "", libpath = "", pure = true, symbol = "__nv_uint2float_rn"} : (i32) -> f32
  %from_ll = tt.extern_elementwise %l {libname = "", libpath = "", pure = true, symbol = "__nv_ll2float_rn"} : (i64) -> f32
  %narrow = tt.extern_elementwise %as_double {libname = "", libpath = "", pure = true, symbol = "__nv_double2float_rn"} : (f64) -> f32
  %popcll = tt.extern_elementwise %l {libname = "", libpath = "", pure = true, symbol = "__nv_popcll"} : (i64) -> i32
  %clz = tt.extern_elementwise %i {libname = "", libpath = "", pure = true, symbol = "__nv_clz"} : (i32) -> i32
  %abs = tt.extern_elementwise %i {libname = "", libpath = "", pure = true, symbol = "__nv_abs"} : (i32) -> i32
  tt.return %as_int, %from_uint, %from_ll, %narrow, %popcll, %clz, %abs : i32, f32, f32, f32, i32, i32, i32
}
