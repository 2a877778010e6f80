// mlir-opt's pipeline syntax: an anchored pipeline with functions nested in func.func(...),
// through --pass-pipeline or -p; and xDSL's short form. All three do the same.
// RUN: tosa-state-opt %s --pass-pipeline='builtin.module(func.func(cse), convert-tosa-variables-to-memref{elide-copies=false})' | filecheck %s
// RUN: tosa-state-opt %s -p 'builtin.module(func.func(cse),convert-tosa-variables-to-memref{elide-copies=false})' | filecheck %s
// RUN: tosa-state-opt %s -p 'cse,convert-tosa-variables-to-memref{elide_copies=false}' | filecheck %s
// RUN: tosa-state-opt %s -p 'builtin.module(any(cse))' | filecheck %s --check-prefix=ANY

// Bad pipelines: one line naming the problem, with the options in mlir-opt's spelling.
// RUN: not tosa-state-opt %s -p 'convert-tosa-variables-to-memref{elide-copy=false}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: error: pass 'convert-tosa-variables-to-memref' has no option 'elide-copy' (its options: elide-copies=<bool> (default: true))
// RUN: not tosa-state-opt %s -p 'convert-tosa-variables-to-memref{elide-copies=3}' 2>&1 | filecheck %s --check-prefix=VALUE
// VALUE: error: bad option value for pass 'convert-tosa-variables-to-memref' in 'convert-tosa-variables-to-memref{elide-copies=3}': {{.*}} (its options: elide-copies=<bool> (default: true))
// RUN: not tosa-state-opt %s -p 'builtin.module(func.func(tosa-to-mlprogram))' 2>&1 | filecheck %s --check-prefix=NEST
// NEST: error: can't run pass 'tosa-to-mlprogram' restricted to 'builtin.module' nested in 'func.func(...)'
// RUN: not tosa-state-opt %s -p 'builtin.module(gpu.module(cse))' 2>&1 | filecheck %s --check-prefix=ANCHOR
// ANCHOR: error: bad pipeline 'builtin.module(gpu.module(cse))': cannot nest on 'gpu.module'
// RUN: not tosa-state-opt %s -p 'builtin.module(cse' 2>&1 | filecheck %s --check-prefix=UNBALANCED
// UNBALANCED: error: bad pipeline 'builtin.module(cse': unbalanced braces or quotes
// RUN: not tosa-state-opt %s --pass-pipeline='builtin.module(nope)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown pass 'nope' in pipeline 'builtin.module(nope)'; available passes: canonicalize, convert-openvino-to-tosa,

// --version and --help (each pass with its options, typed, with their defaults).
// RUN: tosa-state-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: tosa-state-opt (tosa-state {{[0-9.]+}}, xDSL 0.74.{{[0-9]+}})
// RUN: tosa-state-opt --help | filecheck %s --check-prefix=HELP
// HELP: passes (-p / --pass-pipeline
// HELP: convert-tosa-variables-to-memref Lowers TOSA variables
// HELP-NEXT: --elide-copies=<bool> (default: true)
// HELP: specialize-input-shapes
// HELP-NEXT: --shapes=<str> (default: "")
// HELP-NEXT: --entry=<str> (optional)

tosa.variable @acc = dense<0.0> : tensor<3xf32>

// cse ran on the function: one of the two equal adds is left; then every read is copied.
// CHECK-LABEL: func.func @step
// CHECK:         memref.alloc()
// CHECK:         tosa.add
// CHECK-NOT:     tosa.add
// CHECK:         func.return
// ANY-LABEL: func.func @step
// ANY:         tosa.add
// ANY-NOT:     tosa.add
// ANY:         func.return
func.func @step(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = tosa.variable.read @acc : tensor<3xf32>
  %1 = tosa.add %0, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = tosa.add %0, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  tosa.variable.write @acc, %1 : tensor<3xf32>
  return %1, %2 : tensor<3xf32>, tensor<3xf32>
}
