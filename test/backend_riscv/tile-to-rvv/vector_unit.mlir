// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// A row sum: per row, an accumulator of one element (m1, set by vsetivli)
// carried through the strip loop and updated by the ordered reduction; the
// strip loop's data groups grow to m8, the accumulator keeps its size.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_row_sum
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         rvv.vsetivli 1 sew 32 eighths 8
// CHECK-NEXT:    [[INIT:%[0-9]+]] = rvv.vmv.s.x {{%[0-9]+}} : (!riscv.reg) -> !rvv.reg<m1>
// CHECK:         rvx.loop ([[INIT]], {{%[0-9]+}}, {{%[0-9]+}}) : (!rvv.reg<m1>, !riscv.reg, !riscv.reg)
// CHECK-NEXT:    ^bb0([[ACC:%[0-9]+]]: !rvv.reg<m1>, {{%[0-9]+}}: !riscv.reg, {{%[0-9]+}}: !riscv.reg):
// CHECK-NEXT:      rvv.vsetvli {{%[0-9]+}} sew 32 eighths 64
// CHECK-NEXT:      [[ROW:%[0-9]+]] = rvv.vle32.v {{%[0-9]+}} : !riscv.reg -> !rvv.reg<m8>
// CHECK-NEXT:      [[SUM:%[0-9]+]] = rvv.vfredosum.vs [[ROW]], [[ACC]] : (!rvv.reg<m8>, !rvv.reg<m1>) -> !rvv.reg<m1>
// CHECK:           rvx.repeat_if ne {{.*}} carrying [[SUM]],
// CHECK:         rvv.vmv.x.s
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

// Inductor's argmax combiner (max_with_index) over indices from an iota: per
// row, vfredmax across strips with a NaN count, then a search for the first
// element equal to the maximum (vmfeq.vf, or vmfne.vv v, v for the first
// NaN) that stops at the strip where vfirst finds it; value and index are
// read from that column.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_argmax
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         rvx.loop
// CHECK:           rvx.loop
// CHECK:             [[ROW:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        rvv.vfredmax.vs [[ROW]]
// CHECK-NEXT:        [[NANS:%[0-9]+]] = rvv.vmfne.vv [[ROW]], [[ROW]]
// CHECK-NEXT:        rvv.vcpop.m [[NANS]]
// CHECK:             rvx.repeat_if ne
// CHECK:           [[BITS:%[0-9]+]] = rvv.vmv.x.s
// CHECK-NEXT:      [[MAX:%[0-9]+]] = riscv.fmv.w.x [[BITS]]
// CHECK:           [[COLUMN:%[0-9]+]] = rvx.if ne
// CHECK:             rvx.loop
// CHECK:               [[STRIP:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:          [[ISNAN:%[0-9]+]] = rvv.vmfne.vv [[STRIP]], [[STRIP]]
// CHECK-NEXT:          [[FIRST:%[0-9]+]] = rvv.vfirst.m [[ISNAN]]
// CHECK:               rvx.repeat_if lt [[FIRST]],
// CHECK:           } else {
// CHECK:             rvx.loop
// CHECK:               [[STRIP:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:          [[EQUAL:%[0-9]+]] = rvv.vmfeq.vf [[STRIP]], [[MAX]]
// CHECK-NEXT:          [[FIRST:%[0-9]+]] = rvv.vfirst.m [[EQUAL]]
// CHECK:               rvx.repeat_if lt [[FIRST]],
// CHECK:             rvx.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      rv64.slli [[COLUMN]], 2
// CHECK-NEXT:      riscv.add
// CHECK-NEXT:      rvx.lwu
// CHECK-NEXT:      riscv.sw
// CHECK-NEXT:      rv64.slli [[COLUMN]], 2
// CHECK-NEXT:      riscv.add
// CHECK-NEXT:      riscv.lw
// CHECK-NOT:     rvv.vlse32.v
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @argmax(%x: !tile.buffer<f32>, %out: !tile.buffer<i32>) {
  %true = arith.constant true
  %v = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<4x64xf32>
  %iota = tile.iota {start = 0 : i32} : tensor<64xi32>
  %row = tile.reshape %iota : tensor<64xi32> -> tensor<1x64xi32>
  %i = tile.broadcast %row : tensor<1x64xi32> -> tensor<4x64xi32>
  %max, %at = tile.reduce %v, %i {axis = 1 : i32} : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4xf32>, tensor<4xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %greater = arith.cmpf ogt, %a, %b : f32
    %equal = arith.cmpf oeq, %a, %b : f32
    %a_nan = arith.cmpf une, %a, %a : f32
    %b_nan = arith.cmpf une, %b, %b : f32
    %b_number = arith.xori %b_nan, %true : i1
    %nan_beats = arith.andi %a_nan, %b_number : i1
    %beats = arith.ori %greater, %nan_beats : i1
    %both_nan = arith.andi %a_nan, %b_nan : i1
    %tie = arith.ori %equal, %both_nan : i1
    %lower = arith.cmpi slt, %ai, %bi : i32
    %tie_won = arith.andi %tie, %lower : i1
    %wins = arith.ori %beats, %tie_won : i1
    %value = arith.select %wins, %a, %b : f32
    %index = arith.select %wins, %ai, %bi : i32
    tile.yield %value, %index : f32, i32
  }
  tile.store %at, %out[0] strides [1] : tensor<4xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// The same combiner over indices loaded from memory is not recognised: with
