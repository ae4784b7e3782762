// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p decompose-dot-scaled | filecheck %s

// e2m1 packed along M (k_pack = false) is refused, naming the op.

tt.func @packed_along_m(%a: tensor<2x64xi8>, %sa: tensor<4x2xi8>, %b: tensor<64x8xf16>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: diagnostics.mlir:[[# @LINE + 1]]:3: error: 'tt.dot_scaled' op e2m1 operands packed along M or N (k_pack = false) are not supported
  %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false, lhs_k_pack = false} : tensor<2x64xi8>, tensor<4x2xi8> * tensor<64x8xf16> -> tensor<4x8xf32>
  tt.return %d : tensor<4x8xf32>
}
