// RUN: tnpu-opt %s --split-input-file --verify-diagnostics -p ttir-to-tile | filecheck %s

// What the tile dialect cannot describe is refused with the op, the reason and
// where it came from.

tt.func @inline_asm(%x: tensor<16xf32>) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.elementwise_inline_asm' op cannot be lowered to the tile dialect: inline PTX assembly has no meaning on the NPU (at kernel.py:3:7 (tmp1))
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32> loc(#tmp1)
  tt.return
}
#tmp1 = loc("tmp1"("kernel.py":3:7))

// -----

tt.func @libdevice(%x: tensor<16xf32>) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'tt.extern_elementwise' op cannot be lowered to the tile dialect: library call left; run lower-libdevice first
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @unstructured(%c: i1) {
  // CHECK: refusals.mlir:[[# @LINE + 1]]:3: error: 'cf.br' op cannot be lowered to the tile dialect: unstructured control flow left; run structure-early-return first
  cf.br ^bb1
^bb1:
  tt.return
}
