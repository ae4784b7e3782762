// RUN: tnpu-opt %s --split-input-file -p decompose-dot-scaled | filecheck %s

// e2m1 lhs (two codes a byte, low nibble first along K) with e8m0 scales, fp16
// rhs: each operand decoded to f32, the scale bytes as f32 powers of two
// repeated over their 32 elements of K, then an f32 tt.dot.

// CHECK-LABEL: tt.func @e2m1_lhs
// CHECK:         %[[LOW:.*]] = arith.andi %a, %{{.*}} : tensor<4x32xi8>
// CHECK:         arith.shrui %a, %{{.*}} : tensor<4x32xi8>
// CHECK:         %[[PAIRS:.*]] = tt.join %{{.*}}, %{{.*}} : tensor<4x32xf32> -> tensor<4x32x2xf32>
// CHECK-NEXT:    %[[LHS:.*]] = tt.reshape %[[PAIRS]] : tensor<4x32x2xf32> -> tensor<4x64xf32>
// CHECK-NEXT:    %[[BYTE:.*]] = arith.extui %sa : tensor<4x2xi8> to tensor<4x2xi32>
// CHECK:         %[[BITS:.*]] = arith.shli %[[BYTE]], %{{.*}} : tensor<4x2xi32>
// CHECK:         arith.cmpi eq, %[[BYTE]], %{{.*}} : tensor<4x2xi32>
// CHECK:         %[[COLUMN:.*]] = tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<4x2xf32> -> tensor<4x2x1xf32>
// CHECK-NEXT:    %[[GROUPS:.*]] = tt.broadcast %[[COLUMN]] : tensor<4x2x1xf32> -> tensor<4x2x32xf32>
// CHECK-NEXT:    %[[SCALE:.*]] = tt.reshape %[[GROUPS]] : tensor<4x2x32xf32> -> tensor<4x64xf32>
// CHECK-NEXT:    %[[SCALED:.*]] = arith.mulf %[[LHS]], %[[SCALE]] : tensor<4x64xf32>
// CHECK-NEXT:    %[[RHS:.*]] = arith.extf %b : tensor<64x8xf16> to tensor<64x8xf32>
// CHECK-NEXT:    %d = tt.dot %[[SCALED]], %[[RHS]], %c : tensor<4x64xf32> * tensor<64x8xf32> -> tensor<4x8xf32>
tt.func @e2m1_lhs(%a: tensor<4x32xi8>, %sa: tensor<4x2xi8>, %b: tensor<64x8xf16>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<4x32xi8>, tensor<4x2xi8> * tensor<64x8xf16> -> tensor<4x8xf32>
  tt.return %d : tensor<4x8xf32>
}

// -----

// A scaled rhs ([K, N], scales [N, K/32]) is decoded and scaled transposed.
// Without an fp16 operand the dot computes in bf16, where a zero scale byte
// stands for 2^-127 (f32 bits 0x00400000), as Triton's interpreter keeps it.

// CHECK-LABEL: tt.func @e4m3_rhs
// CHECK:         %[[LHS:.*]] = arith.extf %a : tensor<4x64xbf16> to tensor<4x64xf32>
// CHECK-NEXT:    %[[T:.*]] = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x8xf8E4M3FN> -> tensor<8x64xf8E4M3FN>
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extf %[[T]] : tensor<8x64xf8E4M3FN> to tensor<8x64xf32>
// CHECK:         arith.constant dense<4194304> : tensor<8x2xi32>
// CHECK:         %[[SCALED:.*]] = arith.mulf %[[WIDE]], %{{.*}} : tensor<8x64xf32>
// CHECK-NEXT:    %[[RHS:.*]] = tt.trans %[[SCALED]] {order = array<i32: 1, 0>} : tensor<8x64xf32> -> tensor<64x8xf32>
// CHECK-NEXT:    %d = tt.dot %[[LHS]], %[[RHS]], %c : tensor<4x64xf32> * tensor<64x8xf32> -> tensor<4x8xf32>
tt.func @e4m3_rhs(%a: tensor<4x64xbf16>, %b: tensor<64x8xf8E4M3FN>, %sb: tensor<8x2xi8>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = tt.dot_scaled %a, %b scale %sb, %c lhs = bf16 rhs = e4m3 {fastMath = false} : tensor<4x64xbf16> * tensor<64x8xf8E4M3FN>, tensor<8x2xi8> -> tensor<4x8xf32>
  tt.return %d : tensor<4x8xf32>
}
