// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifiers of the scatter ops.

func.func @float_indices(%data: tensor<4x3xf32>, %idx: tensor<2xf32>, %upd: tensor<2x3xf32>, %axis: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{indices must be an integer tensor, got tensor<2xf32>}}
  %0 = openvino.scatter_update %data, %idx, %upd, %axis : (tensor<4x3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @update_rank(%data: tensor<4x3xf32>, %idx: tensor<2xi64>, %upd: tensor<6xf32>, %axis: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{updates must have rank 2 (data rank - 1 + indices rank), got 1}}
  %0 = openvino.scatter_update %data, %idx, %upd, %axis : (tensor<4x3xf32>, tensor<2xi64>, tensor<6xf32>, tensor<i64>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @update_type(%data: tensor<4x3xf32>, %idx: tensor<2x1xi64>, %upd: tensor<2x3xf16>) -> tensor<4x3xf32> {
  // expected-error@+1 {{data, updates and result must have one element type, got f16, f32}}
  %0 = openvino.scatter_nd_update %data, %idx, %upd : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf16>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @nd_tuple_too_long(%data: tensor<4x3xf32>, %idx: tensor<2x3xi64>, %upd: tensor<2xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{index tuples of 3 elements for data of rank 2}}
  %0 = openvino.scatter_nd_update %data, %idx, %upd : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @nd_updates_shape(%data: tensor<4x3xf32>, %idx: tensor<2x1xi64>, %upd: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{updates must have shape [2,3], got [2,4]}}
  %0 = openvino.scatter_nd_update %data, %idx, %upd : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @nd_reduction(%data: tensor<4x3xf32>, %idx: tensor<2x1xi64>, %upd: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{reduction must be one of none, sum, sub, prod, min, max, got 'mean'}}
  %0 = openvino.scatter_nd_update %data, %idx, %upd {reduction = "mean"} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @elements_rank(%data: tensor<4x3xf32>, %idx: tensor<3xi64>, %upd: tensor<3xf32>, %axis: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{indices must have the rank of data (2), got 1}}
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis : (tensor<4x3xf32>, tensor<3xi64>, tensor<3xf32>, tensor<i64>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @elements_axis(%data: tensor<4x3xf32>, %idx: tensor<1x3xi64>, %upd: tensor<1x3xf32>, %axis: tensor<2xi64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{axis must be a scalar, got tensor<2xi64>}}
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis : (tensor<4x3xf32>, tensor<1x3xi64>, tensor<1x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @elements_reduction(%data: tensor<4x3xf32>, %idx: tensor<1x3xi64>, %upd: tensor<1x3xf32>, %axis: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{reduction must be one of none, sum, prod, min, max, mean, got 'sub'}}
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis {reduction = "sub"} : (tensor<4x3xf32>, tensor<1x3xi64>, tensor<1x3xf32>, tensor<i64>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @elements_updates_shape(%data: tensor<4x3xf32>, %idx: tensor<1x3xi64>, %upd: tensor<1x2xf32>, %axis: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{updates must have shape [1,3], got [1,2]}}
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis : (tensor<4x3xf32>, tensor<1x3xi64>, tensor<1x2xf32>, tensor<i64>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
