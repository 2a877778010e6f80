// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// openvino.constant in custom form, and back from the generic form (where NaN and Inf print as
// hexadecimal float literals: bit patterns, see tosa/dense-hex-floats.mlir).

// Non-finite floats print as hex so that they parse back bit-exactly.
// CHECK-LABEL: func.func @special_constants(
func.func @special_constants() -> (tensor<3xf32>, tensor<2xbf16>, tensor<2xi1>, tensor<0x4xf16>) {
  // CHECK-NEXT: openvino.constant dense<"0x0000C07F0000807F000080BF"> : tensor<3xf32>
  %0 = openvino.constant dense<"0x0000C07F0000807F000080BF"> : tensor<3xf32>
  // CHECK-NEXT: openvino.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
  %1 = openvino.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  // CHECK-NEXT: openvino.constant dense<[true, false]> : tensor<2xi1>
  %2 = openvino.constant dense<[true, false]> : tensor<2xi1>
  // CHECK-NEXT: openvino.constant dense<> : tensor<0x4xf16>
  %3 = openvino.constant dense<> : tensor<0x4xf16>
  func.return %0, %1, %2, %3 : tensor<3xf32>, tensor<2xbf16>, tensor<2xi1>, tensor<0x4xf16>
}
