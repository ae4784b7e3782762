// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Calls and returns against their function, enum keywords, pointer types and the
// GPU-only ops: one line per error at the offending op, type or keyword.

tt.func @call_unknown(%x: f32) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op 'nowhere' does not reference a valid function
  tt.call @nowhere(%x) : (f32) -> ()
  tt.return
}

// -----

tt.func @call_operand_count(%x: f32) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op incorrect number of operands for callee
  tt.call @callee(%x, %x) : (f32, f32) -> ()
  tt.return
}
tt.func private @callee(%x: f32) {
  tt.return
}

// -----

tt.func @call_operand_type(%x: f16) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op operand type mismatch: expected operand type f32, but provided f16 for operand number 0
  tt.call @callee(%x) : (f16) -> ()
  tt.return
}
tt.func private @callee(%x: f32) {
  tt.return
}

// -----

tt.func @call_result_count(%x: f32) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op incorrect number of results for callee
  %0 = tt.call @callee(%x) : (f32) -> f32
  tt.return
}
tt.func private @callee(%x: f32) {
  tt.return
}

// -----

tt.func @call_result_type(%x: f32) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.call' op result type mismatch at index 0: i32 is not f32
  %0 = tt.call @callee(%x) : (f32) -> i32
  tt.return
}
tt.func private @callee(%x: f32) -> f32 {
  tt.return %x : f32
}

// -----

tt.func @return_count(%x: f32) -> f32 {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.return' op has 0 operands, but enclosing function (@return_count) returns 1
  tt.return
}

// -----

tt.func @return_type(%x: f32) -> i32 {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.return' op type of return operand 0 (f32) doesn't match function result type (i32) in function @return_type
  tt.return %x : f32
}

// -----

tt.func @return_outside_function(%c: i1) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'scf.if' op 'scf.if' terminates with operation tt.return instead of scf.yield
  scf.if %c {
    tt.return
  }
  tt.return
}

// -----

tt.func @program_id_axis() {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:26: error: expected ProgramDim (x, y, z)
  %0 = tt.get_program_id w : i32
  tt.return
}

// -----

tt.func @program_id_type() {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'tt.get_program_id' op Expected attribute i32 but got i64
  %0 = tt.get_program_id x : i64
  tt.return
}

// -----

// CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:48: error: a block pointer must point to a tensor of integers or floats, not tensor<4x!tt.ptr<f32>>
tt.func @pointer_to_pointer_tensor(%p: !tt.ptr<tensor<4x!tt.ptr<f32>>>) {
  tt.return
}

// -----

// CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:39: error: pointer types must point to integer or floating-point types, not index
tt.func @pointer_to_index(%p: !tt.ptr<index>) {
  tt.return
}

// -----

// CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:54: error: unknown address space "shared", expected one of "descriptor", "global", "constant"
tt.func @address_space_name(%p: !tt.ptr<f32, "shared">) {
  tt.return
}

// -----

tt.func @barrier_space() {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:21: error: expected an address space (none, local, global_read, global_write, tensor_read, tensor_write, all)
  ttg.barrier local|shared
  tt.return
}

// -----

tt.func @assume_bundles(%c: i1, %p: !tt.ptr<f32>) {
  // CHECK: invalid_functions_and_types.mlir:[[# @LINE + 1]]:3: error: 'llvm.intr.assume' op operand bundles are not supported
  "llvm.intr.assume"(%c, %p) <{op_bundle_sizes = array<i32: 1>, operandSegmentSizes = array<i32: 1, 1>}> : (i1, !tt.ptr<f32>) -> ()
  tt.return
}
