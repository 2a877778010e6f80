// RUN: tosa-state-opt %s -p convert-openvino-to-tosa | filecheck %s

// A recurrent sequence becomes one `tosa.while_loop` per direction, whatever the number of
// steps: the loop carries a step counter, the step's index into X and Y, the states, Y (an
// accumulator written by `tosa.scatter`) and the weights (the regions are isolated from
// above). A reverse walk starts at the last step; shorter sequence lengths select the old
// state and a zero output where a batch element has finished.

// CHECK-LABEL: func.func @gru_reverse_with_lengths
// CHECK:         %[[I0:.*]] = "tosa.const"() <{values = dense<4> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
// CHECK:         %[[LEN:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}5], [2]]]> : tensor<1x2x1xi32>}> : () -> tensor<1x2x1xi32>
// CHECK:         %[[Y0:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x5x1xf32>}> : () -> tensor<2x5x1xf32>
// CHECK-NEXT:    %{{.*}}, %[[Y:[0-9]+]] = tosa.while_loop (%[[T:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %x, %{{.*}} = %[[I0]], {{.*}}, %{{.*}} = %[[LEN]], %{{.*}} = %[[Y0]]) : (tensor<1xi32>, tensor<1x2x1xf32>, tensor<2x5x1xf32>, tensor<2x1xi32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x2xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x2x1xi32>, tensor<2x5x1xf32>) -> (
// CHECK-NEXT:      %[[N:.*]] = "tosa.const"() <{values = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:      %[[C:.*]] = tosa.greater %[[N]], %[[T]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK-NEXT:      tosa.yield %[[C]] : tensor<1xi1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[BT:.*]]: tensor<1xi32>, %[[H:.*]]: tensor<1x2x1xf32>, %[[X:.*]]: tensor<2x5x1xf32>, %[[I:.*]]: tensor<2x1xi32>, %{{.*}}: tensor<1x1x3xf32>, %{{.*}}: tensor<1x1x3xf32>, %{{.*}}: tensor<1x1x2xf32>, %{{.*}}: tensor<1x1x1xf32>, %{{.*}}: tensor<1x1x1xf32>, %[[L:.*]]: tensor<1x2x1xi32>, %[[ACC:.*]]: tensor<2x5x1xf32>):
// CHECK-NEXT:      %[[MINUS1:.*]] = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
// CHECK-NEXT:      %[[NEXT:.*]] = tosa.add %[[I]], %[[MINUS1]] : (tensor<2x1xi32>, tensor<1x1xi32>) -> tensor<2x1xi32>
// CHECK-NEXT:      %{{.*}} = tosa.gather %[[X]], %[[I]] : (tensor<2x5x1xf32>, tensor<2x1xi32>) -> tensor<2x1x1xf32>
// CHECK:           tosa.matmul
// CHECK:           tosa.sigmoid
// CHECK:           tosa.tanh
// CHECK:           %[[ALIVE:.*]] = tosa.greater %[[L]], %{{.*}} : (tensor<1x2x1xi32>, tensor<1x2x1xi32>) -> tensor<1x2x1xi1>
// CHECK-NEXT:      %[[NEWH:.*]] = tosa.select %[[ALIVE]], %{{.*}}, %[[H]] : (tensor<1x2x1xi1>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
// CHECK:           %[[OUT:.*]] = tosa.select %[[ALIVE]], %[[NEWH]], %{{.*}} : (tensor<1x2x1xi1>, tensor<1x2x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2x1xf32>
// CHECK:           %[[ACC2:.*]] = tosa.scatter %[[ACC]], %[[I]], %{{.*}} : (tensor<2x5x1xf32>, tensor<2x1xi32>, tensor<2x1x1xf32>) -> tensor<2x5x1xf32>
// CHECK:           %[[BT2:.*]] = tosa.add %[[BT]], %{{.*}} : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:      tosa.yield %[[BT2]], %[[NEWH]], %[[X]], %[[NEXT]], {{.*}}, %[[L]], %[[ACC2]] :
// CHECK-NEXT:    }
// CHECK-NOT:     tosa.while_loop
// CHECK:         %[[R:.*]] = tosa.reshape %[[Y]], %{{.*}} : (tensor<2x5x1xf32>, !tosa.shape<4>) -> tensor<2x1x5x1xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x1x5x1xf32>
func.func @gru_reverse_with_lengths(%x: tensor<2x5x1xf32>, %h: tensor<2x1x1xf32>) -> tensor<2x1x5x1xf32> {
  %n = openvino.constant dense<[5, 2]> : tensor<2xi32>
  %w = openvino.constant dense<0.5> : tensor<1x3x1xf32>
  %r = openvino.constant dense<0.25> : tensor<1x3x1xf32>
  %b = openvino.constant dense<0.125> : tensor<1x4xf32>
  %y, %ho = openvino.gru_sequence %x, %h, %n, %w, %r, %b {hidden_size = 1 : i64, activations = ["sigmoid", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "reverse", linear_before_reset = true} : (tensor<2x5x1xf32>, tensor<2x1x1xf32>, tensor<2xi32>, tensor<1x3x1xf32>, tensor<1x3x1xf32>, tensor<1x4xf32>) -> (tensor<2x1x5x1xf32>, tensor<2x1x1xf32>)
  func.return %y : tensor<2x1x5x1xf32>
}

// A single step (a streaming model's LSTM over one frame) needs no loop: the step's ops are
// placed straight in the function, the step index folds away, X is read whole and Y is the
// new hidden state. The gates come from one matmul of [X, H] by the joined weights, and one
// sigmoid covers the three sigmoid gates.

// CHECK-LABEL: func.func @lstm_one_step
// CHECK-NOT:     tosa.while_loop
// CHECK-NOT:     tosa.gather
// CHECK:         %[[XH:.*]] = tosa.concat %x, %h {axis = 2 : i32} : (tensor<1x1x2xf32>, tensor<1x1x3xf32>) -> tensor<1x1x5xf32>
// CHECK:         %[[Z:.*]] = tosa.matmul %[[XH]], %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x1x5xf32>, tensor<1x5x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x12xf32>
// CHECK-NOT:     tosa.matmul
// CHECK:         %[[PRE:.*]] = tosa.add %[[Z]], %{{.*}} : (tensor<1x1x12xf32>, tensor<1x1x12xf32>) -> tensor<1x1x12xf32>
// CHECK-NEXT:    %[[SIG:.*]] = tosa.sigmoid %[[PRE]] : (tensor<1x1x12xf32>) -> tensor<1x1x12xf32>
// CHECK:         %[[F:.*]] = tosa.slice %[[SIG]]
// CHECK:         %[[G:.*]] = tosa.slice %[[PRE]]
// CHECK-NEXT:    %{{.*}} = tosa.tanh %[[G]] : (tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
// CHECK:         %{{.*}} = tosa.mul %[[F]], %c, %{{.*}} :
// CHECK:         %[[CO:co]] = tosa.add
// CHECK:         %[[HO:ho]] = tosa.mul
// CHECK-NOT:     tosa.scatter
// CHECK:         %[[Y:.*]] = tosa.reshape %[[HO]], %{{.*}} : (tensor<1x1x3xf32>, !tosa.shape<4>) -> tensor<1x1x1x3xf32>
// CHECK-NEXT:    func.return %[[Y]], %[[HO]], %[[CO]] :
func.func @lstm_one_step(%x: tensor<1x1x2xf32>, %h: tensor<1x1x3xf32>, %c: tensor<1x1x3xf32>) -> (tensor<1x1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>) {
  %n = openvino.constant dense<1> : tensor<1xi32>
  %w = openvino.constant dense<0.5> : tensor<1x12x2xf32>
  %r = openvino.constant dense<0.25> : tensor<1x12x3xf32>
  %b = openvino.constant dense<0.125> : tensor<1x12xf32>
  %y, %ho, %co = openvino.lstm_sequence %x, %h, %c, %n, %w, %r, %b {hidden_size = 3 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "forward"} : (tensor<1x1x2xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>, tensor<1xi32>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x12xf32>) -> (tensor<1x1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>)
  func.return %y, %ho, %co : tensor<1x1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>
}

// A dynamic batch N and time T (a torch export with dynamic axes): X's `?` feature dim is
// generalised to the weights' 2; the states are checked against X's batch at run time (a
// reshape that fails, naming the layer, on a state of another size: an empty state variable
// must be set first); the reverse walk starts at T - 1 and the index table is tiled to N
// rows; Y's accumulator is zeros tiled to [N, T, H] (reshaped to the sizes [N, T, H] after
// the loop, which tells the next layer its T); the loop counts to T, carried in as an
// invariant and compared in `cond_graph`.

// CHECK-LABEL: func.func @lstm_reverse_dynamic
// CHECK:         %[[N:.*]] = tosa.dim %x {axis = 0 : i32}
// CHECK:         %[[X:.*]] = tosa.reshape %x, %{{.*}} : (tensor<?x?x?xf32>, !tosa.shape<3>) -> tensor<?x?x2xf32>
// CHECK:         %[[H:.*]] = tosa.reshape %h, %{{.*}} {openvino.layer = "the initial hidden state does not have the shape [batch, directions, hidden_size] of this call's X: a state variable of dynamic shape starts empty (and is empty again after a reset), set it with set_state first"} : (tensor<?x1x3xf32>, !tosa.shape<3>) -> tensor<?x1x3xf32>
// CHECK:         %[[C:.*]] = tosa.reshape %c, %{{.*}} {openvino.layer = "the initial cell state
// CHECK:         %[[T:.*]] = tosa.dim %[[X]] {axis = 1 : i32}
// CHECK:         %[[LAST:.*]] = tosa.sub_shape %[[T]], %{{.*}} : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// T - 1 as data, of unknown sign to the shape arithmetic: max(s, 0) - max(-s, 0) ones.
// CHECK:         %[[ABOVE:.*]] = tosa.max_shape %[[LAST]], %{{.*}}
// CHECK:         %[[ONES:.*]] = tosa.tile %{{.*}}, %[[ABOVE]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK-NEXT:    %[[UP:.*]] = tosa.reduce_sum %[[ONES]] {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
// CHECK:         %[[DOWN:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[START:.*]] = tosa.sub %[[UP]], %[[DOWN]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK:         %[[I0:.*]] = tosa.tile %{{.*}}, %{{.*}} : (tensor<1x1xi32>, !tosa.shape<2>) -> tensor<?x1xi32>
// CHECK:         %[[Y0:.*]] = tosa.tile %{{.*}}, %{{.*}} : (tensor<1x1x1xf32>, !tosa.shape<3>) -> tensor<?x?x3xf32>
// CHECK-NEXT:    %[[TT:.*]] = tosa.tile %{{.*}}, %[[T]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK-NEXT:    %[[STEPS:.*]] = tosa.reduce_sum %[[TT]] {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %{{.*}}, %[[Y:[0-9]+]], %{{.*}} = tosa.while_loop (%[[K:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[X]], %{{.*}} = %[[I0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = %[[Y0]], %[[END:.*]] = %[[STEPS]]) : (tensor<1xi32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>, tensor<?x?x2xf32>, tensor<?x1xi32>, tensor<1x5x12xf32>, tensor<1x1x12xf32>, tensor<1x?x1xi32>, tensor<?x?x3xf32>, tensor<1xi32>) -> (
// CHECK-NEXT:      %[[GOING:.*]] = tosa.greater %[[END]], %[[K]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK-NEXT:      tosa.yield %[[GOING]] : tensor<1xi1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<1xi32>, %{{.*}}: tensor<1x?x3xf32>, %{{.*}}: tensor<1x?x3xf32>, %[[BX:.*]]: tensor<?x?x2xf32>, %[[BI:.*]]: tensor<?x1xi32>, {{.*}}, %[[ACC:.*]]: tensor<?x?x3xf32>, %[[BEND:.*]]: tensor<1xi32>):
// CHECK:           %{{.*}} = tosa.gather %[[BX]], %[[BI]] : (tensor<?x?x2xf32>, tensor<?x1xi32>) -> tensor<?x1x2xf32>
// CHECK:           tosa.matmul %{{.*}} : (tensor<1x?x5xf32>, tensor<1x5x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x12xf32>
// CHECK:           %{{.*}} = tosa.scatter %[[ACC]], %[[BI]], %{{.*}} : (tensor<?x?x3xf32>, tensor<?x1xi32>, tensor<?x1x3xf32>) -> tensor<?x?x3xf32>
// CHECK:           tosa.yield {{.*}}, %[[BEND]] :
// CHECK-NEXT:    }
// CHECK:         %[[YS:.*]] = tosa.reshape %[[Y]], %{{.*}} : (tensor<?x?x3xf32>, !tosa.shape<3>) -> tensor<?x?x3xf32>
// CHECK:         %[[R:.*]] = tosa.reshape %[[YS]], %{{.*}} : (tensor<?x?x3xf32>, !tosa.shape<4>) -> tensor<?x1x?x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<?x1x?x3xf32>
func.func @lstm_reverse_dynamic(%x: tensor<?x?x?xf32>, %h: tensor<?x1x3xf32>, %c: tensor<?x1x3xf32>, %n: tensor<?xi64>) -> tensor<?x1x?x3xf32> {
  %w = openvino.constant dense<0.5> : tensor<1x12x2xf32>
  %r = openvino.constant dense<0.25> : tensor<1x12x3xf32>
  %b = openvino.constant dense<0.125> : tensor<1x12xf32>
  %y, %ho, %co = openvino.lstm_sequence %x, %h, %c, %n, %w, %r, %b {hidden_size = 3 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "reverse"} : (tensor<?x?x?xf32>, tensor<?x1x3xf32>, tensor<?x1x3xf32>, tensor<?xi64>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x12xf32>) -> (tensor<?x1x?x3xf32>, tensor<?x1x3xf32>, tensor<?x1x3xf32>)
  func.return %y : tensor<?x1x?x3xf32>
}
