// RUN: not tosa-state-opt %s --tosa-spelling=upstream 2>&1 | filecheck %s
// RUN: tosa-state-opt %s | filecheck %s --check-prefix=DOTTED
// RUN: not tosa-state-opt %s -p tosa-validate 2>&1 | filecheck %s --check-prefix=TARGET

// No upstream tool parses tosa_state.check_capacity, and no pass lowers it: the upstream
// spelling refuses it, saying what it is; our own spelling prints it; the target check
// names it (TOSA has no form of it yet).

// CHECK: check-capacity-upstream.mlir:[[# @LINE + 4]]:3: error: 'tosa_state.check_capacity' op has no upstream MLIR spelling: it is a static state's guard (tosa-static-state), which only tosa-state's interpreter runs
// TARGET: check-capacity-upstream.mlir:[[# @LINE + 3]]:3: error: 'tosa_state.check_capacity' op is not a TOSA 1.0 operator: a static state's capacity guard (tosa-static-state), which has no TOSA form yet [operator]
// DOTTED: tosa_state.check_capacity %c, %r {variable = "kv", capacity = 8 : i64} : tensor<1xi32>, !tosa.shape<1>
func.func @upstream(%c: tensor<1xi32>, %r: !tosa.shape<1>) {
  tosa_state.check_capacity %c, %r {variable = "kv", capacity = 8 : i64} : tensor<1xi32>, !tosa.shape<1>
  func.return
}
