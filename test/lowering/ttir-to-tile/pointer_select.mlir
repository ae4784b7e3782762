// RUN: tnpu-opt %s --split-input-file -p ttir-to-tile,dce | filecheck %s

// arith.select of pointers (tl.where(c, p, q)).  Into two buffers, an access
// is one per buffer, each where its side of the condition holds, and a load's
// values are selected: a uniform condition (the program id's) bounds
// structured loads, upper = c ? 16 : 0 and its complement.

// CHECK-LABEL: tile.kernel @scalar_choice(%X: !tile.buffer<f32>, %Y: !tile.buffer<f32>, %Out: !tile.buffer<f32>)
// CHECK:      %first = arith.cmpi eq, %pid, %c0 : i32
// CHECK:      %[[NEG:.*]] = arith.select %first, %{{.*}}, %{{.*}} : index
// CHECK:      %[[TAKEN:.*]] = arith.cmpi slt, %[[NEG]], %{{.*}} : index
// CHECK:      %[[UPPER:.*]] = arith.select %[[TAKEN]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[FROMX:.*]] = tile.load %X[0] strides [1] upper [%[[UPPER]]] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[NOT:.*]] = arith.xori %first, %{{.*}} : i1
// CHECK:      %[[NOTNEG:.*]] = arith.select %[[NOT]], %{{.*}}, %{{.*}} : index
// CHECK:      %[[FROMY:.*]] = tile.load %Y[0] strides [1] upper [%{{.*}}] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK-NEXT: %v = tile.map %first, %[[FROMX]], %[[FROMY]] : i1, tensor<16xf32>, tensor<16xf32> -> tensor<16xf32> {
// CHECK:        arith.select
// CHECK:      tile.store %v, %Out[0] strides [1] : tensor<16xf32>, !tile.buffer<f32>
tt.func public @scalar_choice(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %p = arith.select %first, %X, %Y : !tt.ptr<f32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %pq = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %pq : tensor<16x!tt.ptr<f32>>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %oq, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A condition computed from data is a mask tile: the load from X under it,
// from Y under its negation; a store through the choice writes each buffer
// under its side.

// CHECK-LABEL: tile.kernel @elementwise_choice(
// CHECK:      %positive = tile.map %x, %{{.*}} : tensor<16xf32>, f32 -> tensor<16xi1> {
// CHECK:      %[[FROMX:.*]] = tile.load %X[0] strides [1] mask %positive : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %[[NOT:.*]] = tile.map %positive, %{{.*}} : tensor<16xi1>, i1 -> tensor<16xi1> {
// CHECK:        arith.xori
// CHECK:      %[[FROMY:.*]] = tile.load %Y[0] strides [1] mask %[[NOT]] : !tile.buffer<f32> -> tensor<16xf32>
// CHECK:      %v = tile.map %positive, %[[FROMX]], %[[FROMY]] : tensor<16xi1>, tensor<16xf32>, tensor<16xf32> -> tensor<16xf32> {
// CHECK:      tile.store %v, %X[0] strides [1] mask %positive : tensor<16xf32>, !tile.buffer<f32>
// CHECK:      %[[NOT2:.*]] = tile.map %positive, %{{.*}} : tensor<16xi1>, i1 -> tensor<16xi1> {
// CHECK:      tile.store %v, %Y[0] strides [1] mask %[[NOT2]] : tensor<16xf32>, !tile.buffer<f32>
tt.func public @elementwise_choice(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xs = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xq = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %ys = tt.splat %Y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %yq = tt.addptr %ys, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %xq : tensor<16x!tt.ptr<f32>>
  %positive = arith.cmpf ogt, %x, %zero : tensor<16xf32>
  %q = arith.select %positive, %xq, %yq : tensor<16xi1>, tensor<16x!tt.ptr<f32>>
  %v = tt.load %q : tensor<16x!tt.ptr<f32>>
  tt.store %q, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Pointers into one buffer: the offsets are selected, and the access is a
// gather at them.

// CHECK-LABEL: tile.kernel @one_buffer(
// CHECK:      %[[OFFSETS:.*]] = tile.map %low, %{{.*}}, %{{.*}} : tensor<16xi1>, tensor<16xi64>, tensor<16xi64> -> tensor<16xi64> {
// CHECK:        arith.select
// CHECK:      %v = tile.gather %X[%[[OFFSETS]]] : !tile.buffer<f32>, tensor<16xi64> -> tensor<16xf32>
// CHECK-NOT:  tile.load %X
tt.func public @one_buffer(%X: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %c15 = arith.constant dense<15> : tensor<16xi32>
  %c8 = arith.constant dense<8> : tensor<16xi32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %back = arith.subi %c15, %r : tensor<16xi32>
  %xs = tt.splat %X : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %fwd = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %rev = tt.addptr %xs, %back : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %low = arith.cmpi slt, %r, %c8 : tensor<16xi32>
  %q = arith.select %low, %fwd, %rev : tensor<16xi1>, tensor<16x!tt.ptr<f32>>
  %v = tt.load %q : tensor<16x!tt.ptr<f32>>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %oq, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Scalar pointers into one buffer: an index select, so the load stays
// structured at the selected offset.

// CHECK-LABEL: tile.kernel @one_buffer_scalar(
// CHECK:      %[[OFFSET:.*]] = arith.select %first, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %v = tile.load %X[%[[OFFSET]]] strides [1] : !tile.buffer<f32> -> tensor<16xf32>
tt.func public @one_buffer_scalar(%X: !tt.ptr<f32>, %Out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %pid = tt.get_program_id x : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %later = tt.addptr %X, %c64 : !tt.ptr<f32>, i32
  %p = arith.select %first, %X, %later : !tt.ptr<f32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %pq = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %pq : tensor<16x!tt.ptr<f32>>
  %op = tt.splat %Out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %oq = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %oq, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// An atomic through a choice: one per buffer, masked by each side; the values
// read are selected.

// CHECK-LABEL: tile.kernel @atomic_choice(
// CHECK:      %[[OLDX:.*]] = tile.atomic_rmw fadd %X[%{{.*}}], %v mask %first : !tile.buffer<f32>, i64, f32
// CHECK:      %[[NOT:.*]] = arith.xori %first, %{{.*}} : i1
// CHECK:      %[[OLDY:.*]] = tile.atomic_rmw fadd %Y[%{{.*}}], %v mask %[[NOT]] : !tile.buffer<f32>, i64, f32
// CHECK-NEXT: %old = arith.select %first, %[[OLDX]], %[[OLDY]] : f32
tt.func public @atomic_choice(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Out: !tt.ptr<f32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %p = arith.select %first, %X, %Y : !tt.ptr<f32>
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.store %Out, %old : !tt.ptr<f32>
  tt.return
}

// -----

// Pointers cast from integers are their addresses, data: Triton's test_where
// of tl.pi32_t values selects them and stores them back as integers.

// CHECK-LABEL: tile.kernel @addresses(%cond: !tile.buffer<i8>, %A: !tile.buffer<i64>, %B: !tile.buffer<i64>, %Out: !tile.buffer<i64>, %scalar: i64)
// CHECK:      %a = tile.load %A[0] strides [1] : !tile.buffer<i64> -> tensor<8xi64>
// CHECK:      %b = tile.load %B[0] strides [1] : !tile.buffer<i64> -> tensor<8xi64>
// CHECK:      %chosen = tile.map %{{.*}}, %a, %b : tensor<8xi1>, tensor<8xi64>, tensor<8xi64> -> tensor<8xi64> {
// CHECK:        arith.select
// CHECK:      %splat = tile.broadcast %scalar : i64 -> tensor<8xi64>
// CHECK:      %either = tile.map %{{.*}}, %chosen, %splat : tensor<8xi1>, tensor<8xi64>, tensor<8xi64> -> tensor<8xi64> {
// CHECK:      tile.store %either, %Out[0] strides [1] : tensor<8xi64>, !tile.buffer<i64>
tt.func public @addresses(%cond: !tt.ptr<i8>, %A: !tt.ptr<i64>, %B: !tt.ptr<i64>, %Out: !tt.ptr<i64>, %scalar: i64) {
  %zero = arith.constant dense<0> : tensor<8xi8>
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %cp = tt.splat %cond : !tt.ptr<i8> -> tensor<8x!tt.ptr<i8>>
  %cq = tt.addptr %cp, %r : tensor<8x!tt.ptr<i8>>, tensor<8xi32>
  %c = tt.load %cq : tensor<8x!tt.ptr<i8>>
  %decide = arith.cmpi ne, %c, %zero : tensor<8xi8>
  %ap = tt.splat %A : !tt.ptr<i64> -> tensor<8x!tt.ptr<i64>>
  %aq = tt.addptr %ap, %r : tensor<8x!tt.ptr<i64>>, tensor<8xi32>
  %a = tt.load %aq : tensor<8x!tt.ptr<i64>>
  %a_ptr = tt.int_to_ptr %a : tensor<8xi64> -> tensor<8x!tt.ptr<i32>>
  %bp = tt.splat %B : !tt.ptr<i64> -> tensor<8x!tt.ptr<i64>>
  %bq = tt.addptr %bp, %r : tensor<8x!tt.ptr<i64>>, tensor<8xi32>
  %b = tt.load %bq : tensor<8x!tt.ptr<i64>>
  %b_ptr = tt.int_to_ptr %b : tensor<8xi64> -> tensor<8x!tt.ptr<i32>>
  %chosen = arith.select %decide, %a_ptr, %b_ptr : tensor<8xi1>, tensor<8x!tt.ptr<i32>>
  %s_ptr = tt.int_to_ptr %scalar : i64 -> !tt.ptr<i32>
  %splat = tt.splat %s_ptr : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %either = arith.select %decide, %chosen, %splat : tensor<8xi1>, tensor<8x!tt.ptr<i32>>
  %as_int = tt.ptr_to_int %either : tensor<8x!tt.ptr<i32>> -> tensor<8xi64>
  %op = tt.splat %Out : !tt.ptr<i64> -> tensor<8x!tt.ptr<i64>>
  %oq = tt.addptr %op, %r : tensor<8x!tt.ptr<i64>>, tensor<8xi32>
  tt.store %oq, %as_int : tensor<8x!tt.ptr<i64>>
  tt.return
}
