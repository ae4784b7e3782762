// RUN: tnpu-opt %s --split-input-file -p tile-to-rvv | filecheck %s

// A masked load: per strip the i1 bytes become the mask in v0, the data
// register starts as the pad (vmv.v.x) and the masked load keeps it where
// the mask is clear; the masked store writes only where it is set.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_masked
// CHECK:         riscv.comment {comment = "tile.load"}
// CHECK:         riscv.comment {comment = "tile.load"}
// CHECK:         rvv.vsetvli_keep sew 8 eighths 16
// CHECK-NEXT:    [[BYTES:%[0-9]+]] = rvv.vle8.v
// CHECK-NEXT:    [[MASK:%[0-9]+]] = rvv.vmsne.vi [[BYTES]], 0 : (!rvv.reg<m8>) -> !rvv.mask<m1, v0>
// CHECK-NEXT:    rvv.vsetvli_keep sew 32 eighths 64
// CHECK-NEXT:    [[PAD:%[0-9]+]] = rvv.vmv.v.x
// CHECK-NEXT:    {{%[0-9]+}} = rvv.vle32.v {{%[0-9]+}} masked([[MASK]] : !rvv.mask<m1, v0>, [[PAD]] : !rvv.reg<m8>)
// CHECK:         riscv.comment {comment = "tile.store"}
// CHECK:         rvv.vse32.v {{%[0-9]+}}, {{%[0-9]+}} masked {{%[0-9]+}} : !rvv.mask<m1, v0>
tile.kernel @masked(%x: !tile.buffer<f32>, %m: !tile.buffer<i1>) {
  %one = arith.constant 1.0 : f32
  %mask = tile.load %m[0] strides [1] : !tile.buffer<i1> -> tensor<64xi1>
  %t = tile.load %x[0] strides [1] mask %mask pad %one : !tile.buffer<f32> -> tensor<64xf32>
  tile.store %t, %x[0] strides [1] mask %mask : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}

// -----

// Float atomic add is an LR/SC loop (the old value carried out of it);
// integer add is one AMO.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_atomics
// CHECK:         rvx.loop
// CHECK:           [[OLD:%[0-9]+]] = rvx.lr.w [[ADDRESS:%[0-9]+]] : (!riscv.reg) -> !riscv.reg
// CHECK:           riscv.fadd.s
// CHECK:           [[FAILED:%[0-9]+]] = rvx.sc.w {{%[0-9]+}}, [[ADDRESS]]
// CHECK-NEXT:      rvx.repeat_if ne [[FAILED]], {{%[0-9]+}} : !riscv.reg, !riscv.reg<zero> carrying [[OLD]]
// CHECK:         rvx.amoadd.d {{%[0-9]+}}, {{%[0-9]+}} : (!riscv.reg, !riscv.reg) -> !riscv.reg
tile.kernel @atomics(%x: !tile.buffer<f32>, %c: !tile.buffer<i64>, %v: f32) {
  %i = arith.constant 3 : i64
  %one = arith.constant 1 : i64
  %old = tile.atomic_rmw fadd %x[%i], %v : !tile.buffer<f32>, i64, f32
  %count = tile.atomic_rmw add %c[%i], %one : !tile.buffer<i64>, i64, i64
  tile.return
}

// -----

// A 16-bit compare-and-swap (RVA has no 16-bit AMO) goes through the aligned
// word: the halfword is read with a plain load and compared with the expected
// value (zero-extended); if equal, the new word is swapped in by a 32-bit
// compare-and-swap, and the whole step is retried while the word changed
// since the load.
// CHECK-LABEL: riscv_func.func public @tnpu_kernel_halfword_cas
// CHECK:         [[EXPECTED:%[0-9]+]] = rv64.srli {{%[0-9]+}}, 48
// CHECK:         [[WORD:%[0-9]+]] = riscv.andi {{%[0-9]+}}, -4
// CHECK:         rvx.loop
// CHECK-NEXT:    ^{{.*}}:
// CHECK-NEXT:      [[SEEN:%[0-9]+]] = riscv.lw [[WORD]], 0
// CHECK:           [[OLD:%[0-9]+]] = riscv.srl
// CHECK:           [[FOUND:%[0-9]+]] = rvx.if eq [[OLD]], [[EXPECTED]]
// CHECK:             rvx.loop
// CHECK:               [[CURRENT:%[0-9]+]] = rvx.lr.w [[WORD]]
// CHECK:               rvx.if eq [[CURRENT]], [[SEEN]]
// CHECK-NEXT:            rvx.sc.w {{%[0-9]+}}, [[WORD]]
// CHECK:           rvx.repeat_if ne [[FOUND]], [[SEEN]] : !riscv.reg, !riscv.reg carrying [[OLD]]
tile.kernel @halfword_cas(%x: !tile.buffer<i16>, %expected: i16, %v: i16) {
  %i = arith.constant 3 : i64
  %old = tile.atomic_cas %x[%i], %expected, %v : !tile.buffer<i16>, i64, i16
  tile.return
}
