// RUN: tosa-state-opt %s -p tosa-merge-sliced-elementwise | filecheck %s

// An LSTM cell's gates: sigmoid on three of the four slices of the pre-activations becomes
// one sigmoid of the whole tensor, sliced; the lone tanh stays on its slice.

// CHECK-LABEL: func.func @gates
// CHECK-NEXT:    %[[S0:.*]] = tosa.const_shape {values = dense<0> : tensor<2xindex>}
// CHECK:         %[[SIG:.*]] = tosa.sigmoid %z : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %[[F:f]] = tosa.slice %[[SIG]], %[[S0]], %{{.*}} : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
// CHECK-NEXT:    %[[I:i]] = tosa.slice %[[SIG]], %{{.*}}, %{{.*}} : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
// CHECK:         %[[G:.*]] = tosa.tanh %{{.*}} : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK:         %[[O:o]] = tosa.slice %[[SIG]], %{{.*}}, %{{.*}} : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
// CHECK-NOT:     tosa.sigmoid
// CHECK:         func.return %[[F]], %[[I]], %[[G]], %[[O]]
func.func @gates(%z: tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  %s0 = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s2 = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s4 = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s6 = tosa.const_shape {values = dense<[0, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %zf = tosa.slice %z, %s0, %size : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %zi = tosa.slice %z, %s2, %size : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %zg = tosa.slice %z, %s4, %size : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %zo = tosa.slice %z, %s6, %size : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %f = tosa.sigmoid %zf : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %i = tosa.sigmoid %zi : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %g = tosa.tanh %zg : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %o = tosa.sigmoid %zo : (tensor<1x2xf32>) -> tensor<1x2xf32>
  func.return %f, %i, %g, %o : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}

// The squares of a spectrum's halves (pow by one shared constant) become one square.

// CHECK-LABEL: func.func @magnitude
// CHECK:         %[[SQ:.*]] = tosa.pow %x, %two : (tensor<4x6xf32>, tensor<1x1xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[RE:re2]] = tosa.slice %[[SQ]]
// CHECK-NEXT:    %[[IM:im2]] = tosa.slice %[[SQ]]
// CHECK-NEXT:    tosa.add %[[RE]], %[[IM]]
func.func @magnitude(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %s0 = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s3 = tosa.const_shape {values = dense<[0, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %re = tosa.slice %x, %s0, %size : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x3xf32>
  %im = tosa.slice %x, %s3, %size : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x3xf32>
  %re2 = tosa.pow %re, %two : (tensor<4x3xf32>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %im2 = tosa.pow %im, %two : (tensor<4x3xf32>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %sum = tosa.add %re2, %im2 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %sum : tensor<4x3xf32>
}

// Kept: slices covering under half of the tensor, different ops, a slice used otherwise
// by the op (not as its first operand).

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: tosa.exp %{{.*}} : (tensor<1x1xf32>)
// CHECK:         tosa.sigmoid %{{.*}} : (tensor<1x2xf32>)
// CHECK-NEXT:    tosa.tanh %{{.*}} : (tensor<1x2xf32>)
func.func @kept(%x: tensor<1x8xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  %s0 = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s2 = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %one = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %two = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = tosa.slice %x, %s0, %one : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xf32>
  %b = tosa.slice %x, %s2, %one : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xf32>
  %ea = tosa.exp %a : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %eb = tosa.exp %b : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %c = tosa.slice %x, %s0, %two : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %d = tosa.slice %x, %s2, %two : (tensor<1x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %sc = tosa.sigmoid %c : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %td = tosa.tanh %d : (tensor<1x2xf32>) -> tensor<1x2xf32>
  func.return %ea, %eb, %sc, %td : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}
