// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// tt.histogram compares every value with every bin in a [bins, n] tile and
// sums the matches where the mask holds.  i8 values cannot number 256 bins:
// they are widened to i32 first.  Values outside [0, 256) match no bin.

// CHECK-LABEL: tile.kernel @histogram(%I: !tile.buffer<i8>, %Out: !tile.buffer<i32>, %n: i32)
// CHECK:      %[[I:.*]] = tile.load %I[0] strides [1] : !tile.buffer<i8> -> tensor<64xi8>
// CHECK-NEXT: %[[WIDE:.*]] = tile.map %[[I]] : tensor<64xi8> -> tensor<64xi32> {
// CHECK:        arith.extsi
// CHECK:      %[[ROW:.*]] = tile.reshape %[[WIDE]] : tensor<64xi32> -> tensor<1x64xi32>
// CHECK-NEXT: %[[VALUES:.*]] = tile.broadcast %[[ROW]] : tensor<1x64xi32> -> tensor<256x64xi32>
// CHECK-NEXT: %[[IOTA:.*]] = tile.iota {start = 0 : i32} : tensor<256xi32>
// CHECK-NEXT: %[[COLUMN:.*]] = tile.reshape %[[IOTA]] : tensor<256xi32> -> tensor<256x1xi32>
// CHECK-NEXT: %[[BINS:.*]] = tile.broadcast %[[COLUMN]] : tensor<256x1xi32> -> tensor<256x64xi32>
// CHECK-NEXT: %[[MATCH:.*]] = tile.map %[[VALUES]], %[[BINS]] : tensor<256x64xi32>, tensor<256x64xi32> -> tensor<256x64xi1> {
// CHECK:        arith.cmpi eq
// CHECK:      %[[MASKROW:.*]] = tile.reshape %m : tensor<64xi1> -> tensor<1x64xi1>
// CHECK-NEXT: %[[MASK:.*]] = tile.broadcast %[[MASKROW]] : tensor<1x64xi1> -> tensor<256x64xi1>
// CHECK-NEXT: %[[HIT:.*]] = tile.map %[[MATCH]], %[[MASK]] : tensor<256x64xi1>, tensor<256x64xi1> -> tensor<256x64xi1> {
// CHECK:        arith.andi
// CHECK:      %[[ONES:.*]] = tile.map %[[HIT]] : tensor<256x64xi1> -> tensor<256x64xi32> {
// CHECK:        arith.extui
// CHECK:      %h = tile.reduce %[[ONES]] {axis = 1 : i32} : tensor<256x64xi32> -> tensor<256xi32> {
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:   %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:   tile.yield %[[S]] : i32
// CHECK:      tile.store %h, %Out[0] strides [1] : tensor<256xi32>, !tile.buffer<i32>
tt.func public @histogram(%I: !tt.ptr<i8>, %Out: !tt.ptr<i32>, %n: i32) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  %ip = tt.splat %I : !tt.ptr<i8> -> tensor<64x!tt.ptr<i8>>
  %iq = tt.addptr %ip, %r : tensor<64x!tt.ptr<i8>>, tensor<64xi32>
  %i = tt.load %iq : tensor<64x!tt.ptr<i8>>
  %h = tt.histogram %i, %m : tensor<64xi8> -> tensor<256xi32>
  %b = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %op = tt.splat %Out : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
  %oq = tt.addptr %op, %b : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
  tt.store %oq, %h : tensor<256x!tt.ptr<i32>>
  tt.return
}

// -----

// Values as wide as the bins need are compared as they are.

// CHECK-LABEL: tile.kernel @histogram_of_i32(
// CHECK-NOT:  arith.extsi
// CHECK:      tile.broadcast %{{.*}} : tensor<1x64xi32> -> tensor<16x64xi32>
// CHECK:      tile.reduce %{{.*}} {axis = 1 : i32} : tensor<16x64xi32> -> tensor<16xi32>
tt.func public @histogram_of_i32(%I: !tt.ptr<i32>, %Out: !tt.ptr<i32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ip = tt.splat %I : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %iq = tt.addptr %ip, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %i = tt.load %iq : tensor<64x!tt.ptr<i32>>
  %h = tt.histogram %i : tensor<64xi32> -> tensor<16xi32>
  %b = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %op = tt.splat %Out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %oq = tt.addptr %op, %b : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  tt.store %oq, %h : tensor<16x!tt.ptr<i32>>
  tt.return
}
