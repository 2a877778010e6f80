// RUN: tosa-state-opt %s --split-input-file -p tosa-integer-io | filecheck %s

// An f32 input only quantized (per tensor) becomes the int8 input, its scale and zero point
// recorded; an f32 output that is cast(i32) times a scale per channel becomes the i32
// output, its scales recorded (zero point 0). The float ops go.
// CHECK-LABEL: func.func @boundary(
// CHECK-SAME:    %q: tensor<1x4xi8> {openvino.name = "x", tosa_state.scale = 2.500000e-01 : f32, tosa_state.zero_point = 0 : i32}
// CHECK-SAME:    -> (tensor<1x3xi32> {openvino.name = "y", tosa_state.scale = [5.000000e-01 : f32, 2.500000e-01 : f32, 1.250000e-01 : f32], tosa_state.zero_point = 0 : i32})
// CHECK-NOT:     f32
// CHECK:         %[[A:.*]] = tosa.reshape %acc, %s2 : (tensor<1x1x3xi32>, !tosa.shape<2>) -> tensor<1x3xi32>
// CHECK-NEXT:    func.return %[[A]] : tensor<1x3xi32>
func.func @boundary(%x: tensor<1x4xf32> {openvino.name = "x"}) -> (tensor<1x3xf32> {openvino.name = "y"}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %x, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %cl = tosa.clamp %m {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %s3 = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %s3 : (tensor<1x4xi8>, !tosa.shape<3>) -> tensor<1x1x4xi8>
  %w = "tosa.const"() <{values = dense<[[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 1, 1]]]> : tensor<1x4x3xi8>}> : () -> tensor<1x4x3xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %acc = tosa.matmul %q3, %w, %zp, %zp : (tensor<1x1x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3xi32>
  %s2 = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %acc2 = tosa.reshape %acc, %s2 : (tensor<1x1x3xi32>, !tosa.shape<2>) -> tensor<1x3xi32>
  %f = tosa.cast %acc2 : (tensor<1x3xi32>) -> tensor<1x3xf32>
  %scale = "tosa.const"() <{values = dense<[[0.5, 0.25, 0.125]]> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
  %y = tosa.mul %f, %scale, %shift : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<1x3xf32>
  func.return %y : tensor<1x3xf32>
}

// -----

// The input is also used as a float: left as it is.
// CHECK-LABEL: func.func @float_use(%x: tensor<1x4xf32>)
// CHECK:         tosa.abs %x
func.func @float_use(%x: tensor<1x4xf32>) -> (tensor<1x4xi8>, tensor<1x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %x, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %q = tosa.cast %m : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %n = tosa.abs %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %q, %n : tensor<1x4xi8>, tensor<1x4xf32>
}
