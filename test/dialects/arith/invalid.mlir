// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifier rules of the arith ops tnpu's context extends
// (tnpu/dialects/arith.py), on scalars, vectors and tensors: operand and
// result type classes, shapes, and cast compatibility, in MLIR's wording.

func.func @cmpi_of_floats(%a: tensor<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpi' op operand 'lhs' at position 0 does not verify: must be signless-integer-like, but got 'tensor<4xf32>'
  %0 = arith.cmpi eq, %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @cmpf_of_integers(%a: vector<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpf' op operand 'lhs' at position 0 does not verify: must be floating-point-like, but got 'vector<4xi32>'
  %0 = arith.cmpf oeq, %a, %a : vector<4xi32>
  func.return
}

// -----

func.func @cmpi_of_signed_integers(%a: si32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpi' op operand 'lhs' at position 0 does not verify: must be signless-integer-like, but got 'si32'
  %0 = arith.cmpi eq, %a, %a : si32
  func.return
}

// -----

func.func @cmpi_result_not_bool(%a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpi' op result 'result' at position 0 does not verify: must be bool-like, but got 'tensor<4xi32>'
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @cmpi_result_shape(%a: vector<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<3xi1>
  func.return
}

// -----

func.func @cmpf_scalar_operands_tensor_result(%a: f32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpf' op failed to verify that result type has i1 element type and same shape as operands
  %0 = "arith.cmpf"(%a, %a) <{predicate = 1 : i64, fastmath = #arith.fastmath<none>}> : (f32, f32) -> tensor<4xi1>
  func.return
}

// -----

func.func @cmpf_operand_types(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpf' op requires all operands to have the same type
  %0 = "arith.cmpf"(%a, %b) <{predicate = 1 : i64, fastmath = #arith.fastmath<none>}> : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  func.return
}

// -----

func.func @cmpi_predicate_range(%a: i32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
  %0 = "arith.cmpi"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1
  func.return
}

// -----

func.func @cmpf_predicate_name(%a: tensor<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:22: error: expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]
  %0 = arith.cmpf sge, %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @select_condition_not_bool(%c: i32, %a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.select' op operand 'cond' at position 0 does not verify: must be bool-like, but got 'i32'
  %0 = "arith.select"(%c, %a, %a) : (i32, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @select_condition_shape(%c: tensor<8xi1>, %a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.select' op failed to verify that condition is signless i1 or has matching shape
  %0 = arith.select %c, %a, %a : tensor<8xi1>, tensor<4xi32>
  func.return
}

// -----

func.func @select_shaped_condition_scalar_values(%c: tensor<4xi1>, %a: i32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.select' op failed to verify that condition is signless i1 or has matching shape
  %0 = arith.select %c, %a, %a : tensor<4xi1>, i32
  func.return
}

// -----

func.func @select_condition_container(%c: vector<4xi1>, %a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.select' op expected condition type to have the same shape as the result type, expected tensor<4xi1>, but got vector<4xi1>
  %0 = arith.select %c, %a, %a : vector<4xi1>, tensor<4xi32>
  func.return
}

// -----

func.func @select_value_types(%c: i1, %a: tensor<4xi32>, %b: tensor<4xi64>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.select' op failed to verify that all of {true_value, false_value, result} have same type
  %0 = "arith.select"(%c, %a, %b) : (i1, tensor<4xi32>, tensor<4xi64>) -> tensor<4xi32>
  func.return
}

// -----

func.func @extsi_to_narrower(%a: tensor<4xi16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.extsi' op operand type 'tensor<4xi16>' and result type 'tensor<4xi15>' are cast incompatible
  %0 = arith.extsi %a : tensor<4xi16> to tensor<4xi15>
  func.return
}

// -----

func.func @extui_to_same_width(%a: vector<4xi16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.extui' op operand type 'vector<4xi16>' and result type 'vector<4xi16>' are cast incompatible
  %0 = arith.extui %a : vector<4xi16> to vector<4xi16>
  func.return
}

// -----

func.func @trunci_to_wider(%a: i16) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.trunci' op operand type 'i16' and result type 'i17' are cast incompatible
  %0 = arith.trunci %a : i16 to i17
  func.return
}

// -----

func.func @index_cast_index_to_index(%a: tensor<4xindex>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.index_cast' op operand type 'tensor<4xindex>' and result type 'tensor<4xindex>' are cast incompatible
  %0 = arith.index_cast %a : tensor<4xindex> to tensor<4xindex>
  func.return
}

// -----

func.func @bitcast_widths(%a: tensor<4xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.bitcast' op operand type 'tensor<4xf16>' and result type 'tensor<4xf32>' are cast incompatible
  %0 = arith.bitcast %a : tensor<4xf16> to tensor<4xf32>
  func.return
}

// -----

func.func @extsi_shape(%a: vector<2xi16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.extsi' op requires the same shape for all operands and results
  %0 = arith.extsi %a : vector<2xi16> to vector<3xi32>
  func.return
}

// -----

func.func @index_cast_tensor_to_scalar(%a: tensor<4xindex>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.index_cast' op requires the same shape for all operands and results
  %0 = arith.index_cast %a : tensor<4xindex> to i64
  func.return
}

// -----

func.func @sitofp_tensor_to_vector(%a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.sitofp' op all non-scalar operands/results must have the same shape and base type
  %0 = arith.sitofp %a : tensor<4xi32> to vector<4xf32>
  func.return
}

// -----

func.func @extsi_of_index(%a: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.extsi' op must be signless-fixed-width-integer-like, but got 'index'
  %0 = arith.extsi %a : index to i64
  func.return
}

// -----

func.func @sitofp_of_float(%a: tensor<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.sitofp' op must be signless-fixed-width-integer-like, but got 'tensor<4xf32>'
  %0 = arith.sitofp %a : tensor<4xf32> to tensor<4xf64>
  func.return
}

// -----

func.func @uitofp_to_integer(%a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.uitofp' op must be floating-point-like, but got 'tensor<4xi64>'
  %0 = arith.uitofp %a : tensor<4xi32> to tensor<4xi64>
  func.return
}

// -----

func.func @fptosi_to_float(%a: vector<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.fptosi' op must be signless-fixed-width-integer-like, but got 'vector<4xf16>'
  %0 = arith.fptosi %a : vector<4xf32> to vector<4xf16>
  func.return
}

// -----

func.func @index_cast_of_float(%a: tensor<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.index_cast' op must be signless-integer-like, but got 'tensor<4xf32>'
  %0 = arith.index_cast %a : tensor<4xf32> to tensor<4xindex>
  func.return
}

// -----

func.func @bitcast_of_index(%a: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.bitcast' op must be signless-integer-or-float-like, but got 'index'
  %0 = arith.bitcast %a : index to i64
  func.return
}

// -----

func.func @remf_of_integers(%a: tensor<4xi32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.remf' op must be floating-point-like, but got 'tensor<4xi32>'
  %0 = arith.remf %a, %a : tensor<4xi32>
  func.return
}
