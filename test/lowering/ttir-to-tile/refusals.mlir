// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p ttir-to-tile | filecheck %s

// What the tile dialect cannot describe is refused with the op, the reason and
// where it came from: one case per reason.  The inputs are Triton 3.9's TTIR,
// reduced: the corpus's inline_asm_fma kernel, the probe kernels of
// test/import/probe_kernels.py, Triton 3.6's block pointers
// (test/dialects/tt/block_pointers.mlir), and small @triton.jit kernels
// written for the case (named after them).

// inline_asm_fma__triton_poi_fused_relu_0
tt.func @inline_asm(%x: tensor<16xf32>) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.elementwise_inline_asm' op cannot be lowered to the tile dialect: inline PTX assembly has no meaning on the NPU (at kernel.py:3:7 (tmp1))
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32> loc(#tmp1)
  tt.return
}
#tmp1 = loc("tmp1"("kernel.py":3:7))

// -----

tt.func @libdevice(%x: tensor<16xf32>) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op cannot be lowered to the tile dialect: library call left; run lower-libdevice first
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// The debugging probe: tl.device_print.
tt.func public @debugging(%X: !tt.ptr<f32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x = tt.splat %X : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %x_1 = tt.addptr %x, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x_2 = tt.load %x_1 : tensor<64x!tt.ptr<f32>>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.print' op cannot be lowered to the tile dialect: device printing is not modelled (at probe_kernels.py:241:5)
  tt.print " values: " {hex = false, isSigned = array<i32: 0>} : %x_2 : tensor<64xf32> loc(#print)
  tt.return
}
#print = loc("probe_kernels.py":241:5)

// -----

// x.to(tl.float8e5, fp_downcast_rounding="rtz"): arith.truncf rounds to nearest even.
tt.func @fp8(%x: tensor<64xf32>) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.fp_to_fp' op cannot be lowered to the tile dialect: rounding toward zero (only to nearest even)
  %e5 = tt.fp_to_fp %x, rounding = rtz : tensor<64xf32> -> tensor<64xf8E5M2>
  tt.return
}

// -----

// The conversions probe: tl.store(ADDR.to(tl.pointer_type(tl.float32)) + r, x).
tt.func @int_to_ptr(%ADDR: i64, %x: tensor<64xf32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %base = tt.int_to_ptr %ADDR : i64 -> !tt.ptr<f32>
  %b = tt.splat %base : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.addptr' op the pointer operand is data (cast from an integer or loaded from memory): it points into no known buffer
  %b_1 = tt.addptr %b, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.return
}

// -----

// The conversions probe: (X + r).to(tl.int64).
tt.func public @ptr_to_int(%X: !tt.ptr<f32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x = tt.splat %X : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %x_1 = tt.addptr %x, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.ptr_to_int' op a buffer pointer has no address on the NPU; only pointers cast from integers (tt.int_to_ptr) can be cast back
  %as_int = tt.ptr_to_int %x_1 : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
  tt.return
}

// -----

// Triton 3.6's block pointers: tl.make_block_ptr.
tt.func public @block_pointer(%in: !tt.ptr<f16>, %M: i64, %N: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.make_tensor_ptr' op cannot be lowered to the tile dialect: block pointers are not supported; use pointer arithmetic
  %p = tt.make_tensor_ptr %in, [%M, %N], [%N, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  tt.return
}

// -----

// Triton 3.6's block pointers: tl.advance, on a block pointer argument.
tt.func public @advance(%p: !tt.ptr<tensor<32x64xf16>>) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.advance' op cannot be lowered to the tile dialect: block pointers are not supported; use pointer arithmetic
  %q = tt.advance %p, [%c32, %c0] : <tensor<32x64xf16>>
  tt.return
}

// -----

// A descriptor made on the host (the descriptor_arguments probe): its shape
// and strides are not in the TTIR.
// CHECK: refusals.mlir:[[# @LINE + 1]]:1: error: 'tt.func' op argument 'in_desc' is a tensor descriptor made on the host; make it in the kernel with tl.make_tensor_descriptor
tt.func public @descriptor_argument(%in_desc: !tt.tensordesc<16x32xf32>) {
  %c0_i32 = arith.constant 0 : i32
  %0 = tt.descriptor_load %in_desc[%c0_i32, %c0_i32] : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

// The descriptors probe: desc.atomic_add([0, 0], x).
tt.func @descriptor_reduce(%X: !tt.ptr<f32>, %M: i32, %N: i32, %x: tensor<16x32xf32>) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %n = arith.extsi %N : i32 to i64
  %d = tt.make_tensor_descriptor %X, [%M, %N], [%n, %c1_i64] : <f32>, <16x32xf32>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_reduce' op cannot be lowered to the tile dialect: atomic reductions through a tensor descriptor are not modelled
  tt.descriptor_reduce add, %d[%c0_i32, %c0_i32], %x : !tt.tensordesc<16x32xf32>, tensor<16x32xf32>
  tt.return
}

