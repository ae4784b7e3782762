// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifier rules of the DMA ops: tile.load/tile.store descriptors
// (offset, strides, bounds, element type, mask, pad), tile.gather/
// tile.scatter and the atomics (shapes, element types, pad, kind).  Each case
// breaks one, in the generic form where the custom syntax cannot say it.

tile.kernel @two_offsets(%x: !tile.buffer<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op expected one offset
  %t = "tile.load"(%x) <{static_offset = array<i64: 0, 0>, static_strides = array<i64: 1>, static_lower = array<i64>, static_upper = array<i64>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 0>}> : (!tile.buffer<f32>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @marker_without_value(%x: !tile.buffer<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op offset: 1 dynamic markers but 0 values
  %t = "tile.load"(%x) <{static_offset = array<i64: -9223372036854775808>, static_strides = array<i64: 1>, static_lower = array<i64>, static_upper = array<i64>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 0>}> : (!tile.buffer<f32>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @strides_rank(%x: !tile.buffer<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op expected 2 strides, one per tile dimension
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @upper_rank(%x: !tile.buffer<f32>, %n: index) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op expected no upper bounds or 2, got 1
  %t = tile.load %x[0] strides [4, 1] upper [%n] : !tile.buffer<f32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @lower_rank(%x: !tile.buffer<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op expected no lower bounds or 1, got 2
  %t = tile.load %x[0] strides [1] lower [1, 0] : !tile.buffer<f32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @load_element_type(%x: !tile.buffer<f32>) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op tile element type f16 differs from the buffer's f32
  %t = "tile.load"(%x) <{static_offset = array<i64: 0>, static_strides = array<i64: 1>, static_lower = array<i64>, static_upper = array<i64>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 0>}> : (!tile.buffer<f32>) -> tensor<4xf16>
  tile.return
}

// -----

tile.kernel @store_element_type(%x: !tile.buffer<f32>, %k: i32) {
  %v = tile.broadcast %k : i32 -> tensor<4xi32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.store' op tile element type i32 differs from the buffer's f32
  tile.store %v, %x[0] strides [1] : tensor<4xi32>, !tile.buffer<f32>
  tile.return
}

// -----

tile.kernel @mask_shape(%x: !tile.buffer<f32>, %b: i1) {
  %m = tile.broadcast %b : i1 -> tensor<8xi1>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op mask must have the tile's shape
  %t = "tile.load"(%x, %m) <{static_offset = array<i64: 0>, static_strides = array<i64: 1>, static_lower = array<i64>, static_upper = array<i64>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 1>}> : (!tile.buffer<f32>, tensor<8xi1>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @load_pad_type(%x: !tile.buffer<f32>, %p: f16) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.load' op pad must have the element type
  %t = "tile.load"(%p, %x) <{static_offset = array<i64: 0>, static_strides = array<i64: 1>, static_lower = array<i64>, static_upper = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0>}> : (f16, !tile.buffer<f32>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @load_scalar(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [] : !tile.buffer<f32> -> f32
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: expected a tile type, got f32
  tile.return
}

// -----

tile.kernel @store_scalar(%x: !tile.buffer<f32>, %f: f32) {
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:40: error: expected a tile type, got f32
  tile.store %f, %x[0] strides [] : f32, !tile.buffer<f32>
  tile.return
}

// -----

tile.kernel @gather_shape(%x: !tile.buffer<f32>) {
  %i = tile.iota {start = 0 : i32} : tensor<8xi64>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.gather' op values and indices must have one shape
  %g = "tile.gather"(%x, %i) <{operandSegmentSizes = array<i32: 0, 1, 1, 0>}> : (!tile.buffer<f32>, tensor<8xi64>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @gather_mask_shape(%x: !tile.buffer<f32>, %b: i1) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %m = tile.broadcast %b : i1 -> tensor<8xi1>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.gather' op mask and indices must have one shape
  %g = "tile.gather"(%x, %i, %m) <{operandSegmentSizes = array<i32: 0, 1, 1, 1>}> : (!tile.buffer<f32>, tensor<4xi64>, tensor<8xi1>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @gather_element_type(%x: !tile.buffer<f32>) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.gather' op element type i32 differs from the buffer's f32
  %g = tile.gather %x[%i] : !tile.buffer<f32>, tensor<4xi64> -> tensor<4xi32>
  tile.return
}

// -----

tile.kernel @gather_pad_type(%x: !tile.buffer<f32>, %p: i32) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.gather' op pad must have the element type
  %g = "tile.gather"(%p, %x, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (i32, !tile.buffer<f32>, tensor<4xi64>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @scatter_shape(%x: !tile.buffer<f32>, %f: f32) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %v = tile.broadcast %f : f32 -> tensor<8xf32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.scatter' op values and indices must have one shape
  tile.scatter %v, %x[%i] : tensor<8xf32>, !tile.buffer<f32>, tensor<4xi64>
  tile.return
}

// -----

tile.kernel @float_indices(%x: !tile.buffer<f32>, %f: f32) {
  %i = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.gather' op operand 'indices' at position 1 does not verify: f32 should be of base attribute integer_type
  %g = tile.gather %x[%i] : !tile.buffer<f32>, tensor<4xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @atomic_kind(%x: !tile.buffer<f32>, %f: f32) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %v = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.atomic_rmw' op unknown atomic kind 'fmul'
  %o = "tile.atomic_rmw"(%v, %x, %i) <{kind = "fmul", operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<4xf32>, !tile.buffer<f32>, tensor<4xi64>) -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @atomic_kind_parsed(%x: !tile.buffer<f32>, %f: f32) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %v = tile.broadcast %f : f32 -> tensor<4xf32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:29: error: unknown atomic kind 'fmul'
  %o = tile.atomic_rmw fmul %x[%i], %v : !tile.buffer<f32>, tensor<4xi64>, tensor<4xf32>
  tile.return
}

// -----

tile.kernel @atomic_element_type(%x: !tile.buffer<f32>, %k: i32) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %v = tile.broadcast %k : i32 -> tensor<4xi32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.atomic_rmw' op element type i32 differs from the buffer's f32
  %o = tile.atomic_rmw add %x[%i], %v : !tile.buffer<f32>, tensor<4xi64>, tensor<4xi32>
  tile.return
}

// -----

tile.kernel @atomic_types(%x: !tile.buffer<f32>, %f: f32) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %v = tile.broadcast %f : f32 -> tensor<4xf32>
  %o = tile.atomic_rmw fadd %x[%i], %v : !tile.buffer<f32>, tensor<4xi64>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: expected the buffer, indices and value types
  tile.return
}

// -----

tile.kernel @cas_types(%x: !tile.buffer<i32>, %k: i32, %l: i64) {
  %i = tile.iota {start = 0 : i32} : tensor<4xi64>
  %c = tile.broadcast %k : i32 -> tensor<4xi32>
  %v = tile.broadcast %l : i64 -> tensor<4xi64>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.atomic_cas' op operand 'value' at position 1 does not verify: attribute tensor<4xi32> expected from variable 'T', but got tensor<4xi64>
  %o = "tile.atomic_cas"(%c, %v, %x, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<4xi32>, tensor<4xi64>, !tile.buffer<i32>, tensor<4xi64>) -> tensor<4xi32>
  tile.return
}

// -----

tile.kernel @cas_shape(%x: !tile.buffer<i32>, %k: i32) {
  %i = tile.iota {start = 0 : i32} : tensor<8xi64>
  %c = tile.broadcast %k : i32 -> tensor<4xi32>
  %v = tile.broadcast %k : i32 -> tensor<4xi32>
  // CHECK: invalid_memory.mlir:[[# @LINE + 1]]:3: error: 'tile.atomic_cas' op values and indices must have one shape
  %o = tile.atomic_cas %x[%i], %c, %v : !tile.buffer<i32>, tensor<8xi64>, tensor<4xi32>
  tile.return
}
