// RUN: tnpu-opt %s | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | tnpu-opt | filecheck %s

// Every tt op in the syntax Triton 3.9 prints (test/import/probe_kernels.py
// makes Triton print each; test_import_triton_parser.py checks that Triton
// reads tnpu's print of them back).  Each case prints back as written.

// CHECK-LABEL: tt.func public @spmd_and_shapes(
tt.func public @spmd_and_shapes(%X: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
  // CHECK-NEXT: tt.get_program_id x : i32
  // CHECK-NEXT: tt.get_num_programs z : i32
  // CHECK-NEXT: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // CHECK-NEXT: tt.splat %{{.*}} : i32 -> tensor<64xi32>
  // CHECK-NEXT: arith.cmpi slt
  // CHECK-NEXT: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // CHECK-NEXT: tt.broadcast %{{.*}} : tensor<64x1xi32> -> tensor<64x4xi32>
  // CHECK-NEXT: tt.reshape %{{.*}} : tensor<64x4xi32> -> tensor<256xi32>
  // CHECK-NEXT: tt.reshape %{{.*}} allow_reorder : tensor<64x4xi32> -> tensor<256xi32>
  // CHECK-NEXT: tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<64x4xi32> -> tensor<256xi32>
  // CHECK-NEXT: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<64x4xi32> -> tensor<4x64xi32>
  // CHECK-NEXT: tt.join %{{.*}}, %{{.*}} : tensor<64xi32> -> tensor<64x2xi32>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = tt.split %{{.*}} : tensor<64x2xi32> -> tensor<64xi32>
  // CHECK-NEXT: tt.cat %{{.*}}, %{{.*}} : tensor<64xi32> -> tensor<128xi32>
  // CHECK-NEXT: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK-NEXT: tt.histogram %{{.*}} : tensor<64xi32> -> tensor<16xi32>
  // CHECK-NEXT: tt.histogram %{{.*}}, %{{.*}} : tensor<64xi32> -> tensor<16xi32>
  // CHECK-NEXT: tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
  // CHECK-NEXT: tt.unsplat %{{.*}} : tensor<1xi32>
  %pid = tt.get_program_id x : i32
  %np = tt.get_num_programs z : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %s : tensor<64xi32>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %b = tt.broadcast %e : tensor<64x1xi32> -> tensor<64x4xi32>
  %flat = tt.reshape %b : tensor<64x4xi32> -> tensor<256xi32>
  %any = tt.reshape %b allow_reorder : tensor<64x4xi32> -> tensor<256xi32>
  %eff = tt.reshape %b allow_reorder efficient_layout : tensor<64x4xi32> -> tensor<256xi32>
  %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x4xi32> -> tensor<4x64xi32>
  %j = tt.join %r, %s : tensor<64xi32> -> tensor<64x2xi32>
  %lo, %hi = tt.split %j : tensor<64x2xi32> -> tensor<64xi32>
  %c = tt.cat %r, %s : tensor<64xi32> -> tensor<128xi32>
  %g = tt.gather %r[%s] {axis = 0 : i32} : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %h = tt.histogram %r : tensor<64xi32> -> tensor<16xi32>
  %hm = tt.histogram %r, %m : tensor<64xi32> -> tensor<16xi32>
  %one = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
  %u = tt.unsplat %one : tensor<1xi32>
  tt.return
}

// CHECK-LABEL: tt.func public @memory(
tt.func public @memory(%X: !tt.ptr<f32>, %K: !tt.ptr<f32, "constant">, %A: i64, %n: i32) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %s : tensor<64xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %p0 = tt.splat %X : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %p = tt.addptr %p0, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // CHECK-NEXT: tt.load %{{.*}} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.load %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>, isVolatile = true} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<f32>
  %x = tt.load %p : tensor<64x!tt.ptr<f32>>
  %y = tt.load %p, %m : tensor<64x!tt.ptr<f32>>
  %z = tt.load %p, %m, %zero {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>, isVolatile = true} : tensor<64x!tt.ptr<f32>>
  %w = tt.load %X : !tt.ptr<f32>
  // CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.store %{{.*}}, %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = wt, eviction_policy = evict_last>} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
  tt.store %p, %x : tensor<64x!tt.ptr<f32>>
  tt.store %p, %y, %m {cachePolicy = #tt.cache_policy<cache_modifier = wt, eviction_policy = evict_last>} : tensor<64x!tt.ptr<f32>>
  tt.store %X, %w : !tt.ptr<f32>
  // CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<f32, "constant">
  %k = tt.load %K : !tt.ptr<f32, "constant">
  // CHECK-NEXT: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f32>
  // CHECK-NEXT: tt.ptr_to_int %{{.*}} : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
  // CHECK-NEXT: tt.bitcast %{{.*}} : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<i32>>
  %base = tt.int_to_ptr %A : i64 -> !tt.ptr<f32>
  %addr = tt.ptr_to_int %p : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
  %ip = tt.bitcast %p : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<i32>>
  tt.return
}

