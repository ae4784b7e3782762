// RUN: tnpu-opt %s --split-input-file -p widen-half-floats | filecheck %s

// f16 arithmetic in a fused body: each op computed in f32 and rounded back, so
// an intermediate result keeps its f16 rounding.

// CHECK-LABEL: tile.kernel @f16_chain
// CHECK:         ^bb0(%a: f16, %b: f16):
// CHECK-NEXT:      %0 = arith.extf %a : f16 to f32
// CHECK-NEXT:      %1 = arith.extf %b : f16 to f32
// CHECK-NEXT:      %2 = arith.addf %0, %1 : f32
// CHECK-NEXT:      %sum = arith.truncf %2 : f32 to f16
// CHECK-NEXT:      %3 = arith.extf %sum : f16 to f32
// CHECK-NEXT:      %4 = arith.extf %b : f16 to f32
// CHECK-NEXT:      %5 = arith.mulf %3, %4 : f32
// CHECK-NEXT:      %product = arith.truncf %5 : f32 to f16
// CHECK-NEXT:      tile.yield %product : f16
tile.kernel @f16_chain(%x: !tile.buffer<f16>, %out: !tile.buffer<f16>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f16> -> tensor<64xf16>
  %r = tile.map %t, %t : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16> {
  ^bb0(%a: f16, %b: f16):
    %sum = arith.addf %a, %b : f16
    %product = arith.mulf %sum, %b : f16
    tile.yield %product : f16
  }
  tile.store %r, %out[0] strides [1] : tensor<64xf16>, !tile.buffer<f16>
  tile.return
}

// -----

// A comparison of bf16 values compares the f32 values (exact); its i1 result stays.

// CHECK-LABEL: tile.kernel @bf16_compare
// CHECK:         %0 = arith.extf %a : bf16 to f32
// CHECK-NEXT:    %1 = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %less = arith.cmpf olt, %0, %1 : f32
// CHECK-NEXT:    %pick = arith.select %less, %a, %b : bf16
tile.kernel @bf16_compare(%x: !tile.buffer<bf16>, %out: !tile.buffer<bf16>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<bf16> -> tensor<64xbf16>
  %r = tile.map %t, %t : tensor<64xbf16>, tensor<64xbf16> -> tensor<64xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %less = arith.cmpf olt, %a, %b : bf16
    %pick = arith.select %less, %a, %b : bf16
    tile.yield %pick : bf16
  }
  tile.store %r, %out[0] strides [1] : tensor<64xbf16>, !tile.buffer<bf16>
  tile.return
}

// -----

// fma of f16 runs in f64; f32 arithmetic and conversions are left alone.

// CHECK-LABEL: tile.kernel @f16_fma
// CHECK:         %0 = arith.extf %a : f16 to f64
// CHECK-NEXT:    %1 = arith.extf %a : f16 to f64
// CHECK-NEXT:    %2 = arith.extf %a : f16 to f64
// CHECK-NEXT:    %3 = math.fma %0, %1, %2 : f64
// CHECK-NEXT:    %f = arith.truncf %3 : f64 to f16
// CHECK-NEXT:    %w = arith.extf %f : f16 to f32
// CHECK-NEXT:    %s = arith.addf %w, %w : f32
tile.kernel @f16_fma(%x: !tile.buffer<f16>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f16> -> tensor<64xf16>
  %r = tile.map %t : tensor<64xf16> -> tensor<64xf32> {
  ^bb0(%a: f16):
    %f = math.fma %a, %a, %a : f16
    %w = arith.extf %f : f16 to f32
    %s = arith.addf %w, %w : f32
    tile.yield %s : f32
  }
  tile.store %r, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}
