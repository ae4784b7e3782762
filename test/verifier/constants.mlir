// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A constant its type cannot hold is refused at the literal, in MLIR's words:
// integers (scalar and dense) by range, floats by overflow.  MLIR refuses a
// float literal too large for a double; tnpu also refuses one that rounds to
// infinity in its type (Triton prints infinities as bit patterns, 0x7F800000).

tt.func @scalar_integer() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:23: error: integer constant out of range for attribute
  %c = arith.constant 4294967296 : i32
  tt.return
}

// -----

tt.func @negative_scalar_integer() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:23: error: integer constant out of range for attribute
  %c = arith.constant -129 : i8
  tt.return
}

// -----

tt.func @integer_attribute() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:29: error: integer constant out of range for attribute
  %r = tt.make_range {end = 4294967297 : i32, start = 0 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @dense_integer() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:29: error: integer constant out of range for type
  %c = arith.constant dense<-9223372036854775808> : tensor<64xi32>
  tt.return
}

// -----

tt.func @dense_integer_list() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:33: error: integer constant out of range for type
  %c = arith.constant dense<[1, 70000]> : tensor<2xi16>
  tt.return
}

// -----

tt.func @scalar_float_beyond_double() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:23: error: floating point value too large for attribute
  %c = arith.constant 1.0e+400 : f32
  tt.return
}

// -----

tt.func @scalar_float_beyond_its_type() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:23: error: floating point value too large for attribute
  %c = arith.constant 7.0e+04 : f16
  tt.return
}

// -----

tt.func @dense_float() {
  // CHECK: constants.mlir:[[# @LINE + 1]]:29: error: floating point value too large
  %c = arith.constant dense<1.000000e+39> : tensor<128xf32>
  tt.return
}

// -----

// The largest finite values, and infinities as bit patterns, are constants.
// CHECK-LABEL: tt.func @in_range
tt.func @in_range() {
  // CHECK-NEXT: arith.constant 6.550400e+04 : f16
  %a = arith.constant 65519.0 : f16
  // CHECK-NEXT: arith.constant 3.40282347e+38 : f32
  %b = arith.constant 3.40282347E+38 : f32
  // CHECK-NEXT: arith.constant -1 : i32
  %c = arith.constant 4294967295 : i32
  // CHECK-NEXT: arith.constant dense<0xff800000> : tensor<4xf32>
  %d = arith.constant dense<0xFF800000> : tensor<4xf32>
  // CHECK-NEXT: arith.constant dense<-128> : tensor<2xi8>
  %e = arith.constant dense<-128> : tensor<2xi8>
  tt.return
}
