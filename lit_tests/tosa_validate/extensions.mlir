// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles="pro_int,pro_fp" extensions=""}' 2>&1 | filecheck %s
// RUN: tosa-state-opt %s -p 'tosa-validate{profiles="pro_int,pro_fp" extensions="controlflow,doubleround,int16"}' | filecheck %s --check-prefix=OK

// Control flow needs `controlflow`; a double-rounding rescale `doubleround`; an i16 table
// `int16` (its base, i8, is PRO-INT).
// OK: tosa.cond_if
func.func @main(%c: tensor<i1>, %x: tensor<4xi32>, %t: tensor<4xi16>, %table: tensor<513xi16>) -> (tensor<4xi32>, tensor<4xi8>, tensor<4xi32>) {
  // CHECK: extensions.mlir:[[# @LINE + 1]]:3: error: 'tosa.cond_if' op requires the 'controlflow' extension [extension]
  %r = "tosa.cond_if"(%c, %x) ({
  ^bb0(%a: tensor<4xi32>):
    tosa.yield %a : tensor<4xi32>
  }, {
  ^bb0(%b: tensor<4xi32>):
    tosa.yield %b : tensor<4xi32>
  }) : (tensor<i1>, tensor<4xi32>) -> tensor<4xi32>
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: extensions.mlir:[[# @LINE + 1]]:3: error: 'tosa.rescale' op requires the 'doubleround' extension [extension]
  %q = tosa.rescale %x, %m, %s, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  // CHECK: extensions.mlir:[[# @LINE + 1]]:3: error: 'tosa.table' op with types (i16, i16, i32) requires any of [int16, pro_int] profiles/extensions to be specified in the target [profile]
  %u = tosa.table %t, %table : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  return %r, %q, %u : tensor<4xi32>, tensor<4xi8>, tensor<4xi32>
}
// CHECK: error: 3 violation(s)
