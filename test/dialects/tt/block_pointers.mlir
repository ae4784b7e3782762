// RUN: tnpu-opt %s | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | tnpu-opt | filecheck %s

// Triton 3.6's block pointers and load/store cache keywords, which Triton 3.7
// removed with tl.make_block_ptr (so 3.9 cannot produce them).  The syntax is
// 3.6's TritonOps.td: tt.make_tensor_ptr and tt.advance write their result
// type without `!tt.`; loads and stores take `cacheModifier = ...
// evictionPolicy = ...` keywords and, on block pointers, `boundaryCheck` and
// `padding` (an i32: 1 zero, 2 nan) in the attribute dictionary.

// CHECK-LABEL: tt.func public @block_copy(
tt.func public @block_copy(%in: !tt.ptr<f16>, %out: !tt.ptr<f16>, %M: i64, %N: i64) attributes {noinline = false} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c1 = arith.constant 1 : i64
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  // CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  // CHECK-NEXT: tt.load %{{.*}} cacheModifier = cg evictionPolicy = evict_last {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<32x64xf16>>
  // CHECK-NEXT: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<32x64xf16>>
  %p = tt.make_tensor_ptr %in, [%M, %N], [%N, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  %w = tt.load %p cacheModifier = cg evictionPolicy = evict_last {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<32x64xf16>>
  %q = tt.advance %p, [%c32, %c0] : <tensor<32x64xf16>>
  // CHECK-NEXT: tt.make_tensor_ptr %{{.*}} {order = array<i32: 0, 1>} : <tensor<32x64xf16>>
  // CHECK-NEXT: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<32x64xf16>>
  // CHECK-NEXT: tt.store %{{.*}}, %{{.*}} cacheModifier = wt : !tt.ptr<tensor<32x64xf16>>
  %o = tt.make_tensor_ptr %out, [%M, %N], [%c1, %M], [%c0, %c32] {order = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf16>>
  tt.store %o, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<32x64xf16>>
  tt.store %o, %w cacheModifier = wt : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// The same keywords on ordinary pointers, as Triton 3.6 printed Inductor's
// loads (test/fixtures/corpus/triton36_samples).

// CHECK-LABEL: tt.func @cache_keywords(
tt.func @cache_keywords(%x: tensor<64x!tt.ptr<f32>>, %m: tensor<64xi1>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} evictionPolicy = evict_last : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.load %{{.*}} cacheModifier = ca {isVolatile = true} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = cs evictionPolicy = evict_first : tensor<64x!tt.ptr<f32>>
  %a = tt.load %x, %m, %zero evictionPolicy = evict_last : tensor<64x!tt.ptr<f32>>
  %b = tt.load %x cacheModifier = ca {isVolatile = true} : tensor<64x!tt.ptr<f32>>
  tt.store %x, %a, %m cacheModifier = cs evictionPolicy = evict_first : tensor<64x!tt.ptr<f32>>
  tt.return
}

// Triton 3.6 numbered pointer address spaces; 3.9 names the ones it keeps.
// CHECK-LABEL: tt.func public @address_spaces(
// CHECK-SAME: !tt.ptr<f32, 3>, %{{.*}}: !tt.ptr<f32, "constant">, %{{.*}}: !tt.ptr<f32>)
tt.func public @address_spaces(%shared: !tt.ptr<f32, 3>, %const: !tt.ptr<f32, 4>, %global: !tt.ptr<f32, 1>) {
  tt.return
}
