// RUN: tosa-state-opt %s -p convert-openvino-to-tosa | filecheck %s
// RUN: tosa-state-opt %s -p convert-openvino-to-tosa --tosa-spelling=upstream | iree-opt | filecheck %s --check-prefix=IREE

// A TensorIterator over 1000 iterations is one `tosa.while_loop` holding one copy of its
// body (the IR does not grow with the iteration count). Its regions are isolated from
// above: the sliced input `X`, the invariant input `W`, the back-edge state, the step index
// and the output accumulator are carried. The input is sliced backwards (stride -1 over
// the whole axis: the index starts at 999 and steps by -1; batch 2 gives `[2, 1]` indices,
// so a step counter from 0 ends the loop); the sliced output is written backwards too.
// The yielded value that no back edge carries (`%y2`) is carried out as the last
// iteration's value. The body constant stays in the body (the runtime folds it once).
// Upstream MLIR (`iree-opt`) parses and verifies the output.

// CHECK-LABEL: func.func @reverse_scan
// CHECK-NOT:     openvino.
// CHECK:         %[[T0:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK:         %[[I0:.*]] = "tosa.const"() <{values = dense<999> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %[[H:.*]], %{{.*}}, %[[Y:.*]], %[[LAST:.*]] = tosa.while_loop (%[[T:.*]] = %[[T0]], %{{.*}} = %x, %{{.*}} = %[[I0]], %{{.*}} = %h, %{{.*}} = %w, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<1xi32>, tensor<2x1000x3xf32>, tensor<2x1xi32>, tensor<2x4xf32>, tensor<3x4xf32>, tensor<2x1000x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:      %[[N:.*]] = "tosa.const"() <{values = dense<1000> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:      %{{.*}} = tosa.greater %[[N]], %[[T]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[BT:.*]]: tensor<1xi32>, %[[BX:.*]]: tensor<2x1000x3xf32>, %[[BI:.*]]: tensor<2x1xi32>, %[[BH:.*]]: tensor<2x4xf32>, %[[BW:.*]]: tensor<3x4xf32>, %[[BY:.*]]: tensor<2x1000x4xf32>, %{{.*}}: tensor<2x4xf32>):
// CHECK-NEXT:      %[[MINUS1:.*]] = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
// CHECK-NEXT:      %[[NEXT:.*]] = tosa.add %[[BI]], %[[MINUS1]] : (tensor<2x1xi32>, tensor<1x1xi32>) -> tensor<2x1xi32>
// CHECK-NEXT:      %[[XT:.*]] = tosa.gather %[[BX]], %[[BI]] : (tensor<2x1000x3xf32>, tensor<2x1xi32>) -> tensor<2x1x3xf32>
// CHECK-NOT:       tosa.gather
// CHECK:           tosa.matmul
// CHECK:           %[[S:.*]] = tosa.tanh
// CHECK:           %[[HALF:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1xf32>}>
// CHECK:           %[[Y2:.*]] = tosa.mul %[[S]], %[[HALF]]
// CHECK:           %[[YT:.*]] = tosa.reshape %[[S]], %{{.*}} : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<2x1x4xf32>
// CHECK-NEXT:      %[[ACC:.*]] = tosa.scatter %[[BY]], %[[BI]], %[[YT]] : (tensor<2x1000x4xf32>, tensor<2x1xi32>, tensor<2x1x4xf32>) -> tensor<2x1000x4xf32>
// CHECK-NOT:       tosa.scatter
// CHECK:           tosa.yield %{{.*}}, %[[BX]], %[[NEXT]], %[[S]], %[[BW]], %[[ACC]], %[[Y2]] :
// CHECK-NEXT:    }
// CHECK-NOT:     tosa.while_loop
// CHECK:         func.return %[[Y]], %[[H]], %[[LAST]] : tensor<2x1000x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>

