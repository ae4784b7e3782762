// RUN: tnpu-opt %s -p tnpu-to-rvv | filecheck %s
// RUN: tnpu-opt %corpus/inductor/softmax__triton_per_fused__softmax_0/kernel.ttir -p tnpu-to-rvv | filecheck %s --check-prefix=SOFTMAX
// RUN: tnpu-opt %corpus/inductor/softmax__triton_per_fused__softmax_0/kernel.ttir -p tnpu-to-rvv -t tnpu-riscv-asm | filecheck %s --check-prefix=ASM

// After tnpu-to-tile, the RISC-V target's steps: f16 arithmetic computed in
// f32 and rounded back once per op (widen-half-floats); sqrt, which RVV
// executes, stays; exp, which it lacks, becomes arith code (expand-math).

// CHECK-LABEL: tile.kernel @half(%x: !tile.buffer<f16>, %out: !tile.buffer<f16>)
// CHECK:         ^bb0(%[[X:.*]]: f16):
// CHECK-NEXT:      %[[A:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[B:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[SUM16:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extf %[[SUM16]] : f16 to f32
// CHECK-NEXT:      %[[ROOT:.*]] = math.sqrt %[[WIDE]] : f32
// CHECK-NOT:       math.exp
// CHECK:           tile.yield %{{.*}} : f16
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

// Inductor's softmax: its libdevice exp is expanded (RVV has no exp), the
// reductions and the DMA are tnpu-to-tile's.

// SOFTMAX-LABEL: tile.kernel @triton_per_fused__softmax_0
// SOFTMAX:         tile.load %in_ptr0
// SOFTMAX:         tile.reduce
// SOFTMAX-NOT:     math.
// SOFTMAX:         tile.store %{{.*}}, %in_out_ptr0
// SOFTMAX-NEXT:    tile.return

// ASM:      .globl tnpu_kernel_triton_per_fused__softmax_0
// ASM:      tnpu_kernel_triton_per_fused__softmax_0:
// ASM:      vsetvli
// ASM:      ret
