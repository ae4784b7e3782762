// RUN: tnpu-opt %s --split-input-file -p welford-to-sums | filecheck %s

// Inductor's Welford combiner (triton_helpers.welford, the delta guarded by
// mean_1 == mean_2 as newer Inductors write it) along the last axis becomes
// Chan's closed form: the sum of the weights W, the sum S of weight * mean,
// the mean S / W (S itself where W == 0), and the sum of
// fma(weight, (mean - row mean)^2, m2), the row mean broadcast along the
// axis.  Each map sits right before the sum that alone reads it.
// CHECK-LABEL: tile.kernel @welford
// CHECK:         [[W:%[a-z0-9_]+]] = tile.reduce %weight {axis = 1 : i32} : tensor<2x40xf32> -> tensor<2xf32> {
// CHECK-NEXT:    ^bb0([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32):
// CHECK-NEXT:      [[T:%[0-9]+]] = arith.addf [[A]], [[B]] : f32
// CHECK-NEXT:      tile.yield [[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    [[PRODUCTS:%[0-9]+]] = tile.map %weight, %mean : tensor<2x40xf32>, tensor<2x40xf32> -> tensor<2x40xf32> {
// CHECK-NEXT:    ^bb0([[PW:%[0-9]+]]: f32, [[PM:%[0-9]+]]: f32):
// CHECK-NEXT:      [[P:%[0-9]+]] = arith.mulf [[PW]], [[PM]] : f32
// CHECK-NEXT:      tile.yield [[P]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    [[S:%[0-9]+]] = tile.reduce [[PRODUCTS]] {axis = 1 : i32} : tensor<2x40xf32> -> tensor<2xf32> {
// CHECK:           arith.addf
// CHECK:         [[MEAN:%[a-z0-9_]+]] = tile.map [[S]], [[W]] : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32> {
// CHECK-NEXT:    ^bb0([[MS:%[0-9]+]]: f32, [[MW:%[0-9]+]]: f32):
// CHECK-NEXT:      [[ZERO:%[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      [[EMPTY:%[0-9]+]] = arith.cmpf oeq, [[MW]], [[ZERO]] : f32
// CHECK-NEXT:      [[QUOTIENT:%[0-9]+]] = arith.divf [[MS]], [[MW]] : f32
// CHECK-NEXT:      [[M:%[0-9]+]] = arith.select [[EMPTY]], [[MS]], [[QUOTIENT]] : f32
// CHECK-NEXT:      tile.yield [[M]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    [[COLUMN:%[0-9]+]] = tile.reshape [[MEAN]] : tensor<2xf32> -> tensor<2x1xf32>
// CHECK-NEXT:    [[SPREAD:%[0-9]+]] = tile.broadcast [[COLUMN]] : tensor<2x1xf32> -> tensor<2x40xf32>
// CHECK-NEXT:    [[TERMS:%[0-9]+]] = tile.map %weight, %mean, [[SPREAD]], %m2 : tensor<2x40xf32>, tensor<2x40xf32>, tensor<2x40xf32>, tensor<2x40xf32> -> tensor<2x40xf32> {
// CHECK-NEXT:    ^bb0([[DW:%[0-9]+]]: f32, [[DM:%[0-9]+]]: f32, [[DMU:%[0-9]+]]: f32, [[DM2:%[0-9]+]]: f32):
// CHECK-NEXT:      [[DEVIATION:%[0-9]+]] = arith.subf [[DM]], [[DMU]] : f32
// CHECK-NEXT:      [[SQUARE:%[0-9]+]] = arith.mulf [[DEVIATION]], [[DEVIATION]] : f32
// CHECK-NEXT:      [[TERM:%[0-9]+]] = math.fma [[DW]], [[SQUARE]], [[DM2]] : f32
// CHECK-NEXT:      tile.yield [[TERM]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    [[M2:%[a-z0-9_]+]] = tile.reduce [[TERMS]] {axis = 1 : i32} : tensor<2x40xf32> -> tensor<2xf32> {
// CHECK:         tile.store [[MEAN]], %out[0]
// CHECK-NEXT:    tile.store [[M2]], %out[2]
// CHECK-NEXT:    tile.store [[W]], %out[4]
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
// commutative operands swapped: rewritten too.
// CHECK-LABEL: tile.kernel @welford_f64
// CHECK-NOT:     tile.reduce %mean
// CHECK:         tile.reduce %weight {axis = 1 : i32} : tensor<2x40xf64> -> tensor<2xf64>
// CHECK:         arith.mulf
// CHECK:         tile.reduce
// CHECK:         arith.cmpf oeq
// CHECK:         tile.broadcast {{.*}} : tensor<2x1xf64> -> tensor<2x40xf64>
// CHECK:         math.fma {{.*}} : f64
// CHECK:         tile.reduce
// CHECK-NOT:     tile.reduce
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

