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
