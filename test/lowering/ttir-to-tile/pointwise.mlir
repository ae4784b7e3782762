// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// Inductor's pointwise kernels, from the corpus (test/fixtures/corpus/inductor,
// the case named above each; locations dropped): every access a structured DMA.

// ew_add_dynamic__triton_poi_fused_add_mul_0: a masked tail, `xindex < xnumel`
// with xnumel a kernel argument: the DMA's upper bound is
// clamp(xnumel - xoffset, 0, 256).

// CHECK-LABEL: tile.kernel @triton_poi_fused_add_mul_0(
// CHECK:      %[[START:.*]] = arith.index_cast %xoffset_2 : i32 to index
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %xnumel : i32 to index
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[N]], %[[START]] : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LOW:.*]] = arith.maxsi %[[LEFT]], %[[ZERO]] : index
// CHECK-NEXT: %[[TILE:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[UP:.*]] = arith.minsi %[[LOW]], %[[TILE]] : index
// CHECK-NEXT: %tmp0 = tile.load %in_ptr0[%[[START]]] strides [1] upper [%[[UP]]] : !tile.buffer<f32> -> tensor<256xf32>
// CHECK-NEXT: %tmp3 = tile.load %in_ptr1[%[[START]]] strides [1] upper [%[[UP]]] : !tile.buffer<f32> -> tensor<256xf32>
// CHECK:      tile.store %tmp4, %out_ptr0[%[[START]]] strides [1] upper [%[[UP]]] : tensor<256xf32>, !tile.buffer<f32>
tt.func public @triton_poi_fused_add_mul_0(%in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_ptr1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32) attributes {noinline = false} {
  %tmp2 = arith.constant dense<2.000000e+00> : tensor<256xf32>
  %xoffset = arith.constant 256 : i32
  %xoffset_1 = tt.get_program_id x : i32
  %xoffset_2 = arith.muli %xoffset_1, %xoffset : i32
  %xindex = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %xindex_1 = tt.splat %xoffset_2 : i32 -> tensor<256xi32>
  %xindex_2 = arith.addi %xindex_1, %xindex : tensor<256xi32>
  %xmask = tt.splat %xnumel : i32 -> tensor<256xi32>
  %xmask_1 = arith.cmpi slt, %xindex_2, %xmask : tensor<256xi32>
  %tmp0 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp0_1 = tt.addptr %tmp0, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %tmp0_2 = tt.load %tmp0_1, %xmask_1 : tensor<256x!tt.ptr<f32>>
  %tmp3 = tt.splat %in_ptr1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp3_1 = tt.addptr %tmp3, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %tmp3_2 = tt.load %tmp3_1, %xmask_1 : tensor<256x!tt.ptr<f32>>
  %tmp2_1 = arith.mulf %tmp0_2, %tmp2 : tensor<256xf32>
  %tmp4 = arith.addf %tmp2_1, %tmp3_2 : tensor<256xf32>
  %0 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %1 = tt.addptr %0, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %1, %tmp4, %xmask_1 : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// ew_bias_relu_3d__triton_poi_fused_add_relu_0: a bias broadcast,
// `x0 = xindex % 32` over a 256-wide tile at a multiple of 256: the bias is
// read as 8 rows of the same 32 elements (row stride 0) and reshaped.

// CHECK-LABEL: tile.kernel @triton_poi_fused_add_relu_0(
// CHECK:      %[[START:.*]] = arith.index_cast %xoffset_2 : i32 to index
// CHECK-NEXT: %tmp0 = tile.load %in_ptr0[%[[START]]] strides [1] : !tile.buffer<f32> -> tensor<256xf32>
// CHECK-NEXT: %[[BIAS:.*]] = tile.load %in_ptr1[0] strides [0, 1] : !tile.buffer<f32> -> tensor<8x32xf32>
// CHECK-NEXT: %tmp1 = tile.reshape %[[BIAS]] : tensor<8x32xf32> -> tensor<256xf32>
// CHECK:      tile.store %tmp4, %out_ptr0[%[[START]]] strides [1] : tensor<256xf32>, !tile.buffer<f32>
tt.func public @triton_poi_fused_add_relu_0(%in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_ptr1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
  %x0 = arith.constant dense<32> : tensor<256xi32>
  %xoffset = arith.constant 256 : i32
  %xoffset_1 = tt.get_program_id x : i32
  %xoffset_2 = arith.muli %xoffset_1, %xoffset : i32
  %xindex = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %xindex_1 = tt.splat %xoffset_2 : i32 -> tensor<256xi32>
  %xindex_2 = arith.addi %xindex_1, %xindex : tensor<256xi32>
  %x0_1 = arith.remsi %xindex_2, %x0 : tensor<256xi32>
  %tmp0 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp0_1 = tt.addptr %tmp0, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %tmp0_2 = tt.load %tmp0_1 : tensor<256x!tt.ptr<f32>>
  %tmp1 = tt.splat %in_ptr1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp1_1 = tt.addptr %tmp1, %x0_1 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %tmp1_2 = tt.load %tmp1_1 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<256x!tt.ptr<f32>>
  %tmp2 = arith.addf %tmp0_2, %tmp1_2 : tensor<256xf32>
  %mask = arith.cmpf ogt, %cst, %tmp2 : tensor<256xf32>
  %tmp4 = arith.select %mask, %cst, %tmp2 : tensor<256xi1>, tensor<256xf32>
  %0 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %1 = tt.addptr %0, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %1, %tmp4 : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// permute3d_add__triton_poi_fused_add_permute_0: a 2-D tile [YBLOCK, XBLOCK]
// with `y0 = yindex % 64`, `y1 = yindex // 64` (a permuted input,
// `y0 + 64*x2 + 3072*y1`).  The tile's rows start at a multiple of 32 and
// stay within one 64-block, so both stay affine: strides [1, 64] and an
// offset of yoffset % 64 + 64 * xoffset + 3072 * (yoffset // 64); both masks
// are bounds.

// CHECK-LABEL: tile.kernel @triton_poi_fused_add_permute_0(
// CHECK:      %[[Y:.*]] = arith.index_cast %yoffset_1 : i32 to index
// CHECK:      %[[ROWS:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:      %[[X:.*]] = arith.index_cast %xoffset_1 : i32 to index
// CHECK:      %[[COLUMNS:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[SIXTYFOUR:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[Y0:.*]] = arith.remsi %[[Y]], %[[SIXTYFOUR]] : index
// CHECK-NEXT: %[[SIXTYFOUR2:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[Y1:.*]] = arith.divsi %[[Y]], %[[SIXTYFOUR2]] : index
// CHECK:      %tmp0 = tile.load %in_ptr0[%{{.*}}] strides [48, 1] upper [%[[ROWS]], %[[COLUMNS]]] : !tile.buffer<f32> -> tensor<32x32xf32>
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[XPART:.*]] = arith.muli %[[X]], %[[C64]] : index
// CHECK-NEXT: %[[LOW:.*]] = arith.addi %[[Y0]], %[[XPART]] : index
// CHECK-NEXT: %[[C3072:.*]] = arith.constant 3072 : index
// CHECK-NEXT: %[[HIGH:.*]] = arith.muli %[[Y1]], %[[C3072]] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.addi %[[LOW]], %[[HIGH]] : index
// CHECK-NEXT: %tmp1 = tile.load %in_ptr1[%[[OFFSET]]] strides [1, 64] upper [%[[ROWS]], %[[COLUMNS]]] : !tile.buffer<f32> -> tensor<32x32xf32>
// CHECK:      tile.store %tmp2, %out_ptr0[%{{.*}}] strides [48, 1] upper [%[[ROWS]], %[[COLUMNS]]] : tensor<32x32xf32>, !tile.buffer<f32>
tt.func public @triton_poi_fused_add_permute_0(%in_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_ptr1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %ynumel: i32 {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %tmp1 = arith.constant dense<3072> : tensor<32x1xi32>
  %tmp1_1 = arith.constant dense<64> : tensor<1x32xi32>
  %cst = arith.constant dense<48> : tensor<32x1xi32>
  %cst_1 = arith.constant dense<64> : tensor<32x1xi32>
  %xmask = arith.constant dense<48> : tensor<1x32xi32>
  %ymask = arith.constant dense<256> : tensor<32x1xi32>
  %c32_i32 = arith.constant 32 : i32
  %yoffset = tt.get_program_id y : i32
  %yoffset_1 = arith.muli %yoffset, %c32_i32 : i32
  %yindex = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %yindex_1 = tt.expand_dims %yindex {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %yindex_2 = tt.splat %yoffset_1 : i32 -> tensor<32x1xi32>
  %yindex_3 = arith.addi %yindex_2, %yindex_1 : tensor<32x1xi32>
  %ymask_1 = arith.cmpi slt, %yindex_3, %ymask : tensor<32x1xi32>
  %xoffset = tt.get_program_id x : i32
  %xoffset_1 = arith.muli %xoffset, %c32_i32 : i32
  %xindex = tt.expand_dims %yindex {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %xindex_1 = tt.splat %xoffset_1 : i32 -> tensor<1x32xi32>
  %xindex_2 = arith.addi %xindex_1, %xindex : tensor<1x32xi32>
  %xmask_1 = arith.cmpi slt, %xindex_2, %xmask : tensor<1x32xi32>
  %y0 = arith.remsi %yindex_3, %cst_1 : tensor<32x1xi32>
  %y1 = arith.divsi %yindex_3, %cst_1 : tensor<32x1xi32>
  %tmp0 = arith.muli %yindex_3, %cst : tensor<32x1xi32>
  %tmp0_1 = tt.broadcast %xindex_2 : tensor<1x32xi32> -> tensor<32x32xi32>
  %tmp0_2 = tt.broadcast %tmp0 : tensor<32x1xi32> -> tensor<32x32xi32>
  %tmp0_3 = arith.addi %tmp0_1, %tmp0_2 : tensor<32x32xi32>
  %tmp0_4 = tt.splat %in_ptr0 : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %tmp0_5 = tt.addptr %tmp0_4, %tmp0_3 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
  %tmp0_6 = tt.broadcast %xmask_1 : tensor<1x32xi1> -> tensor<32x32xi1>
  %tmp0_7 = tt.broadcast %ymask_1 : tensor<32x1xi1> -> tensor<32x32xi1>
  %tmp0_8 = arith.andi %tmp0_6, %tmp0_7 : tensor<32x32xi1>
  %tmp0_9 = tt.load %tmp0_5, %tmp0_8 : tensor<32x32x!tt.ptr<f32>>
  %tmp1_2 = arith.muli %xindex_2, %tmp1_1 : tensor<1x32xi32>
  %tmp1_3 = tt.broadcast %y0 : tensor<32x1xi32> -> tensor<32x32xi32>
  %tmp1_4 = tt.broadcast %tmp1_2 : tensor<1x32xi32> -> tensor<32x32xi32>
  %tmp1_5 = arith.addi %tmp1_3, %tmp1_4 : tensor<32x32xi32>
  %tmp1_6 = arith.muli %y1, %tmp1 : tensor<32x1xi32>
  %tmp1_7 = tt.broadcast %tmp1_6 : tensor<32x1xi32> -> tensor<32x32xi32>
  %tmp1_8 = arith.addi %tmp1_5, %tmp1_7 : tensor<32x32xi32>
  %tmp1_9 = tt.splat %in_ptr1 : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %tmp1_10 = tt.addptr %tmp1_9, %tmp1_8 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
  %tmp1_11 = tt.load %tmp1_10, %tmp0_8 : tensor<32x32x!tt.ptr<f32>>
  %tmp2 = arith.addf %tmp0_9, %tmp1_11 : tensor<32x32xf32>
  %0 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %1 = tt.addptr %0, %tmp0_3 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
  tt.store %1, %tmp2, %tmp0_8 : tensor<32x32x!tt.ptr<f32>>
  tt.return
}
