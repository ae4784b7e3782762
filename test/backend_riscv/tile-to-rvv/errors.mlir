// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p tile-to-rvv | filecheck %s

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

// A 16-bit float matmul reaches the backend only after widen-half-floats.
// CHECK: error: 'tile.matmul' op matmul of tensor<4x4xf16> and tensor<4x4xf16> into tensor<4x4xf32>: only f32/f64 operands of the accumulator's type (f16/bf16 after widen-half-floats) or signed integers no wider than an integer accumulator are lowered
tile.kernel @f16_matmul(%a: !tile.buffer<f16>, %c: !tile.buffer<f32>) {
  %ta = tile.load %a[0] strides [4, 1] : !tile.buffer<f16> -> tensor<4x4xf16>
  %z = arith.constant 0.0 : f32
  %acc = tile.broadcast %z : f32 -> tensor<4x4xf32>
  %r = tile.matmul %ta, %ta, %acc : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf32>
  tile.store %r, %c[0] strides [4, 1] : tensor<4x4xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// CHECK: error: 'tile.matmul' op matmul of tensor<4x4xi32> and tensor<4x4xi32> into tensor<4x4xi8>: only f32/f64 operands of the accumulator's type (f16/bf16 after widen-half-floats) or signed integers no wider than an integer accumulator are lowered
tile.kernel @narrowing_matmul(%a: !tile.buffer<i32>, %c: !tile.buffer<i8>) {
  %ta = tile.load %a[0] strides [4, 1] : !tile.buffer<i32> -> tensor<4x4xi32>
  %z = arith.constant 0 : i8
  %acc = tile.broadcast %z : i8 -> tensor<4x4xi8>
  %r = tile.matmul %ta, %ta, %acc : tensor<4x4xi32>, tensor<4x4xi32> -> tensor<4x4xi8>
  tile.store %r, %c[0] strides [4, 1] : tensor<4x4xi8>, !tile.buffer<i8>
  tile.return
}

// -----

// RVA has no 16-bit AMO; of the 16-bit atomics Triton allows, only float add and
// compare-and-swap are built (through the aligned word).
// CHECK: error: 'tile.atomic_rmw' op atomic add on 16-bit elements (only fadd, cas)
tile.kernel @i16_atomic_add(%x: !tile.buffer<i16>, %v: i16) {
  %i = arith.constant 3 : i64
  %old = tile.atomic_rmw add %x[%i], %v : !tile.buffer<i16>, i64, i16
  tile.return
}

// -----

// fp8 (like f16) has no vector instructions: arithmetic on it reaches the backend
// only after widen-half-floats; unwidened, it is refused, not run at SEW 8.
// CHECK: error: 'math.absf' op f8E5M2 arithmetic needs extension to f32 first
tile.kernel @fp8_abs(%x: !tile.buffer<f8E5M2>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f8E5M2> -> tensor<16xf8E5M2>
  %a = tile.map %t : tensor<16xf8E5M2> -> tensor<16xf8E5M2> {
  ^bb0(%v: f8E5M2):
    %r = math.absf %v : f8E5M2
    tile.yield %r : f8E5M2
  }
  tile.store %a, %x[0] strides [1] : tensor<16xf8E5M2>, !tile.buffer<f8E5M2>
  tile.return
}

// -----

// Booleans live in mask registers, where RVV has logic but no arithmetic.
// An i1 max (a mutant the fuzzer made; its meaning is not settled: numpy,
// in Triton's interpreter, takes the or of booleans, a signed max of the i1
// values -1 and 0 the and) is refused, not emitted as vmax on masks.
// CHECK: error: 'arith.maxsi' op on i1 has no RVV lowering (booleans live in mask registers: and, or, xor, add, sub only)
tile.kernel @boolean_max(%x: !tile.buffer<i1>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<i1> -> tensor<16xi1>
  %m = tile.map %t, %t : tensor<16xi1>, tensor<16xi1> -> tensor<16xi1> {
  ^bb0(%a: i1, %b: i1):
    %r = arith.maxsi %a, %b : i1
    tile.yield %r : i1
  }
  tile.store %m, %x[0] strides [1] : tensor<16xi1>, !tile.buffer<i1>
  tile.return
}
