// RUN: not tosa-state-opt %s --split-input-file 2>&1 | filecheck %s

// Hexadecimal float literals that are not a bit pattern of the element type (upstream
// MLIR's wording).

func.func @negative() {
  // CHECK: dense-hex-floats-invalid.mlir:[[# @LINE + 1]]:47: error: hexadecimal float literal should not have a leading minus
  %0 = "tosa.const"() <{values = dense<[1.0, -0x7FC00000]> : tensor<2xf32>}> : () -> tensor<2xf32>
  return
}
// -----
func.func @too_wide() {
  // CHECK: dense-hex-floats-invalid.mlir:[[# @LINE + 1]]:40: error: hexadecimal float constant out of range for type
  %0 = "tosa.const"() <{values = dense<0x7FC00000> : tensor<2xf16>}> : () -> tensor<2xf16>
  return
}
