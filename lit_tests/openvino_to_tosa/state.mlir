// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | tosa-state-opt --split-input-file | filecheck %s

// ReadValue / Assign become tosa.variable + tosa.variable.read / .write: reads stay where the
// ReadValues were, every write goes to the end of the function.

// A constant init is the variable's initial value.
// CHECK-LABEL: tosa.variable @acc = dense<{{\[\[}}5.000000e-01, 1.000000e+00, 1.500000e+00, 2.000000e+00]]> : tensor<1x4xf32>
// CHECK-LABEL: func.func @accumulator(
// CHECK-SAME: %x: tensor<1x4xf32> {openvino.name = "x"}) -> (tensor<1x4xf32> {openvino.name = "sum"})
// CHECK-NEXT:    %[[ACC:.*]] = tosa.variable.read @acc : tensor<1x4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = tosa.add %[[ACC]], %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[OUT:.*]] = tosa.clamp %[[SUM]] {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32}
// CHECK-NEXT:    tosa.variable.write @acc, %[[SUM]] : tensor<1x4xf32>
// CHECK-NEXT:    func.return %[[OUT]] : tensor<1x4xf32>
func.func @accumulator(%x: tensor<1x4xf32> {openvino.name = "x"}) -> (tensor<1x4xf32> {openvino.name = "sum"}) {
  %init = openvino.constant dense<[[0.5, 1.0, 1.5, 2.0]]> : tensor<1x4xf32>
  %acc = openvino.read_value "acc"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sum = openvino.add %acc, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  openvino.assign "acc", %sum {version = 6 : i64} : tensor<1x4xf32>
  %out = openvino.relu %sum : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %out : tensor<1x4xf32>
}

// -----