// repeated indices the pairwise result depends on the order (a tie of -0.0
// and +0.0 of one index keeps the one combined second), so it stays on the
// tree of neighbours, read at a stride of two elements.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_argmax_of_loaded_indices
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK-NOT:     rvv.vfredmax.vs
// CHECK-NOT:     rvv.vfirst.m
// CHECK:         rvv.vlse32.v
// CHECK-NOT:     rvv.vfredmax.vs
// CHECK-NOT:     rvv.vfirst.m
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @argmax_of_loaded_indices(%x: !tile.buffer<f32>, %indices: !tile.buffer<i32>, %out: !tile.buffer<i32>) {
  %true = arith.constant true
  %v = tile.load %x[0] strides [64, 1] : !tile.buffer<f32> -> tensor<4x64xf32>
  %i = tile.load %indices[0] strides [64, 1] : !tile.buffer<i32> -> tensor<4x64xi32>
  %max, %at = tile.reduce %v, %i {axis = 1 : i32} : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4xf32>, tensor<4xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %greater = arith.cmpf ogt, %a, %b : f32
    %equal = arith.cmpf oeq, %a, %b : f32
    %a_nan = arith.cmpf une, %a, %a : f32
    %b_nan = arith.cmpf une, %b, %b : f32
    %b_number = arith.xori %b_nan, %true : i1
    %nan_beats = arith.andi %a_nan, %b_number : i1
    %beats = arith.ori %greater, %nan_beats : i1
    %both_nan = arith.andi %a_nan, %b_nan : i1
    %tie = arith.ori %equal, %both_nan : i1
    %lower = arith.cmpi slt, %ai, %bi : i32
    %tie_won = arith.andi %tie, %lower : i1
    %wins = arith.ori %beats, %tie_won : i1
    %value = arith.select %wins, %a, %b : f32
    %index = arith.select %wins, %ai, %bi : i32
    tile.yield %value, %index : f32, i32
  }
  tile.store %at, %out[0] strides [1] : tensor<4xi32>, !tile.buffer<i32>
  tile.return
}

// -----

// A product (RVV has no reduction instruction for it) combines neighbours
// pairwise, level by level.  Along the only axis a level's pairs are lanes:
// left and right elements read at a stride of two elements (8 bytes), the
// right ones from one element on.  7 elements: 3 pairs, then the odd slice 6
// moves up to slice 3, a copy from the offsets advanced past the pairs.  The
// one position along the other axes takes no loop.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_product
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK-NEXT:      [[POSITION:%[0-9]+]] = rv64.li 0 : !riscv.reg
// CHECK-NEXT:      rv64.li 7 : !riscv.reg
// CHECK-NEXT:      [[SOURCE:%[0-9]+]] = riscv.mul [[POSITION]], {{%[0-9]+}}
// CHECK-NEXT:      rv64.li 4 : !riscv.reg
// CHECK-NEXT:      [[DEST:%[0-9]+]] = riscv.mul [[POSITION]], {{%[0-9]+}}
// CHECK:           [[STRIDE:%[0-9]+]] = rv64.li 8 : !riscv.reg
// CHECK-NEXT:      {{%[0-9]+}} = riscv.addi {{%[0-9]+}}, 4 : (!riscv.reg<s0>) -> !riscv.reg
// CHECK:           [[PAIRS:%[0-9]+]] = rv64.li 3 : !riscv.reg
// CHECK-NEXT:      rvx.loop ([[PAIRS]],
// CHECK-NEXT:      ^bb0(
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[LEFT:%[0-9]+]] = rvv.vlse32.v {{%[0-9]+}}, [[STRIDE]]
// CHECK-NEXT:        [[RIGHT:%[0-9]+]] = rvv.vlse32.v {{%[0-9]+}}, [[STRIDE]]
// CHECK-NEXT:        [[PRODUCT:%[0-9]+]] = rvv.vfmul.vv [[LEFT]], [[RIGHT]]
// CHECK-NEXT:        rvv.vse32.v [[PRODUCT]]
// CHECK:           }
// CHECK-NEXT:      riscv.addi [[SOURCE]], 6 : (!riscv.reg) -> !riscv.reg
// CHECK-NEXT:      riscv.addi [[DEST]], 3 : (!riscv.reg) -> !riscv.reg
// CHECK-NEXT:      [[ODD:%[0-9]+]] = rv64.li 1 : !riscv.reg
// CHECK-NEXT:      rvx.loop ([[ODD]])
// CHECK:             rvv.vle32.v
// CHECK-NOT:         rvv.vfmul.vv
// CHECK:             rvv.vse32.v
tile.kernel @product(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<7xf32>
  %r = tile.reduce %t {axis = 0 : i32} : tensor<7xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    tile.yield %p : f32
  }
  %rt = tile.broadcast %r : f32 -> tensor<1xf32>
  tile.store %rt, %out[0] strides [1] : tensor<1xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A scan combines in doubling steps (Hillis-Steele): at distance d the first
