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

// -----

// A tensor op outside any tile op (ttir-to-tile puts elementwise tensor code in
// a tile.map) has no lowering of its own.
// CHECK: error: 'arith.addf' op has no RISC-V lowering
tile.kernel @tensor_arith(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
  %e = arith.addf %t, %t : tensor<16xf32>
  tile.store %e, %x[0] strides [1] : tensor<16xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A tensor constant is one value broadcast; a table of values is not built.
// CHECK: error: 'arith.constant' op only splat tensor constants are supported
tile.kernel @dense_constant(%x: !tile.buffer<f32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  tile.store %c, %x[0] strides [1] : tensor<4xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A map body is one strip loop of vector instructions: no control flow in it.
// CHECK: error: 'scf.if' op ops with regions cannot be vectorized in a body
tile.kernel @region_in_body(%x: !tile.buffer<f32>, %flag: i1) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
  %e = tile.map %t : tensor<16xf32> -> tensor<16xf32> {
  ^bb0(%v: f32):
    %r = scf.if %flag -> (f32) {
      scf.yield %v : f32
    } else {
      scf.yield %v : f32
    }
    tile.yield %r : f32
  }
  tile.store %e, %x[0] strides [1] : tensor<16xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Booleans live in mask registers; a float converts to one only through a compare.
// CHECK: error: 'arith.fptosi' op float to i1 conversion
tile.kernel @float_to_bool(%x: !tile.buffer<f32>, %y: !tile.buffer<i1>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
  %e = tile.map %t : tensor<16xf32> -> tensor<16xi1> {
  ^bb0(%v: f32):
    %r = arith.fptosi %v : f32 to i1
    tile.yield %r : i1
  }
  tile.store %e, %y[0] strides [1] : tensor<16xi1>, !tile.buffer<i1>
  tile.return
}

// -----

// Elements are at most 64 bits wide: a wider one is refused at the op that
// holds it, a tile op ...
// CHECK: error: 'tile.load' op element type i128 has no RVV lowering
tile.kernel @wide_load(%x: !tile.buffer<i128>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<i128> -> tensor<16xi128>
  tile.store %t, %x[0] strides [1] : tensor<16xi128>, !tile.buffer<i128>
  tile.return
}

// -----

// ... or, inside a body, the map.
// CHECK: error: 'tile.map' op element type i128 has no RVV lowering
tile.kernel @wide_map(%x: !tile.buffer<i32>, %y: !tile.buffer<i32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<i32> -> tensor<16xi32>
  %e = tile.map %t : tensor<16xi32> -> tensor<16xi32> {
  ^bb0(%v: i32):
    %w = arith.extsi %v : i32 to i128
    %n = arith.trunci %w : i128 to i32
    tile.yield %n : i32
  }
  tile.store %e, %y[0] strides [1] : tensor<16xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// RVA's AMOs are 32 and 64 bits wide (16-bit ones go through their word); 8-bit ones are refused.
// CHECK: error: 'tile.atomic_rmw' op atomics on 8-bit elements: RVA has 32/64-bit AMOs (16-bit go through their word)
tile.kernel @i8_atomic_add(%x: !tile.buffer<i8>, %v: i8) {
  %i = arith.constant 3 : i64
  %old = tile.atomic_rmw add %x[%i], %v : !tile.buffer<i8>, i64, i8
  tile.return
}

// -----

// RVA's max, min and add AMOs are integer ones.
// CHECK: error: 'tile.atomic_rmw' op atomic max on floats
tile.kernel @float_atomic_max(%x: !tile.buffer<f32>, %v: f32) {
  %i = arith.constant 3 : i64
  %old = tile.atomic_rmw max %x[%i], %v : !tile.buffer<f32>, i64, f32
  tile.return
}

// -----

// A body that holds more values at once than there are vector registers (31:
// v0 is the mask) is refused at the op where the pressure peaks; vectors are
// not spilled (test_riscv_register_pressure.py: 31 fit at LMUL 1).
// CHECK: error: 'arith.addf' op needs 32 vector registers live at once, more than the 31 there are (no spilling)
tile.kernel @held_sums(%in: !tile.buffer<f32>) {
  %t = tile.load %in[0] strides [1] : !tile.buffer<f32> -> tensor<40xf32>
  %r = tile.map %t : tensor<40xf32> -> tensor<40xf32> {
  ^bb0(%x: f32):
    %c0 = arith.constant 0.0 : f32
    %c1 = arith.constant 1.0 : f32
    %c2 = arith.constant 2.0 : f32
    %c3 = arith.constant 3.0 : f32
    %c4 = arith.constant 4.0 : f32
    %c5 = arith.constant 5.0 : f32
    %c6 = arith.constant 6.0 : f32
    %c7 = arith.constant 7.0 : f32
    %c8 = arith.constant 8.0 : f32
    %c9 = arith.constant 9.0 : f32
    %c10 = arith.constant 10.0 : f32
    %c11 = arith.constant 11.0 : f32
    %c12 = arith.constant 12.0 : f32
    %c13 = arith.constant 13.0 : f32
    %c14 = arith.constant 14.0 : f32
    %c15 = arith.constant 15.0 : f32
    %c16 = arith.constant 16.0 : f32
    %c17 = arith.constant 17.0 : f32
    %c18 = arith.constant 18.0 : f32
    %c19 = arith.constant 19.0 : f32
    %c20 = arith.constant 20.0 : f32
    %c21 = arith.constant 21.0 : f32
    %c22 = arith.constant 22.0 : f32
    %c23 = arith.constant 23.0 : f32
    %c24 = arith.constant 24.0 : f32
    %c25 = arith.constant 25.0 : f32
    %c26 = arith.constant 26.0 : f32
    %c27 = arith.constant 27.0 : f32
    %c28 = arith.constant 28.0 : f32
    %c29 = arith.constant 29.0 : f32
    %c30 = arith.constant 30.0 : f32
    %c31 = arith.constant 31.0 : f32
    %s0 = arith.addf %x, %c0 : f32
    %s1 = arith.addf %x, %c1 : f32
    %s2 = arith.addf %x, %c2 : f32
    %s3 = arith.addf %x, %c3 : f32
    %s4 = arith.addf %x, %c4 : f32
    %s5 = arith.addf %x, %c5 : f32
    %s6 = arith.addf %x, %c6 : f32
    %s7 = arith.addf %x, %c7 : f32
    %s8 = arith.addf %x, %c8 : f32
    %s9 = arith.addf %x, %c9 : f32
    %s10 = arith.addf %x, %c10 : f32
    %s11 = arith.addf %x, %c11 : f32
    %s12 = arith.addf %x, %c12 : f32
    %s13 = arith.addf %x, %c13 : f32
    %s14 = arith.addf %x, %c14 : f32
    %s15 = arith.addf %x, %c15 : f32
    %s16 = arith.addf %x, %c16 : f32
    %s17 = arith.addf %x, %c17 : f32
    %s18 = arith.addf %x, %c18 : f32
    %s19 = arith.addf %x, %c19 : f32
    %s20 = arith.addf %x, %c20 : f32
    %s21 = arith.addf %x, %c21 : f32
    %s22 = arith.addf %x, %c22 : f32
    %s23 = arith.addf %x, %c23 : f32
    %s24 = arith.addf %x, %c24 : f32
    %s25 = arith.addf %x, %c25 : f32
    %s26 = arith.addf %x, %c26 : f32
    %s27 = arith.addf %x, %c27 : f32
    %s28 = arith.addf %x, %c28 : f32
    %s29 = arith.addf %x, %c29 : f32
    %s30 = arith.addf %x, %c30 : f32
    %s31 = arith.addf %x, %c31 : f32
    %p1 = arith.addf %s0, %s1 : f32
    %p2 = arith.addf %p1, %s2 : f32
    %p3 = arith.addf %p2, %s3 : f32
    %p4 = arith.addf %p3, %s4 : f32
    %p5 = arith.addf %p4, %s5 : f32
    %p6 = arith.addf %p5, %s6 : f32
    %p7 = arith.addf %p6, %s7 : f32
    %p8 = arith.addf %p7, %s8 : f32
    %p9 = arith.addf %p8, %s9 : f32
    %p10 = arith.addf %p9, %s10 : f32
    %p11 = arith.addf %p10, %s11 : f32
    %p12 = arith.addf %p11, %s12 : f32
    %p13 = arith.addf %p12, %s13 : f32
    %p14 = arith.addf %p13, %s14 : f32
    %p15 = arith.addf %p14, %s15 : f32
    %p16 = arith.addf %p15, %s16 : f32
    %p17 = arith.addf %p16, %s17 : f32
    %p18 = arith.addf %p17, %s18 : f32
    %p19 = arith.addf %p18, %s19 : f32
    %p20 = arith.addf %p19, %s20 : f32
    %p21 = arith.addf %p20, %s21 : f32
    %p22 = arith.addf %p21, %s22 : f32
    %p23 = arith.addf %p22, %s23 : f32
    %p24 = arith.addf %p23, %s24 : f32
    %p25 = arith.addf %p24, %s25 : f32
    %p26 = arith.addf %p25, %s26 : f32
    %p27 = arith.addf %p26, %s27 : f32
    %p28 = arith.addf %p27, %s28 : f32
    %p29 = arith.addf %p28, %s29 : f32
    %p30 = arith.addf %p29, %s30 : f32
    %p31 = arith.addf %p30, %s31 : f32
    tile.yield %p31 : f32
  }
  tile.store %r, %in[0] strides [1] : tensor<40xf32>, !tile.buffer<f32>
  tile.return
}
