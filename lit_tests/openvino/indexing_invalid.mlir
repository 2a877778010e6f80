// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifiers of GatherND, GatherElements, NonZero and Einsum.

func.func @gather_nd_batch_dims(%data: tensor<2x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error@+1 {{batch_dims 2 must be in [0, 2)}}
  %0 = openvino.gather_nd %data, %idx {batch_dims = 2 : i64} : (tensor<2x4xf32>, tensor<2x1xi32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @gather_nd_batch_mismatch(%data: tensor<2x4xf32>, %idx: tensor<3x1xi32>) {
  // expected-error@+1 {{the batch dims of data [2,4] and indices [3,1] differ}}
  %0 = openvino.gather_nd %data, %idx {batch_dims = 1 : i64} : (tensor<2x4xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @gather_nd_tuple_too_long(%data: tensor<2x4xf32>, %idx: tensor<5x3xi32>) {
  // expected-error@+1 {{index tuples of 3 elements for 2 non-batch dims of data}}
  %0 = openvino.gather_nd %data, %idx : (tensor<2x4xf32>, tensor<5x3xi32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @gather_elements_rank(%data: tensor<2x4xf32>, %idx: tensor<3xi32>) {
  // expected-error@+1 {{indices must have the rank of data (2), got 1}}
  %0 = openvino.gather_elements %data, %idx {axis = 0 : i64} : (tensor<2x4xf32>, tensor<3xi32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @gather_elements_axis(%data: tensor<2x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error@+1 {{axis 2 is out of range for rank 2}}
  %0 = openvino.gather_elements %data, %idx {axis = 2 : i64} : (tensor<2x4xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
  func.return
}

// -----

func.func @gather_elements_result(%data: tensor<2x4xf32>, %idx: tensor<2x1xi32>) {
  // expected-error@+1 {{result shape [2,2] differs from the input shape [2,1]}}
  %0 = openvino.gather_elements %data, %idx {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x1xi32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @non_zero_type(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{result must be i32 or i64, got tensor<2x?xf32>}}
  %0 = openvino.non_zero %x : (tensor<2x4xf32>) -> tensor<2x?xf32>
  func.return
}

// -----

func.func @non_zero_shape(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{result must have shape [2,?], got [3,?]}}
  %0 = openvino.non_zero %x : (tensor<2x4xf32>) -> tensor<3x?xi64>
  func.return
}

// -----

func.func @einsum_inputs(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{equation 'ij,jk->ik' has 2 inputs, the op 1}}
  %0 = openvino.einsum %x {equation = "ij,jk->ik"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @einsum_rank(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{term 'ijk' has 3 labels for rank 2}}
  %0 = openvino.einsum %x {equation = "ijk->i"} : (tensor<2x4xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @einsum_syntax(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'i1->i' is not an Einsum equation (term 'i1')}}
  %0 = openvino.einsum %x {equation = "i1->i"} : (tensor<2x4xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @einsum_output_label(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{output labels k of 'ij->k' are in no input}}
  %0 = openvino.einsum %x {equation = "ij->k"} : (tensor<2x4xf32>) -> tensor<2xf32>
  func.return
}