// CHECK-LABEL: tt.func @atomics(
tt.func @atomics(%X: !tt.ptr<f32>, %I: tensor<64x!tt.ptr<i32>>, %x: tensor<64xf32>, %i: tensor<64xi32>, %m: tensor<64xi1>) {
  %p0 = tt.splat %X : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %one = arith.constant 1.000000e+00 : f32
  %true = arith.constant true
  %c0 = arith.constant 0 : i32
  // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  // CHECK-NEXT: tt.atomic_rmw exch, release, sys, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK-NEXT: tt.atomic_rmw umax, acquire, cta, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi1>) -> tensor<64xi32>
  // CHECK-NEXT: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32, i1) -> f32
  %a = tt.atomic_rmw fadd, acq_rel, gpu, %p0, %x, %m : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  %b = tt.atomic_rmw exch, release, sys, %p0, %x : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  %c = tt.atomic_rmw umax, acquire, cta, %I, %i, %m : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi1>) -> tensor<64xi32>
  %s = tt.atomic_rmw fadd, relaxed, gpu, %X, %one, %true : (!tt.ptr<f32>, f32, i1) -> f32
  // CHECK-NEXT: tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %d = tt.atomic_cas acq_rel, gpu, %I, %i, %c : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK-NEXT: tt.atomic_load acquire, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<64xf32>
  // CHECK-NEXT: tt.atomic_load relaxed, cta, %{{.*}} : (!tt.ptr<f32>) -> f32
  %e = tt.atomic_load acquire, gpu, %p0, %m : (tensor<64x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<64xf32>
  %f = tt.atomic_load relaxed, cta, %X : (!tt.ptr<f32>) -> f32
  // CHECK-NEXT: tt.atomic_store release, gpu, %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: tt.atomic_store relaxed, sys, %{{.*}}, %{{.*}} : !tt.ptr<f32>
  tt.atomic_store release, gpu, %p0, %x, %m : tensor<64x!tt.ptr<f32>>
  tt.atomic_store relaxed, sys, %X, %one : !tt.ptr<f32>
  // CHECK-NEXT: tt.atomic_poll acquire, gpu, %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<i32>>, tensor<64xi32> -> tensor<64xi1>
  %ready = tt.atomic_poll acquire, gpu, %I, %i : tensor<64x!tt.ptr<i32>>, tensor<64xi32> -> tensor<64xi1>
  tt.return
}

