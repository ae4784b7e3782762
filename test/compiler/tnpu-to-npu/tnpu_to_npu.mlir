// RUN: tnpu-opt %s -p 'tnpu-to-npu{config=tpuv3}' | filecheck %s --check-prefix=TPUV3
// RUN: tnpu-opt %s -p 'tnpu-to-npu{config="%S/Inputs/no_native_math.yaml"}' | filecheck %s --check-prefix=BARE
// RUN: tnpu-opt %corpus/inductor/softmax__triton_per_fused__softmax_0/kernel.ttir -p 'tnpu-to-npu{config=tpuv6e}' | filecheck %s --check-prefix=SOFTMAX

// After tnpu-to-tile and recognise-combiners, expand-math with the NPU's native set: tpuv3's vector
// unit executes sqrt and exp, so both stay, in f16 (the NPU computes in it);
// a configuration with no native math gets both expanded.

// TPUV3-LABEL: tile.kernel @half
// TPUV3:         ^bb0(%[[X:.*]]: f16):
// TPUV3-NEXT:      %[[SUM:.*]] = arith.addf %[[X]], %[[X]] : f16
// TPUV3-NEXT:      %[[ROOT:.*]] = math.sqrt %[[SUM]] : f16
// TPUV3-NEXT:      %[[E:.*]] = math.exp %[[ROOT]] : f16
// TPUV3-NEXT:      tile.yield %[[E]] : f16

// BARE-LABEL: tile.kernel @half
// BARE-NOT:     math.
// BARE:         tile.return
tt.func @half(%x: !tt.ptr<f16>, %out: !tt.ptr<f16>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f16>>
  %sum = arith.addf %v, %v : tensor<64xf16>
  %root = math.sqrt %sum : tensor<64xf16>
  %e = math.exp %root : tensor<64xf16>
  %os = tt.splat %out : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %op = tt.addptr %os, %range : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  tt.store %op, %e : tensor<64x!tt.ptr<f16>>
  tt.return
}

// Inductor's softmax on tpuv6e: its NaN-propagating max combiner is the vector
// unit's maximumf (recognise-combiners), its libdevice exp the NPU's own exp.

// SOFTMAX-LABEL: tile.kernel @triton_per_fused__softmax_0
// SOFTMAX:         tile.reduce
// SOFTMAX-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// SOFTMAX-NEXT:      %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// SOFTMAX-NEXT:      tile.yield %[[M]] : f32
// SOFTMAX:         math.exp %{{.*}} : f32
// SOFTMAX:         tile.store %{{.*}}, %in_out_ptr0
