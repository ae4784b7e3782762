// RUN: tnpu-opt %s -p 'expand-math{native=sqrt,expm1,fma}' | filecheck %s

// What the target executes natively stays, also where an expansion uses
// it; f64 and fma are fine when native.

// CHECK-LABEL: func.func @native
// CHECK-NEXT:    %s = math.sqrt %x : f32
// CHECK-NOT:     math.tanh
// CHECK:         %{{.*}} = math.expm1 %{{.*}} : f32
// CHECK-NOT:     math.tanh
// CHECK:         %d = math.sqrt %z : f64
// CHECK-NEXT:    %f = math.fma %x, %x, %x : f32
func.func @native(%x: f32, %z: f64) -> (f32, f32, f64, f32) {
  %s = math.sqrt %x : f32
  %t = math.tanh %x : f32
  %d = math.sqrt %z : f64
  %f = math.fma %x, %x, %x : f32
  func.return %s, %t, %d, %f : f32, f32, f64, f32
}
