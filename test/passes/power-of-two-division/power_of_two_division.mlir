// RUN: tnpu-opt %s --split-input-file -p power-of-two-division | filecheck %s

// Attention's scale: x / 8.0 on a tensor becomes x * 0.125, exact for every x.

// CHECK-LABEL: tt.func @scale_by_eighth
// CHECK-NEXT:    %[[R:.*]] = arith.constant dense<1.250000e-01> : tensor<128xf32>
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %x, %[[R]] : tensor<128xf32>
// CHECK-NEXT:    tt.return %[[P]] : tensor<128xf32>
tt.func @scale_by_eighth(%x: tensor<128xf32>) -> tensor<128xf32> {
  %c = arith.constant dense<8.000000e+00> : tensor<128xf32>
  %q = arith.divf %x, %c : tensor<128xf32>
  tt.return %q : tensor<128xf32>
}

// -----

// Scalars, negative powers, powers below one, and f64 and f16 widths; the
// fast-math flags stay.

// CHECK-LABEL: tt.func @scalars
// CHECK-NOT:   arith.divf
// CHECK:       %[[A:.*]] = arith.constant -2.500000e-01 : f32
// CHECK-NEXT:  %{{.*}} = arith.mulf %x, %[[A]] : f32
// CHECK:       %[[B:.*]] = arith.constant 1.024000e+03 : f32
// CHECK-NEXT:  %{{.*}} = arith.mulf %x, %[[B]] fastmath<fast> : f32
// CHECK:       %[[C:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-NEXT:  %{{.*}} = arith.mulf %y, %[[C]] : f64
// CHECK:       %[[D:.*]] = arith.constant 6.250000e-02 : f16
// CHECK-NEXT:  %{{.*}} = arith.mulf %z, %[[D]] : f16
// A subnormal divisor with a normal reciprocal, and the reverse:
// CHECK:       %[[E:.*]] = arith.constant 1.70141183e+38 : f32
// CHECK-NEXT:  %{{.*}} = arith.mulf %x, %[[E]] : f32
// CHECK:       %[[F:.*]] = arith.constant 5.87747175e-39 : f32
// CHECK-NEXT:  %{{.*}} = arith.mulf %x, %[[F]] : f32
// CHECK-NOT:   arith.divf
tt.func @scalars(%x: f32, %y: f64, %z: f16) -> (f32, f32, f64, f16, f32, f32) {
  %m4 = arith.constant -4.000000e+00 : f32
  %a = arith.divf %x, %m4 : f32
  %tiny = arith.constant 9.765625e-04 : f32
  %b = arith.divf %x, %tiny fastmath<fast> : f32
  %two = arith.constant 2.000000e+00 : f64
  %c = arith.divf %y, %two : f64
  %sixteen = arith.constant 1.600000e+01 : f16
  %d = arith.divf %z, %sixteen : f16
  %subnormal = arith.constant 0x00400000 : f32
  %e = arith.divf %x, %subnormal : f32
  %huge = arith.constant 0x7F000000 : f32
  %f = arith.divf %x, %huge : f32
  tt.return %a, %b, %c, %d, %e, %f : f32, f32, f64, f16, f32, f32
}

// -----

// Left as they are: a divisor that is not a power of two (1/3 is not exact), a
// zero (no finite reciprocal), an infinity, a power of two whose reciprocal is
// not an f32 (2^-140 is, 2^140 is not), a non-constant divisor, and a constant
// dividend (only the divisor matters).

// CHECK-LABEL: tt.func @untouched
// CHECK-COUNT-5: arith.divf
// CHECK-NOT:   arith.mulf
tt.func @untouched(%x: tensor<128xf32>, %s: f32, %d: f32) -> (tensor<128xf32>, f32, f32, f32, f32) {
  %three = arith.constant dense<3.000000e+00> : tensor<128xf32>
  %a = arith.divf %x, %three : tensor<128xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %b = arith.divf %s, %zero : f32
  %inf = arith.constant 0x7F800000 : f32
  %c = arith.divf %s, %inf : f32
  %small = arith.constant 0x00000020 : f32
  %e = arith.divf %s, %small : f32
  %eight = arith.constant 8.000000e+00 : f32
  %f = arith.divf %eight, %d : f32
  tt.return %a, %b, %c, %e, %f : tensor<128xf32>, f32, f32, f32, f32
}
