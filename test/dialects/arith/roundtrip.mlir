// RUN: tnpu-opt %s | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The arith ops tnpu's context extends (tnpu/dialects/arith.py), each on a
// scalar, a vector and a tensor, in MLIR's syntax; each prints back as written.

// CHECK-LABEL: func.func @comparisons(
func.func @comparisons(%i: i32, %x: index, %v: vector<4xi32>, %t: tensor<4x8xi32>, %f: f32, %vf: vector<4xf16>, %tf: tensor<16xbf16>) {
  // CHECK-NEXT: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: arith.cmpi uge, %{{.*}}, %{{.*}} : index
  // CHECK-NEXT: arith.cmpi ne, %{{.*}}, %{{.*}} : vector<4xi32>
  // CHECK-NEXT: arith.cmpi eq, %{{.*}}, %{{.*}} {tt.note = 1 : i32} : tensor<4x8xi32>
  // CHECK-NEXT: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
  // CHECK-NEXT: arith.cmpf uno, %{{.*}}, %{{.*}} fastmath<nnan,ninf> : vector<4xf16>
  // CHECK-NEXT: arith.cmpf oge, %{{.*}}, %{{.*}} fastmath<fast> {tt.note = 2 : i32} : tensor<16xbf16>
  // GENERIC: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 2 : i64}> : (i32, i32) -> i1
  // GENERIC: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 1 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi1>
  // GENERIC: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 0 : i64}> {tt.note = 1 : i32} : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  // GENERIC: "arith.cmpf"(%{{.*}}, %{{.*}}) <{predicate = 4 : i64, fastmath = #arith.fastmath<none>}> : (f32, f32) -> i1
  // GENERIC: "arith.cmpf"(%{{.*}}, %{{.*}}) <{predicate = 3 : i64, fastmath = #arith.fastmath<fast>}> {tt.note = 2 : i32} : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xi1>
  %0 = arith.cmpi slt, %i, %i : i32
  %1 = arith.cmpi uge, %x, %x : index
  %2 = arith.cmpi ne, %v, %v : vector<4xi32>
  %3 = arith.cmpi eq, %t, %t {tt.note = 1 : i32} : tensor<4x8xi32>
  %4 = arith.cmpf olt, %f, %f : f32
  %5 = arith.cmpf uno, %vf, %vf fastmath<nnan,ninf> : vector<4xf16>
  %6 = arith.cmpf oge, %tf, %tf fastmath<fast> {tt.note = 2 : i32} : tensor<16xbf16>
  func.return
}

// CHECK-LABEL: func.func @selects(
func.func @selects(%c: i1, %i: i32, %vc: vector<4xi1>, %v: vector<4xf32>, %tc: tensor<4x8xi1>, %t: tensor<4x8xi64>) {
  // CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
  // CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xi64>
  // CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} {tt.note = 3 : i32} : tensor<4x8xi1>, tensor<4x8xi64>
  // GENERIC: "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  // GENERIC: "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) {tt.note = 3 : i32} : (tensor<4x8xi1>, tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<4x8xi64>
  %0 = arith.select %c, %i, %i : i32
  %1 = arith.select %c, %v, %v : vector<4xf32>
  %2 = arith.select %vc, %v, %v : vector<4xi1>, vector<4xf32>
  %3 = arith.select %c, %t, %t : tensor<4x8xi64>
  %4 = arith.select %tc, %t, %t {tt.note = 3 : i32} : tensor<4x8xi1>, tensor<4x8xi64>
  func.return
}

// CHECK-LABEL: func.func @integer_casts(
func.func @integer_casts(%b: i1, %i: i32, %x: index, %v: vector<4xi16>, %t: tensor<8xi64>, %tx: tensor<8xindex>) {
  // CHECK-NEXT: arith.extsi %{{.*}} : i1 to i32
  // CHECK-NEXT: arith.extui %{{.*}} : vector<4xi16> to vector<4xi64>
  // CHECK-NEXT: arith.trunci %{{.*}} : tensor<8xi64> to tensor<8xi8>
  // CHECK-NEXT: arith.extsi %{{.*}} : vector<4xi16> to vector<4xi32>
  // CHECK-NEXT: arith.extui %{{.*}} : i1 to i8
  // CHECK-NEXT: arith.trunci %{{.*}} {tt.note = 4 : i32} : i32 to i1
  // CHECK-NEXT: arith.index_cast %{{.*}} : i32 to index
  // CHECK-NEXT: arith.index_cast %{{.*}} : index to i64
  // CHECK-NEXT: arith.index_cast %{{.*}} : tensor<8xindex> to tensor<8xi32>
  // CHECK-NEXT: arith.index_cast %{{.*}} : tensor<8xi64> to tensor<8xindex>
  // GENERIC: "arith.trunci"(%{{.*}}) : (tensor<8xi64>) -> tensor<8xi8>
  // GENERIC: "arith.index_cast"(%{{.*}}) : (tensor<8xindex>) -> tensor<8xi32>
  %0 = arith.extsi %b : i1 to i32
  %1 = arith.extui %v : vector<4xi16> to vector<4xi64>
  %2 = arith.trunci %t : tensor<8xi64> to tensor<8xi8>
  %3 = arith.extsi %v : vector<4xi16> to vector<4xi32>
  %4 = arith.extui %b : i1 to i8
  %5 = arith.trunci %i {tt.note = 4 : i32} : i32 to i1
  %6 = arith.index_cast %i : i32 to index
  %7 = arith.index_cast %x : index to i64
  %8 = arith.index_cast %tx : tensor<8xindex> to tensor<8xi32>
  %9 = arith.index_cast %t : tensor<8xi64> to tensor<8xindex>
  func.return
}

