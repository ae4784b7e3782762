// RUN: tnpu-opt %s -p ttir-to-tile,dce | filecheck %s

// A GEMM-style K loop whose pointers advance by a uniform step each
// iteration: the pointers travel as the base offset of a structured DMA; the
// accumulator is a tile iteration value; tt.dot is a matmul.

// CHECK-LABEL: tile.kernel @k_loop(%a: !tile.buffer<f32>, %b: !tile.buffer<f32>)
// CHECK:      %{{.*}}, %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BASE:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (index, tensor<16x16xf32>) : i32 {
// CHECK:        %[[A:.*]] = tile.load %a[%[[BASE]]] strides [64, 1] : !tile.buffer<f32> -> tensor<16x16xf32>
// CHECK:        %[[B:.*]] = tile.load %b[0] strides [64, 1] : !tile.buffer<f32> -> tensor<16x16xf32>
// CHECK-NEXT:   %[[D2:.*]] = tile.matmul %[[A]], %[[B]], %[[ACC]]
// CHECK:        %[[NEXT:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK-NEXT:   scf.yield %[[NEXT]], %[[D2]] : index, tensor<16x16xf32>
tt.func @k_loop(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant dense<64> : tensor<16x1xi32>
  %step = arith.constant dense<16> : tensor<16x16xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rowoff = arith.muli %rows, %c64 : tensor<16x1xi32>
  %rb = tt.broadcast %rowoff : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %off = arith.addi %rb, %cb : tensor<16x16xi32>
  %a0 = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ap = tt.addptr %a0, %off : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %b0 = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %bp = tt.addptr %b0, %off : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %res:2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%p = %ap, %acc = %zero) -> (tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>) : i32 {
    %av = tt.load %p : tensor<16x16x!tt.ptr<f32>>
    %bv = tt.load %bp : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %next = tt.addptr %p, %step : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    scf.yield %next, %d : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>
  }
  tt.return
}
