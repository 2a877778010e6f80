// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The openvino dialect's custom form round-trips, and so does its generic form.

// CHECK-LABEL: func.func @state(
// CHECK-SAME: %x: tensor<1x4xf32> {openvino.name = "x"}
// CHECK-SAME: -> (tensor<1x4xf32> {openvino.name = "out"})
// CHECK-SAME: attributes {openvino.model_name = "accum"}
func.func @state(%x: tensor<1x4xf32> {openvino.name = "x"}) -> (tensor<1x4xf32> {openvino.name = "out"}) attributes {openvino.model_name = "accum"} {
  // CHECK-NEXT: %0 = openvino.constant dense<[[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x4xf32>
  %0 = openvino.constant dense<[[0.0, 1.0, 2.0, 3.0]]> : tensor<1x4xf32>
  // CHECK-NEXT: %1 = openvino.read_value "acc"(%0) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = openvino.read_value "acc"(%0) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  // CHECK-NEXT: %2 = openvino.read_value "free" {version = 6 : i64, variable_type = f16, variable_shape = #openvino.partial_shape<[?, 1:8, 2:?]>} : () -> tensor<?x?x?xf16>
  %2 = openvino.read_value "free" {version = 6 : i64, variable_type = f16, variable_shape = #openvino.partial_shape<[?, 1:8, 2:?]>} : () -> tensor<?x?x?xf16>
  // CHECK-NEXT: %3 = openvino.read_value "any"(%0) {version = 6 : i64, variable_shape = #openvino.partial_shape<*>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = openvino.read_value "any"(%0) {version = 6 : i64, variable_shape = #openvino.partial_shape<*>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  // CHECK-NEXT: %4 = openvino.read_value "old"(%0) {version = 3 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %4 = openvino.read_value "old"(%0) {version = 3 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  // CHECK-NEXT: %5 = openvino.read_value "s" {version = 6 : i64, variable_type = i1, variable_shape = #openvino.partial_shape<[]>} : () -> tensor<i1>
  %5 = openvino.read_value "s" {version = 6 : i64, variable_type = i1, variable_shape = #openvino.partial_shape<[]>} : () -> tensor<i1>
  // CHECK-NEXT: %6 = openvino.add %1, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %6 = openvino.add %1, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  // CHECK-NEXT: openvino.assign "acc", %6 {version = 6 : i64} : tensor<1x4xf32>
  openvino.assign "acc", %6 {version = 6 : i64} : tensor<1x4xf32>
  // CHECK-NEXT: openvino.assign "free", %2 {version = 6 : i64} : tensor<?x?x?xf16>
  openvino.assign "free", %2 {version = 6 : i64} : tensor<?x?x?xf16>
  // CHECK-NEXT: openvino.assign "any", %3 {version = 6 : i64} : tensor<1x4xf32>
  openvino.assign "any", %3 {version = 6 : i64} : tensor<1x4xf32>
  // CHECK-NEXT: openvino.assign "old", %4 {version = 3 : i64} : tensor<1x4xf32>
  openvino.assign "old", %4 {version = 3 : i64} : tensor<1x4xf32>
  // CHECK-NEXT: openvino.assign "s", %5 {version = 6 : i64} : tensor<i1>
  openvino.assign "s", %5 {version = 6 : i64} : tensor<i1>
  // CHECK-NEXT: func.return %6 : tensor<1x4xf32>
  func.return %6 : tensor<1x4xf32>
}

// GENERIC: "openvino.constant"() <{value = dense<{{.*}}> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
// GENERIC: "openvino.read_value"(%{{.*}}) <{variable_id = "acc", version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// GENERIC: "openvino.read_value"() <{variable_id = "free", version = 6 : i64, variable_type = f16, variable_shape = #openvino.partial_shape<[?, 1:8, 2:?]>}> : () -> tensor<?x?x?xf16>
// GENERIC: "openvino.add"(%{{.*}}, %{{.*}}) <{auto_broadcast = "numpy"}> : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// GENERIC: "openvino.assign"(%{{.*}}) <{variable_id = "acc", version = 6 : i64}> : (tensor<1x4xf32>) -> ()

// CHECK-LABEL: func.func @elementwise(
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x3xi1>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %0 = openvino.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = openvino.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %1 = openvino.multiply %0, %a {auto_broadcast = "none"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = openvino.multiply %0, %a {auto_broadcast = "none"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %2 = openvino.divide %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = openvino.divide %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %3 = openvino.divide %i, %i {m_pythondiv = false} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = openvino.divide %i, %i {m_pythondiv = false} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK-NEXT: %4 = openvino.mod %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %4 = openvino.mod %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK-NEXT: %5 = openvino.floor_mod %i, %4 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %5 = openvino.floor_mod %i, %4 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK-NEXT: %6 = openvino.power %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = openvino.power %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %7 = openvino.maximum %6, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = openvino.maximum %6, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %8 = openvino.minimum %7, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = openvino.minimum %7, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %9 = openvino.greater %8, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %9 = openvino.greater %8, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %10 = openvino.less %8, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %10 = openvino.less %8, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %11 = openvino.equal %8, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %11 = openvino.equal %8, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %12 = openvino.logical_and %9, %10 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %12 = openvino.logical_and %9, %10 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: %13 = openvino.logical_or %12, %11 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %13 = openvino.logical_or %12, %11 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: %14 = openvino.logical_not %13 : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %14 = openvino.logical_not %13 : (tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: %15 = openvino.select %14, %8, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = openvino.select %14, %8, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %16 = openvino.relu %15 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %16 = openvino.relu %15 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %17 = openvino.sigmoid %16 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %17 = openvino.sigmoid %16 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %18 = openvino.tanh %17 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %18 = openvino.tanh %17 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %19 = openvino.exp %18 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %19 = openvino.exp %18 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %20 = openvino.clamp %19 {min = -1.500000e+00 : f64, max = 2.000000e+00 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %20 = openvino.clamp %19 {min = -1.5 : f64, max = 2.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %21 = openvino.convert %20 {destination_type = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %21 = openvino.convert %20 {destination_type = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  // CHECK-NEXT: %22 = openvino.convert %c {destination_type = f32} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %22 = openvino.convert %c {destination_type = f32} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  // CHECK-NEXT: %23 = openvino.abs %22 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %23 = openvino.abs %22 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %24 = openvino.negative %23 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %24 = openvino.negative %23 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %25 = openvino.log %24 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %25 = openvino.log %24 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %26 = openvino.floor %25 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %26 = openvino.floor %25 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %27 = openvino.ceiling %26 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %27 = openvino.ceiling %26 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %28 = openvino.sqrt %27 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %28 = openvino.sqrt %27 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %29 = openvino.sin %28 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %29 = openvino.sin %28 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %30 = openvino.cos %29 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %30 = openvino.cos %29 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %31 = openvino.erf %30 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %31 = openvino.erf %30 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %32 = openvino.softmax %31 {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %32 = openvino.softmax %31 {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %33 = openvino.squared_difference %32, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %33 = openvino.squared_difference %32, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %34 = openvino.gelu %33 {approximation_mode = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %34 = openvino.gelu %33 {approximation_mode = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %35 = openvino.hswish %34 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %35 = openvino.hswish %34 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %36 = openvino.hsigmoid %35 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %36 = openvino.hsigmoid %35 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %37 = openvino.elu %36 {alpha = 5.000000e-01 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %37 = openvino.elu %36 {alpha = 0.5 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %38 = openvino.swish %37 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %38 = openvino.swish %37 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %39 = openvino.prelu %38, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %39 = openvino.prelu %38, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %axes = openvino.constant dense<1> : tensor<1xi64>
  // CHECK: openvino.mvn %39, %{{.*}} {normalize_variance = true, eps = 1.000000e-05 : f64, eps_mode = "inside_sqrt"} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  %40 = openvino.mvn %39, %axes {normalize_variance = true, eps = 1.0e-5 : f64, eps_mode = "inside_sqrt"} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %40 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @convolution(
// CHECK-NEXT: openvino.convolution %x, %w {strides = array<i64: 1, 2>, dilations = array<i64: 1, 1>, pads_begin = array<i64: 0, 1>, pads_end = array<i64: 0, 1>, auto_pad = "same_upper"} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
func.func @convolution(%x: tensor<1x2x5x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %0 = openvino.convolution %x, %w {strides = array<i64: 1, 2>, dilations = array<i64: 1, 1>, pads_begin = array<i64: 0, 1>, pads_end = array<i64: 0, 1>, auto_pad = "same_upper"} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %0 : tensor<1x3x3x3xf32>
}

// CHECK-LABEL: func.func @movement(
func.func @movement(%a: tensor<2x6xf32>, %d: tensor<?x6xf32>, %u: tensor<*xf32>) -> tensor<6x2xf32> {
  %axis = openvino.constant dense<1> : tensor<i64>
  %lengths = openvino.constant dense<[2, 4]> : tensor<2xi64>
  %shape = openvino.constant dense<[3, 4]> : tensor<2xi64>
  %order = openvino.constant dense<[1, 0]> : tensor<2xi64>
  %axes = openvino.constant dense<[1]> : tensor<1xi64>
  %idx = openvino.constant dense<[0, -1]> : tensor<2xi32>
  // CHECK: %{{.*}} = openvino.matmul %a, %a {transpose_b = true} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x2xf32>
  %mm = openvino.matmul %a, %a {transpose_b = true} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x2xf32>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = openvino.split %a, %{{.*}} {num_splits = 2 : i64} : (tensor<2x6xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %s:2 = openvino.split %a, %axis {num_splits = 2 : i64} : (tensor<2x6xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK-NEXT: = openvino.variadic_split %a, %{{.*}}, %{{.*}} : (tensor<2x6xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<2x2xf32>, tensor<2x4xf32>)
  %v:2 = openvino.variadic_split %a, %axis, %lengths : (tensor<2x6xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<2x2xf32>, tensor<2x4xf32>)
  // CHECK-NEXT: = openvino.strided_slice %a, %{{.*}}, %{{.*}}, %{{.*}} {begin_mask = array<i64: 0, 1>, end_mask = array<i64: 1, 0>, new_axis_mask = array<i64>, shrink_axis_mask = array<i64>, ellipsis_mask = array<i64>} : (tensor<2x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf32>
  %ss = openvino.strided_slice %a, %order, %shape, %order {begin_mask = array<i64: 0, 1>, end_mask = array<i64: 1, 0>, new_axis_mask = array<i64>, shrink_axis_mask = array<i64>, ellipsis_mask = array<i64>} : (tensor<2x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf32>
  // CHECK-NEXT: = openvino.slice %a, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x1xf32>
  %sl = openvino.slice %a, %axes, %axes, %axes, %axes : (tensor<2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x1xf32>
  // CHECK-NEXT: = openvino.slice %a, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x6xf32>
  %sl2 = openvino.slice %a, %axes, %axes, %axes : (tensor<2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x6xf32>
  // CHECK-NEXT: = openvino.concat %a, %d {axis = 0 : i64} : (tensor<2x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %cc = openvino.concat %a, %d {axis = 0 : i64} : (tensor<2x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  // CHECK-NEXT: = openvino.reshape %a, %{{.*}} {special_zero = true} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %rs = openvino.reshape %a, %shape {special_zero = true} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  // CHECK-NEXT: = openvino.unsqueeze %a, %{{.*}} : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2x1x6xf32>
  %us = openvino.unsqueeze %a, %axes : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2x1x6xf32>
  // CHECK-NEXT: = openvino.squeeze %{{.*}}, %{{.*}} : (tensor<2x1x6xf32>, tensor<1xi64>) -> tensor<2x6xf32>
  %sq = openvino.squeeze %us, %axes : (tensor<2x1x6xf32>, tensor<1xi64>) -> tensor<2x6xf32>
  // CHECK-NEXT: = openvino.squeeze %{{.*}} : (tensor<2x1x6xf32>) -> tensor<2x6xf32>
  %sq2 = openvino.squeeze %us : (tensor<2x1x6xf32>) -> tensor<2x6xf32>
  // CHECK-NEXT: = openvino.shape_of %d : (tensor<?x6xf32>) -> tensor<2xi64>
  %so = openvino.shape_of %d : (tensor<?x6xf32>) -> tensor<2xi64>
  // CHECK-NEXT: = openvino.shape_of %u : (tensor<*xf32>) -> tensor<?xi32>
  %so2 = openvino.shape_of %u : (tensor<*xf32>) -> tensor<?xi32>
  // CHECK-NEXT: = openvino.gather %a, %{{.*}}, %{{.*}} : (tensor<2x6xf32>, tensor<2xi32>, tensor<i64>) -> tensor<2x2xf32>
  %g = openvino.gather %a, %idx, %axis : (tensor<2x6xf32>, tensor<2xi32>, tensor<i64>) -> tensor<2x2xf32>
  // CHECK-NEXT: = openvino.gather %a, %{{.*}}, %{{.*}} {batch_dims = 1 : i64} : (tensor<2x6xf32>, tensor<2xi32>, tensor<i64>) -> tensor<2xf32>
  %g2 = openvino.gather %a, %idx, %axis {batch_dims = 1 : i64} : (tensor<2x6xf32>, tensor<2xi32>, tensor<i64>) -> tensor<2xf32>
  // CHECK-NEXT: = openvino.broadcast %a, %{{.*}} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %b = openvino.broadcast %a, %so : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK-NEXT: = openvino.broadcast %a, %{{.*}}, %{{.*}} {mode = "explicit"} : (tensor<2x6xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x6xf32>
  %b2 = openvino.broadcast %a, %so, %order {mode = "explicit"} : (tensor<2x6xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x6xf32>
  // CHECK-NEXT: = openvino.reduce_sum %a, %{{.*}} {keep_dims = true} : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %r1 = openvino.reduce_sum %a, %axes {keep_dims = true} : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  // CHECK-NEXT: = openvino.reduce_mean %a, %{{.*}} : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2xf32>
  %r2 = openvino.reduce_mean %a, %axes : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2xf32>
  // CHECK-NEXT: = openvino.reduce_max %a, %{{.*}} : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2xf32>
  %r3 = openvino.reduce_max %a, %axes : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2xf32>
  // CHECK-NEXT: = openvino.transpose %a, %{{.*}} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<6x2xf32>
  %t = openvino.transpose %a, %order : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<6x2xf32>
  func.return %t : tensor<6x2xf32>
}

// CHECK-LABEL: func.func @cells(
func.func @cells(%x: tensor<1x3xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %w: tensor<16x3xf32>, %r: tensor<16x4xf32>, %b: tensor<16xf32>, %gw: tensor<12x3xf32>, %gr: tensor<12x4xf32>, %gb: tensor<16xf32>) -> tensor<1x4xf32> {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = openvino.lstm_cell %x, %h, %c, %w, %r, %b {hidden_size = 4 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.000000e+00 : f32} : (tensor<1x3xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  %ho, %co = openvino.lstm_cell %x, %h, %c, %w, %r, %b {hidden_size = 4 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32} : (tensor<1x3xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  // CHECK-NEXT: = openvino.gru_cell %x, %{{.*}}, %gw, %gr, %gb {hidden_size = 4 : i64, activations = ["sigmoid", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.000000e+00 : f32, linear_before_reset = true} : (tensor<1x3xf32>, tensor<1x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<16xf32>) -> tensor<1x4xf32>
  %g = openvino.gru_cell %x, %ho, %gw, %gr, %gb {hidden_size = 4 : i64, activations = ["sigmoid", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, linear_before_reset = true} : (tensor<1x3xf32>, tensor<1x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<16xf32>) -> tensor<1x4xf32>
  func.return %g : tensor<1x4xf32>
}

// CHECK-LABEL: func.func @loop(
func.func @loop(%xs: tensor<1x2x3xf32>, %h0: tensor<1x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x4xf32>) {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = openvino.tensor_iterator(%xs, %h0) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>]} : (tensor<1x2x3xf32>, tensor<1x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x4xf32>) {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<1x1x3xf32>, %{{.*}}: tensor<1x4xf32>):
  // CHECK:        openvino.yield %{{.*}}, %{{.*}} : tensor<1x1x4xf32>, tensor<1x4xf32>
  // CHECK-NEXT: }
  %ys, %hn = openvino.tensor_iterator(%xs, %h0) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>]} : (tensor<1x2x3xf32>, tensor<1x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x4xf32>) {
  ^bb0(%x: tensor<1x1x3xf32>, %h: tensor<1x4xf32>):
    %w = openvino.constant dense<1.0> : tensor<3x4xf32>
    %axes = openvino.constant dense<[1]> : tensor<1xi64>
    %x2 = openvino.squeeze %x, %axes : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %m = openvino.matmul %x2, %w : (tensor<1x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
    %hn = openvino.add %m, %h : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %y = openvino.unsqueeze %hn, %axes : (tensor<1x4xf32>, tensor<1xi64>) -> tensor<1x1x4xf32>
    openvino.yield %y, %hn : tensor<1x1x4xf32>, tensor<1x4xf32>
  }
  func.return %ys, %hn : tensor<1x2x4xf32>, tensor<1x4xf32>
}

// Loop-5: a trip count and a condition first, the iteration's number in body argument 0,
// the body's condition its Result 0.
// CHECK-LABEL: func.func @loop5(
func.func @loop5(%trip: tensor<i32>, %go: tensor<i1>, %xs: tensor<1x?x3xf32>, %h0: tensor<1x3xf32>) -> tensor<1x3xf32> {
  // CHECK-NEXT: %{{.*}} = openvino.loop(%trip, %go, %xs, %h0) {input_port_map = [#openvino.port_map<external = 2, internal = 1, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 3, internal = 2>], output_port_map = [#openvino.port_map<external = 0, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 2>], current_iteration = 0 : i64, condition = 0 : i64} : (tensor<i32>, tensor<i1>, tensor<1x?x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<i64>, %{{.*}}: tensor<1x1x3xf32>, %{{.*}}: tensor<1x3xf32>):
  // CHECK:        openvino.yield %{{.*}}, %{{.*}} : tensor<i1>, tensor<1x3xf32>
  %hn = openvino.loop(%trip, %go, %xs, %h0) {input_port_map = [#openvino.port_map<external = 2, internal = 1, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 3, internal = 2>], output_port_map = [#openvino.port_map<external = 0, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 2>], current_iteration = 0 : i64, condition = 0 : i64} : (tensor<i32>, tensor<i1>, tensor<1x?x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%k: tensor<i64>, %x: tensor<1x1x3xf32>, %h: tensor<1x3xf32>):
    %true = openvino.constant dense<true> : tensor<i1>
    %axes = openvino.constant dense<[1]> : tensor<1xi64>
    %x2 = openvino.squeeze %x, %axes : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %next = openvino.add %x2, %h : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    openvino.yield %true, %next : tensor<i1>, tensor<1x3xf32>
  }
  func.return %hn : tensor<1x3xf32>
}

// CHECK-LABEL: func.func @group_convolution(
// CHECK-NEXT: openvino.group_convolution %x, %w {strides = array<i64: 1>, dilations = array<i64: 1>, pads_begin = array<i64: 1>, pads_end = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x1x1x3xf32>) -> tensor<1x4x5xf32>
func.func @group_convolution(%x: tensor<1x4x5xf32>, %w: tensor<4x1x1x3xf32>) -> tensor<1x4x5xf32> {
  %0 = openvino.group_convolution %x, %w {strides = array<i64: 1>, dilations = array<i64: 1>, pads_begin = array<i64: 1>, pads_end = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x1x1x3xf32>) -> tensor<1x4x5xf32>
  func.return %0 : tensor<1x4x5xf32>
}

// CHECK-LABEL: func.func @tile_pad_reduce(
// CHECK-NEXT: %{{.*}} = openvino.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT: %{{.*}} = openvino.pad %x, %b, %e {pad_mode = "reflect"} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x5xf32>
// CHECK-NEXT: %{{.*}} = openvino.pad %x, %b, %e, %v : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<f32>) -> tensor<2x5xf32>
// CHECK-NEXT: %{{.*}} = openvino.reduce_min %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
// CHECK-NEXT: %{{.*}} = openvino.reduce_prod %x, %a {keep_dims = true} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
func.func @tile_pad_reduce(%x: tensor<2x3xf32>, %r: tensor<2xi64>, %b: tensor<2xi64>, %e: tensor<2xi64>, %v: tensor<f32>, %a: tensor<1xi64>) {
  %0 = openvino.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  %1 = openvino.pad %x, %b, %e {pad_mode = "reflect"} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x5xf32>
  %2 = openvino.pad %x, %b, %e, %v : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<f32>) -> tensor<2x5xf32>
  %3 = openvino.reduce_min %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
  %4 = openvino.reduce_prod %x, %a {keep_dims = true} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  func.return
}

// CHECK-LABEL: func.func @pooling(
// CHECK-NEXT: openvino.max_pool %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>, rounding_type = "ceil"} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT: openvino.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x7x6xf32>) -> (tensor<1x3x6x5xf32>, tensor<1x3x6x5xi64>)
// CHECK-NEXT: openvino.avg_pool %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, exclude_pad = true} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x3xf32>
func.func @pooling(%x: tensor<1x3x7x6xf32>) {
  %0 = openvino.max_pool %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>, rounding_type = "ceil"} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x4xf32>
  %1, %2 = openvino.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x7x6xf32>) -> (tensor<1x3x6x5xf32>, tensor<1x3x6x5xi64>)
  %3 = openvino.avg_pool %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, exclude_pad = true} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x3xf32>
  func.return
}

// Identity-16 takes any element type and shape (dynamic ones included).
// CHECK-LABEL: func.func @identity(
// CHECK-NEXT: %0 = openvino.identity %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = openvino.identity %b : (tensor<?x4xi1>) -> tensor<?x4xi1>
// CHECK-NEXT: %2 = openvino.identity %c : (tensor<*xi64>) -> tensor<*xi64>
// GENERIC: "openvino.identity"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @identity(%a: tensor<2x3xf32>, %b: tensor<?x4xi1>, %c: tensor<*xi64>) -> (tensor<2x3xf32>, tensor<?x4xi1>, tensor<*xi64>) {
  %0 = openvino.identity %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = openvino.identity %b : (tensor<?x4xi1>) -> tensor<?x4xi1>
  %2 = openvino.identity %c : (tensor<*xi64>) -> tensor<*xi64>
  func.return %0, %1, %2 : tensor<2x3xf32>, tensor<?x4xi1>, tensor<*xi64>
}
