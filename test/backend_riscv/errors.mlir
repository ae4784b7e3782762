// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -t tnpu-riscv-asm | filecheck %s

// A math function RVV lacks is refused, naming the op and the remedy.
// CHECK: error: 'math.exp' op has no RVV lowering (run expand-math for math functions)
tile.kernel @exp(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
  %e = tile.map %t : tensor<16xf32> -> tensor<16xf32> {
  ^bb0(%v: f32):
    %r = math.exp %v : f32
    tile.yield %r : f32
  }
  tile.store %e, %x[0] strides [1] : tensor<16xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// CHECK: error: 'tile.matmul' op matmul of tensor<4x4xi8> and tensor<4x4xi8> into tensor<4x4xi32>: only f32/f64 operands of the accumulator's type, or bf16 into f32, are lowered
tile.kernel @int_matmul(%a: !tile.buffer<i8>, %c: !tile.buffer<i32>) {
  %ta = tile.load %a[0] strides [4, 1] : !tile.buffer<i8> -> tensor<4x4xi8>
  %z = arith.constant 0 : i32
  %acc = tile.broadcast %z : i32 -> tensor<4x4xi32>
  %r = tile.matmul %ta, %ta, %acc : tensor<4x4xi8>, tensor<4x4xi8> -> tensor<4x4xi32>
  tile.store %r, %c[0] strides [4, 1] : tensor<4x4xi32>, !tile.buffer<i32>
  tile.return
}
