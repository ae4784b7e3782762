// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// Inductor's reductions, from the corpus (test/fixtures/corpus/inductor, the
// case named above each; locations dropped).  A row of the reduced tensor is
// one structured DMA whose bounds are the row and column masks; the reduction
// is a tile.reduce with Triton's combine region.

// red_sum_rows__triton_per_fused_sum_0: a persistent reduction, one row of 500
// in a 512-wide tile.  `xmask` is the scalar pid < 64, a bound on the row
// digit; `r0_mask` bounds the columns at 500; `other=0.0` is the pad.

// CHECK-LABEL: tile.kernel @triton_per_fused_sum_0(
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[ROW:.*]] = arith.muli %xoffset, %{{.*}} : i32
// CHECK-NEXT: %[[OFFSET:.*]] = arith.index_cast %[[ROW]] : i32 to index
// CHECK:      %[[ROWS:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[ROWDATA:.*]] = tile.load %in_ptr0[%[[OFFSET]]] strides [0, 1] upper [%[[ROWS]], 500] pad %[[ZERO]] : !tile.buffer<f32> -> tensor<1x512xf32>
// CHECK:      %[[SUM:.*]] = tile.reduce %{{.*}} {axis = 1 : i32} : tensor<1x512xf32> -> tensor<1xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:   tile.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK:      tile.store %{{.*}}, %out_ptr0[%{{.*}}] strides [0, 0] upper [%{{.*}}, 1] : tensor<1x1xf32>, !tile.buffer<f32>
tt.func public @triton_per_fused_sum_0(%in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}, %r0_numel: i32) attributes {noinline = false} {
  %tmp0 = arith.constant 500 : i32
  %xmask = arith.constant 64 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<1x512xf32>
  %r0_mask = arith.constant dense<500> : tensor<1x512xi32>
  %xoffset = tt.get_program_id x : i32
  %xmask_1 = arith.cmpi slt, %xoffset, %xmask : i32
  %xmask_2 = tt.splat %xmask_1 : i1 -> tensor<1x1xi1>
  %r0_index = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %r0_index_1 = tt.expand_dims %r0_index {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
  %r0_mask_1 = arith.cmpi slt, %r0_index_1, %r0_mask : tensor<1x512xi32>
  %tmp0_1 = arith.muli %xoffset, %tmp0 : i32
  %tmp0_2 = tt.splat %tmp0_1 : i32 -> tensor<1x512xi32>
  %tmp0_3 = arith.addi %r0_index_1, %tmp0_2 : tensor<1x512xi32>
  %tmp0_4 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<1x512x!tt.ptr<f32>>
  %tmp0_5 = tt.addptr %tmp0_4, %tmp0_3 : tensor<1x512x!tt.ptr<f32>>, tensor<1x512xi32>
  %tmp0_6 = tt.splat %xmask_1 : i1 -> tensor<1x512xi1>
  %tmp0_7 = arith.andi %r0_mask_1, %tmp0_6 : tensor<1x512xi1>
  %tmp0_8 = tt.load %tmp0_5, %tmp0_7, %cst {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>} : tensor<1x512x!tt.ptr<f32>>
  %tmp3 = arith.select %tmp0_7, %tmp0_8, %cst : tensor<1x512xi1>, tensor<1x512xf32>
  %tmp4 = "tt.reduce"(%tmp3) <{axis = 1 : i32}> ({
  ^bb0(%tmp4_1: f32, %tmp4_2: f32):
    %tmp4_3 = arith.addf %tmp4_1, %tmp4_2 : f32
    tt.reduce.return %tmp4_3 : f32
  }) : (tensor<1x512xf32>) -> tensor<1xf32>
  %tmp4_4 = tt.expand_dims %tmp4 {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
  %0 = tt.addptr %out_ptr0, %xoffset : !tt.ptr<f32>, i32
  %1 = tt.splat %0 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>
  tt.store %1, %tmp4_4, %xmask_2 : tensor<1x1x!tt.ptr<f32>>
  tt.return
}

// -----

// red_mean_rows_looped__triton_red_fused_mean_0: a looped reduction over 4096
// columns, 2048 a step.  The accumulator is a tile iteration value; each
// step's load starts at the loop index and is bounded by 4096 - r0_offset.

// CHECK-LABEL: tile.kernel @triton_red_fused_mean_0(
// CHECK:      %[[ACC:.*]] = scf.for %r0_offset = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PARTIAL:.*]] = %{{.*}}) -> (tensor<1x2048xf32>) : i32 {
// CHECK-NEXT:   %[[STEP:.*]] = arith.index_cast %r0_offset : i32 to index
// CHECK:        %[[LEFT:.*]] = arith.subi %{{.*}}, %[[STEP]] : index
// CHECK:        %[[START:.*]] = arith.addi %[[STEP]], %{{.*}} : index
// CHECK:        %[[V:.*]] = tile.load %in_ptr0[%[[START]]] strides [0, 1] upper [%{{.*}}, %{{.*}}] pad %{{.*}} : !tile.buffer<f32> -> tensor<1x2048xf32>
// CHECK:        %[[ADDED:.*]] = tile.map %[[PARTIAL]], %[[V]] : tensor<1x2048xf32>, tensor<1x2048xf32> -> tensor<1x2048xf32> {
// CHECK:        %[[KEPT:.*]] = tile.map %{{.*}}, %[[ADDED]], %[[PARTIAL]] : tensor<1x2048xi1>, tensor<1x2048xf32>, tensor<1x2048xf32> -> tensor<1x2048xf32> {
// CHECK:        scf.yield %[[KEPT]] : tensor<1x2048xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tile.reduce %[[ACC]] {axis = 1 : i32} : tensor<1x2048xf32> -> tensor<1xf32> {
tt.func public @triton_red_fused_mean_0(%in_out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}, %r0_numel: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %xmask = arith.constant 32 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c4096_i32 = arith.constant 4096 : i32
  %c0_i32 = arith.constant 0 : i32
  %tmp4 = arith.constant dense<4.096000e+03> : tensor<1x1xf32>
  %cst = arith.constant dense<4096> : tensor<1x2048xi32>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
  %xoffset = tt.get_program_id x : i32
  %xmask_1 = arith.cmpi slt, %xoffset, %xmask : i32
  %xmask_2 = tt.splat %xmask_1 : i1 -> tensor<1x1xi1>
  %r0_base = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
  %r0_base_1 = tt.expand_dims %r0_base {axis = 0 : i32} : tensor<2048xi32> -> tensor<1x2048xi32>
  %_tmp2 = scf.for %r0_offset = %c0_i32 to %c4096_i32 step %c2048_i32 iter_args(%_tmp2_1 = %cst_1) -> (tensor<1x2048xf32>) : i32 {
    %r0_index = tt.splat %r0_offset : i32 -> tensor<1x2048xi32>
    %r0_index_1 = arith.addi %r0_index, %r0_base_1 : tensor<1x2048xi32>
    %r0_mask = arith.cmpi slt, %r0_index_1, %cst : tensor<1x2048xi32>
    %tmp0 = arith.muli %xoffset, %c4096_i32 : i32
    %tmp0_1 = tt.splat %tmp0 : i32 -> tensor<1x2048xi32>
    %tmp0_2 = arith.addi %r0_index_1, %tmp0_1 : tensor<1x2048xi32>
    %tmp0_3 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
    %tmp0_4 = tt.addptr %tmp0_3, %tmp0_2 : tensor<1x2048x!tt.ptr<f32>>, tensor<1x2048xi32>
    %tmp0_5 = tt.splat %xmask_1 : i1 -> tensor<1x2048xi1>
    %tmp0_6 = arith.andi %r0_mask, %tmp0_5 : tensor<1x2048xi1>
    %tmp0_7 = tt.load %tmp0_4, %tmp0_6, %cst_1 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>} : tensor<1x2048x!tt.ptr<f32>>
    %tmp3 = arith.addf %_tmp2_1, %tmp0_7 : tensor<1x2048xf32>
    %_tmp2_2 = arith.select %tmp0_6, %tmp3, %_tmp2_1 : tensor<1x2048xi1>, tensor<1x2048xf32>
    scf.yield %_tmp2_2 : tensor<1x2048xf32>
  }
  %tmp2 = "tt.reduce"(%_tmp2) <{axis = 1 : i32}> ({
  ^bb0(%tmp2_1: f32, %tmp2_2: f32):
    %tmp2_3 = arith.addf %tmp2_1, %tmp2_2 : f32
    tt.reduce.return %tmp2_3 : f32
  }) : (tensor<1x2048xf32>) -> tensor<1xf32>
  %tmp2_4 = tt.expand_dims %tmp2 {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
  %tmp5 = arith.divf %tmp2_4, %tmp4 : tensor<1x1xf32>
  %0 = tt.addptr %in_out_ptr0, %xoffset : !tt.ptr<f32>, i32
  %1 = tt.splat %0 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>
  tt.store %1, %tmp5, %xmask_2 : tensor<1x1x!tt.ptr<f32>>
  tt.return
}

// -----

// red_std_looped__triton_red_fused_std_0: Welford, looped.  Three tiles (mean,
// m2, weight) are carried; the first step's scf.if starts them; one tile.reduce
// combines the three with Triton's Welford combine region.

// CHECK-LABEL: tile.kernel @triton_red_fused_std_0(
// CHECK:      %[[M:.*]], %[[M2:.*]], %[[W:.*]] = scf.for %r0_offset = {{.*}} -> (tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) : i32 {
// CHECK:        tile.load %in_ptr0[%{{.*}}] strides [0, 1] upper [%{{.*}}, %{{.*}}] pad %{{.*}} : !tile.buffer<f32> -> tensor<1x2048xf32>
// CHECK:        scf.if %{{.*}} -> (tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) {
// CHECK:        scf.yield %tmp2_mean_1, %tmp2_m2_1, %tmp2_weight_4 : tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tile.reduce %[[M]], %[[M2]], %[[W]] {axis = 1 : i32} : tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK:        tile.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32
// CHECK-NEXT: }
tt.func public @triton_red_fused_std_0(%in_out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}, %r0_numel: i32) attributes {noinline = false} {
  %xmask = arith.constant 16 : i32
  %cst = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant dense<1.000000e+00> : tensor<1x2048xf32>
  %c2048_i32 = arith.constant 2048 : i32
  %c5000_i32 = arith.constant 5000 : i32
  %tmp8 = arith.constant dense<4.999000e+03> : tensor<1x1xf32>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
  %cst_3 = arith.constant dense<5000> : tensor<1x2048xi32>
  %c0_i32 = arith.constant 0 : i32
  %xoffset = tt.get_program_id x : i32
  %xmask_1 = arith.cmpi slt, %xoffset, %xmask : i32
  %xmask_2 = tt.splat %xmask_1 : i1 -> tensor<1x1xi1>
  %r0_base = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
  %r0_base_1 = tt.expand_dims %r0_base {axis = 0 : i32} : tensor<2048xi32> -> tensor<1x2048xi32>
  %tmp2_weight, %tmp2_weight_1, %tmp2_weight_2 = scf.for %r0_offset = %c0_i32 to %c5000_i32 step %c2048_i32 iter_args(%tmp2_mean = %cst_2, %tmp2_m2 = %cst_2, %tmp2_weight_3 = %cst_2) -> (tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) : i32 {
    %r0_index = tt.splat %r0_offset : i32 -> tensor<1x2048xi32>
    %r0_index_1 = arith.addi %r0_index, %r0_base_1 : tensor<1x2048xi32>
    %r0_mask = arith.cmpi slt, %r0_index_1, %cst_3 : tensor<1x2048xi32>
    %tmp0 = arith.muli %xoffset, %c5000_i32 : i32
    %tmp0_1 = tt.splat %tmp0 : i32 -> tensor<1x2048xi32>
    %tmp0_2 = arith.addi %r0_index_1, %tmp0_1 : tensor<1x2048xi32>
    %tmp0_3 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
    %tmp0_4 = tt.addptr %tmp0_3, %tmp0_2 : tensor<1x2048x!tt.ptr<f32>>, tensor<1x2048xi32>
    %tmp0_5 = tt.splat %xmask_1 : i1 -> tensor<1x2048xi1>
    %tmp0_6 = arith.andi %r0_mask, %tmp0_5 : tensor<1x2048xi1>
    %tmp0_7 = tt.load %tmp0_4, %tmp0_6, %cst_2 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>} : tensor<1x2048x!tt.ptr<f32>>
    %0 = arith.cmpi eq, %r0_offset, %c0_i32 : i32
    %1, %2, %3 = scf.if %0 -> (tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) {
      scf.yield %cst_2, %tmp0_7, %cst_1 : tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>
    } else {
      %delta = arith.subf %tmp0_7, %tmp2_mean : tensor<1x2048xf32>
      %new_weight = arith.addf %tmp2_weight_3, %cst_1 : tensor<1x2048xf32>
      %new_mean = arith.divf %delta, %new_weight : tensor<1x2048xf32>
      %new_mean_1 = arith.addf %tmp2_mean, %new_mean : tensor<1x2048xf32>
      %new_m2 = arith.subf %tmp0_7, %new_mean_1 : tensor<1x2048xf32>
      %new_m2_1 = arith.mulf %delta, %new_m2 : tensor<1x2048xf32>
      %new_m2_2 = arith.addf %tmp2_m2, %new_m2_1 : tensor<1x2048xf32>
      scf.yield %new_m2_2, %new_mean_1, %new_weight : tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>
    }
    %tmp2_mean_1 = arith.select %tmp0_6, %2, %tmp2_mean : tensor<1x2048xi1>, tensor<1x2048xf32>
    %tmp2_m2_1 = arith.select %tmp0_6, %1, %tmp2_m2 : tensor<1x2048xi1>, tensor<1x2048xf32>
    %tmp2_weight_4 = arith.select %tmp0_6, %3, %tmp2_weight_3 : tensor<1x2048xi1>, tensor<1x2048xf32>
    scf.yield %tmp2_mean_1, %tmp2_m2_1, %tmp2_weight_4 : tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>
  }
  %4, %5, %6 = "tt.reduce"(%tmp2_weight, %tmp2_weight_1, %tmp2_weight_2) <{axis = 1 : i32}> ({
  ^bb0(%arg4: f32, %arg5: f32, %arg6: f32, %arg7: f32, %arg8: f32, %arg9: f32):
    %delta_1 = arith.cmpf oeq, %arg4, %arg7 : f32
    %delta_2 = arith.subf %arg7, %arg4 : f32
    %delta_3 = arith.select %delta_1, %cst, %delta_2 : f32
    %new_weight_1 = arith.addf %arg6, %arg9 : f32
    %w2_over_w = arith.cmpf oeq, %new_weight_1, %cst : f32
    %w2_over_w_1 = arith.divf %arg9, %new_weight_1 : f32
    %w2_over_w_2 = arith.select %w2_over_w, %cst, %w2_over_w_1 : f32
    %7 = arith.mulf %delta_3, %w2_over_w_2 : f32
    %8 = arith.addf %arg4, %7 : f32
    %9 = arith.addf %arg5, %arg8 : f32
    %10 = arith.mulf %delta_3, %delta_3 : f32
    %11 = arith.mulf %10, %arg6 : f32
    %12 = arith.mulf %11, %w2_over_w_2 : f32
    %13 = arith.addf %9, %12 : f32
    tt.reduce.return %8, %13, %new_weight_1 : f32, f32, f32
  }) : (tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>)
  %tmp6 = tt.expand_dims %5 {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
  %tmp9 = arith.divf %tmp6, %tmp8 : tensor<1x1xf32>
  %tmp10 = tt.precise_sqrt %tmp9 : tensor<1x1xf32>
  %14 = tt.addptr %in_out_ptr0, %xoffset : !tt.ptr<f32>, i32
  %15 = tt.splat %14 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>
  tt.store %15, %tmp10, %xmask_2 : tensor<1x1x!tt.ptr<f32>>
  tt.return
}

