// RUN: tosa-state-opt %s -p 'specialize-input-shapes{shapes="x=2x4,arg1=3"}' | filecheck %s
// RUN: tosa-state-opt %s -p 'specialize-input-shapes{shapes="x=2x4,arg1=3"},convert-openvino-to-tosa' | filecheck %s --check-prefix=TOSA

// The entry function's inputs get the static shapes asked for (by name or arg<i>); uses of
// the arguments see the new types, the rest of the module is untouched.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %{{.*}}: tensor<2x4xf32> {openvino.name = "x"}, %{{.*}}: tensor<3xi32>) -> tensor<?x4xf32>
// CHECK-NEXT:    openvino.relu %{{.*}} : (tensor<2x4xf32>) -> tensor<?x4xf32>
// CHECK-LABEL: func.func private @other(
// CHECK-SAME:      tensor<?x4xf32>

// With static inputs the conversion to TOSA goes through, and its result types are static.
// TOSA-LABEL: func.func @main(
// TOSA-SAME:      -> tensor<2x4xf32>
// TOSA:         tosa.clamp %{{.*}} {{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @main(%x: tensor<?x4xf32> {openvino.name = "x"}, %k: tensor<?xi32>) -> tensor<?x4xf32> {
  %0 = openvino.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
func.func private @other(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  func.return %x : tensor<?x4xf32>
}
