// `tnpu ttir` runs Triton's frontend (no GPU) and prints TTIR that tnpu-opt
// imports; a case directory brings its own signature and target.

// RUN: tnpu ttir %S/Inputs/add.py:add_kernel --signature 'x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32,BLOCK=constexpr' --constexpr BLOCK=64 | tnpu-opt | filecheck %s
// CHECK: tt.func public @add_kernel(%{{.*}}: !tt.ptr<f32>, %{{.*}}: !tt.ptr<f32>, %{{.*}}: !tt.ptr<f32>, %{{.*}}: i32)
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>>

// RUN: tnpu ttir %corpus/inductor/adam_step__triton_poi_fused_add_copy__div_fma_mul_sqrt_0 | tnpu-opt | filecheck %s --check-prefix=CASE
// CASE: tt.func public @triton_poi_fused_add_copy__div_fma_mul_sqrt_0(%{{.*}}: !tt.ptr<f32> {tt.divisibility = 16 : i32}

// Mistakes on the command line get one line too.
// RUN: not tnpu ttir %S/Inputs/add.py:add_kernel 2>&1 | filecheck %s --check-prefix=NOSIG
// NOSIG: tnpu ttir: --signature is required for FILE.py:FUNCTION
// RUN: not tnpu ttir %S/Inputs/add.py:missing --signature 'n=i32' 2>&1 | filecheck %s --check-prefix=NOFN
// NOFN: tnpu ttir: {{.*}}add.py: no function 'missing'
// RUN: not tnpu ttir %S/Inputs/add.py:add_kernel --signature 'x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32,BLOCK=constexpr' 2>&1 | filecheck %s --check-prefix=NOCONST
// NOCONST: tnpu ttir: no --constexpr value for BLOCK
