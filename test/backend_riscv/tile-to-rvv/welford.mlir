// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// Inductor's Welford combiner (triton_helpers.welford, the delta guarded by
// mean_1 == mean_2 as newer Inductors write it) along the last axis: per row
// two strip loops of ordered sums (welford_combiner.py).  The first sums the
// weights and weight * mean, the second m2 + weight * (mean - row mean)^2;
// between them the row mean is the quotient, or the weighted sum itself where
// the weights sum to zero (vmfeq.vf against 0.0 into v0, vmerge).
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_welford
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         [[ZERO:%[0-9]+]] = riscv.fmv.w.x {{%[0-9]+}} : (!riscv.reg<zero>) -> !riscv.freg
// CHECK:         rvx.loop
// CHECK:           rvv.vsetivli 1 sew 32 eighths 8
// CHECK-NEXT:      [[W0:%[0-9]+]] = rvv.vmv.s.x
// CHECK-NEXT:      [[S0:%[0-9]+]] = rvv.vmv.s.x
// CHECK:           [[W:%[0-9]+]], [[S:%[0-9]+]], {{.*}} = rvx.loop ([[W0]], [[S0]],
// CHECK-NEXT:      ^bb0([[WACC:%[0-9]+]]: !rvv.reg<m1>, [[SACC:%[0-9]+]]: !rvv.reg<m1>,
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[MEAN:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[WEIGHT:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[PRODUCT:%[0-9]+]] = rvv.vfmul.vv [[WEIGHT]], [[MEAN]]
// CHECK-NEXT:        [[WSUM:%[0-9]+]] = rvv.vfredosum.vs [[WEIGHT]], [[WACC]]
// CHECK-NEXT:        [[SSUM:%[0-9]+]] = rvv.vfredosum.vs [[PRODUCT]], [[SACC]]
// CHECK:             rvx.repeat_if ne {{.*}} carrying [[WSUM]], [[SSUM]],
// CHECK:           rvv.vsetivli 1 sew 32 eighths 8
// CHECK-NEXT:      [[UNWEIGHTED:%[0-9]+]] = rvv.vmfeq.vf [[W]], [[ZERO]] : {{.*}} -> !rvv.mask<m1, v0>
// CHECK-NEXT:      [[QUOTIENT:%[0-9]+]] = rvv.vfdiv.vv [[S]], [[W]]
// CHECK-NEXT:      [[ROWMEAN:%[0-9]+]] = rvv.vmerge.vvm [[QUOTIENT]], [[S]], [[UNWEIGHTED]]
// CHECK-NEXT:      [[MEANBITS:%[0-9]+]] = rvv.vmv.x.s [[ROWMEAN]]
// CHECK-NEXT:      [[MU:%[0-9]+]] = riscv.fmv.w.x [[MEANBITS]]
// CHECK:           [[M0:%[0-9]+]] = rvv.vmv.s.x
// CHECK:           [[M2:%[0-9]+]], {{.*}} = rvx.loop ([[M0]],
// CHECK-NEXT:      ^bb0([[MACC:%[0-9]+]]: !rvv.reg<m1>,
// CHECK-NEXT:        rvv.vsetvli
// CHECK-NEXT:        [[MEAN:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[PARTIAL:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[WEIGHT:%[0-9]+]] = rvv.vle32.v
// CHECK-NEXT:        [[DEVIATION:%[0-9]+]] = rvv.vfsub.vf [[MEAN]], [[MU]]
// CHECK-NEXT:        [[SQUARE:%[0-9]+]] = rvv.vfmul.vv [[DEVIATION]], [[DEVIATION]]
// CHECK-NEXT:        [[TERM:%[0-9]+]] = rvv.vfmacc.vv [[PARTIAL]], [[WEIGHT]], [[SQUARE]]
// CHECK-NEXT:        [[MSUM:%[0-9]+]] = rvv.vfredosum.vs [[TERM]], [[MACC]]
// CHECK:             rvx.repeat_if ne {{.*}} carrying [[MSUM]],
// CHECK:           [[M2BITS:%[0-9]+]] = rvv.vmv.x.s [[M2]]
// CHECK-NEXT:      [[WBITS:%[0-9]+]] = rvv.vmv.x.s [[W]]
// CHECK-NEXT:      riscv.sw {{%[0-9]+}}, [[MEANBITS]], 0
// CHECK-NEXT:      riscv.sw {{%[0-9]+}}, [[M2BITS]], 0
// CHECK-NEXT:      riscv.sw {{%[0-9]+}}, [[WBITS]], 0
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

// -----

// The older combiner (delta = mean_2 - mean_1, unguarded), of f64, with the
// commutative operands swapped: recognised too.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_welford_f64
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK:         rvv.vfredosum.vs
// CHECK:         rvv.vfdiv.vv
// CHECK:         rvv.vfmacc.vv
// CHECK-NEXT:    rvv.vfredosum.vs
// CHECK-NOT:     rvv.vlse64.v
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @welford_f64(%m: !tile.buffer<f64>, %q: !tile.buffer<f64>, %w: !tile.buffer<f64>, %out: !tile.buffer<f64>) {
  %zero = arith.constant 0.000000e+00 : f64
  %mean = tile.load %m[0] strides [40, 1] : !tile.buffer<f64> -> tensor<2x40xf64>
  %m2 = tile.load %q[0] strides [40, 1] : !tile.buffer<f64> -> tensor<2x40xf64>
  %weight = tile.load %w[0] strides [40, 1] : !tile.buffer<f64> -> tensor<2x40xf64>
  %r:3 = tile.reduce %mean, %m2, %weight {axis = 1 : i32} : tensor<2x40xf64>, tensor<2x40xf64>, tensor<2x40xf64> -> tensor<2xf64>, tensor<2xf64>, tensor<2xf64> {
  ^bb0(%mean_1: f64, %m2_1: f64, %weight_1: f64, %mean_2: f64, %m2_2: f64, %weight_2: f64):
    %delta = arith.subf %mean_2, %mean_1 : f64
    %new_weight = arith.addf %weight_2, %weight_1 : f64
    %empty = arith.cmpf oeq, %new_weight, %zero : f64
    %ratio = arith.divf %weight_2, %new_weight : f64
    %w2_over_w = arith.select %empty, %zero, %ratio : f64
    %step = arith.mulf %w2_over_w, %delta : f64
    %new_mean = arith.addf %step, %mean_1 : f64
    %m2s = arith.addf %m2_2, %m2_1 : f64
    %squared = arith.mulf %delta, %delta : f64
    %weighted = arith.mulf %weight_1, %squared : f64
    %spread = arith.mulf %weighted, %w2_over_w : f64
    %new_m2 = arith.addf %spread, %m2s : f64
    tile.yield %new_mean, %new_m2, %new_weight : f64, f64, f64
  }
  tile.store %r#0, %out[0] strides [1] : tensor<2xf64>, !tile.buffer<f64>
  tile.store %r#1, %out[2] strides [1] : tensor<2xf64>, !tile.buffer<f64>
  tile.store %r#2, %out[4] strides [1] : tensor<2xf64>, !tile.buffer<f64>
  tile.return
}

// -----

// A combiner that is not Welford's (the spread weighted by weight_2, not
// weight_1) stays on the pairwise tree of neighbours, read at a stride of
// two elements.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_not_welford
// CHECK:         riscv.comment {comment = "tile.reduce"}
// CHECK-NOT:     rvv.vfredosum.vs
// CHECK:         rvv.vlse32.v
// CHECK-NOT:     rvv.vfredosum.vs
// CHECK:         riscv.comment {comment = "tile.store"}
tile.kernel @not_welford(%m: !tile.buffer<f32>, %q: !tile.buffer<f32>, %w: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %mean = tile.load %m[0] strides [40, 1] : !tile.buffer<f32> -> tensor<2x40xf32>
  %m2 = tile.load %q[0] strides [40, 1] : !tile.buffer<f32> -> tensor<2x40xf32>
  %weight = tile.load %w[0] strides [40, 1] : !tile.buffer<f32> -> tensor<2x40xf32>
  %r:3 = tile.reduce %mean, %m2, %weight {axis = 1 : i32} : tensor<2x40xf32>, tensor<2x40xf32>, tensor<2x40xf32> -> tensor<2xf32>, tensor<2xf32>, tensor<2xf32> {
  ^bb0(%mean_1: f32, %m2_1: f32, %weight_1: f32, %mean_2: f32, %m2_2: f32, %weight_2: f32):
    %delta = arith.subf %mean_2, %mean_1 : f32
    %new_weight = arith.addf %weight_1, %weight_2 : f32
    %empty = arith.cmpf oeq, %new_weight, %zero : f32
    %ratio = arith.divf %weight_2, %new_weight : f32
    %w2_over_w = arith.select %empty, %zero, %ratio : f32
    %step = arith.mulf %delta, %w2_over_w : f32
    %new_mean = arith.addf %mean_1, %step : f32
    %m2s = arith.addf %m2_1, %m2_2 : f32
    %squared = arith.mulf %delta, %delta : f32
    %weighted = arith.mulf %squared, %weight_2 : f32
    %spread = arith.mulf %weighted, %w2_over_w : f32
    %new_m2 = arith.addf %m2s, %spread : f32
    tile.yield %new_mean, %new_m2, %new_weight : f32, f32, f32
  }
  tile.store %r#0, %out[0] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.store %r#1, %out[2] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.store %r#2, %out[4] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.return
}
