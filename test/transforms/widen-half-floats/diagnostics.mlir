// RUN: not tnpu-opt %s -p widen-half-floats 2>&1 | filecheck %s

// bf16 fma cannot be computed in f64 and rounded once more without error.

// CHECK: diagnostics.mlir:10:5: error: 'math.fma' op bf16 fma has no once-rounded expansion without bf16 FMA hardware
tile.kernel @bf16_fma(%x: !tile.buffer<bf16>, %out: !tile.buffer<bf16>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<bf16> -> tensor<8xbf16>
  %r = tile.map %t : tensor<8xbf16> -> tensor<8xbf16> {
  ^bb0(%a: bf16):
    %f = math.fma %a, %a, %a : bf16
    tile.yield %f : bf16
  }
  tile.store %r, %out[0] strides [1] : tensor<8xbf16>, !tile.buffer<bf16>
  tile.return
}
