// RUN: tosa-state-opt %s --split-input-file -p 'tosa-static-state{capacity=8}' | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p 'tosa-static-state{max-prompt-len=6 min-response-len=2}' | filecheck %s

// A cache that grows by one row a call: 8 rows and a count (f32: TOSA 1.0 has no i32
// variables; cast to i32 where it is used). The past every reader sees is
// its first 8 - 1 rows (OpenVINO GenAI's static layout: the new rows last), the stored
// value has the new row at the count, and the count grows by one.

// CHECK-LABEL: tosa.variable @k = dense<0.000000e+00> : tensor<1x2x8x4xf32>
// CHECK-NEXT:  tosa.variable @k__count {tosa_state.count_of = "k"} = dense<0.000000e+00> : tensor<1xf32>
// CHECK:       %[[PAST:.*]] = tosa.variable.read @k : tensor<1x2x8x4xf32>
// CHECK-NEXT:  %[[HELD:.*]] = tosa.variable.read @k__count : tensor<1xf32>
// CHECK-NEXT:  %[[COUNT:.*]] = tosa.cast %[[HELD]] : (tensor<1xf32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[ONE:.*]] = tosa.const_shape  {values = dense<1> : tensor<1xindex>}
// CHECK-NEXT:  tosa_state.check_capacity %[[COUNT]], %[[ONE]] {variable = "k", capacity = 8 : i64} : tensor<1xi32>, !tosa.shape<1>
// CHECK:       %[[SIZE:.*]] = tosa.const_shape  {values = dense<[1, 2, 7, 4]> : tensor<4xindex>}
// CHECK-NEXT:  %[[KEPT:.*]] = tosa.slice %[[PAST]], %{{.*}}, %[[SIZE]] : (tensor<1x2x8x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x7x4xf32>
// CHECK-NEXT:  %[[ALL:.*]] = tosa.concat %[[KEPT]], %new {axis = 2 : i32} : (tensor<1x2x7x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
// CHECK:       %[[VALUES:.*]] = tosa.reshape %[[ALL]], %{{.*}} : (tensor<1x2x?x4xf32>, !tosa.shape<3>) -> tensor<2x8x4xf32>
// CHECK:       %[[UPDATES:.*]] = tosa.reshape %new, %{{.*}} : (tensor<1x2x1x4xf32>, !tosa.shape<3>) -> tensor<2x1x4xf32>
// CHECK-NEXT:  %[[IOTA:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-NEXT:  %[[AT:.*]] = tosa.add %[[IOTA]], %[[COUNT]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK:       %[[INDICES:.*]] = tosa.tile %{{.*}}, %{{.*}} : (tensor<1x1xi32>, !tosa.shape<2>) -> tensor<2x1xi32>
// CHECK-NEXT:  %[[STORED:.*]] = tosa.scatter %[[VALUES]], %[[INDICES]], %[[UPDATES]] : (tensor<2x8x4xf32>, tensor<2x1xi32>, tensor<2x1x4xf32>) -> tensor<2x8x4xf32>
// CHECK:       %[[NEW:.*]] = tosa.reshape %[[STORED]], %{{.*}} : (tensor<2x8x4xf32>, !tosa.shape<4>) -> tensor<1x2x8x4xf32>
// CHECK-NEXT:  %[[ADDED:.*]] = "tosa.const"() <{values = dense<1> : tensor<1xi32>}>
// CHECK-NEXT:  %[[NEXT:.*]] = tosa.add %[[COUNT]], %[[ADDED]]
// CHECK-NEXT:  %[[STORED_NEXT:.*]] = tosa.cast %[[NEXT]] : (tensor<1xi32>) -> tensor<1xf32>
// CHECK-NEXT:  tosa.variable.write @k, %[[NEW]] : tensor<1x2x8x4xf32>
// CHECK-NEXT:  tosa.variable.write @k__count, %[[STORED_NEXT]] : tensor<1xf32>
// CHECK-NEXT:  func.return %[[ALL]]
tosa.variable @k : tensor<1x2x?x4xf32>
func.func @main(%new: tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32> {
  %past = tosa.variable.read @k : tensor<1x2x?x4xf32>
  %all = tosa.concat %past, %new {axis = 2 : i32} : (tensor<1x2x?x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x2x?x4xf32>
  func.return %all : tensor<1x2x?x4xf32>
}

// -----

// As OpenVINO's ReadValue with an init: a dynamic batch, n new rows a call, and the empty
// init chosen on the first call (and after a reset) padded to the capacity; the count is 0
// whenever the init is chosen. Readers of the past after the concat see the kept rows
// (8 - n: the model derives its causal mask from that length), the variable keeps its
// dynamic batch.

// CHECK-LABEL: tosa.variable @kv : tensor<?x2x8x4xf32>
// CHECK-NEXT:  tosa.variable @kv__count {tosa_state.count_of = "kv"} = dense<0.000000e+00> : tensor<1xf32>
// CHECK:       %[[INIT:.*]] = tosa.tile %{{.*}}, %{{.*}} : (tensor<1x1x1x1xf32>, !tosa.shape<4>) -> tensor<?x2x0x4xf32>
// CHECK-NEXT:  %[[STATE:.*]] = tosa.variable.read @kv : tensor<?x2x8x4xf32>
// CHECK-NEXT:  %[[FLAG:.*]] = tosa.variable.read @kv__initialized : tensor<i1>
// CHECK-NEXT:  %[[PADDING:.*]] = tosa.const_shape  {values = dense<[0, 0, 0, 0, 0, 8, 0, 0]> : tensor<8xindex>}
// CHECK-NEXT:  %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT:  %[[PADDED:.*]] = tosa.pad %[[INIT]], %[[PADDING]], %[[ZERO]] : (tensor<?x2x0x4xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<?x2x8x4xf32>
// CHECK-NEXT:  %[[PAST:.*]] = tosa.cond_if %[[FLAG]] (%{{.*}} = %[[STATE]], %{{.*}} = %[[PADDED]]) : tensor<i1> (tensor<?x2x8x4xf32>, tensor<?x2x8x4xf32>) -> tensor<?x2x?x4xf32>
// CHECK:       %[[HELD:.*]] = tosa.variable.read @kv__count : tensor<1xf32>
// CHECK-NEXT:  %[[STORED_COUNT:.*]] = tosa.cast %[[HELD]] : (tensor<1xf32>) -> tensor<1xi32>
// CHECK:       %[[FLAG1:.*]] = tosa.reshape %[[FLAG]], %{{.*}} : (tensor<i1>, !tosa.shape<1>) -> tensor<1xi1>
// CHECK:       %[[COUNT:.*]] = tosa.select %[[FLAG1]], %[[STORED_COUNT]], %{{.*}} : (tensor<1xi1>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[ROWS:.*]] = tosa.dim %new {axis = 2 : i32}
// CHECK-NEXT:  tosa_state.check_capacity %[[COUNT]], %[[ROWS]] {variable = "kv", capacity = 8 : i64}
// CHECK:       %[[KEPT_ROWS:.*]] = tosa.sub_shape %{{.*}}, %[[ROWS]]
// CHECK:       %[[KEPT:.*]] = tosa.slice %[[PAST]], %{{.*}}, %{{.*}} : (tensor<?x2x?x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<?x2x?x4xf32>
// CHECK-NEXT:  %[[ALL:.*]] = tosa.concat %[[KEPT]], %new {axis = 2 : i32}
// CHECK-NEXT:  %{{.*}} = tosa.dim %[[KEPT]] {axis = 2 : i32}
// CHECK:       %[[IOTA:.*]] = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}>
// CHECK:       tosa.slice %[[IOTA]], %{{.*}}, %[[ROWS]] : (tensor<8xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK:       tosa.scatter
// CHECK:       tosa.tile %{{.*}}, %[[ROWS]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK:       tosa.variable.write @kv, %{{.*}} : tensor<?x2x8x4xf32>
// CHECK-NEXT:  tosa.variable.write @kv__count, %{{.*}} : tensor<1xf32>
tosa.variable @kv : tensor<?x2x?x4xf32>
tosa.variable @kv__initialized {tosa_state.init_flag_of = "kv"} = dense<false> : tensor<i1>
func.func @main(%new: tensor<?x2x?x4xf32>) -> (tensor<?x2x?x4xf32>, !tosa.shape<1>) {
  %b = tosa.dim %new {axis = 0 : i32} : (tensor<?x2x?x4xf32>) -> !tosa.shape<1>
  %s = tosa.const_shape {values = dense<[2, 0, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shape = tosa.concat_shape %b, %s : (!tosa.shape<1>, !tosa.shape<3>) -> !tosa.shape<4>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %init = tosa.tile %zero, %shape : (tensor<1x1x1x1xf32>, !tosa.shape<4>) -> tensor<?x2x0x4xf32>
  %state = tosa.variable.read @kv : tensor<?x2x?x4xf32>
  %flag = tosa.variable.read @kv__initialized : tensor<i1>
  %past = tosa.cond_if %flag (%a = %state, %i = %init) : tensor<i1> (tensor<?x2x?x4xf32>, tensor<?x2x0x4xf32>) -> tensor<?x2x?x4xf32> {
  ^bb0(%a: tensor<?x2x?x4xf32>, %i: tensor<?x2x0x4xf32>):
    tosa.yield %a : tensor<?x2x?x4xf32>
  } else {
  ^bb0(%a: tensor<?x2x?x4xf32>, %i: tensor<?x2x0x4xf32>):
    tosa.yield %i : tensor<?x2x0x4xf32>
  }
  %all = tosa.concat %past, %new {axis = 2 : i32} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  %length = tosa.dim %past {axis = 2 : i32} : (tensor<?x2x?x4xf32>) -> !tosa.shape<1>
  %true = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  tosa.variable.write @kv__initialized, %true : tensor<i1>
  tosa.variable.write @kv, %all : tensor<?x2x?x4xf32>
  func.return %all, %length : tensor<?x2x?x4xf32>, !tosa.shape<1>
}

// -----

// Nothing grows: a window of fixed length (a concat into a static variable) and a variable
// written with something else than a concat are left as they are.

// CHECK-LABEL: tosa.variable @window = dense<0.000000e+00> : tensor<1x3xf32>
// CHECK-NEXT:  tosa.variable @h : tensor<?x4xf32>
// CHECK-NOT:   __count
// CHECK-NOT:   check_capacity
tosa.variable @window = dense<0.0> : tensor<1x3xf32>
tosa.variable @h : tensor<?x4xf32>
func.func @main(%x: tensor<1x1xf32>, %y: tensor<?x4xf32>) -> tensor<1x3xf32> {
  %w = tosa.variable.read @window : tensor<1x3xf32>
  %start = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %tail = tosa.slice %w, %start, %size : (tensor<1x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %next = tosa.concat %tail, %x {axis = 1 : i32} : (tensor<1x2xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
  tosa.variable.write @window, %next : tensor<1x3xf32>
  tosa.variable.write @h, %y : tensor<?x4xf32>
  func.return %next : tensor<1x3xf32>
}

// -----

// A count's name already taken: the next free one.

// CHECK-LABEL: tosa.variable @k__count = dense<7> : tensor<1xi32>
// CHECK-NEXT:  tosa.variable @k = dense<0.000000e+00> : tensor<1x8xf32>
// CHECK-NEXT:  tosa.variable @k__count1 {tosa_state.count_of = "k"} = dense<0.000000e+00> : tensor<1xf32>
// CHECK:       tosa.variable.read @k__count1
// CHECK:       tosa.variable.write @k__count1
tosa.variable @k__count = dense<7> : tensor<1xi32>
tosa.variable @k : tensor<1x?xf32>
func.func @main(%new: tensor<1x1xf32>) -> tensor<1x?xf32> {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return %all : tensor<1x?xf32>
}

// -----

// A concat more static than the variable is written through a reshape to the variable's
// run-time shape: the stored value replaces both.

// CHECK-LABEL: tosa.variable @kv : tensor<?x2x8xf32>
// CHECK:       %[[ALL:.*]] = tosa.concat %{{.*}}, %new {axis = 2 : i32} : (tensor<1x2x7xf32>, tensor<1x2x1xf32>) -> tensor<1x2x?xf32>
// CHECK-NOT:   %stored = tosa.reshape
// CHECK:       %[[STORED:.*]] = tosa.scatter
// CHECK:       %[[VALUE:.*]] = tosa.reshape %[[STORED]], %{{.*}} : (tensor<2x8x1xf32>, !tosa.shape<3>) -> tensor<?x2x8xf32>
// CHECK:       tosa.variable.write @kv, %[[VALUE]] : tensor<?x2x8xf32>
tosa.variable @kv : tensor<?x2x?xf32>
func.func @main(%new: tensor<1x2x1xf32>) -> tensor<1x2x?xf32> {
  %state = tosa.variable.read @kv : tensor<?x2x?xf32>
  %shape = tosa.const_shape {values = dense<[1, 2, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %past = tosa.reshape %state, %shape : (tensor<?x2x?xf32>, !tosa.shape<3>) -> tensor<1x2x?xf32>
  %all = tosa.concat %past, %new {axis = 2 : i32} : (tensor<1x2x?xf32>, tensor<1x2x1xf32>) -> tensor<1x2x?xf32>
  %d = tosa.dim %all {axis = 2 : i32} : (tensor<1x2x?xf32>) -> !tosa.shape<1>
  %s = tosa.const_shape {values = dense<[-1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %back = tosa.concat_shape %s, %d : (!tosa.shape<2>, !tosa.shape<1>) -> !tosa.shape<3>
  %stored = tosa.reshape %all, %back : (tensor<1x2x?xf32>, !tosa.shape<3>) -> tensor<?x2x?xf32>
  tosa.variable.write @kv, %stored : tensor<?x2x?xf32>
  func.return %all : tensor<1x2x?xf32>
}
