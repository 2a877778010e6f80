// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifier of TopK.

func.func @mode(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error@+1 {{mode must be one of max, min, got 'median'}}
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "median", sort = "value"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @sort(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error@+1 {{sort must be one of value, index, none, got 'random'}}
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "max", sort = "random"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @k_not_scalar(%x: tensor<4xf32>, %k: tensor<2xi64>) {
  // expected-error@+1 {{k must be a scalar, got tensor<2xi64>}}
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "max", sort = "value"} : (tensor<4xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @index_type(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error@+1 {{indices must be i32 or i64, got tensor<2xi16>}}
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "max", sort = "value"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xi16>)
  func.return
}

// -----

func.func @axis(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error@+1 {{axis 1 is out of range for rank 1}}
  %0, %1 = openvino.topk %x, %k {axis = 1 : i64, mode = "max", sort = "value"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @shapes(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error@+1 {{values and indices must have one shape of the input's rank}}
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "max", sort = "value"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<3xi32>)
  func.return
}

// -----

func.func @values_type(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error@+1 {{input and values must have one element type, got f16, f32}}
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "max", sort = "value"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf16>, tensor<2xi32>)
  func.return
}
