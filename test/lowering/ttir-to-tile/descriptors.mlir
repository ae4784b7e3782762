// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// Tensor descriptors (tl.make_tensor_descriptor, Triton 3.9's block pointers).
// A block load or store at [m, k] is a structured transfer: offset m * N + k,
// the descriptor's strides, and bounds min(max(M - m, 0), 16) and
// min(max(N - k, 0), 32), so elements outside the tensor are not moved (a load
// reads the zero padding there).  m and k are non-negative (program ids times
// constants): no lower bounds.

// CHECK-LABEL: tile.kernel @block_copy(%X: !tile.buffer<f32>, %Y: !tile.buffer<f32>, %M: i32, %N: i32)
// CHECK:      %[[M:.*]] = arith.index_cast %M : i32 to index
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %N : i32 to index
// CHECK-NEXT: %[[STRIDE:.*]] = arith.index_cast %n : i64 to index
// CHECK:      %[[ROW:.*]] = arith.index_cast %m : i32 to index
// CHECK-NEXT: %[[COLUMN:.*]] = arith.index_cast %k : i32 to index
// CHECK-NEXT: %[[SKIP:.*]] = arith.muli %[[ROW]], %[[STRIDE]] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.addi %[[SKIP]], %[[COLUMN]] : index
// CHECK-NEXT: %[[ROWS_LEFT:.*]] = arith.subi %[[M]], %[[ROW]] : index
// CHECK:      %[[ROWS:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:      %[[COLUMNS_LEFT:.*]] = arith.subi %[[N]], %[[COLUMN]] : index
// CHECK:      %[[COLUMNS:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %v = tile.load %X[%[[OFFSET]]] strides [%[[STRIDE]], 1] upper [%[[ROWS]], %[[COLUMNS]]] pad %[[ZERO]] : !tile.buffer<f32> -> tensor<16x32xf32>
// CHECK:      tile.store %w, %Y[%{{.*}}] strides [%{{.*}}, 1] upper [%{{.*}}, %{{.*}}] : tensor<16x32xf32>, !tile.buffer<f32>
tt.func public @block_copy(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %M: i32, %N: i32) {
  %cst = arith.constant dense<2.000000e+00> : tensor<16x32xf32>
  %c32 = arith.constant 32 : i32
  %c16 = arith.constant 16 : i32
  %c1_i64 = arith.constant 1 : i64
  %n = arith.extsi %N : i32 to i64
  %dx = tt.make_tensor_descriptor %X, [%M, %N], [%n, %c1_i64] : <f32>, <16x32xf32>
  %dy = tt.make_tensor_descriptor %Y, [%M, %N], [%n, %c1_i64] : <f32>, <16x32xf32>
  %pid_m = tt.get_program_id x : i32
  %m = arith.muli %pid_m, %c16 : i32
  %pid_n = tt.get_program_id y : i32
  %k = arith.muli %pid_n, %c32 : i32
  %v = tt.descriptor_load %dx[%m, %k] : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  %w = arith.mulf %v, %cst : tensor<16x32xf32>
  tt.descriptor_store %dy[%m, %k], %w : !tt.tensordesc<16x32xf32>, tensor<16x32xf32>
  tt.return
}

// -----

// padding = nan: a load reads NaN outside the tensor.  A start that may be
// negative gets a lower bound, min(max(-start, 0), 32).  The 1x32 block is
// loaded as the 32 elements the TTIR asks for (a reshape).

