// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Reduce/scan region signatures, dot shapes, casts and elementwise ops: one line
// per error, with Triton's wording where it has one.

tt.func @reduce_no_operands() {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op must have at least 1 operand
  "tt.reduce"() <{axis = 0 : i32}> ({
  ^bb0:
    "tt.reduce.return"() : () -> ()
  }) : () -> ()
  tt.return
}

// -----

tt.func @reduce_result_count(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op must have the same number of inputs as outputs
  %0:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> (f32, f32)
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op axis out of bounds for operand rank 1
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_ranks(%x: tensor<16xf32>, %y: tensor<4x4xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op all operands must have the same rank, but got ranks 1 and 2
  %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<16xf32>, tensor<4x4xf32>) -> (f32, tensor<4xf32>)
  tt.return
}

// -----

tt.func @reduce_result_element(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op operand types and result types must agree
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> i32
  tt.return
}

// -----

tt.func @reduce_result_shape(%x: tensor<4x16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op inferred result type tensor<4xf32> is incompatible with tensor<16xf32>
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<4x16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_block_arguments(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op nested block must take 2 arguments, but given block with 1 arguments
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_argument_type(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op type mismatch on combine operation. Expected argument 1 to have type f32 but got f16
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f16):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_terminator(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op combine operation must be terminated with a tt.reduce.return but got tt.return
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.return
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_returned_count(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op expected combine operation to return 1 values but got 2
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_returned_type(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op type mismatch on combine operation. Expected argument 0 to have type f32 but got i32
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.fptosi %a : f32 to i32
    tt.reduce.return %c : i32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.scan' op inferred result type tensor<16xf32> is incompatible with tensor<8xf32>
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<16xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @scan_return_in_reduce(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op combine operation must be terminated with a tt.reduce.return but got tt.scan.return
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @dot_inner(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>, %c: tensor<16x8xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.dot' op the K dimensions of a (8) and b (16) must match: a is [16, 8], b is [16, 8]
  %0 = tt.dot %a, %b, %c : tensor<16x8xf32> * tensor<16x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_accumulator(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.dot' op the accumulator shape [16, 16] must be the batch dimensions and [16, 32] of a [16, 8] times b [8, 32]
  %0 = tt.dot %a, %b, %c : tensor<16x8xf32> * tensor<8x32xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.dot' op expected operands to be 2d or 3d tensors of the same rank
  %0 = tt.dot %a, %b, %c : tensor<16xf32> * tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @dot_bit_widths(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.dot' op element types of operands A and B must have same bit width
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_precision(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:44: error: expected InputPrecision (tf32, tf32x3, ieee, bf16x3, bf16x6)
  %0 = tt.dot %a, %b, %c, inputPrecision = fp64 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_scaled_k(%a: tensor<64x32xi8>, %b: tensor<32x64xi8>, %c: tensor<64x64xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.dot_scaled' op the K dimensions of a (64) and b (32) must match
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale(%a: tensor<64x32xi8>, %s: tensor<32x2xi8>, %b: tensor<64x64xi8>, %c: tensor<64x64xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.dot_scaled' op scales M dimension must match the operand M dimension
  %0 = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<64x32xi8>, tensor<32x2xi8> * tensor<64x64xi8> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @fp_to_fp_downcast(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.fp_to_fp' op Rounding mode is required for FP downcast
  %0 = tt.fp_to_fp %x : tensor<16xf32> -> tensor<16xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_integer(%x: tensor<16xi32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.fp_to_fp' op expected a float or a tensor of floats, got tensor<16xi32>
  %0 = tt.fp_to_fp %x : tensor<16xi32> -> tensor<16xf16>
  tt.return
}

// -----

tt.func @clampf_integer(%x: tensor<16xi32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.clampf' op expected a float or a tensor of floats, got tensor<16xi32>
  %0 = tt.clampf %x, %x, %x, propagateNan = all : tensor<16xi32>
  tt.return
}

// -----

tt.func @clampf_propagate(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:45: error: expected PropagateNan (none, all)
  %0 = tt.clampf %x, %x, %x, propagateNan = some : tensor<16xf32>
  tt.return
}

// -----

tt.func @mulhiui_float(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.mulhiui' op expected an integer or a tensor of integers, got tensor<16xf32>
  %0 = tt.mulhiui %x, %x : tensor<16xf32>
  tt.return
}

// -----

tt.func @approx_divf_f16(%x: tensor<16xf16>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.approx_divf' op expected f32 or a tensor of f32, got tensor<16xf16>
  %0 = tt.approx_divf %x, %x : tensor<16xf16>
  tt.return
}

// -----

tt.func @extern_shape(%x: tensor<16xf32>, %y: tensor<8xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op requires the same shape for all operands and results
  %0 = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<16xf32>, tensor<8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @inline_asm_pack(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.elementwise_inline_asm' op number of input elements 16 must be a multiple of the op's packed_element attribute, 3
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_elementwise_pack(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.map_elementwise' op Pack must be a power of 2
  %0 = "tt.map_elementwise"(%x) <{pack = 3 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    tt.map_elementwise.return %a, %b, %c : f32, f32, f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_elementwise_arguments(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.map_elementwise' op argument types did not match
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f16):
    tt.map_elementwise.return %a : f16
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_elementwise_return(%x: tensor<16xf32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.map_elementwise' op region return does not match map_elementwise result
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    %b = arith.fptosi %a : f32 to i32
    tt.map_elementwise.return %b : i32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @assert_condition(%x: tensor<16xi32>) {
  // CHECK: invalid_compute.mlir:[[# @LINE + 1]]:3: error: 'tt.assert' op expected i1 or a tensor of i1, got tensor<16xi32>
  tt.assert %x, "oops" : tensor<16xi32>
  tt.return
}
