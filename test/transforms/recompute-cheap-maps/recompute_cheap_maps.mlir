// RUN: tnpu-opt %s --split-input-file -p recompute-cheap-maps | filecheck %s
// RUN: tnpu-opt %s --split-input-file -p recompute-cheap-maps,fuse-tile-maps | filecheck %s --check-prefix=FUSED

// Layer norm's `x - mean` is read by the variance's map and by the output's:
// a copy goes right before each reader and the original goes; fuse-tile-maps
// then inlines each copy into its reader (and passes the broadcast mean as
// the scalar it is), so no tile of `x - mean` is kept.
// CHECK-LABEL: tile.kernel @centred
// CHECK:         %{{.*}} = tile.map %x, %mean
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.subf
// CHECK:         %squares = tile.map
// CHECK:         %{{.*}} = tile.map %x, %mean
// CHECK:         %scaled = tile.map
// CHECK-NOT:     tile.map
// FUSED-LABEL: tile.kernel @centred
// FUSED:         %squares = tile.map %x, %m :
// FUSED:           arith.subf
// FUSED-NEXT:      arith.mulf
// FUSED:         %scaled = tile.map %x, %m, %r :
// FUSED:           arith.subf
// FUSED-NEXT:      arith.mulf
tile.kernel @centred(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>, %m: f32, %r: f32) {
  %x = tile.load %in[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %mean = tile.broadcast %m : f32 -> tensor<64xf32>
  %d = tile.map %x, %mean : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.subf %a, %b : f32
    tile.yield %s : f32
  }
  %squares = tile.map %d : tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    tile.yield %s : f32
  }
  %scaled = tile.map %d, %r : tensor<64xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %scaled, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.store %squares, %out[64] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A body of more than two ops (softmax's exp, once expanded, is dozens) is
// cheaper to keep than to compute again; a map a store reads stays too.
// (A copy would be what the reduction and the last map read.)
// CHECK-LABEL: tile.kernel @kept
// CHECK:         %e = tile.map %x
// CHECK:         %sum = tile.reduce %e {
// CHECK:         %k = tile.map %x
// CHECK:         %q = tile.map %k, %sum
tile.kernel @kept(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %x = tile.load %in[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %e = tile.map %x : tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    %t = arith.addf %s, %a : f32
    %u = arith.mulf %t, %s : f32
    tile.yield %u : f32
  }
  %sum = tile.reduce %e {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  %k = tile.map %x : tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32):
    %s = arith.negf %a : f32
    tile.yield %s : f32
  }
  %q = tile.map %k, %sum : tensor<64xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.divf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %e, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.store %k, %out[64] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.store %q, %out[128] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
