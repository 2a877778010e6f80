// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p 'tosa-static-state{capacity=8}'
// RUN: not tosa-state-opt %s --split-input-file -p 'tosa-static-state{capacity=8}' 2>&1 | filecheck %s --check-prefix=FAIL

// Each growing variable the pass cannot give a fixed capacity is refused, naming the
// variable and why, at the op in question.

// FAIL: static-state-invalid.mlir:[[# @LINE + 7]]:3: error: tosa-static-state cannot give 'k' a fixed capacity: the new rows come first (it grows at the front)
// FAIL-NEXT: note: in pass 'tosa-static-state'
tosa.variable @k : tensor<1x?xf32>
func.func @front(%new: tensor<1x1xf32>) {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: the new rows come first (it grows at the front)}}
  %all = tosa.concat %new, %past {axis = 1 : i32} : (tensor<1x1xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return
}

// -----

tosa.variable @k : tensor<1x?xf32>
func.func @three(%new: tensor<1x1xf32>) {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: it grows by a concat of 3 values (past, new expected)}}
  %all = tosa.concat %past, %new, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return
}

// -----

tosa.variable @k : tensor<1x?xf32>
func.func @not_its_value(%old: tensor<1x?xf32>, %new: tensor<1x1xf32>) {
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: the concat's first operand is not computed from its value}}
  %all = tosa.concat %old, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return
}

// -----

tosa.variable @k : tensor<1x?xf32>
func.func @too_many_rows(%new: tensor<1x9xf32>) {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: a call adds 9 rows, more than the capacity 8}}
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x9xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return
}

// -----

tosa.variable @k : tensor<1x?xf32>
func.func @twice(%new: tensor<1x1xf32>) {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: it is written more than once}}
  tosa.variable.write @k, %all : tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return
}

// -----

tosa.variable @k : tensor<1x?xf32>
func.func @in_a_branch(%c: tensor<i1>, %new: tensor<1x1xf32>) {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  tosa.cond_if %c : tensor<i1> -> () {
    // expected-note@+2 {{in pass 'tosa-static-state'}}
    // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: it is written inside a region, or by a concat in another block}}
    tosa.variable.write @k, %all : tensor<1x?xf32>
    tosa.yield
  } else {
    tosa.yield
  }
  func.return
}

// -----

// The init chosen instead of the variable must start empty along the growing axis.
tosa.variable @k : tensor<1x?xf32>
tosa.variable @k__initialized {tosa_state.init_flag_of = "k"} = dense<false> : tensor<i1>
func.func @init_not_empty(%init: tensor<1x2xf32>, %new: tensor<1x1xf32>) {
  %state = tosa.variable.read @k : tensor<1x?xf32>
  %flag = tosa.variable.read @k__initialized : tensor<i1>
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot give 'k' a fixed capacity: the init chosen instead of its value must be empty along axis 1, got tensor<1x2xf32>}}
  %past = tosa.cond_if %flag (%a = %state, %i = %init) : tensor<i1> (tensor<1x?xf32>, tensor<1x2xf32>) -> tensor<1x?xf32> {
  ^bb0(%a: tensor<1x?xf32>, %i: tensor<1x2xf32>):
    tosa.yield %a : tensor<1x?xf32>
  } else {
  ^bb0(%a: tensor<1x?xf32>, %i: tensor<1x2xf32>):
    tosa.yield %i : tensor<1x2xf32>
  }
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return
}