// CHECK-LABEL: tile.kernel @nan_padding(
// CHECK:      %[[START:.*]] = arith.index_cast %start : i32 to index
// CHECK-NEXT: %[[MINUS:.*]] = arith.constant -1 : index
// CHECK-NEXT: %[[NEG:.*]] = arith.muli %[[START]], %[[MINUS]] : index
// CHECK:      %[[LOWER:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:      %[[NAN:.*]] = arith.constant 0x7fc00000 : f32
// CHECK-NEXT: %[[BLOCK:.*]] = tile.load %X[%[[START]]] strides [%{{.*}}, 1] lower [0, %[[LOWER]]] upper [1, %{{.*}}] pad %[[NAN]] : !tile.buffer<f32> -> tensor<1x32xf32>
// CHECK-NEXT: %v = tile.reshape %[[BLOCK]] : tensor<1x32xf32> -> tensor<32xf32>
tt.func public @nan_padding(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %N: i32, %start: i32) {
  %c1_i64 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = arith.extsi %N : i32 to i64
  %d = tt.make_tensor_descriptor %X, [%c1, %N], [%n, %c1_i64] {padding = 2 : i32} : <f32>, <1x32xf32>
  %v = tt.descriptor_load %d[%c0, %start] : !tt.tensordesc<1x32xf32> -> tensor<32xf32>
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ys = tt.splat %Y : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %yq = tt.addptr %ys, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  tt.store %yq, %v : tensor<32x!tt.ptr<f32>>
  tt.return
}

// -----

// desc.gather(rows, y) / desc.scatter(v, rows, y): the offsets of rows[i],
// columns y + j and whether each lies inside the tensor are computed on the
// vector unit; the accesses are a gather and a scatter under that mask.

// CHECK-LABEL: tile.kernel @rows(
// CHECK-COUNT-3: tile.map %{{.*}}, %{{.*}} : tensor<8x32xi1>, tensor<8x32xi1> -> tensor<8x32xi1> {
// CHECK:        arith.andi
// CHECK-NEXT:   tile.yield
// CHECK-NEXT: }
// CHECK:      %[[NONE:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %v = tile.gather %X[%{{[0-9]+}}] mask %{{[0-9]+}} pad %[[NONE]] : !tile.buffer<f32>, tensor<8x32xi64> -> tensor<8x32xf32>
// CHECK:      tile.scatter %v, %X[%{{.*}}] mask %{{.*}} : tensor<8x32xf32>, !tile.buffer<f32>, tensor<8x32xi64>
tt.func public @rows(%X: !tt.ptr<f32>, %I: !tt.ptr<i32>, %M: i32, %N: i32, %y: i32) {
  %c1_i64 = arith.constant 1 : i64
  %n = arith.extsi %N : i32 to i64
  %d = tt.make_tensor_descriptor %X, [%M, %N], [%n, %c1_i64] : <f32>, <1x32xf32>
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %is = tt.splat %I : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %iq = tt.addptr %is, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %rows = tt.load %iq : tensor<8x!tt.ptr<i32>>
  %v = tt.descriptor_gather %d[%rows, %y] : (!tt.tensordesc<1x32xf32>, tensor<8xi32>, i32) -> tensor<8x32xf32>
  tt.descriptor_scatter %d[%rows, %y], %v : !tt.tensordesc<1x32xf32>, tensor<8xi32>, i32, tensor<8x32xf32>
  tt.return
}


// -----

// Below sm_90 Triton rewrites descriptors to pointers, reshaping each
// dimension's indices to [16, 1] and [1, 32].  A reshape that only adds (or
// drops) dimensions of size 1 keeps the affine index and the mask's boxes, so
// the rewritten block copy is structured too: the same load and store.

