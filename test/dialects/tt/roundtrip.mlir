// RUN: tnpu-opt %s | tnpu-opt | filecheck %s
// RUN: tnpu-opt %s --print-op-generic | tnpu-opt | filecheck %s

// The syntax of every tt op as Triton 3.9 prints it survives a round trip.

// CHECK-LABEL: tt.func public @ops(
tt.func public @ops(%X: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
  %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
  // CHECK: tt.get_program_id x : i32
  %pid = tt.get_program_id x : i32
  // CHECK: tt.get_num_programs z : i32
  %np = tt.get_num_programs z : i32
  // CHECK: tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  // CHECK: tt.splat %{{.*}} : i32 -> tensor<256xi32>
  %s = tt.splat %n : i32 -> tensor<256xi32>
  // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
  %m = arith.cmpi slt, %r, %s : tensor<256xi32>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %p0 = tt.splat %X : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %p = tt.addptr %p0, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>, isVolatile = true} : tensor<256x!tt.ptr<f32>>
  %x = tt.load %p, %m, %cst {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>, isVolatile = true} : tensor<256x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}} evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
  %y = tt.load %p, %m evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  tt.store %p, %x, %m : tensor<256x!tt.ptr<f32>>
  // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  %a = tt.atomic_rmw fadd, acq_rel, gpu, %p, %x, %m : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  // CHECK: tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %c = tt.atomic_cas acq_rel, gpu, %p, %x, %y : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  // CHECK: tt.reshape %{{.*}} : tensor<256xf32> -> tensor<16x16xf32>
  %sq = tt.reshape %x : tensor<256xf32> -> tensor<16x16xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  %t = tt.trans %sq {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %d = tt.dot %sq, %t, %acc, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %d2 = tt.dot %sq, %t, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}} : f32
  %sum = "tt.reduce"(%d) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %add = arith.addf %l, %rr : f32
    tt.reduce.return %add : f32
  }) : (tensor<16x16xf32>) -> tensor<16xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<256xf32> -> tensor<512xf32>
  %g = tt.cat %x, %y : tensor<256xf32> -> tensor<512xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<256xf32> -> tensor<256x2xf32>
  %j = tt.join %x, %y : tensor<256xf32> -> tensor<256x2xf32>
  // CHECK: tt.split %{{.*}} : tensor<256x2xf32> -> tensor<256xf32>
  %lo, %hi = tt.split %j : tensor<256x2xf32> -> tensor<256xf32>
  // CHECK: tt.histogram %{{.*}} : tensor<256xi32> -> tensor<16xi32>
  %h = tt.histogram %r : tensor<256xi32> -> tensor<16xi32>
  // CHECK: tt.print " hi: " {hex = false, isSigned = array<i32: 0>} : %{{.*}} : tensor<256xf32>
  tt.print " hi: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<256xf32>
  // CHECK: tt.assert %{{.*}}, "msg" : tensor<256xi1>
  tt.assert %m, "msg" : tensor<256xi1>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<256xf32>
  %cl = tt.clampf %x, %cst, %y, propagateNan = all : tensor<256xf32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<256xf32>, tensor<256xi32>) -> tensor<256xf32>
  %ga = tt.gather %x[%r] {axis = 0 : i32} : (tensor<256xf32>, tensor<256xi32>) -> tensor<256xf32>
  // CHECK: tt.bitcast %{{.*}} : tensor<256xf32> -> tensor<256xi32>
  %xi = tt.bitcast %x : tensor<256xf32> -> tensor<256xi32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<256xi32>
  %hi32 = tt.mulhiui %xi, %xi : tensor<256xi32>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtz : tensor<256xf32> -> tensor<256xf8E5M2>
  %f8 = tt.fp_to_fp %x, rounding = rtz : tensor<256xf32> -> tensor<256xf8E5M2>
  // CHECK: tt.precise_sqrt %{{.*}} : tensor<256xf32>
  %sqrt = tt.precise_sqrt %x : tensor<256xf32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<256xf32>) -> tensor<256xf32>
  %e = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<256xf32>) -> tensor<256xf32>
  // CHECK: ttg.barrier all
  ttg.barrier all
  // CHECK: ttg.barrier local|global_read
  ttg.barrier local|global_read
  // CHECK: gpu.barrier
  gpu.barrier
  %b = arith.cmpi sge, %pid, %n : i32
  // CHECK: llvm.intr.assume %{{.*}} : i1
  llvm.intr.assume %b : i1
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<256xi1>, tensor<256xf32>
  %sel = arith.select %m, %x, %y : tensor<256xi1>, tensor<256xf32>
  // CHECK: arith.sitofp %{{.*}} : tensor<256xi32> to tensor<256xf32>
  %fl = arith.sitofp %r : tensor<256xi32> to tensor<256xf32>
  // CHECK: tt.return
  tt.return
}
