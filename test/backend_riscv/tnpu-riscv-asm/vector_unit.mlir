// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv -t tnpu-riscv-asm | filecheck %s

// A float sum along the last axis is an ordered reduction chained across
// strips (the same bits at every VLEN), started from -0.0.
// CHECK-LABEL: tnpu_kernel_row_sum:
// CHECK:         # tile.reduce
// CHECK:         li [[IDENTITY:[a-z0-9]+]], -2147483648
// CHECK:         vmv.s.x [[ACC:v[0-9]+]], [[IDENTITY]]
// CHECK:         vle32.v [[ROW:v[0-9]+]]
// CHECK-NEXT:    vfredosum.vs [[ACC]], [[ROW]], [[ACC]]
// CHECK:         vmv.x.s {{[a-z0-9]+}}, [[ACC]]
tile.kernel @row_sum(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<4x64xf32>
  %r = tile.reduce %t {axis = 1 : i32} : tensor<4x64xf32> -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %r, %out[0] strides [1] : tensor<4xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Any other reduction combines neighbours pairwise, level by level, as
// Triton's GPU code and the interpreters do.  Along the only axis the pairs
// of a level are the lanes (64 elements: 32, 16, ..., 1 of them), read at a
// stride of two elements (8 bytes); the combiner region is an elementwise
// program, a strip loop over a level's pairs.  The last pair is one element,
// read where it is.  The one position along the other axes takes no loop.
// CHECK-LABEL: tnpu_kernel_argmax:
// CHECK:         # tile.reduce
// CHECK-NOT:   .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK:         li [[STRIDE:[a-z0-9]+]], 8{{$}}
// CHECK:         li {{[a-z0-9]+}}, 32{{$}}
// CHECK-NEXT:  .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK-NEXT:    vsetvli
// CHECK-NEXT:    vlse32.v {{v[0-9]+}}, ({{[a-z0-9]+}}), [[STRIDE]]
// CHECK-NEXT:    vlse32.v {{v[0-9]+}}, ({{[a-z0-9]+}}), [[STRIDE]]
// CHECK-NEXT:    vmflt.vv
// CHECK:         vmerge.vvm
// CHECK:         li [[STRIDE:[a-z0-9]+]], 8{{$}}
// CHECK:         li {{[a-z0-9]+}}, 16{{$}}
// CHECK-NEXT:  .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK-NEXT:    vsetvli
// CHECK-NEXT:    vlse32.v {{v[0-9]+}}, ({{[a-z0-9]+}}), [[STRIDE]]
// CHECK:         li [[STRIDE:[a-z0-9]+]], 8{{$}}
// CHECK:         li {{[a-z0-9]+}}, 8{{$}}
// CHECK-NEXT:  .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK:         li [[STRIDE:[a-z0-9]+]], 8{{$}}
// CHECK:         li {{[a-z0-9]+}}, 4{{$}}
// CHECK-NEXT:  .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK:         li [[STRIDE:[a-z0-9]+]], 8{{$}}
// CHECK:         li {{[a-z0-9]+}}, 2{{$}}
// CHECK-NEXT:  .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK:         li {{[a-z0-9]+}}, 1{{$}}
// CHECK-NEXT:    mul
// CHECK-NEXT:    li {{[a-z0-9]+}}, 1{{$}}
// CHECK-NEXT:  .Ltnpu_kernel_argmax_loop{{[0-9]+}}:
// CHECK-NEXT:    vsetvli
// CHECK:         vle32.v
// CHECK:         vle32.v
// CHECK-NEXT:    vmflt.vv
tile.kernel @argmax(%x: !tile.buffer<f32>, %out: !tile.buffer<i32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %i = tile.iota {start = 0 : i32} : tensor<64xi32>
  %v, %k = tile.reduce %t, %i {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> f32, i32 {
  ^bb0(%a: f32, %ia: i32, %b: f32, %ib: i32):
    %gt = arith.cmpf olt, %a, %b : f32
    %m = arith.select %gt, %b, %a : f32
    %mi = arith.select %gt, %ib, %ia : i32
    tile.yield %m, %mi : f32, i32
  }
  %kt = tile.broadcast %k : i32 -> tensor<1xi32>
  tile.store %kt, %out[0] strides [1] : tensor<1xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// Across an outer axis a slice is a row: each pair of rows is one program
// over the row's lanes, in a loop over the pairs; an odd last row moves up
// a level as it is (5 rows: 2 pairs and a copy, then 1 and a copy, then 1;
// one pair takes no loop).
// CHECK-LABEL: tnpu_kernel_column_sum:
// CHECK:         # tile.reduce
// CHECK:         li [[PAIRS:[a-z0-9]+]], 2{{$}}
// CHECK-NEXT:  [[PAIR:.Ltnpu_kernel_column_sum_loop[0-9]+]]:
// CHECK:         vfadd.vv
// CHECK:         bnez [[PAIRS]], [[PAIR]]
// CHECK-NOT:     vfadd.vv
// CHECK:         vse32.v
// CHECK:         vfadd.vv
// CHECK-NOT:     bnez [[PAIRS]], [[PAIR]]
// CHECK:         vfadd.vv
// CHECK-NOT:     vfadd.vv
// CHECK:         # tile.store
tile.kernel @column_sum(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [8, 1] : !tile.buffer<f32> -> tensor<5x8xf32>
  %r = tile.reduce %t {axis = 0 : i32} : tensor<5x8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %r, %out[0] strides [1] : tensor<8xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// iota is vid.v plus a running start.
// CHECK-LABEL: tnpu_kernel_iota:
// CHECK:         # tile.iota
// CHECK:         vid.v [[V:v[0-9]+]]
// CHECK-NEXT:    vadd.vx [[V]], [[V]], [[START:[a-z0-9]+]]
// CHECK:         add [[START]], [[START]], {{[a-z0-9]+}}
tile.kernel @iota(%out: !tile.buffer<i32>) {
  %i = tile.iota {start = 5 : i32} : tensor<100xi32>
  tile.store %i, %out[0] strides [1] : tensor<100xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// A broadcast dimension is a zero row step of a strided copy; a transpose
// reads its source strided.
// CHECK-LABEL: tnpu_kernel_shapes:
// CHECK:         # tile.broadcast
// CHECK:         vle32.v
// CHECK:         # tile.transpose
// CHECK:         vlse32.v
tile.kernel @shapes(%x: !tile.buffer<f32>) {
  %row = tile.load %x[0] strides [1, 1] : !tile.buffer<f32> -> tensor<1x8xf32>
  %b = tile.broadcast %row : tensor<1x8xf32> -> tensor<4x8xf32>
  %t = tile.transpose %b {permutation = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tile.store %t, %x[0] strides [4, 1] : tensor<8x4xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// matmul: per row and strip of columns, vfmacc.vf over k with the
// accumulator row in registers.
// CHECK-LABEL: tnpu_kernel_matmul:
// CHECK:         # tile.matmul
// CHECK:         flw [[A:f[a-z0-9]+]], 0({{[a-z0-9]+}})
// CHECK-NEXT:    vle32.v [[B:v[0-9]+]], ({{[a-z0-9]+}})
// CHECK-NEXT:    vfmacc.vf [[C:v[0-9]+]], [[A]], [[B]]
// CHECK-NEXT:    addi
// CHECK-NEXT:    addi
// CHECK-NEXT:    addi
// CHECK-NEXT:    bnez {{[a-z0-9]+}}, .Ltnpu_kernel_matmul_loop
// CHECK-NEXT:    vse32.v [[C]]
tile.kernel @matmul(%a: !tile.buffer<f32>, %b: !tile.buffer<f32>, %c: !tile.buffer<f32>) {
  %ta = tile.load %a[0] strides [16, 1] : !tile.buffer<f32> -> tensor<8x16xf32>
  %tb = tile.load %b[0] strides [8, 1] : !tile.buffer<f32> -> tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %acc = tile.broadcast %zero : f32 -> tensor<8x8xf32>
  %r = tile.matmul %ta, %tb, %acc : tensor<8x16xf32>, tensor<16x8xf32> -> tensor<8x8xf32>
  tile.store %r, %c[0] strides [8, 1] : tensor<8x8xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// int8 x int8 -> int32: the lhs element sign-extended by lb, the rhs row
// loaded at e8 with a quarter of the LMUL (same vl) and sign-extended.
// CHECK-LABEL: tnpu_kernel_int8_matmul:
// CHECK:         lb [[A:[a-z0-9]+]], 0({{[a-z0-9]+}})
// CHECK-NEXT:    vsetvli zero, zero, e8, m2, ta, mu
// CHECK-NEXT:    vle8.v [[NARROW:v[0-9]+]], ({{[a-z0-9]+}})
// CHECK-NEXT:    vsetvli zero, zero, e32, m8, ta, mu
// CHECK-NEXT:    vsext.vf4 [[B:v[0-9]+]], [[NARROW]]
// CHECK-NEXT:    vmacc.vx [[C:v[0-9]+]], [[A]], [[B]]
tile.kernel @int8_matmul(%a: !tile.buffer<i8>, %b: !tile.buffer<i8>, %c: !tile.buffer<i32>) {
  %ta = tile.load %a[0] strides [16, 1] : !tile.buffer<i8> -> tensor<8x16xi8>
  %tb = tile.load %b[0] strides [8, 1] : !tile.buffer<i8> -> tensor<16x8xi8>
  %zero = arith.constant 0 : i32
  %acc = tile.broadcast %zero : i32 -> tensor<8x8xi32>
  %r = tile.matmul %ta, %tb, %acc : tensor<8x16xi8>, tensor<16x8xi8> -> tensor<8x8xi32>
  tile.store %r, %c[0] strides [8, 1] : tensor<8x8xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// tile.take along the last axis: per result row, the indices sign-extended
// to 64 bits, checked against the axis (unsigned: a negative index fails too),
// scaled by the element size and read with one indexed load from the source row.
// CHECK-LABEL: tnpu_kernel_take_rows:
// CHECK:         # tile.take
// CHECK:         li [[SIZE:[a-z0-9]+]], 8
// CHECK-NEXT:    li [[SCALE:[a-z0-9]+]], 4
// CHECK:         vle32.v [[NARROW:v[0-9]+]], ({{[a-z0-9]+}})
// CHECK:         vsext.vf2 [[OFFSETS:v[0-9]+]], [[NARROW]]
// CHECK-NEXT:    vmsgeu.vx [[OUTSIDE:v[0-9]+]], [[OFFSETS]], [[SIZE]]
// CHECK-NEXT:    vfirst.m [[FIRST:[a-z0-9]+]], [[OUTSIDE]]
// CHECK-NEXT:    bltz [[FIRST]], [[INSIDE:.Ltnpu_kernel_take_rows_endif[0-9]+]]
// CHECK-NEXT:    lla a0, [[MESSAGE:.Ltake_rows_message[0-9]+]]
// CHECK-NEXT:    call tnpu_assert_fail
// CHECK-NEXT:  [[INSIDE]]:
// CHECK-NEXT:    vmul.vx [[BYTES:v[0-9]+]], [[OFFSETS]], [[SCALE]]
// CHECK:         vluxei64.v {{v[0-9]+}}, ({{[a-z0-9]+}}), [[BYTES]]
// CHECK:       [[MESSAGE]]:
// CHECK-NEXT:    .string "tile.take: an index outside the 8 elements of axis 1"
tile.kernel @take_rows(%x: !tile.buffer<f32>, %i: !tile.buffer<i32>, %out: !tile.buffer<f32>) {
  %s = tile.load %x[0] strides [8, 1] : !tile.buffer<f32> -> tensor<4x8xf32>
  %j = tile.load %i[0] strides [3, 1] : !tile.buffer<i32> -> tensor<4x3xi32>
  %t = tile.take %s[%j] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf32>
  tile.store %t, %out[0] strides [3, 1] : tensor<4x3xf32>, !tile.buffer<f32>
  tile.return
}