// d slices are copied and each other one is the combiner of the slice d
// before it and itself, read from d elements on (5 elements: copy 1 and
// combine 4, copy 2 and combine 3, copy 4 and combine 1).
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_cumsum
// CHECK:         riscv.comment {comment = "tile.scan"}
// CHECK:           [[COPIED:%[0-9]+]] = rv64.li 1 : !riscv.reg
// CHECK-NEXT:      rvx.loop ([[COPIED]])
// CHECK-NOT:         rvv.vfadd.vv
// CHECK:           {{%[0-9]+}} = riscv.addi {{%[0-9]+}}, 4 : (!riscv.reg<s0>) -> !riscv.reg
// CHECK:           [[COMBINED:%[0-9]+]] = rv64.li 4 : !riscv.reg
// CHECK-NEXT:      rvx.loop ([[COMBINED]],
// CHECK-NEXT:      ^bb0(
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[EARLIER:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[LATER:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        rvv.vfadd.vv [[EARLIER]], [[LATER]]
// CHECK:           rv64.li 2 : !riscv.reg
// CHECK-NEXT:      rvx.loop
// CHECK-NOT:         rvv.vfadd.vv
// CHECK:           rv64.li 3 : !riscv.reg
// CHECK-NEXT:      rvx.loop
// CHECK:             rvv.vfadd.vv
// CHECK:           rv64.li 4 : !riscv.reg
// CHECK-NEXT:      rvx.loop
// CHECK-NOT:         rvv.vfadd.vv
// CHECK:           rv64.li 1 : !riscv.reg
// CHECK-NEXT:      rvx.loop
// CHECK:             rvv.vfadd.vv
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @cumsum(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<5xf32>
  %r = tile.scan %t {axis = 0 : i32, reverse = false} : tensor<5xf32> -> tensor<5xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.store %r, %out[0] strides [1] : tensor<5xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// matmul: the accumulator strip is carried through the loop over k and
// updated in place by vfmacc.vf (its result is the accumulator's register).
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_matmul
// CHECK:         riscv.comment {comment = "tile.matmul"}
// CHECK:         [[START:%[0-9]+]] = rvv.vle32.v {{%[0-9]+}} : !riscv.reg -> !rvv.reg<m8>
// CHECK:         rvx.loop ([[START]], {{.*}}) : (!rvv.reg<m8>,
// CHECK-NEXT:    ^bb0([[ACC:%[0-9]+]]: !rvv.reg<m8>,
// CHECK-NEXT:      [[A:%[0-9]+]] = riscv.flw
// CHECK-NEXT:      [[B:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:      [[NEXT:%[0-9]+]] = rvv.vfmacc.vf [[ACC]], [[A]], [[B]] : (!rvv.reg<m8>, !riscv.freg, !rvv.reg<m8>) -> !rvv.reg<m8>
tile.kernel @matmul(%a: !tile.buffer<f32>, %b: !tile.buffer<f32>, %c: !tile.buffer<f32>) {
  %ta = tile.load %a[0] strides [16, 1] : !tile.buffer<f32> -> tensor<8x16xf32>
  %tb = tile.load %b[0] strides [8, 1] : !tile.buffer<f32> -> tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %acc = tile.broadcast %zero : f32 -> tensor<8x8xf32>
  %r = tile.matmul %ta, %tb, %acc : tensor<8x16xf32>, tensor<16x8xf32> -> tensor<8x8xf32>
  tile.store %r, %c[0] strides [8, 1] : tensor<8x8xf32>, !tile.buffer<f32>
  tile.return
}
