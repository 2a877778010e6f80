// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

func.func @dim_axis(%x: tensor<?x6xf32>) -> !tosa.shape<1> {
  // expected-error @+1 {{'tosa.dim' op axis 2 is out of range for a tensor of rank 2}}
  %d = tosa.dim %x {axis = 2 : i32} : (tensor<?x6xf32>) -> !tosa.shape<1>
  return %d : !tosa.shape<1>
}

// -----

func.func @concat_rank(%a: !tosa.shape<1>, %b: !tosa.shape<2>) -> !tosa.shape<2> {
  // expected-error @+1 {{'tosa.concat_shape' op expect the result rank (2) to be the sum of the input ranks (3)}}
  %s = tosa.concat_shape %a, %b : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<2>
  return %s : !tosa.shape<2>
}

// -----

func.func @add_ranks(%a: !tosa.shape<1>, %b: !tosa.shape<2>) -> !tosa.shape<2> {
  // expected-error @+1 {{'tosa.add_shape' op expect the inputs and the result to have one rank, got '!tosa.shape<1>', '!tosa.shape<2>' and '!tosa.shape<2>'}}
  %s = tosa.add_shape %a, %b : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<2>
  return %s : !tosa.shape<2>
}

// -----

func.func @reshape_by_argument(%x: tensor<?x6xf32>, %s: !tosa.shape<2>) -> tensor<?x6xf32> {
  // expected-error @+1 {{'tosa.reshape' op shape operand is not compile time resolvable}}
  %r = tosa.reshape %x, %s : (tensor<?x6xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  return %r : tensor<?x6xf32>
}

// -----

func.func @shape_from_float_tensor(%t: tensor<2xf32>) -> !tosa.shape<2> {
  // expected-error @+1 {{'tosa.shape_from_tensor' op expect a 1-D integer tensor of static length, got 'tensor<2xf32>'}}
  %s = tosa.shape_from_tensor %t : (tensor<2xf32>) -> !tosa.shape<2>
  return %s : !tosa.shape<2>
}

// -----

func.func @shape_from_tensor_rank(%t: tensor<3xi32>) -> !tosa.shape<2> {
  // expected-error @+1 {{'tosa.shape_from_tensor' op expect a '!tosa.shape<3>' result, got '!tosa.shape<2>'}}
  %s = tosa.shape_from_tensor %t : (tensor<3xi32>) -> !tosa.shape<2>
  return %s : !tosa.shape<2>
}