// CHECK-LABEL: tt.func @compute(
tt.func @compute(%x: tensor<64xf32>, %y: tensor<64xf32>, %i: tensor<64xi32>, %a: tensor<32x32xf32>, %b: tensor<32x32xf32>) {
  %acc = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %iacc = arith.constant dense<0> : tensor<32x32xi32>
  // CHECK: tt.bitcast %{{.*}} : tensor<64xf32> -> tensor<64xi32>
  // CHECK-NEXT: tt.fp_to_fp %{{.*}}, rounding = rtz : tensor<64xf32> -> tensor<64xf8E5M2>
  // CHECK-NEXT: tt.fp_to_fp %{{.*}} : tensor<64xf8E5M2> -> tensor<64xf32>
  // CHECK-NEXT: tt.precise_sqrt %{{.*}} : tensor<64xf32>
  // CHECK-NEXT: tt.precise_divf %{{.*}}, %{{.*}} : tensor<64xf32>
  // CHECK-NEXT: tt.approx_divf %{{.*}}, %{{.*}} : tensor<64xf32>
  // CHECK-NEXT: tt.mulhiui %{{.*}}, %{{.*}} : tensor<64xi32>
  // CHECK-NEXT: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<64xf32>
  // CHECK-NEXT: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = none : tensor<64xf32>
  %bits = tt.bitcast %x : tensor<64xf32> -> tensor<64xi32>
  %f8 = tt.fp_to_fp %x, rounding = rtz : tensor<64xf32> -> tensor<64xf8E5M2>
  %f32 = tt.fp_to_fp %f8 : tensor<64xf8E5M2> -> tensor<64xf32>
  %sq = tt.precise_sqrt %x : tensor<64xf32>
  %dv = tt.precise_divf %x, %y : tensor<64xf32>
  %ap = tt.approx_divf %x, %y : tensor<64xf32>
  %hi = tt.mulhiui %i, %i : tensor<64xi32>
  %c1 = tt.clampf %x, %y, %sq, propagateNan = all : tensor<64xf32>
  %c2 = tt.clampf %x, %y, %sq, propagateNan = none : tensor<64xf32>
  // CHECK-NEXT: tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK-NEXT: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<64xf32> -> tensor<64xf32>
  // CHECK-NEXT: tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %{{.*}} : tensor<64xf32> -> tensor<64xf32>, tensor<64xf32>
  %pw = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %asm = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<64xf32> -> tensor<64xf32>
  %two:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64xf32> -> tensor<64xf32>, tensor<64xf32>
  // CHECK-NEXT: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = bf16x6 {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  %d1 = tt.dot %a, %b, %acc : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  %d2 = tt.dot %a, %b, %d1, inputPrecision = tf32x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  %d3 = tt.dot %a, %b, %d2, inputPrecision = bf16x6 {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: %{{.*}} = "tt.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: tt.reduce.return %{{.*}} : f32
  // CHECK-NEXT: }) : (tensor<64xf32>) -> f32
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %add = arith.addf %l, %r : f32
    tt.reduce.return %add : f32
  }) : (tensor<64xf32>) -> f32
  // CHECK-NEXT: %{{.*}}, %{{.*}} = "tt.scan"(%{{.*}}, %{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // CHECK: tt.scan.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK-NEXT: }) : (tensor<64xf32>, tensor<64xi32>) -> (tensor<64xf32>, tensor<64xi32>)
  %cum:2 = "tt.scan"(%x, %i) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a0: f32, %i0: i32, %a1: f32, %i1: i32):
    %fa = arith.addf %a0, %a1 : f32
    %ia = arith.addi %i0, %i1 : i32
    tt.scan.return %fa, %ia : f32, i32
  }) : (tensor<64xf32>, tensor<64xi32>) -> (tensor<64xf32>, tensor<64xi32>)
  // CHECK-NEXT: "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 1 : i32}> ({
  // CHECK: tt.map_elementwise.return %{{.*}} : f32
  // CHECK-NEXT: }) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %mapped = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
  ^bb0(%p: f32, %q: f32):
    %pq = arith.mulf %p, %q : f32
    tt.map_elementwise.return %pq : f32
  }) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  tt.return
}

// CHECK-LABEL: tt.func @mx_dot(
tt.func @mx_dot(%a: tensor<64x32xi8>, %sa: tensor<64x2xi8>, %b: tensor<32x64xi8>, %sb: tensor<64x2xi8>, %bf: tensor<64x64xbf16>, %c: tensor<64x64xf32>) {
  // CHECK-NEXT: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<64x32xi8>, tensor<64x2xi8> * tensor<32x64xi8>, tensor<64x2xi8> -> tensor<64x64xf32>
  // CHECK-NEXT: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<64x32xi8>, tensor<64x2xi8> * tensor<64x64xbf16> -> tensor<64x64xf32>
  %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<64x32xi8>, tensor<64x2xi8> * tensor<32x64xi8>, tensor<64x2xi8> -> tensor<64x64xf32>
  %e = tt.dot_scaled %a scale %sa, %bf, %d lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<64x32xi8>, tensor<64x2xi8> * tensor<64x64xbf16> -> tensor<64x64xf32>
  tt.return
}

