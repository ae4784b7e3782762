// RUN: tnpu-opt %s -p tnpu-to-rvv | filecheck %s
// RUN: tnpu-opt %corpus/inductor/softmax__triton_per_fused__softmax_0/kernel.ttir -p tnpu-to-rvv | filecheck %s --check-prefix=SOFTMAX
// RUN: tnpu-opt %corpus/inductor/softmax__triton_per_fused__softmax_0/kernel.ttir -p tnpu-to-rvv -t tnpu-riscv-asm | filecheck %s --check-prefix=ASM

// After tnpu-to-tile, the RISC-V target's steps: f16 arithmetic computed in
// f32 and rounded back once per op (widen-half-floats: f16 widened on the
// bits with vzext and rounded back with vnsrl); sqrt, which RVV executes,
// stays; exp, which it lacks, becomes arith code (expand-math); then
// tile-to-rvv: a function of RISC-V ops, its registers not yet allocated.

// CHECK-LABEL: riscv_func.func public @tnpu_kernel_half(%{{.*}}: !riscv.reg<a0>, %{{.*}}: !riscv.reg<a1>,
// CHECK:         riscv.comment {comment = "tile.map"}
// CHECK:         rvv.vzext.vf2
// CHECK:         rvv.vfadd.vv
// CHECK:         rvv.vnsrl.wi
// CHECK:         rvv.vfsqrt.v
// CHECK-NOT:     !riscv.reg<t
// CHECK:         riscv_func.return
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
// reductions and the DMA are tnpu-to-tile's; tile-to-rvv lowers each tile op.

// SOFTMAX-LABEL: riscv_func.func public @tnpu_kernel_triton_per_fused__softmax_0
// SOFTMAX:         riscv.comment {comment = "tile.load"}
// SOFTMAX:         riscv.comment {comment = "tile.reduce"}
// SOFTMAX:         rvv.vfredosum.vs
// SOFTMAX:         riscv.comment {comment = "tile.store"}
// SOFTMAX:         riscv_func.return

// ASM:      .globl tnpu_kernel_triton_per_fused__softmax_0
// ASM:      tnpu_kernel_triton_per_fused__softmax_0:
// ASM:      vsetvli
// ASM:      ret
