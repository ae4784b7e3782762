// RUN: tnpu-opt %s --split-input-file -p expand-integer-division | filecheck %s

// A floor division of index values (as the lowering bounds a padded, strided
// window): the truncating quotient, one less where the remainder is nonzero
// and of the other sign than the divisor.

// CHECK-LABEL: func.func @floor_index
// CHECK-NEXT:    %0 = arith.divsi %a, %b : index
// CHECK-NEXT:    %1 = arith.remsi %a, %b : index
// CHECK-NEXT:    %2 = arith.constant 0 : index
// CHECK-NEXT:    %3 = arith.cmpi slt, %1, %2 : index
// CHECK-NEXT:    %4 = arith.cmpi slt, %b, %2 : index
// CHECK-NEXT:    %5 = arith.xori %3, %4 : i1
// CHECK-NEXT:    %6 = arith.cmpi ne, %1, %2 : index
// CHECK-NEXT:    %7 = arith.andi %6, %5 : i1
// CHECK-NEXT:    %8 = arith.constant 1 : index
// CHECK-NEXT:    %9 = arith.subi %0, %8 : index
// CHECK-NEXT:    %q = arith.select %7, %9, %0 : index
// CHECK-NEXT:    func.return %q : index
func.func @floor_index(%a: index, %b: index) -> index {
  %q = arith.floordivsi %a, %b : index
  func.return %q : index
}

// -----

// Ceiling divisions of tensors: one more where the remainder is nonzero (and,
// signed, of the divisor's sign).

// CHECK-LABEL: func.func @ceil_tensors
// CHECK:         arith.divsi %a, %b : tensor<4xi32>
// CHECK:         arith.remsi %a, %b : tensor<4xi32>
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : tensor<4xi1>
// CHECK:         arith.addi
// CHECK:         %[[SIGNED:.*]] = arith.select
// CHECK:         arith.divui %a, %b : tensor<4xi32>
// CHECK:         %[[R:.*]] = arith.remui %a, %b : tensor<4xi32>
// CHECK:         arith.cmpi ne, %[[R]], %{{.*}} : tensor<4xi32>
// CHECK:         %[[UNSIGNED:.*]] = arith.select
// CHECK:         func.return %[[SIGNED]], %[[UNSIGNED]]
// CHECK-NOT:     ceildiv
func.func @ceil_tensors(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %s = arith.ceildivsi %a, %b : tensor<4xi32>
  %u = arith.ceildivui %a, %b : tensor<4xi32>
  func.return %s, %u : tensor<4xi32>, tensor<4xi32>
}
