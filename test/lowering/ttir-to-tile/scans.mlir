// RUN: tnpu-opt %s -p ttir-to-tile,dce | filecheck %s

// cumsum__triton_per_fused_cumsum_0 (test/fixtures/corpus/inductor; locations
// dropped): a row of 200 in a 256-wide tile, scanned with Triton's combine
// region, stored back through the same bounds.

// CHECK-LABEL: tile.kernel @triton_per_fused_cumsum_0(
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[START:.*]] = arith.index_cast %tmp0 : i32 to index
// CHECK:      %[[ROWS:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[ROW:.*]] = tile.load %in_ptr0[%[[START]]] strides [0, 1] upper [%[[ROWS]], 200] pad %[[ZERO]] : !tile.buffer<f32> -> tensor<1x256xf32>
// CHECK-NEXT: %[[SUMS:.*]] = tile.scan %[[ROW]] {axis = 1 : i32, reverse = false} : tensor<1x256xf32> -> tensor<1x256xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:   tile.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: tile.store %[[SUMS]], %out_ptr0[%[[START]]] strides [0, 1] upper [%[[ROWS]], 200] : tensor<1x256xf32>, !tile.buffer<f32>
tt.func public @triton_per_fused_cumsum_0(%in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}, %r0_numel: i32) attributes {noinline = false} {
  %c200_i32 = arith.constant 200 : i32
  %xmask = arith.constant 16 : i32
  %tmp0 = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %r0_mask = arith.constant dense<200> : tensor<1x256xi32>
  %xoffset = tt.get_program_id x : i32
  %xmask_1 = arith.cmpi slt, %xoffset, %xmask : i32
  %r0_index = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %r0_index_1 = tt.expand_dims %r0_index {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %r0_mask_1 = arith.cmpi slt, %r0_index_1, %r0_mask : tensor<1x256xi32>
  %tmp0_1 = arith.muli %xoffset, %c200_i32 : i32
  %tmp0_2 = tt.splat %tmp0_1 : i32 -> tensor<1x256xi32>
  %tmp0_3 = arith.addi %r0_index_1, %tmp0_2 : tensor<1x256xi32>
  %tmp0_4 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<1x256x!tt.ptr<f32>>
  %tmp0_5 = tt.addptr %tmp0_4, %tmp0_3 : tensor<1x256x!tt.ptr<f32>>, tensor<1x256xi32>
  %tmp0_6 = tt.splat %xmask_1 : i1 -> tensor<1x256xi1>
  %tmp0_7 = arith.andi %r0_mask_1, %tmp0_6 : tensor<1x256xi1>
  %tmp0_8 = tt.load %tmp0_5, %tmp0_7, %tmp0 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>} : tensor<1x256x!tt.ptr<f32>>
  %0 = "tt.scan"(%tmp0_8) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%arg4: f32, %arg5: f32):
    %tmp0_9 = arith.addf %arg4, %arg5 : f32
    tt.scan.return %tmp0_9 : f32
  }) : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %1 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<1x256x!tt.ptr<f32>>
  %2 = tt.addptr %1, %tmp0_3 : tensor<1x256x!tt.ptr<f32>>, tensor<1x256xi32>
  tt.store %2, %0, %tmp0_7 : tensor<1x256x!tt.ptr<f32>>
  tt.return
}