// Without init: zeros of variable_shape / variable_type; with a `?` dim, a dynamic variable
// without initial value, which starts empty (OpenVINO's start value). ReadValue-3 takes its
// type from the init. Function results get the types of what they return.
// CHECK-DAG: tosa.variable @counter = dense<0> : tensor<2x3xi32>
// CHECK-DAG: tosa.variable @empty : tensor<?x4xf16>
// CHECK-DAG: tosa.variable @old = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-LABEL: func.func @no_init(
// CHECK-SAME: -> (tensor<2x3xi32>, tensor<?x4xf16>, tensor<2xf32>)
// CHECK:         %[[C:.*]] = tosa.variable.read @counter : tensor<2x3xi32>
// CHECK:         %[[E:.*]] = tosa.variable.read @empty : tensor<?x4xf16>
// CHECK:         %[[O:.*]] = tosa.variable.read @old : tensor<2xf32>
// CHECK:         tosa.variable.write @counter, %{{.*}} : tensor<2x3xi32>
// CHECK-NEXT:    tosa.variable.write @empty, %[[E]] : tensor<?x4xf16>
// CHECK-NEXT:    tosa.variable.write @old, %{{.*}} : tensor<2xf32>
// CHECK-NEXT:    func.return %[[C]], %[[E]], %[[O]] : tensor<2x3xi32>, tensor<?x4xf16>, tensor<2xf32>
func.func @no_init(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<?x4xf16>, tensor<2xf32>) {
  %c = openvino.read_value "counter" {version = 6 : i64, variable_type = i32, variable_shape = #openvino.partial_shape<[2, 3]>} : () -> tensor<2x3xi32>
  %e = openvino.read_value "empty" {version = 6 : i64, variable_type = f16, variable_shape = #openvino.partial_shape<[?, 4]>} : () -> tensor<?x4xf16>
  %init = openvino.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %o = openvino.read_value "old"(%init) {version = 3 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  %c1 = openvino.add %c, %x : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  openvino.assign "counter", %c1 {version = 6 : i64} : tensor<2x3xi32>
  openvino.assign "empty", %e {version = 6 : i64} : tensor<?x4xf16>
  %o1 = openvino.multiply %o, %o : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  openvino.assign "old", %o1 {version = 3 : i64} : tensor<2xf32>
  func.return %c, %e, %o : tensor<2x3xi32>, tensor<?x4xf16>, tensor<2xf32>
}

// -----

// An init computed from the inputs is used on the first call and after a reset only: a flag
// variable says whether the state holds a value; the read value is select(flag, state, init)
// and the flag is written true. The state's `?` dim takes the init's static size.
// CHECK:      tosa.variable @state = dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT: tosa.variable @state__initialized {tosa_state.init_flag_of = "state"} = dense<false> : tensor<i1>
// CHECK-LABEL: func.func @computed_init(
// CHECK-SAME: -> tensor<1x4xf32>
// CHECK-DAG:     %[[TWO:.*]] = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
// CHECK-DAG:     %[[INIT:.*]] = tosa.mul %x, %[[TWO]], %{{.*}} : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
// CHECK-DAG:     %[[STATE:.*]] = tosa.variable.read @state : tensor<1x4xf32>
// CHECK-DAG:     %[[FLAG:.*]] = tosa.variable.read @state__initialized : tensor<i1>
// CHECK-DAG:     %[[FLAG2:.*]] = tosa.reshape %[[FLAG]], %{{.*}} : (tensor<i1>, !tosa.shape<2>) -> tensor<1x1xi1>
// CHECK-DAG:     %[[TRUE:.*]] = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
// CHECK:         %[[READ:.*]] = tosa.select %[[FLAG2]], %[[STATE]], %[[INIT]] : (tensor<1x1xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[NEW:.*]] = tosa.add %[[READ]], %x
// CHECK-NEXT:    tosa.variable.write @state__initialized, %[[TRUE]] : tensor<i1>
// CHECK-NEXT:    tosa.variable.write @state, %[[NEW]] : tensor<1x4xf32>
// CHECK-NEXT:    func.return %[[NEW]] : tensor<1x4xf32>
func.func @computed_init(%x: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %two = openvino.constant dense<2.0> : tensor<f32>
  %init = openvino.multiply %x, %two : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  %s = openvino.read_value "state"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?, 4]>} : (tensor<1x4xf32>) -> tensor<?x4xf32>
  %new = openvino.add %s, %x : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  openvino.assign "state", %new {version = 6 : i64} : tensor<?x4xf32>
  func.return %new : tensor<?x4xf32>
}

// -----

// An init that only depends on static shapes (LowLatency2's Broadcast(0, ShapeOf(h0))) folds
// to a constant: no flag. Two variables whose Assigns read each other's ReadValue: both reads
// come before both writes.
// CHECK:      tosa.variable @a = dense<0.000000e+00> : tensor<1x2xf32>
// CHECK-NEXT: tosa.variable @b = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT:  __initialized
// CHECK-LABEL: func.func @swap(
// CHECK:         %[[A:.*]] = tosa.variable.read @a : tensor<1x2xf32>
// CHECK:         %[[B:.*]] = tosa.variable.read @b : tensor<2xf32>
// CHECK:         tosa.variable.write @a, %{{.*}} : tensor<1x2xf32>
// CHECK-NEXT:    tosa.variable.write @b, %{{.*}} : tensor<2xf32>
// CHECK-NEXT:    func.return
func.func @swap(%h0: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<2xf32>) {
  %zero = openvino.constant dense<0.0> : tensor<1xf32>
  %shape = openvino.shape_of %h0 : (tensor<1x2xf32>) -> tensor<2xi64>
  %zeros = openvino.broadcast %zero, %shape : (tensor<1xf32>, tensor<2xi64>) -> tensor<1x2xf32>
  %a = openvino.read_value "a"(%zeros) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 2]>} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %binit = openvino.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = openvino.read_value "b"(%binit) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2]>} : (tensor<2xf32>) -> tensor<2xf32>
  %b2 = openvino.add %b, %h0 : (tensor<2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  openvino.assign "a", %b2 {version = 6 : i64} : tensor<1x2xf32>
  %a2 = openvino.constant dense<[-1]> : tensor<1xi64>
  %a3 = openvino.reshape %a, %a2 : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<?xf32>
  openvino.assign "b", %a3 {version = 6 : i64} : tensor<?xf32>
  func.return %a, %b : tensor<1x2xf32>, tensor<2xf32>
}

// -----

// Identity-16 around state: the read value itself is written back and returned (the runtime
// copies what it returns, so results never alias the variable).
// CHECK-LABEL: tosa.variable @held = dense<1.000000e+00> : tensor<2xf32>
// CHECK-LABEL: func.func @identity_state(
// CHECK-NEXT:    %[[H:.*]] = tosa.variable.read @held : tensor<2xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.add %[[H]], %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    tosa.variable.write @held, %[[S]] : tensor<2xf32>
// CHECK-NEXT:    func.return %[[H]] : tensor<2xf32>
func.func @identity_state(%x: tensor<2xf32>) -> tensor<2xf32> {
  %init = openvino.constant dense<1.0> : tensor<2xf32>
  %h = openvino.read_value "held"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2]>} : (tensor<2xf32>) -> tensor<2xf32>
  %i = openvino.identity %h : (tensor<2xf32>) -> tensor<2xf32>
  %s = openvino.add %i, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %j = openvino.identity %s : (tensor<2xf32>) -> tensor<2xf32>
  openvino.assign "held", %j {version = 6 : i64} : tensor<2xf32>
  func.return %i : tensor<2xf32>
}
