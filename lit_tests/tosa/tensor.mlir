// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt --print-op-generic | filecheck %s --check-prefix=GENERIC

// The TOSA 1.0 tensor-level operators print exactly as upstream `tosa-opt` prints them
// (custom form; `tosa.const` only has the generic form), and custom and generic forms
// round-trip. tests/test_tosa_tensor.py checks that this output parses in `tosa-opt`.

// CHECK-LABEL: func.func @data_nodes
// CHECK-NEXT:    %{{.*}} = "tosa.const"() <{values = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = "tosa.const"() <{values = dense<true> : tensor<i1>}> {note = "kept"} : () -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = tosa.identity %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = tosa.identity %{{.*}} {note = "kept"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = tosa.const_shape  {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %{{.*}} = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
// GENERIC-LABEL: sym_name = "data_nodes"
// GENERIC:       "tosa.identity"(%{{.*}}) {note = "kept"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC-NEXT:  "tosa.const_shape"() <{values = dense<[4, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
func.func @data_nodes(%x: tensor<2x3xf32>) {
  %c = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<true> : tensor<i1>}> {note = "kept"} : () -> tensor<i1>
  %0 = tosa.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.identity %x {note = "kept"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = tosa.const_shape {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %e = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  return
}

// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    %{{.*}} = tosa.conv2d %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 1, 0, 2>, stride = array<i64: 2, 1>} : (tensor<1x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x6x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.conv2d %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x4x4x2xi8>, tensor<2x1x1x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x4x4x2xi32>
// CHECK-NEXT:    %{{.*}} = tosa.depthwise_conv2d %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 2>} : (tensor<1x5x6x3xf32>, tensor<1x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x3x6xf32>
// GENERIC-LABEL: sym_name = "conv"
// GENERIC:       "tosa.conv2d"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 1, 0, 2>, stride = array<i64: 2, 1>}>
func.func @conv(%x: tensor<1x5x6x3xf32>, %w: tensor<4x3x2x3xf32>, %b: tensor<4xf32>, %zp: tensor<1xf32>,
                %q: tensor<?x4x4x2xi8>, %qw: tensor<2x1x1x2xi8>, %qb: tensor<1xi32>, %qzp: tensor<1xi8>,
                %dw: tensor<1x3x3x2xf32>, %db: tensor<6xf32>) {
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 1, 0, 2>, stride = array<i64: 2, 1>} : (tensor<1x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x6x4xf32>
  %1 = tosa.conv2d %q, %qw, %qb, %qzp, %qzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x4x4x2xi8>, tensor<2x1x1x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x4x4x2xi32>
  %2 = tosa.depthwise_conv2d %x, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 2>} : (tensor<1x5x6x3xf32>, tensor<1x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x3x6xf32>
  return
}

// CHECK-LABEL: func.func @pool
// CHECK-NEXT:    %{{.*}} = tosa.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x5x2xf32>) -> tensor<1x2x3x2xf32>
// CHECK-NEXT:    %{{.*}} = tosa.max_pool2d %{{.*}} {kernel = array<i64: 1, 1>, nan_mode = IGNORE, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x5x2xi8>) -> tensor<1x4x5x2xi8>
// CHECK-NEXT:    %{{.*}} = tosa.avg_pool2d %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5x2xf32>
func.func @pool(%x: tensor<1x4x5x2xf32>, %q: tensor<1x4x5x2xi8>, %zp: tensor<1xf32>) {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x5x2xf32>) -> tensor<1x2x3x2xf32>
  %1 = tosa.max_pool2d %q {kernel = array<i64: 1, 1>, nan_mode = IGNORE, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x5x2xi8>) -> tensor<1x4x5x2xi8>
  %2 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5x2xf32>
  return
}

