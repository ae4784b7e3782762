// RUN: tnpu-opt %s --split-input-file -p expand-math | filecheck %s

// Exact ops become bit manipulation: |x| clears the sign bit.

// CHECK-LABEL: func.func @absf
// CHECK-NEXT:    %0 = arith.bitcast %x : f32 to i32
// CHECK-NEXT:    %1 = arith.constant 2147483647 : i32
// CHECK-NEXT:    %2 = arith.andi %0, %1 : i32
// CHECK-NEXT:    %r = arith.bitcast %2 : i32 to f32
// CHECK-NEXT:    func.return %r : f32
func.func @absf(%x: f32) -> f32 {
  %r = math.absf %x : f32
  func.return %r : f32
}

// -----

// floor is trunc (through an integer conversion where |x| < 2^23, keeping
// x's sign so that floor(-0.0) = -0.0), minus one where trunc went up.

// CHECK-LABEL: func.func @floor
// CHECK-NEXT:    %0 = arith.bitcast %x : tensor<4xf32> to tensor<4xi32>
// CHECK-NEXT:    %1 = arith.constant dense<2147483647> : tensor<4xi32>
// CHECK-NEXT:    %2 = arith.andi %0, %1 : tensor<4xi32>
// CHECK-NEXT:    %3 = arith.bitcast %2 : tensor<4xi32> to tensor<4xf32>
// CHECK-NEXT:    %4 = arith.fptosi %3 : tensor<4xf32> to tensor<4xi32>
// CHECK-NEXT:    %5 = arith.sitofp %4 : tensor<4xi32> to tensor<4xf32>
// CHECK-NEXT:    %6 = arith.constant dense<-2147483648> : tensor<4xi32>
// CHECK-NEXT:    %7 = arith.andi %0, %6 : tensor<4xi32>
// CHECK-NEXT:    %8 = arith.bitcast %5 : tensor<4xf32> to tensor<4xi32>
// CHECK-NEXT:    %9 = arith.ori %8, %7 : tensor<4xi32>
// CHECK-NEXT:    %10 = arith.bitcast %9 : tensor<4xi32> to tensor<4xf32>
// CHECK-NEXT:    %11 = arith.constant dense<0x4B000000> : tensor<4xf32>
// CHECK-NEXT:    %12 = arith.cmpf olt, %3, %11 : tensor<4xf32>
// CHECK-NEXT:    %13 = arith.select %12, %10, %x : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:    %14 = arith.cmpf ogt, %13, %x : tensor<4xf32>
// CHECK-NEXT:    %15 = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %16 = arith.subf %13, %15 : tensor<4xf32>
// CHECK-NEXT:    %r = arith.select %14, %16, %13 : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:    func.return %r : tensor<4xf32>
func.func @floor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = math.floor %x : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// roundeven adds and subtracts 2^23 to |x|: the addition rounds to the
// nearest integer, ties to even; the sign is put back.

// CHECK-LABEL: func.func @roundeven
// CHECK-NEXT:    %0 = arith.bitcast %x : f32 to i32
// CHECK-NEXT:    %1 = arith.constant 2147483647 : i32
// CHECK-NEXT:    %2 = arith.andi %0, %1 : i32
// CHECK-NEXT:    %3 = arith.bitcast %2 : i32 to f32
// CHECK-NEXT:    %4 = arith.constant 0x4B000000 : f32
// CHECK-NEXT:    %5 = arith.addf %3, %4 : f32
// CHECK-NEXT:    %6 = arith.subf %5, %4 : f32
// CHECK-NEXT:    %7 = arith.constant -2147483648 : i32
// CHECK-NEXT:    %8 = arith.andi %0, %7 : i32
// CHECK-NEXT:    %9 = arith.bitcast %6 : f32 to i32
// CHECK-NEXT:    %10 = arith.ori %9, %8 : i32
// CHECK-NEXT:    %11 = arith.bitcast %10 : i32 to f32
// CHECK-NEXT:    %12 = arith.cmpf olt, %3, %4 : f32
// CHECK-NEXT:    %r = arith.select %12, %11, %x : f32
// CHECK-NEXT:    func.return %r : f32
func.func @roundeven(%x: f32) -> f32 {
  %r = math.roundeven %x : f32
  func.return %r : f32
}
