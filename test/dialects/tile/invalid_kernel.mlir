// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifier rules of tile.kernel, tile.return, the grid queries and
// tile.buffer_cast: each case breaks one, and the message names the op and
// its line.

// CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:1: error: 'tile.kernel' op block arguments must have the kernel's argument types
"tile.kernel"() <{sym_name = "wrong_block_args", function_type = (!tile.buffer<f32>) -> ()}> ({
^bb0(%x: !tile.buffer<f16>):
  tile.return
}) : () -> ()

// -----

// CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:1: error: 'tile.kernel' op a kernel returns nothing
"tile.kernel"() <{sym_name = "returns_value", function_type = (i32) -> i32}> ({
^bb0(%n: i32):
  tile.return
}) : () -> ()

// -----

// The parser refuses results too (and reports where the kernel ends).
// CHECK: invalid_kernel.mlir:{{[0-9]+}}:1: error: a kernel returns nothing
tile.kernel @parsed_result(%n: i32) -> i32 {
  tile.return
}

// -----

// CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:1: error: 'tile.kernel' op kernel arguments are buffers or scalars, not tensor<4xf32>
"tile.kernel"() <{sym_name = "tensor_argument", function_type = (tensor<4xf32>) -> ()}> ({
^bb0(%t: tensor<4xf32>):
  tile.return
}) : () -> ()

// -----

tt.func @return_outside(%n: i32) {
  // CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:3: error: 'tile.return' op 'tile.return' expects parent op 'tile.kernel'
  tile.return
}

// -----

tile.kernel @program_axis() {
  // CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:3: error: 'tile.program_id' op axis must be 0, 1 or 2
  %pid = tile.program_id {axis = 3 : i32} : i32
  tile.return
}

// -----

tile.kernel @num_programs_axis() {
  // CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:3: error: 'tile.num_programs' op axis must be 0, 1 or 2
  %n = tile.num_programs {axis = -1 : i32} : i32
  tile.return
}

// -----

tile.kernel @buffer_cast_of_tile(%t: f32) {
  // CHECK: invalid_kernel.mlir:[[# @LINE + 1]]:3: error: 'tile.buffer_cast' op operand 'source' at position 0 does not verify: f32 should be of base attribute tile.buffer
  %c = "tile.buffer_cast"(%t) : (f32) -> !tile.buffer<i8>
  tile.return
}
