// RUN: tosa-state-opt %s --split-input-file -p convert-tflite-to-tosa,tosa-integer-state | filecheck %s

// TensorFlow's full-integer state end to end: READ_VARIABLE, QUANTIZE, DEQUANTIZE and
// ASSIGN_VARIABLE lowered as LiteRT computes them (a 12-element state: its kernels' 8 lanes
// and a tail of 4, selected by a constant mask), then an int8 state with no float op left.

// The same scale and zero point on both sides (what the converter emits).
// CHECK:       tosa.variable @h {tosa_state.scale = 1.000000e-02 : f32, tosa_state.zero_point = -5 : i32} = dense<-5> : tensor<1x12xi8>
// CHECK-LABEL: func.func @same
// CHECK-NEXT:    %[[S:.*]] = tosa.variable.read @h : tensor<1x12xi8>
// CHECK-NEXT:    tosa.variable.write @h, %x : tensor<1x12xi8>
// CHECK-NEXT:    func.return %[[S]] : tensor<1x12xi8>
// CHECK-NEXT:  }
func.func @same(%x: tensor<1x12xi8>) -> tensor<1x12xi8> {
  %h = tfl.var_handle {shared_name = "h"} : !tfl.resource
  %s = tfl.read_variable %h : (!tfl.resource) -> tensor<1x12xf32>
  %q = tfl.quantize %s {scale = array<f32: 0.01>, zero_point = array<i64: -5>} : (tensor<1x12xf32>) -> tensor<1x12xi8>
  %d = tfl.dequantize %x {scale = array<f32: 0.01>, zero_point = array<i64: -5>} : (tensor<1x12xi8>) -> tensor<1x12xf32>
  tfl.assign_variable %h, %d : !tfl.resource, tensor<1x12xf32>
  func.return %q : tensor<1x12xi8>
}

// -----

// The read quantizes at 0.8 times the write's scale with another zero point: the lanes
// and the tail round some values differently, so each part gets its own requantization.
// CHECK:       tosa.variable @h {tosa_state.scale = 1.000000e-02 : f32, tosa_state.zero_point = -5 : i32} = dense<-5> : tensor<1x12xi8>
// CHECK-LABEL: func.func @requantized
// CHECK-NEXT:    %[[S:.*]] = tosa.variable.read @h : tensor<1x12xi8>
// CHECK:         %[[FLAT:.*]] = tosa.reshape %[[S]], %{{.*}} : (tensor<1x12xi8>, !tosa.shape<1>) -> tensor<12xi8>
// CHECK:         %[[LANES:.*]] = tosa.slice %[[FLAT]], %{{.*}}, %{{.*}} : (tensor<12xi8>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<8xi8>
// CHECK:         %[[A:.*]] = tosa.{{rescale|table}} %[[LANES]], {{.*}} -> tensor<8xi8>
// CHECK:         %[[TAIL:.*]] = tosa.slice %[[FLAT]], %{{.*}}, %{{.*}} : (tensor<12xi8>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<4xi8>
// CHECK:         %[[B:.*]] = tosa.{{rescale|table}} %[[TAIL]], {{.*}} -> tensor<4xi8>
// CHECK-NEXT:    %[[J:.*]] = tosa.concat %[[A]], %[[B]] {axis = 0 : i32} : (tensor<8xi8>, tensor<4xi8>) -> tensor<12xi8>
// CHECK:         %[[Q:.*]] = tosa.reshape %[[J]], %{{.*}} : (tensor<12xi8>, !tosa.shape<2>) -> tensor<1x12xi8>
// CHECK-NEXT:    tosa.variable.write @h, %x : tensor<1x12xi8>
// CHECK-NEXT:    func.return %[[Q]] : tensor<1x12xi8>
// CHECK-NOT:     f32
func.func @requantized(%x: tensor<1x12xi8>) -> tensor<1x12xi8> {
  %h = tfl.var_handle {shared_name = "h"} : !tfl.resource
  %s = tfl.read_variable %h : (!tfl.resource) -> tensor<1x12xf32>
  %q = tfl.quantize %s {scale = array<f32: 0.008>, zero_point = array<i64: 3>} : (tensor<1x12xf32>) -> tensor<1x12xi8>
  %d = tfl.dequantize %x {scale = array<f32: 0.01>, zero_point = array<i64: -5>} : (tensor<1x12xi8>) -> tensor<1x12xf32>
  tfl.assign_variable %h, %d : !tfl.resource, tensor<1x12xf32>
  func.return %q : tensor<1x12xi8>
}
