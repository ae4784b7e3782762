// RUN: tnpu-opt %s -p ttir-to-tile,dce | filecheck %s

// mm__triton_tem_fused_mm_0 (test/fixtures/corpus/inductor; locations
// dropped): Inductor's GEMM template, a 32x32 output tile of a 64x128 by
// 128x96 product, its K loop stepping 16.  The grouped program-id
// arithmetic stays scalar; `rm % 64` over 32 rows at a multiple of 32 is
// affine, so both operand tiles are structured loads whose offsets follow the
// loop index; tt.dot is tile.matmul on the carried accumulator; the masked
// store is bounded in both dimensions.

// CHECK-LABEL: tile.kernel @triton_tem_fused_mm_0(
// CHECK:      %[[ROW:.*]] = arith.index_cast %rm : i32 to index
// CHECK:      %[[COLUMN:.*]] = arith.index_cast %rn : i32 to index
// CHECK:      %[[ROWMOD:.*]] = arith.remsi %[[ROW]], %{{.*}} : index
// CHECK:      %[[COLUMNMOD:.*]] = arith.remsi %[[COLUMN]], %{{.*}} : index
// CHECK:      %acc = scf.for %k_idx = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%acc_1 = %{{.*}}) -> (tensor<32x32xf32>) : i32 {
// CHECK:        %[[K:.*]] = arith.index_cast %a_k_idx_vals : i32 to index
// CHECK:        %a = tile.load %arg_A[%{{.*}}] strides [128, 1] : !tile.buffer<f32> -> tensor<32x16xf32>
// CHECK:        %b = tile.load %arg_B[%{{.*}}] strides [96, 1] : !tile.buffer<f32> -> tensor<16x32xf32>
// CHECK-NEXT:   %acc_2 = tile.matmul %a, %b, %acc_1 : tensor<32x16xf32>, tensor<16x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT:   scf.yield %acc_2 : tensor<32x32xf32>
// CHECK-NEXT: }
// CHECK:      tile.store %acc, %out_ptr0[%{{.*}}] strides [96, 1] upper [%{{.*}}, %{{.*}}] : tensor<32x32xf32>, !tile.buffer<f32>
tt.func public @triton_tem_fused_mm_0(%arg_A: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg_B: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %c1_i32 = arith.constant 1 : i32
  %width = arith.constant 24 : i32
  %grid_m = arith.constant 2 : i32
  %cst = arith.constant dense<96> : tensor<32x1xi32>
  %cst_1 = arith.constant dense<96> : tensor<1x32xi32>
  %cst_2 = arith.constant dense<64> : tensor<32x1xi32>
  %cst_3 = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %cst_4 = arith.constant dense<96> : tensor<16x1xi32>
  %cst_5 = arith.constant dense<128> : tensor<32x1xi32>
  %c16_i32 = arith.constant 16 : i32
  %cst_6 = arith.constant dense<96> : tensor<32xi32>
  %cst_7 = arith.constant dense<64> : tensor<32xi32>
  %c8_i32 = arith.constant 8 : i32
  %c32_i32 = arith.constant 32 : i32
  %c0_i32 = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %group_id = arith.divsi %pid, %width : i32
  %group_size = arith.muli %group_id, %c8_i32 : i32
  %group_size_1 = arith.subi %grid_m, %group_size : i32
  %group_size_2 = arith.minsi %group_size_1, %c8_i32 : i32
  %pid_m = arith.remsi %pid, %group_size_2 : i32
  %pid_m_1 = arith.addi %group_size, %pid_m : i32
  %pid_n = arith.remsi %pid, %width : i32
  %pid_n_1 = arith.divsi %pid_n, %group_size_2 : i32
  %rm = arith.muli %pid_m_1, %c32_i32 : i32
  %rm_1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm_2 = tt.splat %rm : i32 -> tensor<32xi32>
  %rm_3 = arith.addi %rm_2, %rm_1 : tensor<32xi32>
  %rn = arith.muli %pid_n_1, %c32_i32 : i32
  %rn_1 = tt.splat %rn : i32 -> tensor<32xi32>
  %rn_2 = arith.addi %rn_1, %rm_1 : tensor<32xi32>
  %offs_a_m = arith.remsi %rm_3, %cst_7 {tt.contiguity = dense<32> : tensor<1xi32>, tt.divisibility = dense<32> : tensor<1xi32>} : tensor<32xi32>
  %offs_b_n = arith.remsi %rn_2, %cst_6 {tt.contiguity = dense<32> : tensor<1xi32>, tt.divisibility = dense<32> : tensor<1xi32>} : tensor<32xi32>
  %offs_k = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %acc = scf.for %k_idx = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%acc_1 = %cst_3) -> (tensor<32x32xf32>) : i32 {
    %a_k_idx_vals = tt.expand_dims %offs_k {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %a_k_idx_vals_1 = arith.muli %k_idx, %c16_i32 : i32
    %a_k_idx_vals_2 = tt.splat %a_k_idx_vals_1 : i32 -> tensor<1x16xi32>
    %a_k_idx_vals_3 = arith.addi %a_k_idx_vals, %a_k_idx_vals_2 : tensor<1x16xi32>
    %b_k_idx_vals = tt.expand_dims %offs_k {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %b_k_idx_vals_1 = tt.splat %a_k_idx_vals_1 : i32 -> tensor<16x1xi32>
    %b_k_idx_vals_2 = arith.addi %b_k_idx_vals, %b_k_idx_vals_1 : tensor<16x1xi32>
    %idx_m = tt.expand_dims %offs_a_m {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %xindex = arith.muli %idx_m, %cst_5 : tensor<32x1xi32>
    %xindex_1 = tt.broadcast %a_k_idx_vals_3 : tensor<1x16xi32> -> tensor<32x16xi32>
    %xindex_2 = tt.broadcast %xindex : tensor<32x1xi32> -> tensor<32x16xi32>
    %xindex_3 = arith.addi %xindex_1, %xindex_2 : tensor<32x16xi32>
    %a = tt.splat %arg_A : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>>
    %a_1 = tt.addptr %a, %xindex_3 : tensor<32x16x!tt.ptr<f32>>, tensor<32x16xi32>
    %a_2 = tt.load %a_1 : tensor<32x16x!tt.ptr<f32>>
    %idx_n = tt.expand_dims %offs_b_n {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %xindex_4 = arith.muli %b_k_idx_vals_2, %cst_4 : tensor<16x1xi32>
    %xindex_5 = tt.broadcast %idx_n : tensor<1x32xi32> -> tensor<16x32xi32>
    %xindex_6 = tt.broadcast %xindex_4 : tensor<16x1xi32> -> tensor<16x32xi32>
    %xindex_7 = arith.addi %xindex_5, %xindex_6 : tensor<16x32xi32>
    %b = tt.splat %arg_B : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %b_1 = tt.addptr %b, %xindex_7 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    %b_2 = tt.load %b_1 : tensor<16x32x!tt.ptr<f32>>
    %acc_2 = tt.dot %a_2, %b_2, %acc_1 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
    scf.yield %acc_2 : tensor<32x32xf32>
  }
  %idx_m_1 = tt.expand_dims %rm_3 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %idx_n_1 = tt.expand_dims %rn_2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %mask = arith.cmpi slt, %idx_m_1, %cst_2 : tensor<32x1xi32>
  %mask_1 = arith.cmpi slt, %idx_n_1, %cst_1 : tensor<1x32xi32>
  %mask_2 = tt.broadcast %mask : tensor<32x1xi1> -> tensor<32x32xi1>
  %mask_3 = tt.broadcast %mask_1 : tensor<1x32xi1> -> tensor<32x32xi1>
  %mask_4 = arith.andi %mask_2, %mask_3 : tensor<32x32xi1>
  %xindex_8 = arith.muli %idx_m_1, %cst : tensor<32x1xi32>
  %xindex_9 = tt.broadcast %idx_n_1 : tensor<1x32xi32> -> tensor<32x32xi32>
  %xindex_10 = tt.broadcast %xindex_8 : tensor<32x1xi32> -> tensor<32x32xi32>
  %xindex_11 = arith.addi %xindex_9, %xindex_10 : tensor<32x32xi32>
  %0 = tt.splat %out_ptr0 : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %1 = tt.addptr %0, %xindex_11 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
  tt.store %1, %acc, %mask_4 : tensor<32x32x!tt.ptr<f32>>
  tt.return
}