// CHECK-LABEL: tile.kernel @rewritten_block_copy(
// CHECK:      %v = tile.load %X[%{{.*}}] strides [%{{.*}}, 1] lower [%{{.*}}, %{{.*}}] upper [%{{.*}}, %{{.*}}] pad %{{.*}} : !tile.buffer<f32> -> tensor<16x32xf32>
// CHECK-NOT:  tile.gather
// CHECK:      tile.store %{{.*}}, %Y[%{{.*}}] strides [%{{.*}}, 1] lower [%{{.*}}, %{{.*}}] upper [%{{.*}}, %{{.*}}] : tensor<16x32xf32>, !tile.buffer<f32>
// CHECK-NOT:  tile.scatter
tt.func public @rewritten_block_copy(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %M: i32, %N: i32) {
  %cst = arith.constant dense<0> : tensor<1x32xi64>
  %cst_0 = arith.constant dense<0> : tensor<16x1xi64>
  %v = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
  %cst_1 = arith.constant dense<2.000000e+00> : tensor<16x32xf32>
  %pn = arith.constant 32 : i32
  %pm = arith.constant 16 : i32
  %dx = arith.extsi %N : i32 to i64
  %M_2 = arith.extsi %M : i32 to i64
  %pm_3 = tt.get_program_id x : i32
  %pm_4 = arith.muli %pm_3, %pm : i32
  %pn_5 = tt.get_program_id y : i32
  %pn_6 = arith.muli %pn_5, %pn : i32
  %pm_7 = arith.extsi %pm_4 : i32 to i64
  %pn_8 = arith.extsi %pn_6 : i32 to i64
  %v_9 = tt.splat %pm_7 : i64 -> tensor<16xi64>
  %v_10 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %v_11 = arith.extsi %v_10 : tensor<16xi32> to tensor<16xi64>
  %v_12 = arith.addi %v_9, %v_11 : tensor<16xi64>
  %v_13 = tt.reshape %v_12 : tensor<16xi64> -> tensor<16x1xi64>
  %v_14 = tt.splat %pn_8 : i64 -> tensor<32xi64>
  %v_15 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %v_16 = arith.extsi %v_15 : tensor<32xi32> to tensor<32xi64>
  %v_17 = arith.addi %v_14, %v_16 : tensor<32xi64>
  %v_18 = tt.reshape %v_17 : tensor<32xi64> -> tensor<1x32xi64>
  %v_19 = tt.splat %X : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  %v_20 = tt.splat %dx : i64 -> tensor<16x1xi64>
  %v_21 = arith.muli %v_13, %v_20 : tensor<16x1xi64>
  %v_22 = tt.broadcast %v_21 : tensor<16x1xi64> -> tensor<16x32xi64>
  %v_23 = tt.broadcast %v_18 : tensor<1x32xi64> -> tensor<16x32xi64>
  %v_24 = arith.addi %v_22, %v_23 : tensor<16x32xi64>
  %v_25 = tt.addptr %v_19, %v_24 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi64>
  %v_26 = arith.cmpi sge, %v_13, %cst_0 : tensor<16x1xi64>
  %v_27 = tt.splat %M_2 : i64 -> tensor<16x1xi64>
  %v_28 = arith.cmpi slt, %v_13, %v_27 : tensor<16x1xi64>
  %v_29 = arith.andi %v_26, %v_28 : tensor<16x1xi1>
  %v_30 = tt.broadcast %v_29 : tensor<16x1xi1> -> tensor<16x32xi1>
  %v_31 = arith.cmpi sge, %v_18, %cst : tensor<1x32xi64>
  %v_32 = tt.splat %dx : i64 -> tensor<1x32xi64>
  %v_33 = arith.cmpi slt, %v_18, %v_32 : tensor<1x32xi64>
  %v_34 = arith.andi %v_31, %v_33 : tensor<1x32xi1>
  %v_35 = tt.broadcast %v_34 : tensor<1x32xi1> -> tensor<16x32xi1>
  %v_36 = arith.andi %v_30, %v_35 : tensor<16x32xi1>
  %v_37 = tt.load %v_25, %v_36, %v : tensor<16x32x!tt.ptr<f32>>
  %0 = arith.mulf %v_37, %cst_1 : tensor<16x32xf32>
  %1 = tt.splat %Y : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  %2 = tt.addptr %1, %v_24 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi64>
  tt.store %2, %0, %v_36 : tensor<16x32x!tt.ptr<f32>>
  tt.return
}
