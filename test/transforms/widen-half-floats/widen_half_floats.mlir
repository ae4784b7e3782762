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

// -----

// A matmul of f16 tiles into an f16 accumulator: operands and accumulator
// widened by extf maps, the products summed in f32, the result rounded once.

// CHECK-LABEL: tile.kernel @f16_matmul
// CHECK:         %[[A:.*]] = tile.map %ta : tensor<4x8xf16> -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      tile.yield %[[W]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[B:.*]] = tile.map %tb : tensor<8x2xf16> -> tensor<8x2xf32> {
// CHECK:         %[[C:.*]] = tile.map %tc : tensor<4x2xf16> -> tensor<4x2xf32> {
// CHECK:         %[[D:.*]] = tile.matmul %[[A]], %[[B]], %[[C]] : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    %[[R:.*]] = tile.map %[[D]] : tensor<4x2xf32> -> tensor<4x2xf16> {
// CHECK-NEXT:    ^bb0(%[[Y:.*]]: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[Y]] : f32 to f16
// CHECK-NEXT:      tile.yield %[[N]] : f16
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.store %[[R]], %out[0]
tile.kernel @f16_matmul(%a: !tile.buffer<f16>, %b: !tile.buffer<f16>, %c: !tile.buffer<f16>, %out: !tile.buffer<f16>) {
  %ta = tile.load %a[0] strides [8, 1] : !tile.buffer<f16> -> tensor<4x8xf16>
  %tb = tile.load %b[0] strides [2, 1] : !tile.buffer<f16> -> tensor<8x2xf16>
  %tc = tile.load %c[0] strides [2, 1] : !tile.buffer<f16> -> tensor<4x2xf16>
  %r = tile.matmul %ta, %tb, %tc : tensor<4x8xf16>, tensor<8x2xf16> -> tensor<4x2xf16>
  tile.store %r, %out[0] strides [2, 1] : tensor<4x2xf16>, !tile.buffer<f16>
  tile.return
}

// -----

// bf16 operands into an f32 accumulator: only the operands are widened;
// f32 and integer matmuls are left alone.

// CHECK-LABEL: tile.kernel @bf16_matmul
// CHECK:         tile.matmul %{{.*}}, %{{.*}}, %tc : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
// CHECK:         %ri = tile.matmul %ti, %ti, %zi : tensor<4x4xi8>, tensor<4x4xi8> -> tensor<4x4xi32>
tile.kernel @bf16_matmul(%a: !tile.buffer<bf16>, %c: !tile.buffer<f32>, %i: !tile.buffer<i8>, %j: !tile.buffer<i32>) {
  %ta = tile.load %a[0] strides [8, 1] : !tile.buffer<bf16> -> tensor<4x8xbf16>
  %tb = tile.load %a[0] strides [2, 1] : !tile.buffer<bf16> -> tensor<8x2xbf16>
  %tc = tile.load %c[0] strides [2, 1] : !tile.buffer<f32> -> tensor<4x2xf32>
  %r = tile.matmul %ta, %tb, %tc : tensor<4x8xbf16>, tensor<8x2xbf16> -> tensor<4x2xf32>
  %ti = tile.load %i[0] strides [4, 1] : !tile.buffer<i8> -> tensor<4x4xi8>
  %z = arith.constant 0 : i32
  %zi = tile.broadcast %z : i32 -> tensor<4x4xi32>
  %ri = tile.matmul %ti, %ti, %zi : tensor<4x4xi8>, tensor<4x4xi8> -> tensor<4x4xi32>
  tile.store %r, %c[0] strides [2, 1] : tensor<4x2xf32>, !tile.buffer<f32>
  tile.store %ri, %j[0] strides [4, 1] : tensor<4x4xi32>, !tile.buffer<i32>
  tile.return
}
