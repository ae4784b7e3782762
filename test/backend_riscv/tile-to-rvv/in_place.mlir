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
// store would, unconditionally.  A masked load, and a load a reduction reads,
// are copied into the scratchpad as before.
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
  %a = tile.load %x[0] strides [1] upper [%n] : !tile.buffer<f32> -> tensor<64xf32>
  %b = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %m = tile.reduce %b {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %s = tile.map %a, %m : tensor<64xf32>, f32 -> tensor<64xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.subf %p, %q : f32
    tile.yield %r : f32
  }
  tile.store %s, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
