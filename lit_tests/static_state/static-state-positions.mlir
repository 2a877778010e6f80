// RUN: tosa-state-opt %s --split-input-file -p 'tosa-static-state{capacity=8}' | filecheck %s

// A model with no position_ids (bart's learned positions, whisper's): it computes its
// positions as a Range [past, past + n) of the conversion's table from the past's length, and
// compares them with the keys' indices [0, past + n) for its causal mask. The kept past is
// taken where the past is read (the new rows' count is known there from the shapes: here
// dim 1 of %x, which the new rows get through the add), so every reader of the past's length
// sees N - n; the positions then count from the count (minus N - n - count) where they
// index the learned table, and stay in the layout's indices where the causal mask compares
// them with the keys' (N - n + i admits the valid past, the empty rows that the attention
// mask masks, and the new rows up to i).

// CHECK-LABEL: func.func @main(%x: tensor<1x?x4xf32>) -> (tensor<?x?xi1>, tensor<1x?x4xf32>)
// CHECK-NEXT:  %[[PAST:.*]] = tosa.variable.read @k : tensor<1x8x4xf32>
// CHECK-NEXT:  %[[HELD:.*]] = tosa.variable.read @k__count : tensor<1xf32>
// CHECK-NEXT:  %[[COUNT:.*]] = tosa.cast %[[HELD]] : (tensor<1xf32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[ROWS:.*]] = tosa.dim %x {axis = 1 : i32}
// CHECK-NEXT:  tosa_state.check_capacity %[[COUNT]], %[[ROWS]] {variable = "k", capacity = 8 : i64}
// CHECK:       %[[KEPT_ROWS:.*]] = tosa.sub_shape %{{.*}}, %[[ROWS]]
// CHECK:       %[[KEPT:.*]] = tosa.slice %[[PAST]], %{{.*}}, %{{.*}} : (tensor<1x8x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x?x4xf32>
// CHECK-NEXT:  %[[P:.*]] = tosa.dim %[[KEPT]] {axis = 1 : i32}
// CHECK:       %[[Q:.*]] = tosa.slice %[[TABLE:.*]], %[[P]], %[[N:.*]] : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK:       %[[KEPT_TENSOR:.*]] = tosa.reduce_sum
// CHECK-NEXT:  %[[OFFSET:.*]] = tosa.sub %[[KEPT_TENSOR]], %[[COUNT]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[FROM_COUNT:.*]] = tosa.sub %[[Q]], %[[OFFSET]] : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
// CHECK:       %[[Q2:.*]] = tosa.reshape %[[Q]], %{{.*}} : (tensor<?xi32>, !tosa.shape<2>) -> tensor<?x1xi32>
// CHECK:       tosa.greater_equal %[[Q2]], %{{.*}}
// CHECK:       %[[AT:.*]] = tosa.reshape %[[FROM_COUNT]], %{{.*}} : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
// CHECK-NEXT:  tosa.gather %{{.*}}, %[[AT]]
// CHECK:       tosa.concat %[[KEPT]], %new {axis = 1 : i32}
// CHECK:       tosa.variable.write @k, %{{.*}} : tensor<1x8x4xf32>
tosa.variable @k : tensor<1x?x4xf32>
func.func @main(%x: tensor<1x?x4xf32>) -> (tensor<?x?xi1>, tensor<1x?x4xf32>) {
  %past = tosa.variable.read @k : tensor<1x?x4xf32>
  %p = tosa.dim %past {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %n = tosa.dim %x {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %end = tosa.add_shape %p, %n : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %q = tosa.slice %table, %p, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %keys = tosa.slice %table, %zero, %end : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %column = tosa.const_shape {values = dense<[-1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q2 = tosa.reshape %q, %column : (tensor<?xi32>, !tosa.shape<2>) -> tensor<?x1xi32>
  %k2 = tosa.reshape %keys, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %causal = tosa.greater_equal %q2, %k2 : (tensor<?x1xi32>, tensor<1x?xi32>) -> tensor<?x?xi1>
  %learned = "tosa.const"() <{values = dense<1.0> : tensor<1x12x4xf32>}> : () -> tensor<1x12x4xf32>
  %at = tosa.reshape %q, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %embedded = tosa.gather %learned, %at : (tensor<1x12x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  %new = tosa.add %x, %embedded : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x?x4xf32>
  func.return %causal, %all : tensor<?x?xi1>, tensor<1x?x4xf32>
}

// -----

// transformers 5.5's exports: cache_position = arange(n) + past, the past's length made a
// tensor by the conversion (a tile of ones, summed): that tensor counts from the count.

// CHECK-LABEL: func.func @main(%x: tensor<1x?x4xf32>) -> (tensor<?xi32>, tensor<1x?x4xf32>)
// CHECK:       %[[COUNT:.*]] = tosa.cast %{{.*}} : (tensor<1xf32>) -> tensor<1xi32>
// CHECK:       %[[KEPT:.*]] = tosa.slice %past
// CHECK-NEXT:  %[[P:.*]] = tosa.dim %[[KEPT]] {axis = 1 : i32}
// CHECK:       %[[ONES:.*]] = tosa.tile %one, %[[P]]
// CHECK-NEXT:  %[[HELD:.*]] = tosa.reduce_sum %[[ONES]] {axis = 0 : i32}
// CHECK:       %[[OFFSET:.*]] = tosa.sub %{{.*}}, %[[COUNT]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[FROM_COUNT:.*]] = tosa.sub %[[HELD]], %[[OFFSET]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %{{.*}} = tosa.add %steps, %[[FROM_COUNT]] : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
tosa.variable @k : tensor<1x?x4xf32>
func.func @main(%x: tensor<1x?x4xf32>) -> (tensor<?xi32>, tensor<1x?x4xf32>) {
  %past = tosa.variable.read @k : tensor<1x?x4xf32>
  %p = tosa.dim %past {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %n = tosa.dim %x {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %steps = tosa.slice %table, %zero, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ones = tosa.tile %one, %p : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
  %held = tosa.reduce_sum %ones {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
  %positions = tosa.add %steps, %held : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
  %all = tosa.concat %past, %x {axis = 1 : i32} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x?x4xf32>
  func.return %positions, %all : tensor<?xi32>, tensor<1x?x4xf32>
}

// -----

// The new rows as a decoder computes them, after the past's length is read: heads split by
// a reshape to run-time sizes (`tosa.concat_shape` of `tosa.dim`s) and a transpose. Their
// count is followed back to the dim of %x it comes from, which stands before the past, so
// the check and the kept slice stand right after the read.

// CHECK-LABEL: func.func @main(%x: tensor<1x?x8xf32>)
// CHECK-NEXT:  %[[PAST:.*]] = tosa.variable.read @k : tensor<1x2x8x4xf32>
// CHECK-NEXT:  %{{.*}} = tosa.variable.read @k__count
// CHECK-NEXT:  %[[COUNT:.*]] = tosa.cast
// CHECK-NEXT:  %[[ROWS:.*]] = tosa.dim %x {axis = 1 : i32}
// CHECK-NEXT:  tosa_state.check_capacity %[[COUNT]], %[[ROWS]] {variable = "k", capacity = 8 : i64}
// CHECK:       %[[KEPT:.*]] = tosa.slice %[[PAST]]
// CHECK-NEXT:  %p = tosa.dim %[[KEPT]] {axis = 2 : i32}
// CHECK:       tosa.concat %[[KEPT]], %new {axis = 2 : i32}
tosa.variable @k : tensor<1x2x?x4xf32>
func.func @main(%x: tensor<1x?x8xf32>) -> tensor<1x2x?x4xf32> {
  %past = tosa.variable.read @k : tensor<1x2x?x4xf32>
  %p = tosa.dim %past {axis = 2 : i32} : (tensor<1x2x?x4xf32>) -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %n = tosa.dim %x {axis = 1 : i32} : (tensor<1x?x8xf32>) -> !tosa.shape<1>
  %q = tosa.slice %table, %p, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %row : (tensor<?xi32>, !tosa.shape<3>) -> tensor<1x?x1xi32>
  %qf = tosa.cast %q3 : (tensor<1x?x1xi32>) -> tensor<1x?x1xf32>
  %h = tosa.add %x, %qf : (tensor<1x?x8xf32>, tensor<1x?x1xf32>) -> tensor<1x?x8xf32>
  %b = tosa.dim %h {axis = 0 : i32} : (tensor<1x?x8xf32>) -> !tosa.shape<1>
  %s = tosa.dim %h {axis = 1 : i32} : (tensor<1x?x8xf32>) -> !tosa.shape<1>
  %heads = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %shape = tosa.concat_shape %b, %s, %heads : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<4>
  %split = tosa.reshape %h, %shape : (tensor<1x?x8xf32>, !tosa.shape<4>) -> tensor<1x?x2x4xf32>
  %new = tosa.transpose %split {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x?x2x4xf32>) -> tensor<1x2x?x4xf32>
  %all = tosa.concat %past, %new {axis = 2 : i32} : (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x2x?x4xf32>
  func.return %all : tensor<1x2x?x4xf32>
}

// -----

// The same model specialised to 2 new rows with the attention mask's length static (the
// entries of `compile_model(..., static_state=...)`): the keys' indices are a constant
// table, and the positions compared with them still stay in the layout's indices (a
// comparison with a constant of one value, such as 0, is not the causal mask).

// CHECK-LABEL: func.func @main(%x: tensor<1x2x4xf32>) -> (tensor<2x8xi1>, tensor<1x?x4xf32>)
// CHECK:       %[[COUNT:.*]] = tosa.cast %{{.*}} : (tensor<1xf32>) -> tensor<1xi32>
// CHECK:       %[[KEPT:.*]] = tosa.slice %past, %{{.*}}, %{{.*}} : (tensor<1x8x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x6x4xf32>
// CHECK-NEXT:  %p = tosa.dim %[[KEPT]] {axis = 1 : i32}
// CHECK:       %q = tosa.slice %table, %p, %n
// CHECK:       %[[OFFSET:.*]] = tosa.sub %{{.*}}, %[[COUNT]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %[[FROM_COUNT:.*]] = tosa.sub %q, %[[OFFSET]] : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK:       %q2 = tosa.reshape %q, %column
// CHECK:       %causal = tosa.greater_equal %q2, %keys
// CHECK:       %at = tosa.reshape %[[FROM_COUNT]], %row
tosa.variable @k : tensor<1x?x4xf32>
func.func @main(%x: tensor<1x2x4xf32>) -> (tensor<2x8xi1>, tensor<1x?x4xf32>) {
  %past = tosa.variable.read @k : tensor<1x?x4xf32>
  %p = tosa.dim %past {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %n = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %q = tosa.slice %table, %p, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xi32>
  %column = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q2 = tosa.reshape %q, %column : (tensor<2xi32>, !tosa.shape<2>) -> tensor<2x1xi32>
  %keys = "tosa.const"() <{values = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi32>}> : () -> tensor<1x8xi32>
  %causal = tosa.greater_equal %q2, %keys : (tensor<2x1xi32>, tensor<1x8xi32>) -> tensor<2x8xi1>
  %learned = "tosa.const"() <{values = dense<1.0> : tensor<1x12x4xf32>}> : () -> tensor<1x12x4xf32>
  %row = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %at = tosa.reshape %q, %row : (tensor<2xi32>, !tosa.shape<2>) -> tensor<1x2xi32>
  %embedded = tosa.gather %learned, %at : (tensor<1x12x4xf32>, tensor<1x2xi32>) -> tensor<1x2x4xf32>
  %new = tosa.add %x, %embedded : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?x4xf32>, tensor<1x2x4xf32>) -> tensor<1x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x?x4xf32>
  func.return %causal, %all : tensor<2x8xi1>, tensor<1x?x4xf32>
}

// -----

// One new row (the `decode` entry): the rows reach the new tokens only through the positions,
// a Range of length (past + 1) - past reshaped to [1, -1]; that length is 1, known where the
// past is read, so the check and the kept slice stand right after the read.

// CHECK-LABEL: func.func @main(%x: tensor<1x1x4xf32>) -> tensor<1x?x4xf32>
// CHECK-NEXT:  %[[PAST:.*]] = tosa.variable.read @k : tensor<1x8x4xf32>
// CHECK-NEXT:  %{{.*}} = tosa.variable.read @k__count
// CHECK-NEXT:  %[[COUNT:.*]] = tosa.cast
// CHECK-NEXT:  %[[ROWS:.*]] = tosa.const_shape {values = dense<1> : tensor<1xindex>}
// CHECK-NEXT:  tosa_state.check_capacity %[[COUNT]], %[[ROWS]] {variable = "k", capacity = 8 : i64}
// CHECK:       %[[KEPT:.*]] = tosa.slice %[[PAST]], %{{.*}}, %{{.*}} : (tensor<1x8x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x7x4xf32>
// CHECK-NEXT:  %p = tosa.dim %[[KEPT]] {axis = 1 : i32}
// CHECK:       %q = tosa.slice %table, %p, %n
// CHECK:       %[[FROM_COUNT:.*]] = tosa.sub %q, %{{.*}} : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
// CHECK:       %at = tosa.reshape %[[FROM_COUNT]], %row
// CHECK:       tosa.concat %[[KEPT]], %new {axis = 1 : i32}
tosa.variable @k : tensor<1x?x4xf32>
func.func @main(%x: tensor<1x1x4xf32>) -> tensor<1x?x4xf32> {
  %past = tosa.variable.read @k : tensor<1x?x4xf32>
  %p = tosa.dim %past {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %end = tosa.add_shape %p, %one : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %n = tosa.sub_shape %end, %p : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %q = tosa.slice %table, %p, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %at = tosa.reshape %q, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %learned = "tosa.const"() <{values = dense<1.0> : tensor<1x12x4xf32>}> : () -> tensor<1x12x4xf32>
  %embedded = tosa.gather %learned, %at : (tensor<1x12x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  %s = tosa.dim %at {axis = 1 : i32} : (tensor<1x?xi32>) -> !tosa.shape<1>
  %head = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %width = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %shape = tosa.concat_shape %head, %s, %width : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
  %rows = tosa.reshape %embedded, %shape : (tensor<1x?x4xf32>, !tosa.shape<3>) -> tensor<1x?x4xf32>
  %new = tosa.add %x, %rows : (tensor<1x1x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x?x4xf32>
  func.return %all : tensor<1x?x4xf32>
}

// -----

// The same with the embedding added as gathered (blenderbot's learned positions): the new
// rows' count is the gather's indices' (and then the Range's length, 1).

// CHECK-LABEL: func.func @main(%x: tensor<1x1x4xf32>) -> tensor<1x?x4xf32>
// CHECK-NEXT:  %[[PAST:.*]] = tosa.variable.read @k : tensor<1x8x4xf32>
// CHECK-NEXT:  %{{.*}} = tosa.variable.read @k__count
// CHECK-NEXT:  %[[COUNT:.*]] = tosa.cast
// CHECK-NEXT:  %[[ROWS:.*]] = tosa.const_shape {values = dense<1> : tensor<1xindex>}
// CHECK-NEXT:  tosa_state.check_capacity %[[COUNT]], %[[ROWS]] {variable = "k", capacity = 8 : i64}
// CHECK:       %[[KEPT:.*]] = tosa.slice %[[PAST]], %{{.*}}, %{{.*}} : (tensor<1x8x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x7x4xf32>
// CHECK:       tosa.concat %[[KEPT]], %new {axis = 1 : i32}
tosa.variable @k : tensor<1x?x4xf32>
func.func @main(%x: tensor<1x1x4xf32>) -> tensor<1x?x4xf32> {
  %past = tosa.variable.read @k : tensor<1x?x4xf32>
  %p = tosa.dim %past {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %end = tosa.add_shape %p, %one : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %n = tosa.sub_shape %end, %p : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %q = tosa.slice %table, %p, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %at = tosa.reshape %q, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %learned = "tosa.const"() <{values = dense<1.0> : tensor<1x12x4xf32>}> : () -> tensor<1x12x4xf32>
  %embedded = tosa.gather %learned, %at : (tensor<1x12x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  %new = tosa.add %x, %embedded : (tensor<1x1x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x?x4xf32>
  func.return %all : tensor<1x?x4xf32>
}
