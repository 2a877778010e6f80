// RUN: tosa-state-opt %s -p tosa-lower-shape-ops --split-input-file --verify-diagnostics | filecheck %s
// RUN: tosa-state-opt %s -p tosa-lower-shape-ops --split-input-file --verify-diagnostics --tosa-spelling=upstream | iree-opt --split-input-file > /dev/null

// Tiles that repeat dims of size other than 1 by run-time multiples (and a tile of a
// dynamic input by constant multiples): a broadcast into [m0, d0, m1, d1] collapsed to
// [m0 * d0, m1 * d1]; a pad by run-time sizes: tensor.pad yielding the pad constant.

// CHECK-LABEL: func.func @main
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D0:.*]] = tensor.dim %x, %[[C0]] : tensor<?x3xf32>
// The tile of %y by [2, d0]: the multiple d0 sizes the third dim.
// CHECK:         %[[E:.*]] = tensor.empty(%[[D0]]) : tensor<2x2x?x3xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x3xf32>) outs(%[[E]] : tensor<2x2x?x3xf32>)
// CHECK:         %[[T:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x?x3xf32> into tensor<4x?xf32>
// CHECK-NEXT:    %t = tensor.cast %[[T]] : tensor<4x?xf32> to tensor<?x?xf32>
// The tile of the dynamic %x by [2, d0]: its own dim 0 and the multiple d0.
// CHECK:         %[[X0:.*]] = tensor.dim %x, %{{.*}} : tensor<?x3xf32>
// CHECK-NEXT:    %[[E2:.*]] = tensor.empty(%[[X0]], %[[D0]]) : tensor<2x?x?x3xf32>
// CHECK-NEXT:    %[[G2:.*]] = linalg.generic {{.*}} ins(%x : tensor<?x3xf32>) outs(%[[E2]] : tensor<2x?x?x3xf32>)
// CHECK:         %u = tensor.collapse_shape %[[G2]] {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<2x?x?x3xf32> into tensor<?x?xf32>
// Constant multiples [3, 2] of a dynamic input.
// CHECK:         %[[E3:.*]] = tensor.empty(%{{.*}}) : tensor<3x?x2x3xf32>
// CHECK:         %v = tensor.collapse_shape %{{.*}} : tensor<3x?x2x3xf32> into tensor<?x6xf32>
// The pad: low [1, 0], high [d0, 2].
// CHECK:         %[[K:.*]] = tensor.extract %c[%{{.*}}] : tensor<1xf32>
// CHECK-NEXT:    %[[P:.*]] = tensor.pad %p low[1, 0] high[%[[D0]], 2] {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:      tensor.yield %[[K]] : f32
// CHECK-NEXT:    } : tensor<?x4xf32> to tensor<?x6xf32>
// CHECK-NEXT:    %q = tensor.cast %[[P]] : tensor<?x6xf32> to tensor<?x?xf32>
// CHECK-NOT:     tosa.dim
// CHECK-NOT:     _shape
func.func @main(%x: tensor<?x3xf32>, %y: tensor<2x3xf32>, %p: tensor<?x4xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<?x?xf32>) {
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<?x3xf32>) -> !tosa.shape<1>
  %two = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %times = tosa.concat_shape %two, %d0 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %t = tosa.tile %y, %times : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %u = tosa.tile %x, %times : (tensor<?x3xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %m = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v = tosa.tile %x, %m : (tensor<?x3xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %pads = tosa.concat_shape %one, %d0, %zero, %two : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<7.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q = tosa.pad %p, %pads, %c : (tensor<?x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x?xf32>
  func.return %t, %u, %v, %q : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<?x?xf32>
}

// -----

// A run-time shape value used by an op the pass does not lower: one diagnostic at that op.

func.func @returned(%x: tensor<?x3xf32>) -> !tosa.shape<1> {
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<?x3xf32>) -> !tosa.shape<1>
  // expected-note@+2 {{in pass 'tosa-lower-shape-ops'}}
  // expected-error@+1 {{'tosa-lower-shape-ops' cannot lower 'func.return' with a shape operand computed at run time (reshape, slice, tile and pad only)}}
  func.return %d0 : !tosa.shape<1>
}
