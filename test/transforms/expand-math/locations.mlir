// RUN: tnpu-opt %s -p expand-math --print-debuginfo | filecheck %s

// Every op of an expansion, and of the expansions it uses in turn (expm1
// inside tanh), carries the location of the op it replaces.

// CHECK-LABEL: func.func @located(%x: f32 loc(unknown)) -> f32 {
// CHECK-NOT:     loc(unknown)
// CHECK:         %r = arith.select %{{.*}}, %x, %{{.*}} : f32 loc("tmp7"("kernel.py":3:9))
// CHECK-NEXT:    func.return %r : f32 loc(unknown)
func.func @located(%x: f32) -> f32 {
  %r = math.tanh %x : f32 loc(#tmp7)
  func.return %r : f32
}
#tmp7 = loc("tmp7"("kernel.py":3:9))
