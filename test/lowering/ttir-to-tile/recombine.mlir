// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// Quotient and remainder terms recombine: p % 7 and p // 7 over 512 lanes are
// not affine (the digits carry), but (p % 7) * 16 + (p // 7) * 112 is p * 16
// for p >= 0 (here p = pid * 512 + i, proved non-negative): a strided box.

// CHECK-LABEL: tile.kernel @recombine_1d(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>)
// CHECK:      %[[START:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:      %[[BASE:.*]] = arith.muli %[[START]], %{{.*}} : index
// CHECK:      %{{.*}} = tile.load %in[%[[BASE]]] strides [16] : !tile.buffer<f32> -> tensor<512xf32>
// CHECK-NOT:  tile.gather
tt.func @recombine_1d(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %c512 = arith.constant 512 : i32
  %c7 = arith.constant dense<7> : tensor<512xi32>
  %c16 = arith.constant dense<16> : tensor<512xi32>
  %c112 = arith.constant dense<112> : tensor<512xi32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c512 : i32
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %starts = tt.splat %start : i32 -> tensor<512xi32>
  %p = arith.addi %starts, %range : tensor<512xi32>
  %w = arith.remsi %p, %c7 : tensor<512xi32>
  %h = arith.divsi %p, %c7 : tensor<512xi32>
  %wo = arith.muli %w, %c16 : tensor<512xi32>
  %ho = arith.muli %h, %c112 : tensor<512xi32>
  %addr = arith.addi %wo, %ho : tensor<512xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %inp = tt.addptr %ins, %addr : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %inp : tensor<512x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %p : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %v : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// Inductor's convolution template, reduced: a [512 pixels, 16 channels] tile of a
// dense NHWC 7x7x16 input shifted by one filter tap.  w = p % 7,
// h = (p // 7) % 7, n = (p // 7) // 7; the batch term reaches the offsets through
// the pointer (added before the broadcast), the others through the index.  The
// terms recombine in two steps (n * 784 + h * 112 = (p // 7) * 112, then
// + w * 16 = p * 16), so the read is a [512, 16] box at strides [16, 1]; the
// padding (0 <= h + tap_h < 7) is not a box and stays an explicit mask tile.

// CHECK-LABEL: tile.kernel @conv_input(%x: !tile.buffer<f32>, %tap: i32)
// CHECK:      tile.load %x[%{{.*}}] strides [16, 1] mask %{{.*}} pad %{{.*}} : !tile.buffer<f32> -> tensor<512x16xf32>
// CHECK-NOT:  tile.gather
tt.func @conv_input(%x: !tt.ptr<f32>, %tap: i32) {
  %c512 = arith.constant 512 : i32
  %c0 = arith.constant dense<0> : tensor<512xi32>
  %c7 = arith.constant dense<7> : tensor<512xi32>
  %c16 = arith.constant dense<16> : tensor<512xi32>
  %c112 = arith.constant dense<112> : tensor<512xi32>
  %c784 = arith.constant dense<784> : tensor<512xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<512x16xf32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c512 : i32
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %starts = tt.splat %start : i32 -> tensor<512xi32>
  %p = arith.addi %starts, %range : tensor<512xi32>
  %w = arith.remsi %p, %c7 : tensor<512xi32>
  %nh = arith.divsi %p, %c7 : tensor<512xi32>
  %h = arith.remsi %nh, %c7 : tensor<512xi32>
  %n = arith.divsi %nh, %c7 : tensor<512xi32>
  %nbase = arith.muli %n, %c784 : tensor<512xi32>
  %nbase2 = tt.expand_dims %nbase {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x1x!tt.ptr<f32>>
  %xbase = tt.addptr %xs, %nbase2 : tensor<512x1x!tt.ptr<f32>>, tensor<512x1xi32>
  %taps = tt.splat %tap : i32 -> tensor<512xi32>
  %hx = arith.addi %taps, %h : tensor<512xi32>
  %wx = arith.addi %taps, %w : tensor<512xi32>
  %ho = arith.muli %hx, %c112 : tensor<512xi32>
  %wo = arith.muli %wx, %c16 : tensor<512xi32>
  %ho2 = tt.expand_dims %ho {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %wo2 = tt.expand_dims %wo {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %rows = arith.addi %ho2, %wo2 : tensor<512x1xi32>
  %ch = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ch2 = tt.expand_dims %ch {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rowsb = tt.broadcast %rows : tensor<512x1xi32> -> tensor<512x16xi32>
  %chb = tt.broadcast %ch2 : tensor<1x16xi32> -> tensor<512x16xi32>
  %offs = arith.addi %rowsb, %chb : tensor<512x16xi32>
  %xbaseb = tt.broadcast %xbase : tensor<512x1x!tt.ptr<f32>> -> tensor<512x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %xbaseb, %offs : tensor<512x16x!tt.ptr<f32>>, tensor<512x16xi32>
  %inside = arith.cmpi sge, %hx, %c0 : tensor<512xi32>
  %inside2 = tt.expand_dims %inside {axis = 1 : i32} : tensor<512xi1> -> tensor<512x1xi1>
  %mask = tt.broadcast %inside2 : tensor<512x1xi1> -> tensor<512x16xi1>
  %v = tt.load %ptrs, %mask, %zero : tensor<512x16x!tt.ptr<f32>>
  %sum = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<512x16xf32>) -> tensor<16xf32>
  %outs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %outp = tt.addptr %outs, %ch : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %outp, %sum : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// The identity needs the dividend proved non-negative: x = i - 256 may be
// negative, so (x % 7) * 16 + (x // 7) * 112 stays a gather.

// CHECK-LABEL: tile.kernel @maybe_negative(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>)
// CHECK:       tile.gather %in
tt.func @maybe_negative(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %c7 = arith.constant dense<7> : tensor<512xi32>
  %c16 = arith.constant dense<16> : tensor<512xi32>
  %c112 = arith.constant dense<112> : tensor<512xi32>
  %c256 = arith.constant dense<256> : tensor<512xi32>
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %x = arith.subi %range, %c256 : tensor<512xi32>
  %w = arith.remsi %x, %c7 : tensor<512xi32>
  %h = arith.divsi %x, %c7 : tensor<512xi32>
  %wo = arith.muli %w, %c16 : tensor<512xi32>
  %ho = arith.muli %h, %c112 : tensor<512xi32>
  %addr = arith.addi %wo, %ho : tensor<512xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %inp = tt.addptr %ins, %addr : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %inp : tensor<512x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %v : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// A quotient's coefficient that is not the divisor times the remainder's
// ((p % 7) * 16 + (p // 7) * 100: a padded row, not p * 16) is not a box.

// CHECK-LABEL: tile.kernel @mismatched_stride(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>)
// CHECK:       tile.gather %in
tt.func @mismatched_stride(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %c512 = arith.constant 512 : i32
  %c7 = arith.constant dense<7> : tensor<512xi32>
  %c16 = arith.constant dense<16> : tensor<512xi32>
  %c100 = arith.constant dense<100> : tensor<512xi32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c512 : i32
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %starts = tt.splat %start : i32 -> tensor<512xi32>
  %p = arith.addi %starts, %range : tensor<512xi32>
  %w = arith.remsi %p, %c7 : tensor<512xi32>
  %h = arith.divsi %p, %c7 : tensor<512xi32>
  %wo = arith.muli %w, %c16 : tensor<512xi32>
  %ho = arith.muli %h, %c100 : tensor<512xi32>
  %addr = arith.addi %wo, %ho : tensor<512xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %inp = tt.addptr %ins, %addr : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %inp : tensor<512x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %p : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %v : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// An unsigned remainder with a signed quotient are different terms (they
// differ on a negative dividend), and do not pair even where p >= 0.

// CHECK-LABEL: tile.kernel @mixed_signedness(%in: !tile.buffer<f32>, %out: !tile.buffer<f32>)
// CHECK:       tile.gather %in
tt.func @mixed_signedness(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %c512 = arith.constant 512 : i32
  %c7 = arith.constant dense<7> : tensor<512xi32>
  %c16 = arith.constant dense<16> : tensor<512xi32>
  %c112 = arith.constant dense<112> : tensor<512xi32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c512 : i32
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %starts = tt.splat %start : i32 -> tensor<512xi32>
  %p = arith.addi %starts, %range : tensor<512xi32>
  %w = arith.remui %p, %c7 : tensor<512xi32>
  %h = arith.divsi %p, %c7 : tensor<512xi32>
  %wo = arith.muli %w, %c16 : tensor<512xi32>
  %ho = arith.muli %h, %c112 : tensor<512xi32>
  %addr = arith.addi %wo, %ho : tensor<512xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %inp = tt.addptr %ins, %addr : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %inp : tensor<512x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %p : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %v : tensor<512x!tt.ptr<f32>>
  tt.return
}