// CHECK-LABEL: func.func @float_casts(
func.func @float_casts(%i: i8, %f: f64, %v: vector<4xi64>, %vf: vector<4xf16>, %t: tensor<8xi32>, %tf: tensor<8xbf16>) {
  // CHECK-NEXT: arith.sitofp %{{.*}} : i8 to f32
  // CHECK-NEXT: arith.uitofp %{{.*}} : vector<4xi64> to vector<4xf16>
  // CHECK-NEXT: arith.sitofp %{{.*}} : tensor<8xi32> to tensor<8xf64>
  // CHECK-NEXT: arith.uitofp %{{.*}} : tensor<8xi32> to tensor<8xbf16>
  // CHECK-NEXT: arith.fptosi %{{.*}} : f64 to i16
  // CHECK-NEXT: arith.fptoui %{{.*}} : vector<4xf16> to vector<4xi8>
  // CHECK-NEXT: arith.fptosi %{{.*}} : tensor<8xbf16> to tensor<8xi64>
  // CHECK-NEXT: arith.fptoui %{{.*}} {tt.note = 5 : i32} : f64 to i1
  // GENERIC: "arith.uitofp"(%{{.*}}) : (vector<4xi64>) -> vector<4xf16>
  // GENERIC: "arith.fptosi"(%{{.*}}) : (tensor<8xbf16>) -> tensor<8xi64>
  %0 = arith.sitofp %i : i8 to f32
  %1 = arith.uitofp %v : vector<4xi64> to vector<4xf16>
  %2 = arith.sitofp %t : tensor<8xi32> to tensor<8xf64>
  %3 = arith.uitofp %t : tensor<8xi32> to tensor<8xbf16>
  %4 = arith.fptosi %f : f64 to i16
  %5 = arith.fptoui %vf : vector<4xf16> to vector<4xi8>
  %6 = arith.fptosi %tf : tensor<8xbf16> to tensor<8xi64>
  %7 = arith.fptoui %f {tt.note = 5 : i32} : f64 to i1
  func.return
}

// CHECK-LABEL: func.func @bitcasts_and_remf(
func.func @bitcasts_and_remf(%f: f32, %v: vector<4xi16>, %t: tensor<8xf64>, %th: tensor<8xbf16>) {
  // CHECK-NEXT: arith.bitcast %{{.*}} : f32 to i32
  // CHECK-NEXT: arith.bitcast %{{.*}} : vector<4xi16> to vector<4xf16>
  // CHECK-NEXT: arith.bitcast %{{.*}} : tensor<8xf64> to tensor<8xi64>
  // CHECK-NEXT: arith.bitcast %{{.*}} : tensor<8xbf16> to tensor<8xf16>
  // CHECK-NEXT: arith.remf %{{.*}}, %{{.*}} : f32
  // CHECK-NEXT: arith.remf %{{.*}}, %{{.*}} fastmath<fast> : tensor<8xf64>
  // GENERIC: "arith.bitcast"(%{{.*}}) : (tensor<8xf64>) -> tensor<8xi64>
  // GENERIC: "arith.remf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<fast>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
  %0 = arith.bitcast %f : f32 to i32
  %1 = arith.bitcast %v : vector<4xi16> to vector<4xf16>
  %2 = arith.bitcast %t : tensor<8xf64> to tensor<8xi64>
  %3 = arith.bitcast %th : tensor<8xbf16> to tensor<8xf16>
  %4 = arith.remf %f, %f : f32
  %5 = arith.remf %t, %t fastmath<fast> : tensor<8xf64>
  func.return
}
