// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="h=nope"}' 2>&1 | filecheck %s --check-prefix=OUTPUT
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="nope=hn"}' 2>&1 | filecheck %s --check-prefix=INPUT
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="x=hn"}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="h=hn,x=hn"}' 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="h"}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not tosa-state-opt %s -p 'make-stateful' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="h=hn" entry=helper}' 2>&1 | filecheck %s --check-prefix=CALLED
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="h=hn" entry=nope}' 2>&1 | filecheck %s --check-prefix=ENTRY
// RUN: not tosa-state-opt %s -p 'make-stateful{pairs="h=hn"},make-stateful{pairs="h=hn"}' 2>&1 | filecheck %s --check-prefix=AGAIN

// OUTPUT: make-stateful-invalid.mlir:[[# @LINE + 11]]:1: error: no output named 'nope' (outputs: result0 (%y), result1 (%hn))
// OUTPUT-NEXT: note: in pass 'make-stateful'
// INPUT: error: no input named 'nope' (inputs: x, h)
// TYPE: error: make-stateful cannot join input 0 of type 'tensor<2xi32>' with output 1 of type 'tensor<2xf32>': a variable has one type
// TWICE: error: make-stateful pairs an output with two inputs
// SYNTAX: error: bad pair 'h' in make-stateful's pairs: expected INPUT=OUTPUT (e.g. pairs="h0=h1,c0=c1")
// EMPTY: error: make-stateful needs pairs="INPUT=OUTPUT,..."
// CALLED: make-stateful-invalid.mlir:[[# @LINE + 7]]:3: error: make-stateful cannot change the signature of 'helper': it is called here
// ENTRY: error: no function named 'nope' in the module (functions: main, helper)
// AGAIN: error: no input named 'h' (inputs: x)

func.func @main(%x: tensor<2xi32>, %h: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %hn = tosa.tanh %h : (tensor<2xf32>) -> tensor<2xf32>
  %y = tosa.cast %x : (tensor<2xi32>) -> tensor<2xf32>
  %z = func.call @helper(%x, %h) : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %y, %hn : tensor<2xf32>, tensor<2xf32>
}
func.func private @helper(%x: tensor<2xi32>, %h: tensor<2xf32>) -> (tensor<2xf32>) {
  %hn = tosa.tanh %h : (tensor<2xf32>) -> tensor<2xf32>
  func.return %hn : tensor<2xf32>
}