// CHECK-LABEL: func.func @tensor_ops
// CHECK-NEXT:    %{{.*}} = tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    %{{.*}} = tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi32>
// CHECK-NEXT:    %{{.*}} = tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x3x4xf16>, tensor<?x4x5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<?x3x5xf32>
// CHECK-NEXT:    %{{.*}} = tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x3x4xbf16>, tensor<1x4x5xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x3x5xf32>
// CHECK-NEXT:    %{{.*}} = tosa.argmax %{{.*}} {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.argmax %{{.*}} {axis = 2 : i32, nan_mode = IGNORE} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = tosa.argmax %{{.*}} {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
// GENERIC-LABEL: sym_name = "tensor_ops"
// GENERIC:       "tosa.argmax"(%{{.*}}) <{axis = 1 : i32}> : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
// GENERIC-NEXT:  "tosa.argmax"(%{{.*}}) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
func.func @tensor_ops(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %zp: tensor<1xf32>,
                      %ai: tensor<1x3x4xi8>, %bi: tensor<1x4x5xi8>, %azp: tensor<1xi8>, %bzp: tensor<1xi8>,
                      %ah: tensor<?x3x4xf16>, %bh: tensor<?x4x5xf16>, %hzp: tensor<1xf16>,
                      %ab: tensor<1x3x4xbf16>, %bb: tensor<1x4x5xbf16>, %bzp16: tensor<1xbf16>) {
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  %1 = tosa.matmul %ai, %bi, %azp, %bzp : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi32>
  %2 = tosa.matmul %ah, %bh, %hzp, %hzp : (tensor<?x3x4xf16>, tensor<?x4x5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<?x3x5xf32>
  %3 = tosa.matmul %ab, %bb, %bzp16, %bzp16 : (tensor<1x3x4xbf16>, tensor<1x4x5xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x3x5xf32>
  %4 = tosa.argmax %a {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  %5 = tosa.argmax %a {nan_mode = IGNORE, axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
  %6 = tosa.argmax %a {axis = 0 : i32, nan_mode = PROPAGATE} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
  return
}

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT:    %{{.*}} = tosa.reduce_all %{{.*}} {axis = 0 : i32} : (tensor<2x3xi1>) -> tensor<1x3xi1>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_any %{{.*}} {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_max %{{.*}} {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_max %{{.*}} {axis = 1 : i32, nan_mode = IGNORE} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_min %{{.*}} {axis = 0 : i32, nan_mode = IGNORE} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_min %{{.*}} {axis = 0 : i32} : (tensor<2x3xi8>) -> tensor<1x3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_product %{{.*}} {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_sum %{{.*}} {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:    %{{.*}} = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<?x3xi32>) -> tensor<1x3xi32>
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC:       "tosa.reduce_max"(%{{.*}}) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
func.func @reductions(%p: tensor<2x3xi1>, %x: tensor<2x3xf32>, %i: tensor<2x3xi8>, %d: tensor<?x3xi32>) {
  %0 = tosa.reduce_all %p {axis = 0 : i32} : (tensor<2x3xi1>) -> tensor<1x3xi1>
  %1 = tosa.reduce_any %p {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
  %2 = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %3 = tosa.reduce_max %x {axis = 1 : i32, nan_mode = IGNORE} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %4 = tosa.reduce_min %x {axis = 0 : i32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %5 = tosa.reduce_min %i {axis = 0 : i32} : (tensor<2x3xi8>) -> tensor<1x3xi8>
  %6 = tosa.reduce_product %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %7 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %8 = tosa.reduce_sum %d {axis = 0 : i32} : (tensor<?x3xi32>) -> tensor<1x3xi32>
  return
}

// CHECK-LABEL: func.func @data_layout
// CHECK:         %{{.*}} = tosa.reshape %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
// CHECK:         %{{.*}} = tosa.slice %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x2x4xf32>, tensor<2x3x4xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.concat %{{.*}} {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.transpose %{{.*}} {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK:         %{{.*}} = tosa.tile %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x6x4xf32>
// CHECK:         %{{.*}} = tosa.pad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x5x6xf32>
// CHECK-NEXT:    %{{.*}} = tosa.reverse %{{.*}} {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.const_shape  {values = dense<[-1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %{{.*}} = tosa.reshape %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
// GENERIC-LABEL: sym_name = "data_layout"
// GENERIC:       "tosa.reshape"(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
// GENERIC:       "tosa.transpose"(%{{.*}}) <{perms = array<i32: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
func.func @data_layout(%x: tensor<2x3x4xf32>, %y: tensor<2x2x4xf32>, %z: tensor<1xf32>) {
  %s = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  %start = tosa.const_shape {values = dense<[0, 1, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[2, 2, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %1 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x4xf32>
  %2 = tosa.concat %x, %y, %x {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x2x4xf32>, tensor<2x3x4xf32>) -> tensor<2x8x4xf32>
  %3 = tosa.concat %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %4 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %m = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %5 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x6x4xf32>
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 2]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %6 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x5x6xf32>
  %7 = tosa.reverse %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %inferred = tosa.const_shape {values = dense<[-1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %8 = tosa.reshape %x, %inferred : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  return
}

// CHECK-LABEL: func.func @gather
// CHECK-NEXT:    %{{.*}} = tosa.gather %{{.*}}, %{{.*}} : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
func.func @gather(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// The branches take `input_list` as block arguments; the header names them after the
// then-branch's arguments. An empty `tosa.yield` prints in generic form: upstream prints
// `tosa.yield  : ` there, which upstream itself cannot parse back.

// CHECK-LABEL: func.func @cond_if
// CHECK-NEXT:    %[[R:.*]] = tosa.cond_if %[[C:.*]] (%[[T:.*]] = %[[X:.*]], %[[U:.*]] = %[[Y:.*]]) : tensor<1xi1> (tensor<4xf32>, tensor<i32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[T]]: tensor<4xf32>, %[[U]]: tensor<i32>):
// CHECK-NEXT:      tosa.yield %[[T]] : tensor<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: tensor<4xf32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT:      %[[N:.*]] = tosa.reverse %[[E]] {axis = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      tosa.yield %[[N]] : tensor<4xf32>
// CHECK-NEXT:    } {note = "kept"}
// CHECK-NEXT:    %{{.*}}, %{{.*}} = tosa.cond_if %{{.*}} : tensor<i1> -> (tensor<4xf32>, tensor<i32>) {
// CHECK-NEXT:      tosa.yield %[[X]], %[[Y]] : tensor<4xf32>, tensor<i32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tosa.yield %[[X]], %[[Y]] : tensor<4xf32>, tensor<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tosa.cond_if %{{.*}} : tensor<i1> -> () {
// CHECK-NEXT:      "tosa.yield"() : () -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "tosa.yield"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    tosa.cond_if %{{.*}} (%{{.*}} = %[[X]]) : tensor<i1> (tensor<4xf32>) -> () {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<4xf32>):
// CHECK-NEXT:      "tosa.yield"() : () -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<4xf32>):
// CHECK-NEXT:      "tosa.yield"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf32>
// GENERIC-LABEL: sym_name = "cond_if"
// GENERIC:       "tosa.cond_if"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC-NEXT:  ^bb0(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<i32>):
// GENERIC-NEXT:    "tosa.yield"(%{{.*}}) : (tensor<4xf32>) -> ()
// GENERIC-NEXT:  }, {
// GENERIC:       }) {note = "kept"} : (tensor<1xi1>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
func.func @cond_if(%c: tensor<1xi1>, %x: tensor<4xf32>, %y: tensor<i32>, %s: tensor<i1>) -> tensor<4xf32> {
  %0 = tosa.cond_if %c (%t = %x, %u = %y) : tensor<1xi1> (tensor<4xf32>, tensor<i32>) -> tensor<4xf32> {
  ^bb0(%t: tensor<4xf32>, %u: tensor<i32>):
    tosa.yield %t : tensor<4xf32>
  } else {
  ^bb0(%e: tensor<4xf32>, %v: tensor<i32>):
    %r = tosa.reverse %e {axis = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %r : tensor<4xf32>
  } {note = "kept"}
  %1:2 = tosa.cond_if %s : tensor<i1> -> (tensor<4xf32>, tensor<i32>) {
    tosa.yield %x, %y : tensor<4xf32>, tensor<i32>
  } else {
    tosa.yield %x, %y : tensor<4xf32>, tensor<i32>
  }
  tosa.cond_if %s : tensor<i1> -> () {
    tosa.yield  : 
  } else {
    "tosa.yield"() : () -> ()
  }
  tosa.cond_if %s (%w = %x) : tensor<i1> (tensor<4xf32>) -> () {
  ^bb0(%w: tensor<4xf32>):
    tosa.yield
  } else {
  ^bb0(%w: tensor<4xf32>):
    tosa.yield
  }
  return %0 : tensor<4xf32>
}
