// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// tt.fp_to_fp (Triton's fp8 casts) is arith.extf when it widens and
// arith.truncf (to nearest even) when it narrows.

// CHECK-LABEL: tile.kernel @fp8_round_trip(%X: !tile.buffer<f32>, %Out: !tile.buffer<f8E4M3FN>, %Back: !tile.buffer<f16>)
// CHECK:      %[[X:.*]] = tile.load %X[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[E:.*]] = tile.map %[[X]] : tensor<16xf32> -> tensor<16xf8E4M3FN> {
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: f32):
// CHECK-NEXT:   %[[T:.*]] = arith.truncf %[[A]] : f32 to f8E4M3FN
// CHECK-NEXT:   tile.yield %[[T]] : f8E4M3FN
// CHECK:      tile.store %[[E]], %Out[0] strides [1]
// CHECK:      %[[H:.*]] = tile.map %[[E]] : tensor<16xf8E4M3FN> -> tensor<16xf16> {
// CHECK:        arith.extf %{{.*}} : f8E4M3FN to f16
// CHECK:      tile.store %[[H]], %Back[0] strides [1]
tt.func public @fp8_round_trip(%X: !tt.ptr<f32>, %Out: !tt.ptr<f8E4M3FN>, %Back: !tt.ptr<f16>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xp = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xq = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %xq : tensor<16x!tt.ptr<f32>>
  %e = tt.fp_to_fp %x, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
  %op = tt.splat %Out : !tt.ptr<f8E4M3FN> -> tensor<16x!tt.ptr<f8E4M3FN>>
  %oq = tt.addptr %op, %r : tensor<16x!tt.ptr<f8E4M3FN>>, tensor<16xi32>
  tt.store %oq, %e : tensor<16x!tt.ptr<f8E4M3FN>>
  %h = tt.fp_to_fp %e : tensor<16xf8E4M3FN> -> tensor<16xf16>
  %bp = tt.splat %Back : !tt.ptr<f16> -> tensor<16x!tt.ptr<f16>>
  %bq = tt.addptr %bp, %r : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
  tt.store %bq, %h : tensor<16x!tt.ptr<f16>>
  tt.return
}

// -----

// f16 <-> bf16 (one width) goes through f32: exact, then rounded once.

// CHECK-LABEL: tile.kernel @half_to_bfloat(%Out: !tile.buffer<bf16>, %x: f16)
// CHECK-NEXT: %[[W:.*]] = arith.extf %x : f16 to f32
// CHECK-NEXT: %[[B:.*]] = arith.truncf %[[W]] : f32 to bf16
// CHECK:      tile.scatter %[[B]], %Out[{{.*}}] : bf16, !tile.buffer<bf16>, i64
tt.func public @half_to_bfloat(%Out: !tt.ptr<bf16>, %x: f16) {
  %b = tt.fp_to_fp %x, rounding = rtne : f16 -> bf16
  tt.store %Out, %b : !tt.ptr<bf16>
  tt.return
}