// CHECK-LABEL: tt.func @descriptors(
tt.func @descriptors(%X: !tt.ptr<f32>, %I: !tt.ptr<i32>, %arg: !tt.tensordesc<16x32xf32>, %M: i32, %N: i32, %rows: tensor<8xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s = arith.extsi %N : i32 to i64
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f32>, <16x32xf32>
  // CHECK-NEXT: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {padding = 2 : i32} : <f32>, <1x32xf32>
  // CHECK-NEXT: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <i32>, <16x32xsi32>
  %d = tt.make_tensor_descriptor %X, [%M, %N], [%s, %c1] : <f32>, <16x32xf32>
  %r = tt.make_tensor_descriptor %X, [%M, %N], [%s, %c1] {padding = 2 : i32} : <f32>, <1x32xf32>
  %i = tt.make_tensor_descriptor %I, [%M, %N], [%s, %c1] : !tt.ptr<i32>, !tt.tensordesc<16x32xsi32>
  // CHECK-NEXT: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  // CHECK-NEXT: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  // CHECK-NEXT: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<16x32xf32>, tensor<16x32xf32>
  // CHECK-NEXT: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<16x32xf32>, tensor<16x32xf32>
  // CHECK-NEXT: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<16x32xsi32> -> tensor<16x32xi32>
  // CHECK-NEXT: tt.descriptor_reduce max, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<16x32xsi32>, tensor<16x32xi32>
  %x = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  %y = tt.descriptor_load %arg[%c0, %c0] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : !tt.tensordesc<16x32xf32> -> tensor<16x32xf32>
  tt.descriptor_store %d[%c0, %c0], %y : !tt.tensordesc<16x32xf32>, tensor<16x32xf32>
  tt.descriptor_reduce add, %arg[%c0, %c0], %x : !tt.tensordesc<16x32xf32>, tensor<16x32xf32>
  %ix = tt.descriptor_load %i[%c0, %c0] : !tt.tensordesc<16x32xsi32> -> tensor<16x32xi32>
  tt.descriptor_reduce max, %i[%c0, %c0], %ix : !tt.tensordesc<16x32xsi32>, tensor<16x32xi32>
  // CHECK-NEXT: tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<1x32xf32>, tensor<8xi32>, i32) -> tensor<8x32xf32>
  // CHECK-NEXT: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<1x32xf32>, tensor<8xi32>, i32, tensor<8x32xf32>
  %g = tt.descriptor_gather %r[%rows, %c0] : (!tt.tensordesc<1x32xf32>, tensor<8xi32>, i32) -> tensor<8x32xf32>
  tt.descriptor_scatter %r[%rows, %c0], %g : !tt.tensordesc<1x32xf32>, tensor<8xi32>, i32, tensor<8x32xf32>
  tt.return
}

// CHECK-LABEL: tt.func public @device_functions(
tt.func public @device_functions(%X: !tt.ptr<f32>) attributes {noinline = false} {
  %x = tt.load %X : !tt.ptr<f32>
  // CHECK: %{{.*}}, %{{.*}} = tt.call @pair(%{{.*}}, %{{.*}}) : (f32, f32) -> (f32, f32)
  // CHECK-NEXT: tt.call @sink(%{{.*}}, %{{.*}}) : (!tt.ptr<f32>, f32) -> ()
  %p:2 = tt.call @pair(%x, %x) : (f32, f32) -> (f32, f32)
  tt.call @sink(%X, %p#0) : (!tt.ptr<f32>, f32) -> ()
  tt.return
}
// CHECK: tt.func private @pair(%{{.*}}: f32, %{{.*}}: f32) -> (f32, f32) attributes {noinline = true} {
// CHECK-NEXT: tt.return %{{.*}}, %{{.*}} : f32, f32
tt.func private @pair(%a: f32, %b: f32) -> (f32, f32) attributes {noinline = true} {
  tt.return %a, %b : f32, f32
}
tt.func private @sink(%p: !tt.ptr<f32>, %v: f32) attributes {noinline = true} {
  tt.store %p, %v : !tt.ptr<f32>
  tt.return
}

// CHECK-LABEL: tt.func @debug_and_gpu_only(
tt.func @debug_and_gpu_only(%x: tensor<64xf32>, %i: tensor<64xi32>, %c: i1) {
  %m = arith.cmpf oeq, %x, %x : tensor<64xf32>
  // CHECK: tt.print " values: " {hex = false, isSigned = array<i32: 0, 1>} : %{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xi32>
  // CHECK-NEXT: tt.print " here" {hex = false, isSigned = array<i32>}
  // CHECK-NEXT: tt.assert %{{.*}}, "no NaN" : tensor<64xi1>
  tt.print " values: " {hex = false, isSigned = array<i32: 0, 1>} : %x, %i : tensor<64xf32>, tensor<64xi32>
  tt.print " here" {hex = false, isSigned = array<i32>}
  tt.assert %m, "no NaN" : tensor<64xi1>
  // CHECK-NEXT: llvm.intr.assume %{{.*}} : i1
  // CHECK-NEXT: ttg.barrier all
  // CHECK-NEXT: ttg.barrier local|global_read
  // CHECK-NEXT: ttg.barrier none
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.grid_dependency_wait
  // CHECK-NEXT: tt.grid_dependency_launch_dependents
  llvm.intr.assume %c : i1
  ttg.barrier all
  ttg.barrier global_read|local
  ttg.barrier none
  gpu.barrier
  tt.grid_dependency_wait
  tt.grid_dependency_launch_dependents
  tt.return
}
