// `-` is standard input and `-o -` standard output, as for mlir-opt and every
// Unix filter: in tnpu-opt and in each tnpu command that reads or writes IR.
// No file named `-` is ever written.

// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: cat %s | tnpu-opt - -o - | filecheck %s
// RUN: tnpu-opt %s -o - -p tnpu-to-tile | filecheck %s --check-prefix=TILE
// RUN: cat %s | tnpu import - -o - | filecheck %s
// RUN: tnpu ttir %S/Inputs/add.py:add_kernel --signature 'x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32,BLOCK=constexpr' --constexpr BLOCK=64 -o - | tnpu-opt - | filecheck %s --check-prefix=TTIR
// RUN: cat %s | tnpu run - --grid 2 --arg x=float32[100] --arg out=float32[100] --arg n=100 | filecheck %s --check-prefix=RAN
// RUN: not ls %t/-
// Diagnostics name standard input as <stdin>.
// RUN: echo 'tt.func @f() {' | not tnpu-opt - 2>&1 | filecheck %s --check-prefix=ERROR

// CHECK: tt.func public @double(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32)
// TILE: tile.kernel @double(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32)
// TTIR: tt.func public @add_kernel(
// RAN: stage reached: compare; match
// ERROR: <stdin>:2:1: error:

tt.func public @double(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c64 = arith.constant 64 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %start : i32 -> tensor<64xi32>
  %i = arith.addi %s, %r : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %i, %ns : tensor<64xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ax = tt.addptr %px, %i : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %ax, %m : tensor<64x!tt.ptr<f32>>
  %d = arith.addf %v, %v : tensor<64xf32>
  %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ao = tt.addptr %po, %i : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %ao, %d, %m : tensor<64x!tt.ptr<f32>>
  tt.return
}
