// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// tosa_state.check_capacity: a count of one i32, new rows as one size, a capacity >= 0.

func.func @count_type(%c: tensor<2xi32>, %r: !tosa.shape<1>) {
  // expected-error@+1 {{the count must be a tensor<1xi32>, got tensor<2xi32>}}
  tosa_state.check_capacity %c, %r {variable = "kv", capacity = 8 : i64} : tensor<2xi32>, !tosa.shape<1>
  func.return
}

// -----

func.func @rows_rank(%c: tensor<1xi32>, %r: !tosa.shape<2>) {
  // expected-error@+1 {{the rows must be a !tosa.shape<1>, got !tosa.shape<2>}}
  tosa_state.check_capacity %c, %r {variable = "kv", capacity = 8 : i64} : tensor<1xi32>, !tosa.shape<2>
  func.return
}

// -----

func.func @negative(%c: tensor<1xi32>, %r: !tosa.shape<1>) {
  // expected-error@+1 {{the capacity must not be negative, got -1}}
  tosa_state.check_capacity %c, %r {variable = "kv", capacity = -1 : i64} : tensor<1xi32>, !tosa.shape<1>
  func.return
}

