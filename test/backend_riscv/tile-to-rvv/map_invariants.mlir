// RUN: tnpu-opt %s -p hoist-map-invariants,tile-to-rvv | filecheck %s

// A map of two scalars (fuse-tile-maps passes broadcast scalars as they
// are) yields a value the same for every element: hoist-map-invariants
// computes it before the map, which then yields a value from above, a
// uniform the strip loop splats and stores.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_uniform_yield
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         rvx.loop
// CHECK:           [[SPLAT:%[0-9]+]] = rvv.vmv.v.x
// CHECK-NEXT:      rvv.vse32.v [[SPLAT]]
tile.kernel @uniform_yield(%out: !tile.buffer<i32>, %a: i32, %b: i32) {
  %m = tile.map %a, %b : i32, i32 -> tensor<64xi32> {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    tile.yield %s : i32
  }
  tile.store %m, %out[0] strides [1] : tensor<64xi32>, !tile.buffer<i32>
  tile.return
}
