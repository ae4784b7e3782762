// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// A map whose only result only the reduction right after it reads is computed
// inside that reduction's strip loop: each strip's values go from the map's
// body straight into the reduction instruction, nothing through the
// scratchpad.  Rows of a 2-D tile start `base` elements in, 8 more per row.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_sum_of_squares
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK-NEXT:    riscv.comment {comment = "tile.reduce"}
// CHECK:         rvx.loop
// CHECK:           rvv.vmv.s.x
// CHECK:           rvx.loop
// CHECK-NEXT:      ^bb0(
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[X:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[SQUARE:%[0-9]+]] = rvv.vfmul.vv [[X]], [[X]]
// CHECK-NEXT:        rvv.vfredosum.vs [[SQUARE]]
// CHECK-NOT:         rvv.vse32.v
// CHECK:           }
// CHECK:           riscv.addi {{%[0-9]+}}, 8 : (!riscv.reg) -> !riscv.reg
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @sum_of_squares(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [8, 1] : !tile.buffer<f32> -> tensor<4x8xf32>
  %squares = tile.map %t : tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    tile.yield %s : f32
  }
  %r = tile.reduce %squares {axis = 1 : i32} : tensor<4x8xf32> -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %r, %out[0] strides [1] : tensor<4xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A map result something else reads too is written to the scratchpad as
