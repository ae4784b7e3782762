// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Pointer, load/store, atomic and tensor-descriptor rules: the types Triton leaves
// out of the text (a load's mask and result) must follow from the pointer type,
// and a mismatch is reported at the operand or the op, on one line.

tt.func @load_not_pointer(%p: tensor<16xf32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.load' op expected a pointer or a tensor of pointers, got tensor<16xf32>
  %0 = tt.load %p : tensor<16xf32>
  tt.return
}

// -----

tt.func @load_mask_shape(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:20: error: %m has type tensor<8xi1>, but is used here as tensor<16xi1>
  %0 = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_other_type(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:24: error: %o has type tensor<16xf16>, but is used here as tensor<16xf32>
  %0 = tt.load %p, %m, %o : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_result_type(%p: tensor<16x!tt.ptr<f32>>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.load' op result 'result' at position 0 does not verify: expected tensor<16xf32> (the pointee type of the pointer), got tensor<16xf16>
  %0 = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>) -> tensor<16xf16>
  tt.return
}

// -----

tt.func @load_cache_keyword(%p: tensor<16x!tt.ptr<f32>>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:35: error: expected CacheModifier (none, ca, cg, wb, cs, wt, cv)
  %0 = tt.load %p cacheModifier = lru : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_cache_policy(%p: tensor<16x!tt.ptr<f32>>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:73: error: #tt.cache_policy is missing eviction_policy
  %0 = tt.load %p {cachePolicy = #tt.cache_policy<cache_modifier = none>} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_boundary_check(%p: !tt.ptr<tensor<16x16xf32>>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.load' op boundaryCheck dimension 2 out of range for rank 2
  %0 = tt.load %p {boundaryCheck = array<i32: 2>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @store_value_type(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xi32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:16: error: %v has type tensor<16xi32>, but is used here as tensor<16xf32>
  tt.store %p, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @store_mask_generic(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<16xi32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.store' op operand 'mask' at position 2 does not verify: expected tensor<16xi1> (i1 in the shape of the pointer), got tensor<16xi32>
  "tt.store"(%p, %v, %m) : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi32>) -> ()
  tt.return
}

// -----

tt.func @addptr_shape(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<8xi32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.addptr' op requires the same shape for all operands and results
  %0 = tt.addptr %p, %o : tensor<16x!tt.ptr<f32>>, tensor<8xi32>
  tt.return
}

// -----

tt.func @addptr_float_offset(%p: !tt.ptr<f32>, %o: f32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.addptr' op expected an integer or a tensor of integers, got f32
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, f32
  tt.return
}

// -----

tt.func @int_to_ptr_width(%a: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.int_to_ptr' op expected i64 or a tensor of i64, got i32
  %0 = tt.int_to_ptr %a : i32 -> !tt.ptr<f32>
  tt.return
}

// -----

tt.func @ptr_to_int_shape(%p: tensor<16x!tt.ptr<f32>>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.ptr_to_int' op requires the same shape for all operands and results
  %0 = tt.ptr_to_int %p : tensor<16x!tt.ptr<f32>> -> tensor<8xi64>
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<16xf32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 16
  %0 = tt.bitcast %x : tensor<16xf32> -> tensor<16xi16>
  tt.return
}

// -----

tt.func @bitcast_pointer_to_int(%p: !tt.ptr<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.bitcast' op Cannot bitcast pointer to non-pointer type
  %0 = tt.bitcast %p : !tt.ptr<f32> -> i64
  tt.return
}

// -----

tt.func @bitcast_address_space(%p: !tt.ptr<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.bitcast' op Cannot bitcast pointer between different address spaces
  %0 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<f32, "constant">
  tt.return
}

// -----

tt.func @atomic_value_type(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xi32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.atomic_rmw' op expected tensor<16xf32> (the pointee type of the pointer), got tensor<16xi32>
  %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<16x!tt.ptr<f32>>, tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

tt.func @atomic_mask_shape(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.atomic_rmw' op expected tensor<16xi1> (i1 in the shape of the pointer), got tensor<8xi1>
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @atomic_kind(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:22: error: expected RMWOp (and, or, xor, add, fadd, max, min, umax, umin, exch)
  %0 = tt.atomic_rmw fmul, acq_rel, gpu, %p, %v : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @atomic_semantic_generic(%p: !tt.ptr<f32>, %v: f32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.atomic_rmw' op expected an i32 MemSemantic: one of 1 (relaxed), 2 (acquire), 3 (release), 4 (acq_rel); got 9 : i32
  %0 = "tt.atomic_rmw"(%p, %v) <{atomic_rmw_op = 5 : i32, scope = 1 : i32, sem = 9 : i32}> : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @atomic_cas_compare(%p: !tt.ptr<i32>, %c: i64, %v: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.atomic_cas' op expected i32 (the pointee type of the pointer), got i64
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i64, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_load_result(%p: !tt.ptr<i32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.atomic_load' op expected i32 (the pointee type of the pointer), got i64
  %0 = tt.atomic_load acquire, gpu, %p : (!tt.ptr<i32>) -> i64
  tt.return
}

// -----

tt.func @atomic_poll_float(%p: !tt.ptr<f32>, %e: f32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.atomic_poll' op expected value must be an integer or integer tensor
  %0 = tt.atomic_poll acquire, gpu, %p, %e : !tt.ptr<f32>, f32 -> i1
  tt.return
}

// -----

tt.func @make_tensor_ptr_rank(%b: !tt.ptr<f16>, %s: i64, %o: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.make_tensor_ptr' op Operation has 5 operands for 3 variadic operands marked as having the same size.
  %0 = tt.make_tensor_ptr %b, [%s, %s], [%s, %s], [%o] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_base(%b: !tt.ptr<f32>, %s: i64, %o: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:27: error: %b has type !tt.ptr<f32>, but is used here as !tt.ptr<f16>
  %0 = tt.make_tensor_ptr %b, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<32xf16>>
  tt.return
}

// -----

tt.func @advance_rank(%p: !tt.ptr<tensor<32x64xf16>>, %o: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.advance' op expected one of the offsets per dimension of tensor<32x64xf16>
  %0 = tt.advance %p, [%o] : <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @descriptor_indices(%d: !tt.tensordesc<16x32xf32>, %i: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_load' op expected one index per descriptor dimension
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @descriptor_element(%d: !tt.tensordesc<16x32xf32>, %i: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_load' op descriptor block and tensor element types must match, but got descriptor element type f32 and tensor element type f16
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<16x32xf32> -> tensor<16x32xf16>
  tt.return
}

// -----

tt.func @descriptor_count(%d: !tt.tensordesc<16x32xf32>, %i: i32, %x: tensor<16x16xf32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_store' op descriptor block and tensor must have the same number of elements, but got descriptor block with 512 elements tensor with 256 elements
  tt.descriptor_store %d[%i, %i], %x : !tt.tensordesc<16x32xf32>, tensor<16x16xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_rows(%d: !tt.tensordesc<2x32xf32>, %x: tensor<8xi32>, %y: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_gather' op descriptor block must be a 2D tensor with exactly 1 row, but got tensor<2x32xf32>
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<2x32xf32>, tensor<8xi32>, i32) -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_count(%d: !tt.tensordesc<1x32xf32>, %x: tensor<8xi32>, %y: i32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_gather' op result tensor must have as many rows as indices (8), but got tensor<16x32xf32>
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x32xf32>, tensor<8xi32>, i32) -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @descriptor_scatter_columns(%d: !tt.tensordesc<1x32xf32>, %x: tensor<8xi32>, %y: i32, %v: tensor<8x16xf32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.descriptor_scatter' op result tensor number of columns must match block (32), but got tensor<8x16xf32>
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<1x32xf32>, tensor<8xi32>, i32, tensor<8x16xf32>
  tt.return
}

// -----

tt.func @make_tensor_descriptor_rank(%b: !tt.ptr<f32>, %s: i32, %t: i64) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tt.make_tensor_descriptor' op shape and strides must have one value per dimension
  %0 = tt.make_tensor_descriptor %b, [%s], [%t] : <f32>, <16x32xf32>
  tt.return
}
