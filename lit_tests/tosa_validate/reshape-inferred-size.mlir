// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles=pro_fp extensions=""}' 2>&1 | filecheck %s

// TOSA 1.0 has no inferred (-1) size in a reshape's shape (upstream's strict spec alignment
// says the same); `tosa-infer-shapes` writes the size itself where the result is static.
func.func @main(%x: tensor<2x8xf32>) -> (tensor<1x16xf32>, tensor<16x1xf32>) {
  %s = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: reshape-inferred-size.mlir:[[# @LINE + 1]]:3: error: 'tosa.reshape' op shape input contains inferable dimension (-1) which does not conform to the TOSA specification [spec]
  %a = tosa.reshape %x, %s : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
  %t = tosa.const_shape {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.reshape %x, %t : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<16x1xf32>
  return %a, %b : tensor<1x16xf32>, tensor<16x1xf32>
}
// CHECK: error: 1 violation(s)
