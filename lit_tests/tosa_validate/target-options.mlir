// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles=pro_gpu}' 2>&1 | filecheck %s --check-prefix=PROFILE
// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles=pro_fp extensions=int16}' 2>&1 | filecheck %s --check-prefix=NEEDS
// RUN: not tosa-state-opt %s -p 'tosa-validate{level=16k}' 2>&1 | filecheck %s --check-prefix=LEVEL

// PROFILE: error: unknown TOSA profile 'pro_gpu' (profiles: pro_int, pro_fp)
// NEEDS: error: extension 'int16' extends profile 'pro_int', which the target does not have
// LEVEL: error: unknown TOSA level '16k' (levels: 8k, none)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
