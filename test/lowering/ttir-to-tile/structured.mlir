// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// A masked 1-D access becomes a DMA with an upper bound: clamp(n - offset, 0, 256).

// CHECK-LABEL: tile.kernel @masked_1d(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32)
// CHECK:      %[[PID:.*]] = tile.program_id {axis = 0 : i32} : i32
// CHECK:      %[[START:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.index_cast %[[START]] : i32 to index
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %n : i32 to index
// CHECK-NEXT: %[[REST:.*]] = arith.subi %[[N]], %[[OFF]] : index
// CHECK:      %[[LOW:.*]] = arith.maxsi %[[REST]], %{{.*}} : index
// CHECK:      %[[UP:.*]] = arith.minsi %[[LOW]], %{{.*}} : index
// CHECK:      %[[V:.*]] = tile.load %x[%[[OFF]]] strides [1] upper [%[[UP]]] : !tile.buffer<f32> -> tensor<256xf32>
// CHECK:      tile.store %[[V]], %out[%[[OFF]]] strides [1] upper [%[[UP]]] : tensor<256xf32>, !tile.buffer<f32>
tt.func @masked_1d(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c256 = arith.constant 256 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c256 : i32
  %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %starts = tt.splat %start : i32 -> tensor<256xi32>
  %idx = arith.addi %starts, %range : tensor<256xi32>
  %ns = tt.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %idx, %ns : tensor<256xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %idx : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %v = tt.load %xp, %mask : tensor<256x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %op = tt.addptr %os, %idx : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %op, %v, %mask : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// Inductor's x0 = xindex % 64, x1 = xindex // 64 over a 256-wide tile whose
// offset is a multiple of 64: the tile reads as a 4x64 box, x1 with stride 128
// (a transposed-channel layout) and x0 with stride 1. The constant bound 2048
// is a multiple of 64, so the mask becomes a bound on the row digit.

// CHECK-LABEL: tile.kernel @mod_div(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>)
// CHECK:      %[[BASE:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:      %[[ROW:.*]] = arith.divsi %[[BASE]], %{{.*}} : index
// CHECK:      %[[ROWOFF:.*]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK:      %[[T:.*]] = tile.load %in[%[[ROWOFF]]] strides [128, 1] upper [%{{.*}}, 64] : !tile.buffer<f32> -> tensor<4x64xf32>
// CHECK-NEXT: %{{.*}} = tile.reshape %[[T]] : tensor<4x64xf32> -> tensor<256xf32>
tt.func @mod_div(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %c256 = arith.constant 256 : i32
  %c64 = arith.constant dense<64> : tensor<256xi32>
  %c128 = arith.constant dense<128> : tensor<256xi32>
  %c2048 = arith.constant dense<2048> : tensor<256xi32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c256 : i32
  %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %starts = tt.splat %start : i32 -> tensor<256xi32>
  %xindex = arith.addi %starts, %range : tensor<256xi32>
  %mask = arith.cmpi slt, %xindex, %c2048 : tensor<256xi32>
  %x0 = arith.remsi %xindex, %c64 : tensor<256xi32>
  %x1 = arith.divsi %xindex, %c64 : tensor<256xi32>
  %row = arith.muli %x1, %c128 : tensor<256xi32>
  %addr = arith.addi %x0, %row : tensor<256xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %inp = tt.addptr %ins, %addr : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %v = tt.load %inp, %mask : tensor<256x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %op = tt.addptr %os, %xindex : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %op, %v, %mask : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// A 2-D tile [XBLOCK, RBLOCK] of a row-major matrix: strides [row length, 1],
// the row mask a bound on dimension 0, the column mask on dimension 1, and a
// uniform `other` becomes the DMA's pad value.

// CHECK-LABEL: tile.kernel @rows(%in: !tile.buffer<f32>, %rows: i32)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: tile.load %in[%{{.*}}] strides [100, 1] upper [%{{.*}}, 100] pad %[[ZERO]] : !tile.buffer<f32> -> tensor<8x128xf32>
tt.func @rows(%in: !tt.ptr<f32>, %rows: i32) {
  %c8 = arith.constant 8 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<8x128xf32>
  %c100_r = arith.constant dense<100> : tensor<1x128xi32>
  %c100_x = arith.constant dense<100> : tensor<8x1xi32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c8 : i32
  %xr = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %start : i32 -> tensor<8xi32>
  %x = arith.addi %xs, %xr : tensor<8xi32>
  %x2 = tt.expand_dims %x {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %nr = tt.splat %rows : i32 -> tensor<8x1xi32>
  %xmask = arith.cmpi slt, %x2, %nr : tensor<8x1xi32>
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rmask = arith.cmpi slt, %r2, %c100_r : tensor<1x128xi32>
  %rowoff = arith.muli %x2, %c100_x : tensor<8x1xi32>
  %rowb = tt.broadcast %rowoff : tensor<8x1xi32> -> tensor<8x128xi32>
  %colb = tt.broadcast %r2 : tensor<1x128xi32> -> tensor<8x128xi32>
  %addr = arith.addi %rowb, %colb : tensor<8x128xi32>
  %xmb = tt.broadcast %xmask : tensor<8x1xi1> -> tensor<8x128xi1>
  %rmb = tt.broadcast %rmask : tensor<1x128xi1> -> tensor<8x128xi1>
  %mask = arith.andi %xmb, %rmb : tensor<8x128xi1>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<8x128x!tt.ptr<f32>>
  %p = tt.addptr %ins, %addr : tensor<8x128x!tt.ptr<f32>>, tensor<8x128xi32>
  %v = tt.load %p, %mask, %zero : tensor<8x128x!tt.ptr<f32>>
  tt.return
}