// A 1-D reduction gives scalars: the mean is computed by scalar ops, and the
// m2 map reads it as a scalar operand, with no broadcast.
// CHECK-LABEL: tile.kernel @welford_1d
// CHECK:         [[W:%[a-z0-9_]+]] = tile.reduce %weight {axis = 0 : i32} : tensor<40xf32> -> f32
// CHECK:         [[S:%[0-9]+]] = tile.reduce {{%[0-9]+}} {axis = 0 : i32} : tensor<40xf32> -> f32
// CHECK:         [[ZERO:%[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    [[EMPTY:%[0-9]+]] = arith.cmpf oeq, [[W]], [[ZERO]] : f32
// CHECK-NEXT:    [[QUOTIENT:%[0-9]+]] = arith.divf [[S]], [[W]] : f32
// CHECK-NEXT:    [[MEAN:%[a-z0-9_]+]] = arith.select [[EMPTY]], [[S]], [[QUOTIENT]] : f32
// CHECK-NEXT:    tile.map %weight, %mean, [[MEAN]], %m2 : tensor<40xf32>, tensor<40xf32>, f32, tensor<40xf32> -> tensor<40xf32>
// CHECK-NOT:     tile.reshape
// CHECK:         tile.broadcast {{%[a-z0-9_]+}} : f32 -> tensor<1xf32>
tile.kernel @welford_1d(%m: !tile.buffer<f32>, %q: !tile.buffer<f32>, %w: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %mean = tile.load %m[0] strides [1] : !tile.buffer<f32> -> tensor<40xf32>
  %m2 = tile.load %q[0] strides [1] : !tile.buffer<f32> -> tensor<40xf32>
  %weight = tile.load %w[0] strides [1] : !tile.buffer<f32> -> tensor<40xf32>
  %r:3 = tile.reduce %mean, %m2, %weight {axis = 0 : i32} : tensor<40xf32>, tensor<40xf32>, tensor<40xf32> -> f32, f32, f32 {
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
    %weighted = arith.mulf %squared, %weight_1 : f32
    %spread = arith.mulf %weighted, %w2_over_w : f32
    %new_m2 = arith.addf %m2s, %spread : f32
    tile.yield %new_mean, %new_m2, %new_weight : f32, f32, f32
  }
  %s = tile.broadcast %r#1 : f32 -> tensor<1xf32>
  tile.store %s, %out[0] strides [1] : tensor<1xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// A combiner that is not Welford's (the spread weighted by weight_2, not
// weight_1), or Welford's along another axis, is left as it is.
// CHECK-LABEL: tile.kernel @not_welford
// CHECK:         tile.reduce %mean, %m2, %weight {axis = 1 : i32}
// CHECK:         arith.mulf %squared, %weight_2
// CHECK:         tile.reduce %mean, %m2, %weight {axis = 0 : i32}
// CHECK-NOT:     math.fma
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
  %c:3 = tile.reduce %mean, %m2, %weight {axis = 0 : i32} : tensor<2x40xf32>, tensor<2x40xf32>, tensor<2x40xf32> -> tensor<40xf32>, tensor<40xf32>, tensor<40xf32> {
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
    %weighted = arith.mulf %squared, %weight_1 : f32
    %spread = arith.mulf %weighted, %w2_over_w : f32
    %new_m2 = arith.addf %m2s, %spread : f32
    tile.yield %new_mean, %new_m2, %new_weight : f32, f32, f32
  }
  tile.store %r#1, %out[0] strides [1] : tensor<2xf32>, !tile.buffer<f32>
  tile.store %c#1, %out[2] strides [1] : tensor<40xf32>, !tile.buffer<f32>
  tile.return
}
