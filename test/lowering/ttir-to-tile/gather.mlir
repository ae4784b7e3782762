// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// Indices loaded from memory (an embedding lookup) are not affine: the offsets
// are computed on the vector unit and the access is a gather.

// CHECK-LABEL: tile.kernel @embedding(%table: !tile.buffer<f32>, %ids: !tile.buffer<i64>)
// CHECK:      %[[IDS:.*]] = tile.load %ids[%{{.*}}] strides [1] : !tile.buffer<i64> -> tensor<64xi64>
// CHECK:      %[[OFFS:.*]] = tile.map %{{.*}}, %[[IDS]] : tensor<64xi64>, tensor<64xi64> -> tensor<64xi64>
// CHECK:      tile.gather %table[%[[OFFS]]] : !tile.buffer<f32>, tensor<64xi64> -> tensor<64xf32>
tt.func @embedding(%table: !tt.ptr<f32>, %ids: !tt.ptr<i64>) {
  %pid = tt.get_program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %start : i32 -> tensor<64xi32>
  %i = arith.addi %s, %r : tensor<64xi32>
  %idp0 = tt.splat %ids : !tt.ptr<i64> -> tensor<64x!tt.ptr<i64>>
  %idp = tt.addptr %idp0, %i : tensor<64x!tt.ptr<i64>>, tensor<64xi32>
  %id = tt.load %idp : tensor<64x!tt.ptr<i64>>
  %tp0 = tt.splat %table : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %tp = tt.addptr %tp0, %id : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  %v = tt.load %tp : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// x % 3 over a 256-wide tile is not affine in any split of the tile: gather.

// CHECK-LABEL: tile.kernel @mod_three
// CHECK-NOT: tile.load
// CHECK: tile.gather
tt.func @mod_three(%in: !tt.ptr<f32>) {
  %c3 = arith.constant dense<3> : tensor<256xi32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %m = arith.remsi %r, %c3 : tensor<256xi32>
  %p0 = tt.splat %in : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %p = tt.addptr %p0, %m : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %v = tt.load %p : tensor<256x!tt.ptr<f32>>
  tt.return
}
