// RUN: not tosa-state-opt %s -p 'specialize-input-shapes{shapes="x=2x5"}' 2>&1 | filecheck %s --check-prefix=STATIC
// RUN: not tosa-state-opt %s -p 'specialize-input-shapes{shapes="x=2"}' 2>&1 | filecheck %s --check-prefix=RANK
// RUN: not tosa-state-opt %s -p 'specialize-input-shapes{shapes="y=2x4"}' 2>&1 | filecheck %s --check-prefix=NAME
// RUN: not tosa-state-opt %s -p 'specialize-input-shapes{shapes="x:2x4"}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not tosa-state-opt %s -p 'specialize-input-shapes{shapes="x=2x4" entry=nope}' 2>&1 | filecheck %s --check-prefix=ENTRY

// STATIC: specialize-input-shapes-invalid.mlir:[[# @LINE + 6]]:1: error: input 'x' cannot take the shape 2x5: it is declared ?x4 (same rank, and only '?' dimensions may change)
// STATIC-NEXT: note: in pass 'specialize-input-shapes'
// RANK: error: input 'x' cannot take the shape 2: it is declared ?x4
// NAME: error: no input named 'y' to reshape (inputs: x)
// SYNTAX: error: bad input shape 'x:2x4': expected NAME=D0xD1x... (e.g. x=1x8)
// ENTRY: error: no function named 'nope' in the module (functions: main)
func.func @main(%x: tensor<?x4xf32> {openvino.name = "x"}) -> tensor<?x4xf32> {
  func.return %x : tensor<?x4xf32>
}
