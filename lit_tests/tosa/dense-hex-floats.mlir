// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --tosa-spelling=upstream | tosa-state-opt | filecheck %s

// A hexadecimal literal in a float `dense<...>` is the element's bit pattern, as in MLIR:
// that is how NaN and the infinities print, so they must parse back bit-exactly (NaN
// payloads included), in lists and splats, for every float width.

// CHECK-LABEL: func.func @special_values(
// CHECK-NEXT:    dense<[0x7fc00000, 0x7f800000, 0xff800000, 1.500000e+00]> : tensor<4xf32>
// CHECK-NEXT:    dense<0xff800000> : tensor<2x2xf32>
// CHECK-NEXT:    dense<[0x7fc00001, -0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    dense<[0x7e00, 0xfc00, 2.000000e+00]> : tensor<3xf16>
// CHECK-NEXT:    dense<[0x7fc0, 1.500000e+00]> : tensor<2xbf16>
// CHECK-NEXT:    dense<0x7ff0000000000000> : tensor<f64>
func.func @special_values() {
  %0 = "tosa.const"() <{values = dense<[0x7FC00000, 0x7F800000, 0xFF800000, 1.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %1 = "tosa.const"() <{values = dense<0xFF800000> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %2 = "tosa.const"() <{values = dense<[0x7FC00001, 0x80000000]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %3 = "tosa.const"() <{values = dense<[0x7E00, 0xFC00, 2.0]> : tensor<3xf16>}> : () -> tensor<3xf16>
  %4 = "tosa.const"() <{values = dense<[0x7FC0, 1.5]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %5 = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<f64>}> : () -> tensor<f64>
  return
}

// Hexadecimal integers stay integers.
// CHECK-LABEL: func.func @integers(
// CHECK-NEXT:    dense<[255, 16]> : tensor<2xi32>
func.func @integers() {
  %0 = "tosa.const"() <{values = dense<[0xFF, 0x10]> : tensor<2xi32>}> : () -> tensor<2xi32>
  return
}