// before, and the reduction reads it from there.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_squares_kept
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:           rvv.vfmul.vv
// CHECK-NEXT:      rvv.vse32.v
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:           rvv.vle32.v
// CHECK-NEXT:      rvv.vfredosum.vs
tile.kernel @squares_kept(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %kept: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<8xf32>
  %squares = tile.map %t : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    tile.yield %s : f32
  }
  %r = tile.reduce %squares {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %squares, %kept[0] strides [1] : tensor<8xf32>, !tile.buffer<f32>
  %rt = tile.broadcast %r : f32 -> tensor<1xf32>
  tile.store %rt, %out[0] strides [1] : tensor<1xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Only the reduction right after the map computes it: with a store in
// between, the map would read in place what the store may have overwritten.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_store_between
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:           rvv.vfmul.vv
// CHECK-NEXT:      rvv.vse32.v
// CHECK:         riscv.comment {comment = "tile.store"}
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:           rvv.vle32.v
// CHECK-NEXT:      rvv.vfredosum.vs
tile.kernel @store_between(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %y: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<8xf32>
  %squares = tile.map %t : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    tile.yield %s : f32
  }
  tile.store %t, %y[0] strides [1] : tensor<8xf32>, !tile.buffer<f32>
  %r = tile.reduce %squares {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  %rt = tile.broadcast %r : f32 -> tensor<1xf32>
  tile.store %rt, %out[0] strides [1] : tensor<1xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// An iota only maps read (here through a reshape) takes no tile: the map
// computes it, `vid.v` plus the index its strip starts at, which the loop
// carries and advances by vl.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_iota_in_map
// CHECK:         riscv.comment {comment = "tile.iota"}
// CHECK-NEXT:    riscv.comment {comment = "tile.reshape"}
// CHECK-NEXT:    riscv.comment {comment = "tile.map"}
// CHECK:         [[FIRST:%[0-9]+]] = rv64.li 3 : !riscv.reg
// CHECK:         rvx.loop
// CHECK-NEXT:    ^bb0({{%[0-9]+}}: !riscv.reg, [[START:%[0-9]+]]: !riscv.reg,
// CHECK-NEXT:      [[VL:%[0-9]+]] = rvv.vsetvli
// CHECK-NEXT:      [[INDICES:%[0-9]+]] = rvv.vid.v
// CHECK-NEXT:      rvv.vadd.vx [[INDICES]], [[START]]
// CHECK:           riscv.add [[START]], [[VL]]
tile.kernel @iota_in_map(%out: !tile.buffer<i32>) {
  %i = tile.iota {start = 3 : i32} : tensor<64xi32>
  %r = tile.reshape %i : tensor<64xi32> -> tensor<1x64xi32>
  %twice = tile.map %r : tensor<1x64xi32> -> tensor<1x64xi32> {
  ^bb0(%a: i32):
    %s = arith.addi %a, %a : i32
    tile.yield %s : i32
  }
  tile.store %twice, %out[0] strides [64, 1] : tensor<1x64xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// An iota another op reads is materialised in the scratchpad for all.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_iota_stored
// CHECK:         riscv.comment {comment = "tile.iota"}
// CHECK:         rv64.li 3
// CHECK:           rvv.vid.v
// CHECK:           rvv.vse32.v
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK-NOT:       rvv.vid.v
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @iota_stored(%out: !tile.buffer<i32>, %indices: !tile.buffer<i32>) {
  %i = tile.iota {start = 3 : i32} : tensor<64xi32>
  %twice = tile.map %i : tensor<64xi32> -> tensor<64xi32> {
  ^bb0(%a: i32):
    %s = arith.addi %a, %a : i32
    tile.yield %s : i32
  }
  tile.store %twice, %out[0] strides [1] : tensor<64xi32>, !tile.buffer<i32>
  tile.store %i, %indices[0] strides [1] : tensor<64xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// A broadcast of one value (here a tile of one element, a row's mean) that
// only maps read is no tile: its element goes to a scalar slot, which the
// map reads as a uniform (`vfsub.vf`), and no copy loop runs.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_broadcast_mean
// CHECK:         riscv.comment {comment = "tile.broadcast"}
// CHECK-NEXT:    [[MEAN:%[0-9]+]] = rvx.lwu
// CHECK-NEXT:    riscv.sw {{%[0-9]+}}, [[MEAN]]
// CHECK-NEXT:    riscv.comment {comment = "tile.map"}
// CHECK-NOT:     riscv.comment
// CHECK:           rvv.vfsub.vf
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @broadcast_mean(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<1x64xf32>
  %m = tile.load %x[64] strides [1, 1] : !tile.buffer<f32> -> tensor<1x1xf32>
  %mean = tile.map %m : tensor<1x1xf32> -> tensor<1x1xf32> {
  ^bb0(%a: f32):
    %h = arith.mulf %a, %a : f32
    tile.yield %h : f32
  }
  %b = tile.broadcast %mean : tensor<1x1xf32> -> tensor<1x64xf32>
  %d = tile.map %t, %b : tensor<1x64xf32>, tensor<1x64xf32> -> tensor<1x64xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.subf %p, %q : f32
    tile.yield %r : f32
  }
  tile.store %d, %out[0] strides [64, 1] : tensor<1x64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A store cut by one bound (its in-bounds elements a prefix: Inductor's
// `xmask` on a row) is still done by the map: each strip stores under a
// `vid.v < left` mask, `left` counted down after the store, and the store's
// own code is gone.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_masked_store
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         rvx.loop
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      [[VL:%[0-9]+]] = rvv.vsetvli
// CHECK:           [[INDICES:%[0-9]+]] = rvv.vid.v
// CHECK-NEXT:      [[IN:%[0-9]+]] = rvv.vmslt.vx [[INDICES]], [[LEFT:%[0-9]+]] : (!rvv.reg<m8>, !riscv.reg) -> !rvv.mask<m1, v0>
// CHECK-NEXT:      rvv.vse32.v {{%[0-9]+}}, {{%[0-9]+}} masked [[IN]] : !rvv.mask<m1, v0>
// CHECK-NEXT:      riscv.sub [[LEFT]], [[VL]]
// CHECK:         riscv.comment {comment = "tile.store"}
// CHECK-NEXT:    riscv.comment {comment = "tile.return"}
tile.kernel @masked_store(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %row: index) {
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<1x64xf32>
  %d = tile.map %t : tensor<1x64xf32> -> tensor<1x64xf32> {
  ^bb0(%p: f32):
    %r = arith.addf %p, %p : f32
    tile.yield %r : f32
  }
  tile.store %d, %out[0] strides [64, 1] upper [%row, 64] : tensor<1x64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A one-row reduction whose result only a store reads (through a reshape)
// writes it where the store would, if the store's one element is in bounds;
// the store's own code is gone.  The address's scalar ops come first
// (hoist-scalar-arith puts Inductor's there), and the offset the scalar
// program stored is read back from its register, not from its slot.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_row_total
// CHECK:         riscv.comment {comment = "scalar ops: arith.index_cast"}
// CHECK-NEXT:    [[ROW:%[0-9]+]] = riscv.lw
// CHECK-NEXT:    rv64.sd [[S0:%[0-9]+]], [[ROW]], [[SLOT:-[0-9]+]]
// CHECK-NOT:     rv64.ld [[S0]], [[SLOT]]
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         rvv.vfredosum.vs
// CHECK:         [[TOTAL:%[0-9]+]] = rvv.vmv.x.s
// CHECK-NEXT:    rvx.if lt {{%[0-9]+}}, {{%[0-9]+}}
// CHECK-NEXT:      riscv.sw {{%[0-9]+}}, [[TOTAL]], 0
// CHECK:         riscv.comment {comment = "tile.reshape"}
// CHECK-NEXT:    riscv.comment {comment = "tile.store"}
// CHECK-NEXT:    riscv.comment {comment = "tile.return"}
tile.kernel @row_total(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %rows: index) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %row = arith.index_cast %pid : i32 to index
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<1x64xf32>
  %r = tile.reduce %t {axis = 1 : i32} : tensor<1x64xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  %r2 = tile.reshape %r : tensor<1xf32> -> tensor<1x1xf32>
  tile.store %r2, %out[%row] strides [0, 0] upper [%rows, 1] : tensor<1x1xf32>, !tile.buffer<f32>
  tile.return
}