// IREE-LABEL: func.func @reverse_scan
// IREE-COUNT-1: tosa.while_loop
// IREE-NOT:     tosa.while_loop
// IREE-COUNT-1: tosa.gather
// IREE-COUNT-1: tosa.scatter
// IREE-NOT:     tosa.scatter
func.func @reverse_scan(%x: tensor<2x1000x3xf32>, %h: tensor<2x4xf32>, %w: tensor<3x4xf32>) -> (tensor<2x1000x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %0:3 = openvino.tensor_iterator(%x, %h, %w) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = -1, end = 0, stride = -1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>, #openvino.port_map<external = 2, internal = 2>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = -1, end = 0, stride = -1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>, #openvino.port_map<external = 2, internal = 2>], back_edges = [#openvino.back_edge<from = 1, to = 1>]} : (tensor<2x1000x3xf32>, tensor<2x4xf32>, tensor<3x4xf32>) -> (tensor<2x1000x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%xi: tensor<2x1x3xf32>, %hi: tensor<2x4xf32>, %wi: tensor<3x4xf32>):
    %axes = openvino.constant dense<1> : tensor<1xi64>
    %xs = openvino.squeeze %xi, %axes : (tensor<2x1x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
    %p = openvino.matmul %xs, %wi : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %a = openvino.add %p, %hi : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %s = openvino.tanh %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %half = openvino.constant dense<0.5> : tensor<f32>
    %y2 = openvino.multiply %s, %half : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %y = openvino.unsqueeze %s, %axes : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
    openvino.yield %y, %s, %y2 : tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  }
  func.return %0#0, %0#1, %0#2 : tensor<2x1000x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// Loop-5 with a trip count from data (%trip): a step counter carried first, compared with
// the trip count carried in as an invariant `tensor<1xi32>`; the iteration's number
// (body argument 0, i64) is a carried counter from 0; the input is sliced along its
// dynamic time axis with a `tosa.gather` at a carried step index.
// CHECK-LABEL: func.func @loop5
// CHECK:         %[[TRIP:.*]] = tosa.reshape %trip, %{{.*}} : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
// CHECK:         %[[K0:.*]] = "tosa.const"() <{values = dense<0> : tensor<i64>}> : () -> tensor<i64>
// CHECK:         tosa.while_loop (%[[C:.*]] = %{{.*}}, %[[K:.*]] = %[[K0]], %[[X:.*]] = %xs, %[[I:.*]] = %{{.*}}, %[[H:.*]] = %h0, %[[N:.*]] = %[[TRIP]])
// CHECK:           tosa.greater %[[N]], %[[C]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK:         } do {
// CHECK:           %[[ONE:.*]] = "tosa.const"() <{values = dense<1> : tensor<i64>}> : () -> tensor<i64>
// CHECK-NEXT:      %[[NEXTK:.*]] = tosa.add %{{.*}}, %[[ONE]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK:           tosa.gather %{{.*}}, %{{.*}} : (tensor<1x?x3xf32>, tensor<1x1xi32>) -> tensor<1x1x3xf32>
// CHECK:           tosa.cast %{{.*}} : (tensor<i64>) -> tensor<f32>
// CHECK:           tosa.yield %{{.*}}, %[[NEXTK]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1xi32>, tensor<i64>, tensor<1x?x3xf32>, tensor<1x1xi32>, tensor<1x3xf32>, tensor<1xi32>
// IREE-LABEL:    func.func @loop5
// IREE:          tosa.while_loop
func.func @loop5(%trip: tensor<i32>, %xs: tensor<1x?x3xf32>, %h0: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %go = openvino.constant dense<true> : tensor<i1>
  %hn = openvino.loop(%trip, %go, %xs, %h0) {input_port_map = [#openvino.port_map<external = 2, internal = 1, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 3, internal = 2>], output_port_map = [#openvino.port_map<external = 0, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 2>], current_iteration = 0 : i64, condition = 0 : i64} : (tensor<i32>, tensor<i1>, tensor<1x?x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%k: tensor<i64>, %x: tensor<1x1x3xf32>, %h: tensor<1x3xf32>):
    %true = openvino.constant dense<true> : tensor<i1>
    %axes = openvino.constant dense<[1]> : tensor<1xi64>
    %x2 = openvino.squeeze %x, %axes : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %kf = openvino.convert %k {destination_type = f32} : (tensor<i64>) -> tensor<f32>
    %s = openvino.add %x2, %h : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %next = openvino.add %s, %kf : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
    openvino.yield %true, %next : tensor<i1>, tensor<1x3xf32>
  }
  func.return %hn : tensor<1x3xf32>
}

// A TensorIterator over a dynamic time axis: the iteration count is the axis' `tosa.dim`,
// carried in as a `tensor<1xi32>` and compared with a step counter; the accumulator of the
// concatenated output is a run-time `tosa.tile` of zeros, written with `tosa.scatter`.
// CHECK-LABEL: func.func @scan_dynamic_time
// CHECK:         %[[T:.*]] = tosa.dim %xs {axis = 1 : i32}
// CHECK:         %[[ACC:.*]] = tosa.tile %{{.*}}, %{{.*}} : (tensor<1x1x1xf32>, !tosa.shape<3>) -> tensor<1x?x3xf32>
// CHECK:         %[[ONES:.*]] = tosa.tile %{{.*}}, %[[T]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK-NEXT:    %[[STEPS:.*]] = tosa.reduce_sum %[[ONES]]
// CHECK-NEXT:    tosa.while_loop (%[[C:.*]] = %{{.*}}, %{{.*}} = %xs, %{{.*}} = %{{.*}}, %{{.*}} = %h0, %{{.*}} = %[[ACC]], %[[N:.*]] = %[[STEPS]])
// CHECK:           tosa.greater %[[N]], %[[C]]
// CHECK:           tosa.gather %{{.*}}, %{{.*}} : (tensor<1x?x3xf32>, tensor<1x1xi32>) -> tensor<1x1x3xf32>
// CHECK:           tosa.scatter %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x?x3xf32>, tensor<1x1xi32>, tensor<1x1x3xf32>) -> tensor<1x?x3xf32>
// IREE-LABEL:    func.func @scan_dynamic_time
// IREE:          tosa.while_loop
func.func @scan_dynamic_time(%xs: tensor<1x?x3xf32>, %h0: tensor<1x3xf32>) -> tensor<1x?x3xf32> {
  %ys, %hn = openvino.tensor_iterator(%xs, %h0) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>]} : (tensor<1x?x3xf32>, tensor<1x3xf32>) -> (tensor<1x?x3xf32>, tensor<1x3xf32>) {
  ^bb0(%x: tensor<1x1x3xf32>, %h: tensor<1x3xf32>):
    %axes = openvino.constant dense<[1]> : tensor<1xi64>
    %x2 = openvino.squeeze %x, %axes : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %next = openvino.add %x2, %h : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %y = openvino.unsqueeze %next, %axes : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<1x1x3xf32>
    openvino.yield %y, %next : tensor<1x1x3xf32>, tensor<1x3xf32>
  }
  func.return %ys : tensor<1x?x3xf32>
}
