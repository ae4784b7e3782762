// RUN: tnpu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A kernel (`tt.func public`, as Triton prints every kernel) takes what a
// launch can pass: pointers, integers, floats and tensor descriptors.  A
// tensor argument is a device function's (`private`).

// CHECK: kernel_arguments.mlir:[[# @LINE + 1]]:1: error: 'tt.func' op kernel argument #1 has type tensor<64xf32>; a kernel takes pointers, integers, floats and tensor descriptors (a tensor argument is a private device function's)
tt.func public @tensor_argument(%p: !tt.ptr<f32>, %x: tensor<64xf32>) {
  tt.return
}

// -----

// CHECK: kernel_arguments.mlir:[[# @LINE + 1]]:1: error: 'tt.func' op kernel argument #0 has type tensor<64x!tt.ptr<f32>>
tt.func public @pointer_tensor_argument(%p: tensor<64x!tt.ptr<f32>>) {
  tt.return
}

// -----

// CHECK-LABEL: tt.func public @what_a_launch_passes
tt.func public @what_a_launch_passes(%p: !tt.ptr<bf16>, %n: i32, %s: i64, %f: f32, %b: i1, %d: !tt.tensordesc<tensor<16x32xf32>>) {
  tt.return
}

// CHECK-LABEL: tt.func private @device_function
tt.func private @device_function(%x: tensor<64xf32>) {
  tt.return
}