// -----

// A descriptor carried by a loop (made anew in each iteration).
tt.func public @loop_carried_descriptor(%X: !tt.ptr<f32>, %M: i32, %N: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c1_i64 = arith.constant 1 : i64
  %n = arith.extsi %N : i32 to i64
  %d = tt.make_tensor_descriptor %X, [%M, %N], [%n, %c1_i64] : <f32>, <16x32xf32>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'scf.for' op a tensor descriptor carried by a loop is not supported
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %d) -> (!tt.tensordesc<16x32xf32>) : i32 {
    %e = tt.make_tensor_descriptor %X, [%i, %N], [%n, %c1_i64] : <f32>, <16x32xf32>
    scf.yield %e : !tt.tensordesc<16x32xf32>
  }
  tt.return
}

// -----

// A pointer chosen from two buffers, carried by a loop.
tt.func public @loop_carried_choice(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %p = arith.select %first, %X, %Y : !tt.ptr<f32>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'scf.for' op a loop-carried pointer is chosen from two buffers (tl.where)
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%q = %p) -> (!tt.ptr<f32>) : i32 {
    %q1 = tt.addptr %q, %c1 : !tt.ptr<f32>, i32
    scf.yield %q1 : !tt.ptr<f32>
  }
  tt.return
}

// -----

// A descriptor of a pointer chosen from two buffers.
tt.func public @descriptor_of_a_choice(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %M: i32, %N: i32) {
  %c0 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %n = arith.extsi %N : i32 to i64
  %pid = tt.get_program_id x : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %p = arith.select %first, %X, %Y : !tt.ptr<f32>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.make_tensor_descriptor' op the descriptor's base pointer is chosen from two buffers
  %d = tt.make_tensor_descriptor %p, [%M, %N], [%n, %c1_i64] : <f32>, <16x32xf32>
  tt.return
}

// -----

// The device_functions probe: a noinline device function.
tt.func public @device_functions(%X: !tt.ptr<f32>) {
  %x = tt.load %X : !tt.ptr<f32>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op cannot be lowered to the tile dialect: calls are not supported; inline device functions first
  %0, %1 = tt.call @scalar_pair(%x, %x) : (f32, f32) -> (f32, f32)
  tt.return
}
tt.func private @scalar_pair(%x: f32, %y: f32) -> (f32, f32) attributes {noinline = true} {
  %0 = arith.mulf %x, %y : f32
  tt.return %0, %0 : f32, f32
}

// -----

// The device function itself, lowered as a kernel.
tt.func private @scale(%x: f32, %y: f32) -> f32 attributes {noinline = true} {
  %0 = arith.mulf %x, %y : f32
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.return' op a kernel returns nothing
  tt.return %0 : f32
}

// -----

// Branches left for structure-early-return.
tt.func @branch(%c: i1) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'cf.br' op cannot be lowered to the tile dialect: unstructured control flow left; run structure-early-return first
  cf.br ^bb1
^bb1:
  tt.return
}

// -----

tt.func @conditional_branch(%c: i1) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'cf.cond_br' op cannot be lowered to the tile dialect: unstructured control flow left; run structure-early-return first
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  tt.return
}

// -----

