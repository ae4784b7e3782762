// RUN: tnpu-opt %s -p canonicalize | filecheck %s

// tnpu's extended ops subclass xDSL's, so xDSL's canonicalization patterns
// match them; `cmpi` of equal operands folds in the operands' shape (xDSL's
// pattern for it would give a scalar).

// CHECK-LABEL: func.func @cmpi_of_equal_operands(
func.func @cmpi_of_equal_operands(%t: tensor<4xi32>, %v: vector<2xi8>, %s: i32) -> (tensor<4xi1>, vector<2xi1>, i1, i1) {
  // CHECK-NEXT: %[[TRUE:.*]] = arith.constant dense<true> : tensor<4xi1>
  // CHECK-NEXT: %[[FALSE:.*]] = arith.constant dense<false> : vector<2xi1>
  // CHECK-NEXT: %[[SLE:.*]] = arith.constant true
  // CHECK-NEXT: %[[ULT:.*]] = arith.constant false
  // CHECK-NEXT: func.return %[[TRUE]], %[[FALSE]], %[[SLE]], %[[ULT]]
  %0 = arith.cmpi eq, %t, %t : tensor<4xi32>
  %1 = arith.cmpi sgt, %v, %v : vector<2xi8>
  %2 = arith.cmpi sle, %s, %s : i32
  %3 = arith.cmpi ult, %s, %s : i32
  func.return %0, %1, %2, %3 : tensor<4xi1>, vector<2xi1>, i1, i1
}

// CHECK-LABEL: func.func @xdsl_select_patterns(
func.func @xdsl_select_patterns(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %{{.*}}, %{{.*}} fastmath<nnan,nsz> : tensor<4xf32>
  // CHECK-NEXT: func.return %{{.*}}, %[[MAX]]
  %same = arith.select %c, %a, %a : tensor<4xi1>, tensor<4xf32>
  %gt = arith.cmpf ogt, %a, %b fastmath<nnan,nsz> : tensor<4xf32>
  %max = arith.select %gt, %a, %b : tensor<4xi1>, tensor<4xf32>
  func.return %same, %max : tensor<4xf32>, tensor<4xf32>
}
