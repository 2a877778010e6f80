// Large constants as upstream MLIR's dense_resource blobs, read back exactly; iree-opt
// (upstream MLIR) parses them and prints the same blobs.
// RUN: tosa-state-opt %s --dense-resources-if-larger=4 | filecheck %s
// RUN: tosa-state-opt %s --dense-resources-if-larger=4 | tosa-state-opt --dense-resources-if-larger=4 | filecheck %s
// RUN: tosa-state-opt %s --dense-resources-if-larger=4 | tosa-state-opt | filecheck %s --check-prefix=DENSE
// RUN: tosa-state-opt %s --dense-resources-if-larger=4 --tosa-spelling=upstream | iree-opt | filecheck %s --check-prefix=IREE
// RUN: tosa-state-opt %s --dense-resources-if-larger=4 --tosa-spelling=upstream | iree-opt --mlir-print-op-generic | tosa-state-opt | filecheck %s --check-prefix=DENSE
// As mlir-opt's --mlir-elide-elementsattrs-if-larger (splats are never elided):
// RUN: tosa-state-opt %s --elide-large-constants=4 | filecheck %s --check-prefix=ELIDE
// RUN: tosa-state-opt %s --mlir-elide-elementsattrs-if-larger=4 | filecheck %s --check-prefix=ELIDE

// CHECK:      tosa.variable @w = dense_resource<w> : tensor<6xf32>
// CHECK-NEXT: tosa.variable @small = dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: tosa.variable @splat = dense<7> : tensor<200xi32>
// CHECK:      "tosa.const"() <{values = dense_resource<const> : tensor<2x3xf16>}>
// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       w: "0x040000000000803F00000080000000400000C07F0000807F000080FF",
// CHECK-NEXT:       const: "0x02000000003C0040004200440045FFFF"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

// DENSE:      tosa.variable @w = dense<[1.000000e+00, -0.000000e+00, 2.000000e+00, 0x7fc00000, 0x7f800000, 0xff800000]> : tensor<6xf32>
// DENSE:      dense<[{{\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, {{0x[0-9a-f]+}}]]> : tensor<2x3xf16>

// IREE:      tosa.variable @w = dense_resource<w> : tensor<6xf32>
// IREE:      tosa.const values(dense_resource<const> : tensor<2x3xf16>)
// IREE:      w: "0x040000000000803F00000080000000400000C07F0000807F000080FF",
// IREE-NEXT: const: "0x02000000003C0040004200440045FFFF"

// ELIDE:      tosa.variable @w = dense_resource<__elided__> : tensor<6xf32>
// ELIDE-NEXT: tosa.variable @small = dense<[1, 2, 3, 4]> : tensor<4xi8>
// ELIDE-NEXT: tosa.variable @splat = dense<7> : tensor<200xi32>
// ELIDE:      values = dense_resource<__elided__> : tensor<2x3xf16>
// ELIDE-NOT:  dialect_resources

tosa.variable @w = dense<[1.0, -0.0, 2.0, 0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<6xf32>
tosa.variable @small = dense<[1, 2, 3, 4]> : tensor<4xi8>
tosa.variable @splat = dense<7> : tensor<200xi32>
func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf16>) {
  %a = tosa.variable.read @w : tensor<6xf32>
  %c = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 0xFFFF]]> : tensor<2x3xf16>}> : () -> tensor<2x3xf16>
  tosa.variable.write @w, %x : tensor<6xf32>
  return %a, %c : tensor<6xf32>, tensor<2x3xf16>
}