// A pointer read from memory is no kernel buffer (Triton 3.9 has no pointers
// to pointers; TTIR tnpu imports can).
tt.func @pointer_table(%pp: !tt.ptr<!tt.ptr<f32>>) {
  %p = tt.load %pp : !tt.ptr<!tt.ptr<f32>>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.load' op the pointer operand is data (cast from an integer or loaded from memory): it points into no known buffer
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

// (X + 1).to(tl.pointer_type(tl.int8), bitcast=True) (kernel cast_at_offset):
// the offset would count f32 elements of an i8 buffer.
tt.func public @cast_at_offset(%X: !tt.ptr<f32>) {
  %bytes = arith.constant 1 : i32
  %bytes_1 = tt.addptr %X, %bytes : !tt.ptr<f32>, i32
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.bitcast' op a pointer with an offset is cast to an element type of another width
  %bytes_2 = tt.bitcast %bytes_1 : !tt.ptr<f32> -> !tt.ptr<i8>
  tt.return
}

// -----

// `p = X; for i in range(n): tl.store(p + i, 1.0); p = Y` (kernel
// loop_switches_buffer).
tt.func public @loop_switches_buffer(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %n: i32) {
  %cst = arith.constant 1.000000e+00 : f32
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'scf.for' op a loop-carried pointer changes buffer
  %p = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%p_1 = %X) -> (!tt.ptr<f32>) : i32 {
    %0 = tt.addptr %p_1, %i : !tt.ptr<f32>, i32
    tt.store %0, %cst : !tt.ptr<f32>
    scf.yield %Y : !tt.ptr<f32>
  }
  tt.return
}

// -----

// `if pid == 0: p = X + tl.load(K)` `else: p = Y` (kernel if_yields_pointer).
tt.func public @if_yields_pointer(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %K: !tt.ptr<i32>) {
  %c0_i32 = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %0 = arith.cmpi eq, %pid, %c0_i32 : i32
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'scf.if' op an scf.if yielding pointers is not supported
  %1 = scf.if %0 -> (!tt.ptr<f32>) {
    %p_1 = tt.load %K : !tt.ptr<i32>
    %p_2 = tt.addptr %X, %p_1 : !tt.ptr<f32>, i32
    scf.yield %p_2 : !tt.ptr<f32>
  } else {
    scf.yield %Y : !tt.ptr<f32>
  }
  tt.return
}

// -----

// `while i < n: tl.store(p, 1.0); p += 1; i += 1` (kernel
// while_carries_pointer).
tt.func public @while_carries_pointer(%X: !tt.ptr<f32>, %n: i32) {
  %c1_i32 = arith.constant 1 : i32
  %cst = arith.constant 1.000000e+00 : f32
  %i = arith.constant 0 : i32
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'scf.while' op an scf.while carrying pointers is not supported
  %i_1, %i_2 = scf.while (%p = %X, %i_3 = %i) : (!tt.ptr<f32>, i32) -> (!tt.ptr<f32>, i32) {
    %0 = arith.cmpi slt, %i_3, %n : i32
    scf.condition(%0) %p, %i_3 : !tt.ptr<f32>, i32
  } do {
  ^bb0(%p_1: !tt.ptr<f32>, %i_4: i32):
    tt.store %p_1, %cst : !tt.ptr<f32>
    %p_2 = tt.addptr %p_1, %c1_i32 : !tt.ptr<f32>, i32
    %i_5 = arith.addi %i_4, %c1_i32 : i32
    scf.yield %p_2, %i_5 : !tt.ptr<f32>, i32
  }
  tt.return
}

// -----

// tl.reduce(x, 0, _root_sum) with tl.sqrt_rn in the combine function (kernel
// combine_with_precise_sqrt).
tt.func @combine_with_precise_sqrt(%x: tensor<16xf32>) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.reduce' op combine region holds 'tt.precise_sqrt'
  %3 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%arg2: f32, %arg3: f32):
    %4 = arith.mulf %arg2, %arg2 : f32
    %5 = arith.mulf %arg3, %arg3 : f32
    %6 = arith.addf %4, %5 : f32
    %7 = tt.precise_sqrt %6 : f32
    tt.reduce.return %7 : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// Triton's verifier lets a tensor source through tt.splat (its operand is any
// TT_Type), but its frontend only splats scalars and its lowerings assume one.
tt.func public @splat_of_a_tensor(%X: !tt.ptr<f32>) {
  %r = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
  %p = tt.splat %X : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>
  %q = tt.addptr %p, %r : tensor<1x!tt.ptr<f32>>, tensor<1xi32>
  %x = tt.load %q : tensor<1x!tt.ptr<f32>>
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.splat' op cannot be lowered to the tile dialect: its source is a tensor (tensor<1xf32>); tt.splat broadcasts a scalar, tt.broadcast a tensor
  %y = tt.splat %x : tensor<1xf32> -> tensor<64xf32>
  tt.return
}
