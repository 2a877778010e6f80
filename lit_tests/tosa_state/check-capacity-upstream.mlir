// RUN: not tosa-state-opt %s --tosa-spelling=upstream 2>&1 | filecheck %s
// RUN: tosa-state-opt %s | filecheck %s --check-prefix=DOTTED
// RUN: not tosa-state-opt %s -p tosa-validate 2>&1 | filecheck %s --check-prefix=TARGET

// No upstream tool parses tosa_state.check_capacity: the upstream spelling refuses it,
// saying what it is; our own spelling prints it; the target check names it (TOSA has no
// operator that fails a call: tosa-host-capacity-checks leaves a guard on static rows to
// the host).

// CHECK: check-capacity-upstream.mlir:[[# @LINE + 4]]:3: error: 'tosa_state.check_capacity' op has no upstream MLIR spelling: it is a static state's guard (tosa-static-state), which only tosa-state's interpreter runs
// TARGET: check-capacity-upstream.mlir:[[# @LINE + 3]]:3: error: 'tosa_state.check_capacity' op is not a TOSA 1.0 operator: a static state's capacity guard (tosa-static-state) on rows known at run time, which TOSA cannot hold: give the model static input shapes (the host then checks it: tosa-host-capacity-checks) [operator]
// DOTTED: tosa_state.check_capacity %c, %r {variable = "kv", capacity = 8 : i64} : tensor<1xi32>, !tosa.shape<1>
func.func @upstream(%c: tensor<1xi32>, %r: !tosa.shape<1>) {
  tosa_state.check_capacity %c, %r {variable = "kv", capacity = 8 : i64} : tensor<1xi32>, !tosa.shape<1>
  func.return
}
