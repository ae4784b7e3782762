// RUN: tnpu-opt %s --split-input-file -p expand-math | filecheck %s

// exp: clamp (keeping NaN), k = rint(x / ln 2) by the 1.5 * 2^23 trick,
// r = x - k ln 2 in two parts, e^r = 1 + r + r^2 q(r), then 2^k in two
// exact factors so that results underflow gradually.

// CHECK-LABEL: func.func @exp
// CHECK-NEXT:    %0 = arith.constant -1.040000e+02 : f32
// CHECK-NEXT:    %1 = arith.cmpf olt, %x, %0 : f32
// CHECK-NEXT:    %2 = arith.constant 9.000000e+01 : f32
// CHECK-NEXT:    %3 = arith.cmpf ogt, %x, %2 : f32
// CHECK-NEXT:    %4 = arith.select %3, %2, %x : f32
// CHECK-NEXT:    %5 = arith.select %1, %0, %4 : f32
// CHECK-NEXT:    %6 = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %7 = arith.mulf %5, %6 : f32
// CHECK-NEXT:    %8 = arith.constant 0x4B400000 : f32
// CHECK-NEXT:    %9 = arith.addf %7, %8 : f32
// CHECK-NEXT:    %10 = arith.subf %9, %8 : f32
// CHECK-NEXT:    %11 = arith.constant 0.693145752 : f32
// CHECK-NEXT:    %12 = arith.mulf %10, %11 : f32
// CHECK-NEXT:    %13 = arith.subf %5, %12 : f32
// CHECK-NEXT:    %14 = arith.constant 1.42860677e-06 : f32
// CHECK-NEXT:    %15 = arith.mulf %10, %14 : f32
// CHECK-NEXT:    %16 = arith.subf %13, %15 : f32
// CHECK-NEXT:    %17 = arith.mulf %16, %16 : f32
// CHECK-NEXT:    %18 = arith.constant 0.00139012758 : f32
// CHECK-NEXT:    %19 = arith.mulf %18, %16 : f32
// CHECK-NEXT:    %20 = arith.constant 0.00836315751 : f32
// CHECK-NEXT:    %21 = arith.addf %19, %20 : f32
// CHECK-NEXT:    %22 = arith.mulf %21, %16 : f32
// CHECK-NEXT:    %23 = arith.constant 0.0416668542 : f32
// CHECK-NEXT:    %24 = arith.addf %22, %23 : f32
// CHECK-NEXT:    %25 = arith.mulf %24, %16 : f32
// CHECK-NEXT:    %26 = arith.constant 0.166665778 : f32
// CHECK-NEXT:    %27 = arith.addf %25, %26 : f32
// CHECK-NEXT:    %28 = arith.mulf %27, %16 : f32
// CHECK-NEXT:    %29 = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %30 = arith.addf %28, %29 : f32
// CHECK-NEXT:    %31 = arith.mulf %17, %30 : f32
// CHECK-NEXT:    %32 = arith.addf %16, %31 : f32
// CHECK-NEXT:    %33 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %34 = arith.addf %32, %33 : f32
// CHECK-NEXT:    %35 = arith.fptosi %10 : f32 to i32
// CHECK-NEXT:    %36 = arith.constant 1 : i32
// CHECK-NEXT:    %37 = arith.shrsi %35, %36 : i32
// CHECK-NEXT:    %38 = arith.constant 127 : i32
// CHECK-NEXT:    %39 = arith.addi %37, %38 : i32
// CHECK-NEXT:    %40 = arith.constant 23 : i32
// CHECK-NEXT:    %41 = arith.shli %39, %40 : i32
// CHECK-NEXT:    %42 = arith.bitcast %41 : i32 to f32
// CHECK-NEXT:    %43 = arith.mulf %34, %42 : f32
// CHECK-NEXT:    %44 = arith.subi %35, %37 : i32
// CHECK-NEXT:    %45 = arith.addi %44, %38 : i32
// CHECK-NEXT:    %46 = arith.shli %45, %40 : i32
// CHECK-NEXT:    %47 = arith.bitcast %46 : i32 to f32
// CHECK-NEXT:    %r = arith.mulf %43, %47 : f32
// CHECK-NEXT:    func.return %r : f32
func.func @exp(%x: f32) -> f32 {
  %r = math.exp %x : f32
  func.return %r : f32
}

// -----

// f16 and bf16 compute through f32: widen, expand, round back once.

// CHECK-LABEL: func.func @narrow_floats
// CHECK-NEXT:    %0 = arith.extf %x : tensor<4xf16> to tensor<4xf32>
// CHECK-NOT:     math.
// CHECK:         %r = arith.truncf %{{.*}} : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = arith.extf %y : bf16 to f32
// CHECK-NOT:     math.
// CHECK:         %s = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT:    func.return %r, %s : tensor<4xf16>, bf16
func.func @narrow_floats(%x: tensor<4xf16>, %y: bf16) -> (tensor<4xf16>, bf16) {
  %r = math.tanh %x : tensor<4xf16>
  %s = math.erf %y : bf16
  func.return %r, %s : tensor<4xf16>, bf16
}

// -----

// An expansion that uses another math op (tanh uses expm1, asinh log1p
// and sqrt) has that op expanded too: nothing of `math` is left.

// CHECK-LABEL: func.func @every_expandable_op
// CHECK-NOT:     math.
// CHECK:         func.return
func.func @every_expandable_op(%x: f32, %y: f32, %n: i32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %exp = math.exp %x : f32
  %exp2 = math.exp2 %x : f32
  %expm1 = math.expm1 %x : f32
  %log = math.log %x : f32
  %log2 = math.log2 %x : f32
  %log10 = math.log10 %x : f32
  %log1p = math.log1p %x : f32
  %tanh = math.tanh %x : f32
  %sinh = math.sinh %x : f32
  %cosh = math.cosh %x : f32
  %asinh = math.asinh %x : f32
  %acosh = math.acosh %x : f32
  %atanh = math.atanh %x : f32
  %sin = math.sin %x : f32
  %cos = math.cos %x : f32
  %tan = math.tan %x : f32
  %atan = math.atan %x : f32
  %atan2 = math.atan2 %y, %x : f32
  %asin = math.asin %x : f32
  %acos = math.acos %x : f32
  %erf = math.erf %x : f32
  %erfc = math.erfc %x : f32
  %pow = math.powf %x, %y : f32
  %powi = math.fpowi %x, %n : f32, i32
  %sqrt = math.sqrt %x : f32
  %rsqrt = math.rsqrt %x : f32
  %cbrt = math.cbrt %x : f32
  %absf = math.absf %x : f32
  %copysign = math.copysign %x, %y : f32
  %floor = math.floor %x : f32
  %ceil = math.ceil %x : f32
  %trunc = math.trunc %x : f32
  %round = math.round %x : f32
  %roundeven = math.roundeven %x : f32
  func.return %exp, %exp2, %expm1, %log, %log2, %log10, %log1p, %tanh, %sinh, %cosh, %asinh, %acosh, %atanh, %sin, %cos, %tan, %atan, %atan2, %asin, %acos, %erf, %erfc, %pow, %powi, %sqrt, %rsqrt, %cbrt, %absf, %copysign, %floor, %ceil, %trunc, %round, %roundeven, %x : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}
