// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// Indices read from memory, from the corpus (test/fixtures/corpus/inductor,
// the case named above each; locations dropped): the index tile itself is a
// structured load, Inductor's bounds check on it a tile.assert, and the access
// through it a gather, scatter or atomic at offsets computed on the vector
// unit.

// embedding__triton_poi_fused_add_embedding_0: `weight[ids[x3], x0]` with
// x3 = xindex // 64, x0 = xindex % 64.  The ids are read as 4 rows of one
// element each repeated 64 times (strides [1, 0]); the positional term
// (`xindex % 1024`) is a plain DMA at xoffset % 1024.

// CHECK-LABEL: tile.kernel @triton_poi_fused_add_embedding_0(
// CHECK:      %[[START:.*]] = arith.index_cast %xoffset_2 : i32 to index
// CHECK:      %[[ROW:.*]] = arith.divsi %[[START]], %{{.*}} : index
// CHECK:      %[[POSITION:.*]] = arith.remsi %[[START]], %{{.*}} : index
// CHECK-NEXT: %[[IDS:.*]] = tile.load %in_ptr0[%[[ROW]]] strides [1, 0] : !tile.buffer<i64> -> tensor<4x64xi64>
// CHECK-NEXT: %tmp0 = tile.reshape %[[IDS]] : tensor<4x64xi64> -> tensor<256xi64>
// CHECK-NEXT: %tmp3 = tile.load %in_ptr2[%[[POSITION]]] strides [1] : !tile.buffer<f32> -> tensor<256xf32>
// CHECK:      tile.assert %{{.*}}, "index out of bounds: 0 <= tmp0 < 1000" : tensor<256xi1>
// CHECK:      %tmp2 = tile.map %tmp0, %{{.*}} : tensor<256xi64>, i64 -> tensor<256xi64> {
// CHECK:      %tmp2_3 = tile.gather %in_ptr1[%{{.*}}] : !tile.buffer<f32>, tensor<256xi64> -> tensor<256xf32>
// CHECK:      tile.store %tmp4, %out_ptr0[%[[START]]] strides [1] : tensor<256xf32>, !tile.buffer<f32>
tt.func public @triton_poi_fused_add_embedding_0(%in_ptr0: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %in_ptr1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_ptr2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %tmp2 = arith.constant dense<64> : tensor<256xi64>
  %cst = arith.constant dense<1000> : tensor<256xi64>
  %cst_1 = arith.constant dense<0> : tensor<256xi64>
  %x4 = arith.constant dense<1024> : tensor<256xi32>
  %cst_2 = arith.constant dense<64> : tensor<256xi32>
  %xoffset = arith.constant 256 : i32
  %xoffset_1 = tt.get_program_id x : i32
  %xoffset_2 = arith.muli %xoffset_1, %xoffset : i32
  %xindex = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %xindex_1 = tt.splat %xoffset_2 : i32 -> tensor<256xi32>
  %xindex_2 = arith.addi %xindex_1, %xindex : tensor<256xi32>
  %x3 = arith.divsi %xindex_2, %cst_2 : tensor<256xi32>
  %x0 = arith.remsi %xindex_2, %cst_2 : tensor<256xi32>
  %x4_1 = arith.remsi %xindex_2, %x4 : tensor<256xi32>
  %tmp0 = tt.splat %in_ptr0 : !tt.ptr<i64> -> tensor<256x!tt.ptr<i64>>
  %tmp0_1 = tt.addptr %tmp0, %x3 : tensor<256x!tt.ptr<i64>>, tensor<256xi32>
  %tmp0_2 = tt.load %tmp0_1 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<256x!tt.ptr<i64>>
  %tmp3 = tt.splat %in_ptr2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp3_1 = tt.addptr %tmp3, %x4_1 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %tmp3_2 = tt.load %tmp3_1 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<256x!tt.ptr<f32>>
  %0 = arith.cmpi sge, %tmp0_2, %cst_1 : tensor<256xi64>
  %1 = arith.cmpi slt, %tmp0_2, %cst : tensor<256xi64>
  %2 = arith.andi %0, %1 : tensor<256xi1>
  tt.assert %2, "index out of bounds: 0 <= tmp0 < 1000" : tensor<256xi1>
  %tmp2_1 = arith.muli %tmp0_2, %tmp2 : tensor<256xi64>
  %tmp2_2 = arith.extsi %x0 : tensor<256xi32> to tensor<256xi64>
  %tmp2_3 = arith.addi %tmp2_2, %tmp2_1 : tensor<256xi64>
  %tmp2_4 = tt.splat %in_ptr1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp2_5 = tt.addptr %tmp2_4, %tmp2_3 : tensor<256x!tt.ptr<f32>>, tensor<256xi64>
  %tmp2_6 = tt.load %tmp2_5 : tensor<256x!tt.ptr<f32>>
  %tmp4 = arith.addf %tmp2_6, %tmp3_2 : tensor<256xf32>
  %3 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %4 = tt.addptr %3, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %4, %tmp4 : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// index_select__triton_poi_fused_index_select_mul_0: rows of 64 picked by an
// index tensor (`x1 = xindex // 64`), with a masked tail: the index load is
// bounded on its row digit, and the gather keeps xmask as its mask tile.

// CHECK-LABEL: tile.kernel @triton_poi_fused_index_select_mul_0(
// CHECK:      tile.load %in_ptr0[%{{.*}}] strides [1, 0] upper [%{{.*}}, 64] : !tile.buffer<i64> -> tensor<4x64xi64>
// CHECK:      tile.assert %{{.*}}, "index out of bounds: 0 <= tmp4 < 100" : tensor<256xi1>
// CHECK:      %tmp6_3 = tile.gather %in_ptr1[%{{.*}}] mask %xmask : !tile.buffer<f32>, tensor<256xi64> -> tensor<256xf32>
// CHECK:      tile.store %tmp8, %out_ptr0[%{{.*}}] strides [1] upper [%{{.*}}] : tensor<256xf32>, !tile.buffer<f32>
tt.func public @triton_poi_fused_index_select_mul_0(%in_ptr0: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %in_ptr1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %tmp8 = arith.constant dense<2.000000e+00> : tensor<256xf32>
  %tmp6 = arith.constant dense<64> : tensor<256xi64>
  %cst = arith.constant dense<true> : tensor<256xi1>
  %cst_1 = arith.constant dense<100> : tensor<256xi64>
  %cst_2 = arith.constant dense<0> : tensor<256xi64>
  %cst_3 = arith.constant dense<64> : tensor<256xi32>
  %xmask = arith.constant dense<2048> : tensor<256xi32>
  %xoffset = arith.constant 256 : i32
  %xoffset_1 = tt.get_program_id x : i32
  %xoffset_2 = arith.muli %xoffset_1, %xoffset : i32
  %xindex = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %xindex_1 = tt.splat %xoffset_2 : i32 -> tensor<256xi32>
  %xindex_2 = arith.addi %xindex_1, %xindex : tensor<256xi32>
  %xmask_1 = arith.cmpi slt, %xindex_2, %xmask : tensor<256xi32>
  %x1 = arith.divsi %xindex_2, %cst_3 : tensor<256xi32>
  %x0 = arith.remsi %xindex_2, %cst_3 : tensor<256xi32>
  %tmp0 = tt.splat %in_ptr0 : !tt.ptr<i64> -> tensor<256x!tt.ptr<i64>>
  %tmp0_1 = tt.addptr %tmp0, %x1 : tensor<256x!tt.ptr<i64>>, tensor<256xi32>
  %tmp0_2 = tt.load %tmp0_1, %xmask_1 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<256x!tt.ptr<i64>>
  %tmp2 = arith.addi %tmp0_2, %cst_1 : tensor<256xi64>
  %tmp3 = arith.cmpi slt, %tmp0_2, %cst_2 : tensor<256xi64>
  %tmp4 = arith.select %tmp3, %tmp2, %tmp0_2 : tensor<256xi1>, tensor<256xi64>
  %0 = arith.cmpi sge, %tmp4, %cst_2 : tensor<256xi64>
  %1 = arith.cmpi slt, %tmp4, %cst_1 : tensor<256xi64>
  %2 = arith.andi %0, %1 : tensor<256xi1>
  %3 = arith.xori %xmask_1, %cst : tensor<256xi1>
  %4 = arith.ori %2, %3 : tensor<256xi1>
  tt.assert %4, "index out of bounds: 0 <= tmp4 < 100" : tensor<256xi1>
  %tmp6_1 = arith.muli %tmp4, %tmp6 : tensor<256xi64>
  %tmp6_2 = arith.extsi %x0 : tensor<256xi32> to tensor<256xi64>
  %tmp6_3 = arith.addi %tmp6_2, %tmp6_1 : tensor<256xi64>
  %tmp6_4 = tt.splat %in_ptr1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp6_5 = tt.addptr %tmp6_4, %tmp6_3 : tensor<256x!tt.ptr<f32>>, tensor<256xi64>
  %tmp6_6 = tt.load %tmp6_5, %xmask_1 : tensor<256x!tt.ptr<f32>>
  %tmp8_1 = arith.mulf %tmp6_6, %tmp8 : tensor<256xf32>
  %5 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %6 = tt.addptr %5, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %6, %tmp8_1, %xmask_1 : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// scatter_add__triton_poi_fused_scatter_add_1: `out[idx[x], x0] += src[x]`,
// an atomic fadd at offsets computed from the loaded indices, with Inductor's
// all-true mask.

// CHECK-LABEL: tile.kernel @triton_poi_fused_scatter_add_1(
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[ALL:.*]] = tile.broadcast %[[TRUE]] : i1 -> tensor<256xi1>
// CHECK:      %tmp0 = tile.load %in_ptr0[%[[START:.*]]] strides [1] : !tile.buffer<i64> -> tensor<256xi64>
// CHECK-NEXT: %tmp2 = tile.load %in_ptr1[%[[START]]] strides [1] : !tile.buffer<f32> -> tensor<256xf32>
// CHECK:      tile.assert %{{.*}}, "index out of bounds: 0 <= tmp0 < 64" : tensor<256xi1>
// CHECK:      tile.map %tmp0, %{{.*}} : tensor<256xi64>, i64 -> tensor<256xi64> {
// CHECK:      tile.atomic_rmw fadd %out_ptr0[%{{.*}}], %tmp2 mask %[[ALL]] : !tile.buffer<f32>, tensor<256xi64>, tensor<256xf32>
tt.func public @triton_poi_fused_scatter_add_1(%in_ptr0: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %in_ptr1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %xnumel: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %cst = arith.constant dense<32> : tensor<256xi64>
  %cst_1 = arith.constant dense<64> : tensor<256xi64>
  %cst_2 = arith.constant dense<0> : tensor<256xi64>
  %x0 = arith.constant dense<32> : tensor<256xi32>
  %cst_3 = arith.constant dense<true> : tensor<256xi1>
  %xoffset = arith.constant 256 : i32
  %xoffset_1 = tt.get_program_id x : i32
  %xoffset_2 = arith.muli %xoffset_1, %xoffset : i32
  %xindex = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %xindex_1 = tt.splat %xoffset_2 : i32 -> tensor<256xi32>
  %xindex_2 = arith.addi %xindex_1, %xindex : tensor<256xi32>
  %x0_1 = arith.remsi %xindex_2, %x0 : tensor<256xi32>
  %tmp0 = tt.splat %in_ptr0 : !tt.ptr<i64> -> tensor<256x!tt.ptr<i64>>
  %tmp0_1 = tt.addptr %tmp0, %xindex_2 : tensor<256x!tt.ptr<i64>>, tensor<256xi32>
  %tmp0_2 = tt.load %tmp0_1 : tensor<256x!tt.ptr<i64>>
  %tmp2 = tt.splat %in_ptr1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %tmp2_1 = tt.addptr %tmp2, %xindex_2 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %tmp2_2 = tt.load %tmp2_1 : tensor<256x!tt.ptr<f32>>
  %0 = arith.cmpi sge, %tmp0_2, %cst_2 : tensor<256xi64>
  %1 = arith.cmpi slt, %tmp0_2, %cst_1 : tensor<256xi64>
  %2 = arith.andi %0, %1 : tensor<256xi1>
  tt.assert %2, "index out of bounds: 0 <= tmp0 < 64" : tensor<256xi1>
  %3 = arith.muli %tmp0_2, %cst : tensor<256xi64>
  %4 = arith.extsi %x0_1 : tensor<256xi32> to tensor<256xi64>
  %5 = arith.addi %4, %3 : tensor<256xi64>
  %6 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %7 = tt.addptr %6, %5 : tensor<256x!tt.ptr<f32>>, tensor<256xi64>
  %8 = tt.atomic_rmw fadd, relaxed, gpu, %7, %tmp2_2, %cst_3 : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  tt.return
}
