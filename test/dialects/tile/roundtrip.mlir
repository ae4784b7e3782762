// RUN: tnpu-opt %s | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | tnpu-opt | filecheck %s

// CHECK-LABEL: tile.kernel @add(
tile.kernel @add(%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32) {
  // CHECK: tile.program_id {axis = 0 : i32} : i32
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %off = arith.index_cast %start : i32 to index
  %ni = arith.index_cast %n : i32 to index
  %rem = arith.subi %ni, %off : index
  %zero = arith.constant 0.0 : f32
  // CHECK: tile.load %{{.*}}[%{{.*}}] strides [1] upper [%{{.*}}] pad %{{.*}} : !tile.buffer<f32> -> tensor<256xf32>
  %a = tile.load %x[%off] strides [1] upper [%rem] pad %zero : !tile.buffer<f32> -> tensor<256xf32>
  // CHECK: tile.load %{{.*}}[%{{.*}}] strides [1] upper [%{{.*}}] : !tile.buffer<f32> -> tensor<256xf32>
  %b = tile.load %y[%off] strides [1] upper [%rem] : !tile.buffer<f32> -> tensor<256xf32>
  // CHECK: tile.map %{{.*}}, %{{.*}}, %{{.*}} : tensor<256xf32>, tensor<256xf32>, f32 -> tensor<256xf32> {
  %s = tile.map %a, %b, %zero : tensor<256xf32>, tensor<256xf32>, f32 -> tensor<256xf32> {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %t = arith.addf %u, %v : f32
    %t2 = arith.addf %t, %w : f32
    tile.yield %t2 : f32
  }
  // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}] strides [1] upper [%{{.*}}] : tensor<256xf32>, !tile.buffer<f32>
  tile.store %s, %out[%off] strides [1] upper [%rem] : tensor<256xf32>, !tile.buffer<f32>
  // CHECK: tile.load %{{.*}}[0] strides [%{{.*}}, 1] lower [1, 0] upper [4, %{{.*}}] : !tile.buffer<f32> -> tensor<4x64xf32>
  %box = tile.load %x[0] strides [%ni, 1] lower [1, 0] upper [4, %rem] : !tile.buffer<f32> -> tensor<4x64xf32>
  // CHECK: tile.reduce %{{.*}} {axis = 1 : i32} : tensor<4x64xf32> -> tensor<4xf32> {
  %r = tile.reduce %box {axis = 1 : i32} : tensor<4x64xf32> -> tensor<4xf32> {
  ^bb0(%l: f32, %rr: f32):
    %m = arith.maximumf %l, %rr : f32
    tile.yield %m : f32
  }
  %iota = tile.iota {start = 0 : i32} : tensor<256xi32>
  %idx = tile.map %iota : tensor<256xi32> -> tensor<256xi64> {
  ^bb0(%i: i32):
    %e = arith.extsi %i : i32 to i64
    tile.yield %e : i64
  }
  // CHECK: tile.gather %{{.*}}[%{{.*}}] : !tile.buffer<f32>, tensor<256xi64> -> tensor<256xf32>
  %g = tile.gather %x[%idx] : !tile.buffer<f32>, tensor<256xi64> -> tensor<256xf32>
  // CHECK: tile.atomic_rmw fadd %{{.*}}[%{{.*}}], %{{.*}} : !tile.buffer<f32>, tensor<256xi64>, tensor<256xf32>
  %old = tile.atomic_rmw fadd %out[%idx], %g : !tile.buffer<f32>, tensor<256xi64>, tensor<256xf32>
  %mat = tile.reshape %s : tensor<256xf32> -> tensor<16x16xf32>
  %tr = tile.transpose %mat {permutation = array<i64: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tile.matmul %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %mm = tile.matmul %mat, %tr, %mat : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %bc = tile.broadcast %zero : f32 -> tensor<16x16xf32>
  // CHECK: tile.return
  tile.return
}

// CHECK-LABEL: tile.kernel @take(
tile.kernel @take(%f: f32, %i: i32) {
  %src = tile.broadcast %f : f32 -> tensor<4x8xf32>
  %idx = tile.broadcast %i : i32 -> tensor<4x3xi32>
  // CHECK: tile.take %{{.*}}[%{{.*}}] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf32>
  %picked = tile.take %src[%idx] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf32>
  // CHECK: tile.take %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<4x8xf32>, tensor<2x8xi64> -> tensor<2x8xf32>
  %rows = tile.broadcast %i : i32 -> tensor<2x8xi32>
  %wide = tile.map %rows : tensor<2x8xi32> -> tensor<2x8xi64> {
  ^bb0(%r: i32):
    %e = arith.extsi %r : i32 to i64
    tile.yield %e : i64
  }
  %gathered = tile.take %src[%wide] {axis = 0 : i32} : tensor<4x8xf32>, tensor<2x8xi64> -> tensor<2x8xf32>
  tile.return
}
