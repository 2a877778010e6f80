// RUN: tosa-state-opt %s --split-input-file -p tosa-integer-frames | filecheck %s

// Frames kept in f32, concatenated with the new input and then quantized per tensor (an
// NNCF FakeQuantize after the cache's concat): the quantize moves onto each operand of the
// concat, the variable stores the quantized frames (its initial value quantized too).
// CHECK:       tosa.variable @frames {tosa_state.scale = 2.500000e-01 : f32, tosa_state.zero_point = 0 : i32} = dense<{{\[\[\[}}2, -4], [0, 1]]]> : tensor<1x2x2xi8>
// CHECK-LABEL: func.func @quantized_after_concat
// CHECK:         %[[R:.*]] = tosa.variable.read @frames : tensor<1x2x2xi8>
// CHECK-NEXT:    %[[M:.*]] = tosa.mul %x, %inv, %shift : (tensor<1x2x3xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = tosa.clamp %[[M]] {{.*}} -> tensor<1x2x3xf32>
// CHECK-NEXT:    %[[Q:.*]] = tosa.cast %[[C]] : (tensor<1x2x3xf32>) -> tensor<1x2x3xi8>
// CHECK-NEXT:    %[[J:.*]] = tosa.concat %[[R]], %[[Q]] {axis = 2 : i32} : (tensor<1x2x2xi8>, tensor<1x2x3xi8>) -> tensor<1x2x5xi8>
// CHECK:         %[[W:.*]] = tosa.slice %[[J]], %start, %size : (tensor<1x2x5xi8>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x2xi8>
// CHECK-NEXT:    tosa.variable.write @frames, %[[W]] : tensor<1x2x2xi8>
// CHECK-NEXT:    func.return %[[J]] : tensor<1x2x5xi8>
tosa.variable @frames = dense<[[[0.5, -1.0], [0.0, 0.25]]]> : tensor<1x2x2xf32>
func.func @quantized_after_concat(%x: tensor<1x2x3xf32>) -> (tensor<1x2x5xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %r = tosa.variable.read @frames : tensor<1x2x2xf32>
  %c = tosa.concat %r, %x {axis = 2 : i32} : (tensor<1x2x2xf32>, tensor<1x2x3xf32>) -> tensor<1x2x5xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 2, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w = tosa.slice %c, %start, %size : (tensor<1x2x5xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x2xf32>
  %m = tosa.mul %c, %inv, %shift : (tensor<1x2x5xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x5xf32>
  %cl = tosa.clamp %m {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x2x5xf32>) -> tensor<1x2x5xf32>
  %q = tosa.cast %cl : (tensor<1x2x5xf32>) -> tensor<1x2x5xi8>
  tosa.variable.write @frames, %w : tensor<1x2x2xf32>
  func.return %q : tensor<1x2x5xi8>
}

// -----

// A quantize with a scale per channel does not commute with the concat as written: left.
// CHECK:       tosa.variable @frames = dense<0.000000e+00> : tensor<1x2x2xf32>
// CHECK-LABEL: func.func @per_channel
// CHECK:         tosa.concat {{.*}} -> tensor<1x2x5xf32>
tosa.variable @frames = dense<0.0> : tensor<1x2x2xf32>
func.func @per_channel(%x: tensor<1x2x3xf32>) -> (tensor<1x2x5xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<[[[4.0], [2.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %r = tosa.variable.read @frames : tensor<1x2x2xf32>
  %c = tosa.concat %r, %x {axis = 2 : i32} : (tensor<1x2x2xf32>, tensor<1x2x3xf32>) -> tensor<1x2x5xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 2, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w = tosa.slice %c, %start, %size : (tensor<1x2x5xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x2xf32>
  %m = tosa.mul %c, %inv, %shift : (tensor<1x2x5xf32>, tensor<1x2x1xf32>, tensor<1xi8>) -> tensor<1x2x5xf32>
  %cl = tosa.clamp %m {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x2x5xf32>) -> tensor<1x2x5xf32>
  %q = tosa.cast %cl : (tensor<1x2x5xf32>) -> tensor<1x2x5xi8>
  tosa.variable.write @frames, %w : tensor<1x2x2xf32>
  func.return %q : tensor<1x2x5xi8>
}

// -----

// A float computed from the concat is used beyond the quantize: left.
// CHECK:       tosa.variable @frames = dense<0.000000e+00> : tensor<1x2x2xf32>
// CHECK-LABEL: func.func @float_use
// CHECK:         tosa.concat {{.*}} -> tensor<1x2x5xf32>
tosa.variable @frames = dense<0.0> : tensor<1x2x2xf32>
func.func @float_use(%x: tensor<1x2x3xf32>) -> (tensor<1x2x5xi8>, tensor<1x2x5xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %r = tosa.variable.read @frames : tensor<1x2x2xf32>
  %c = tosa.concat %r, %x {axis = 2 : i32} : (tensor<1x2x2xf32>, tensor<1x2x3xf32>) -> tensor<1x2x5xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 2, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w = tosa.slice %c, %start, %size : (tensor<1x2x5xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x2xf32>
  %m = tosa.mul %c, %inv, %shift : (tensor<1x2x5xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x5xf32>
  %cl = tosa.clamp %m {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x2x5xf32>) -> tensor<1x2x5xf32>
  %q = tosa.cast %cl : (tensor<1x2x5xf32>) -> tensor<1x2x5xi8>
  tosa.variable.write @frames, %w : tensor<1x2x2xf32>
  func.return %q, %m : tensor<1x2x5xi8>, tensor<1x2x5xf32>
}