// -----

// red_argmax__triton_per_fused_argmax_0: argmax reduces values and column
// indices together; the combine region's `true` comes from outside it.

// CHECK-LABEL: tile.kernel @triton_per_fused_argmax_0(
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK:      %[[R:.*]] = tile.iota {start = 0 : i32} : tensor<512xi32>
// CHECK-NEXT: %[[COLUMNS:.*]] = tile.reshape %[[R]] : tensor<512xi32> -> tensor<1x512xi32>
// CHECK:      %[[VALUES:.*]] = tile.map %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x512xi1>, tensor<1x512xf32>, f32 -> tensor<1x512xf32> {
// CHECK:      %{{.*}}, %[[INDEX:.*]] = tile.reduce %[[VALUES]], %[[COLUMNS]] {axis = 1 : i32} : tensor<1x512xf32>, tensor<1x512xi32> -> tensor<1xf32>, tensor<1xi32> {
// CHECK:        arith.xori %{{.*}}, %[[TRUE]] : i1
// CHECK:        tile.yield %{{.*}}, %{{.*}} : f32, i32
// CHECK-NEXT: }
// CHECK-NEXT: tile.reshape %[[INDEX]] : tensor<1xi32> -> tensor<1x1xi32>
// CHECK:      tile.store %{{.*}}, %out_ptr0[%{{.*}}] strides [0, 0] upper [%{{.*}}, 1] : tensor<1x1xi64>, !tile.buffer<i64>
tt.func public @triton_per_fused_argmax_0(%in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}, %r0_numel: i32) attributes {noinline = false} {
  %tmp0 = arith.constant 500 : i32
  %xmask = arith.constant 64 : i32
  %true = arith.constant true
  %tmp3 = arith.constant dense<0xff800000> : tensor<1x512xf32>
  %tmp0_1 = arith.constant dense<0.000000e+00> : tensor<1x512xf32>
  %r0_mask = arith.constant dense<500> : tensor<1x512xi32>
  %xoffset = tt.get_program_id x : i32
  %xmask_1 = arith.cmpi slt, %xoffset, %xmask : i32
  %xmask_2 = tt.splat %xmask_1 : i1 -> tensor<1x1xi1>
  %r0_index = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %r0_index_1 = tt.expand_dims %r0_index {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
  %r0_mask_1 = arith.cmpi slt, %r0_index_1, %r0_mask : tensor<1x512xi32>
  %tmp0_2 = arith.muli %xoffset, %tmp0 : i32
  %tmp0_3 = tt.splat %tmp0_2 : i32 -> tensor<1x512xi32>
  %tmp0_4 = arith.addi %r0_index_1, %tmp0_3 : tensor<1x512xi32>
  %tmp0_5 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<1x512x!tt.ptr<f32>>
  %tmp0_6 = tt.addptr %tmp0_5, %tmp0_4 : tensor<1x512x!tt.ptr<f32>>, tensor<1x512xi32>
  %tmp0_7 = tt.splat %xmask_1 : i1 -> tensor<1x512xi1>
  %tmp0_8 = arith.andi %r0_mask_1, %tmp0_7 : tensor<1x512xi1>
  %tmp0_9 = tt.load %tmp0_6, %tmp0_8, %tmp0_1 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>} : tensor<1x512x!tt.ptr<f32>>
  %tmp3_1 = arith.select %tmp0_8, %tmp0_9, %tmp3 : tensor<1x512xi1>, tensor<1x512xf32>
  %0, %1 = "tt.reduce"(%tmp3_1, %r0_index_1) <{axis = 1 : i32}> ({
  ^bb0(%arg4: f32, %arg5: i32, %arg6: f32, %arg7: i32):
    %mask = arith.cmpf ogt, %arg4, %arg6 : f32
    %equal = arith.cmpf oeq, %arg4, %arg6 : f32
    %a_isnan = arith.cmpf une, %arg4, %arg4 : f32
    %b_isnan = arith.cmpf une, %arg6, %arg6 : f32
    %mask_1 = arith.xori %b_isnan, %true : i1
    %mask_2 = arith.andi %a_isnan, %mask_1 : i1
    %mask_3 = arith.ori %mask, %mask_2 : i1
    %equal_1 = arith.andi %a_isnan, %b_isnan : i1
    %equal_2 = arith.ori %equal, %equal_1 : i1
    %mask_4 = arith.cmpi slt, %arg5, %arg7 : i32
    %mask_5 = arith.andi %equal_2, %mask_4 : i1
    %mask_6 = arith.ori %mask_3, %mask_5 : i1
    %2 = arith.select %mask_6, %arg4, %arg6 : f32
    %3 = arith.select %mask_6, %arg5, %arg7 : i32
    tt.reduce.return %2, %3 : f32, i32
  }) : (tensor<1x512xf32>, tensor<1x512xi32>) -> (tensor<1xf32>, tensor<1xi32>)
  %tmp2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>
  %4 = tt.addptr %out_ptr0, %xoffset : !tt.ptr<i64>, i32
  %5 = tt.splat %4 : !tt.ptr<i64> -> tensor<1x1x!tt.ptr<i64>>
  %6 = arith.extsi %tmp2 : tensor<1x1xi32> to tensor<1x1xi64>
  tt.store %5, %6, %xmask_2 : tensor<1x1x!tt.ptr<i64>>
  tt.return
}
