// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// A contiguous, whole load that only a map reads is read where it lies: the
// load computes the address of its first element and moves nothing.  The
// store of the map's result is done by the map, which writes where the store
// would: unless the output starts inside an input read in place (it would
// overwrite elements not yet read), then the map writes into the scratchpad
// and the store's copy runs after it: 0 < out - x < 256 bytes, as one
// unsigned compare.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_add
// CHECK:         riscv.comment {comment = "tile.load"}
// CHECK-NOT:     rvx.loop
// CHECK:         [[X:%[0-9]+]] = riscv.add
// CHECK-NEXT:    riscv.comment {comment = "tile.load"}
// CHECK-NOT:     rvx.loop
// CHECK:         [[Y:%[0-9]+]] = riscv.add
// CHECK-NEXT:    riscv.comment {comment = "tile.map"}
// CHECK:         [[OUT:%[0-9]+]] = riscv.add
// CHECK-NEXT:    [[DISTANCE:%[0-9]+]] = riscv.sub [[OUT]], [[X]]
// CHECK-NEXT:    [[LESS:%[0-9]+]] = riscv.addi [[DISTANCE]], -1
// CHECK-NEXT:    [[XOVER:%[0-9]+]] = riscv.sltiu [[LESS]], 255
// CHECK-NEXT:    [[YDISTANCE:%[0-9]+]] = riscv.sub [[OUT]], [[Y]]
// CHECK-NEXT:    [[YLESS:%[0-9]+]] = riscv.addi [[YDISTANCE]], -1
// CHECK-NEXT:    [[YOVER:%[0-9]+]] = riscv.sltiu [[YLESS]], 255
// CHECK-NEXT:    [[OVERLAP:%[0-9]+]] = riscv.or [[XOVER]], [[YOVER]]
// CHECK-NEXT:    [[TO_SCRATCH:%[0-9]+]] = riscv.sub %{{[0-9]+}}, [[OUT]]
// CHECK-NEXT:    [[DETOUR:%[0-9]+]] = riscv.mul [[TO_SCRATCH]], [[OVERLAP]]
// CHECK-NEXT:    [[WHERE:%[0-9]+]] = riscv.add [[OUT]], [[DETOUR]]
// CHECK:         rvx.loop
// CHECK:           rvv.vle32.v
// CHECK-NEXT:      rvv.vle32.v
// CHECK-NEXT:      rvv.vfadd.vv
// CHECK-NEXT:      rvv.vse32.v
// CHECK:         rvx.if ne [[OVERLAP]], %{{[0-9]+}}
// CHECK:           rvx.loop
// CHECK:             rvv.vle32.v
// CHECK-NEXT:        rvv.vse32.v
// CHECK:         riscv.comment {comment = "tile.store"}
// CHECK-NEXT:    riscv.comment {comment = "tile.return"}
tile.kernel @add(%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %a = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %b = tile.load %y[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %s = tile.map %a, %b : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  tile.store %s, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// With no input read in place, nothing can overlap: the map writes where the
// store would, unconditionally.  A load cut by a bound that is not its
// first dimension of more than one element (its in-bounds elements are not
// a prefix), and a load a reduction reads, are copied into the scratchpad as
// before.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_copied
// CHECK:         riscv.comment {comment = "tile.load"}
// CHECK:         rvx.loop
// CHECK:         riscv.comment {comment = "tile.load"}
// CHECK:         rvx.loop
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK-NOT:     riscv.sltiu
// CHECK-NOT:     rvx.if
// CHECK:         rvv.vse32.v
// CHECK-NOT:     rvx.loop
// CHECK:         riscv.comment {comment = "tile.store"}
// CHECK-NEXT:    riscv.comment {comment = "tile.return"}
tile.kernel @copied(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: index) {
  %a = tile.load %x[0] strides [16, 1] upper [4, %n] : !tile.buffer<f32> -> tensor<4x16xf32>
  %b = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %m = tile.reduce %b {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %s = tile.map %a, %m : tensor<4x16xf32>, f32 -> tensor<4x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.subf %p, %q : f32
    tile.yield %r : f32
  }
  tile.store %s, %out[0] strides [16, 1] : tensor<4x16xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A load whose in-bounds elements are a prefix (Inductor's row of one
// program, cut by `r0_mask`: the bound of its one long dimension, the bound
// of its row of one element 0 or 1; the stride of that dimension never
// matters) is read in place too.  The load counts its in-bounds elements,
// clamped to the tile and 0 when the row is out of bounds; each strip
// loads those left under a `vid.v < count` mask in v0 (compared at 32 bits
// or more, whatever the element: an i8 index would wrap), over a register
// of the pad value, and counts down by vl.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_padded_row
// CHECK:         riscv.comment {comment = "tile.load"}
// CHECK-NOT:     rvx.loop
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         rvx.loop
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      [[VL:%[0-9]+]] = rvv.vsetvli
// CHECK-NEXT:      [[INDICES:%[0-9]+]] = rvv.vid.v
// CHECK-NEXT:      [[IN:%[0-9]+]] = rvv.vmslt.vx [[INDICES]], [[LEFT:%[0-9]+]] : (!rvv.reg<m8>, !riscv.reg) -> !rvv.mask<m1, v0>
// CHECK-NEXT:      [[PAD:%[0-9]+]] = rvv.vmv.v.x
// CHECK-NEXT:      rvv.vle32.v {{%[0-9]+}} masked([[IN]] : !rvv.mask<m1, v0>, [[PAD]] : !rvv.reg<m8>)
// CHECK:           riscv.sub [[LEFT]], [[VL]]
tile.kernel @padded_row(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %row: index, %n: index) {
  %pad = arith.constant 0.0 : f32
  %a = tile.load %x[0] strides [0, 1] upper [%row, %n] pad %pad : !tile.buffer<f32> -> tensor<1x64xf32>
  %s = tile.map %a : tensor<1x64xf32> -> tensor<1x64xf32> {
  ^bb0(%p: f32):
    %r = arith.mulf %p, %p : f32
    tile.yield %r : f32
  }
  tile.store %s, %out[0] strides [64, 1] : tensor<1x64xf32>, !tile.buffer<f32>
  tile.return
}
