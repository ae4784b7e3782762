// RUN: tnpu-opt %s -p welford-to-sums,tile-to-rvv | filecheck %s

// Inductor's Welford combiner along the last axis, after welford-to-sums
// (test/transforms/welford-to-sums): three strip loops of ordered sums per row,
// each computing the map right before its reduction inside the loop, nothing
// through memory: the weights; weight * mean (vfmul); between them the row
// mean (vmfeq.vf against 0.0, vfdiv, vmerge: the quotient, or the weighted
// sum itself where the weights sum to zero), broadcast along the row; then
// m2 + weight * (mean - row mean)^2, rounded once (vfmacc).
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_welford
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         rvx.loop
// CHECK:           [[W0:%[0-9]+]] = rvv.vmv.s.x
// CHECK:           rvx.loop ([[W0]],
// CHECK-NEXT:      ^bb0([[WACC:%[0-9]+]]: !rvv.reg<m1>,
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[WEIGHT:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[WSUM:%[0-9]+]] = rvv.vfredosum.vs [[WEIGHT]], [[WACC]]
// CHECK:             rvx.repeat_if ne {{.*}} carrying [[WSUM]],
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK-NEXT:    riscv.comment {comment = "tile.reduce"}
// CHECK:           [[S0:%[0-9]+]] = rvv.vmv.s.x
// CHECK:           rvx.loop ([[S0]],
// CHECK-NEXT:      ^bb0([[SACC:%[0-9]+]]: !rvv.reg<m1>,
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[WEIGHT:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[MEAN:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[PRODUCT:%[0-9]+]] = rvv.vfmul.vv [[WEIGHT]], [[MEAN]]
// CHECK-NEXT:        [[SSUM:%[0-9]+]] = rvv.vfredosum.vs [[PRODUCT]], [[SACC]]
// CHECK:             rvx.repeat_if ne {{.*}} carrying [[SSUM]],
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:           [[UNWEIGHTED:%[0-9]+]] = rvv.vmfeq.vf
// CHECK:           [[QUOTIENT:%[0-9]+]] = rvv.vfdiv.vv
// CHECK:           rvv.vmerge.vvm [[QUOTIENT]],
// CHECK:         riscv.comment {comment = "tile.broadcast"}
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK-NEXT:    riscv.comment {comment = "tile.reduce"}
// CHECK:           [[M0:%[0-9]+]] = rvv.vmv.s.x
// CHECK:           rvx.loop ([[M0]],
// CHECK-NEXT:      ^bb0([[MACC:%[0-9]+]]: !rvv.reg<m1>,
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[MEAN:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[ROWMEAN:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[DEVIATION:%[0-9]+]] = rvv.vfsub.vv [[MEAN]], [[ROWMEAN]]
// CHECK-NEXT:        [[SQUARE:%[0-9]+]] = rvv.vfmul.vv [[DEVIATION]], [[DEVIATION]]
// CHECK-NEXT:        [[WEIGHT:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[PARTIAL:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[COPY:%[0-9]+]] = rvv.vmv.v.v [[PARTIAL]]
// CHECK-NEXT:        [[TERM:%[0-9]+]] = rvv.vfmacc.vv [[COPY]], [[WEIGHT]], [[SQUARE]]
// CHECK-NEXT:        [[MSUM:%[0-9]+]] = rvv.vfredosum.vs [[TERM]], [[MACC]]
// CHECK:             rvx.repeat_if ne {{.*}} carrying [[MSUM]],
// CHECK-NOT:     rvv.vlse32.v
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @welford(%m: !tile.buffer<f32>, %q: !tile.buffer<f32>, %w: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %mean = tile.load %m[0] strides [40, 1] : !tile.buffer<f32> -> tensor<2x40xf32>
  %m2 = tile.load %q[0] strides [40, 1] : !tile.buffer<f32> -> tensor<2x40xf32>
  %weight = tile.load %w[0] strides [40, 1] : !tile.buffer<f32> -> tensor<2x40xf32>
  %r:3 = tile.reduce %mean, %m2, %weight {axis = 1 : i32} : tensor<2x40xf32>, tensor<2x40xf32>, tensor<2x40xf32> -> tensor<2xf32>, tensor<2xf32>, tensor<2xf32> {
  ^bb0(%mean_1: f32, %m2_1: f32, %weight_1: f32, %mean_2: f32, %m2_2: f32, %weight_2: f32):
    %same = arith.cmpf oeq, %mean_1, %mean_2 : f32
    %difference = arith.subf %mean_2, %mean_1 : f32
    %delta = arith.select %same, %zero, %difference : f32
    %new_weight = arith.addf %weight_1, %weight_2 : f32
    %empty = arith.cmpf oeq, %new_weight, %zero : f32
    %ratio = arith.divf %weight_2, %new_weight : f32
    %w2_over_w = arith.select %empty, %zero, %ratio : f32
    %step = arith.mulf %delta, %w2_over_w : f32
    %new_mean = arith.addf %mean_1, %step : f32
    %m2s = arith.addf %m2_1, %m2_2 : f32
    %squared = arith.mulf %delta, %delta : f32
    %weighted = arith.mulf %squared, %weight_1 : f32
    %spread = arith.mulf %weighted, %w2_over_w : f32
    %new_m2 = arith.addf %m2s, %spread : f32
    tile.yield %new_mean, %new_m2, %new_weight : f32, f32, f32
  }
  tile.store %r#0, %out[0] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.store %r#1, %out[2] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.store %r#2, %out[4] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.return
}
