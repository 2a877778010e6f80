// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of `tosa.while_loop` and `tosa.scatter`, with upstream
// MLIR's wording.

// expected-error@+2 {{'tosa.while_loop' op require 'cond_graph' only have one result}}
func.func @cond_results(%x: tensor<i32>, %c: tensor<i1>) {
  %0 = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
    tosa.yield %c, %c : tensor<i1>, tensor<i1>
  } do {
  ^bb0(%a: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.while_loop' op 'cond_graph' result must be a size 1 tensor, got tensor<2xi1>}}
func.func @cond_size(%x: tensor<i32>, %c: tensor<2xi1>) {
  %0 = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
    tosa.yield %c : tensor<2xi1>
  } do {
  ^bb0(%a: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.while_loop' op 'cond_graph' result must be a boolean tensor, got tensor<i32>}}
func.func @cond_type(%x: tensor<i32>) {
  %0 = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
    tosa.yield %a : tensor<i32>
  } do {
  ^bb0(%a: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.while_loop' op require same element type for 'output_list' ('f32') and 'input_list' ('i32')}}
func.func @result_type(%x: tensor<i32>, %c: tensor<i1>) {
  %0 = "tosa.while_loop"(%x) ({
  ^bb0(%a: tensor<i32>):
    tosa.yield %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }) : (tensor<i32>) -> tensor<f32>
  return
}

// -----
// expected-error@+2 {{'tosa.while_loop' op require same number of values in 'body_graph' arguments (2) and 'input_list' (1)}}
func.func @body_arguments(%x: tensor<i32>, %c: tensor<i1>) {
  %0 = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.while_loop' op require same shapes for 'body_graph' results ('tensor<2xi32>') and 'input_list' ('tensor<i32>')}}
func.func @body_results(%x: tensor<i32>, %y: tensor<2xi32>, %c: tensor<i1>) {
  %0 = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<i32>):
    tosa.yield %y : tensor<2xi32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.scatter' op requires 'input' to have shape [2, 1, 3], got [2, 2, 3]}}
func.func @scatter_input(%v: tensor<2x5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x2x3xf32>) {
  %0 = tosa.scatter %v, %i, %u : (tensor<2x5x3xf32>, tensor<2x1xi32>, tensor<2x2x3xf32>) -> tensor<2x5x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.scatter' op requires dimensions K >= W, got K=1 and W=2}}
func.func @scatter_width(%v: tensor<2x1x3xf32>, %i: tensor<2x2xi32>, %u: tensor<2x2x3xf32>) {
  %0 = tosa.scatter %v, %i, %u : (tensor<2x1x3xf32>, tensor<2x2xi32>, tensor<2x2x3xf32>) -> tensor<2x1x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.scatter' op expect 'indices' element type to be one of i32, i64, got 'f32'}}
func.func @scatter_indices(%v: tensor<2x5x3xf32>, %i: tensor<2x1xf32>, %u: tensor<2x1x3xf32>) {
  %0 = tosa.scatter %v, %i, %u : (tensor<2x5x3xf32>, tensor<2x1xf32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
  return
}
