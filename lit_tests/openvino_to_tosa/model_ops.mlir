// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// The ops of the optimum-intel architectures: SoftPlus, ErfInv, CumSum, Roll, and the float Mod.

// SoftPlus without overflow: max(x, 0) + log(1 + exp(-|x|)).
// CHECK-LABEL: func.func @softplus(
// CHECK-NEXT:    %[[POS:.*]] = tosa.clamp %x {max_val = 0x7f800000 : f32, min_val = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[ABS:.*]] = tosa.abs %x
// CHECK-NEXT:    %[[NEG:.*]] = tosa.sub %[[ZERO]], %[[ABS]]
// CHECK-NEXT:    %[[EXP:.*]] = tosa.exp %[[NEG]]
// CHECK-NEXT:    %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[SUM:.*]] = tosa.add %[[EXP]], %[[ONE]]
// CHECK-NEXT:    %[[LOG:.*]] = tosa.log %[[SUM]]
// CHECK-NEXT:    %[[R:.*]] = tosa.add %[[POS]], %[[LOG]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @softplus(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = openvino.softplus %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ErfInv in f32 (f16 is cast): w = -log((1 - x)(1 + x)), Giles' polynomials in w - 2.5 and
// sqrt(w) - 3 chosen by w < 5, times x; x * inf where |x| = 1.
// CHECK-LABEL: func.func @erfinv(
// CHECK-NEXT:    %[[X:.*]] = tosa.cast %x : (tensor<3xf16>) -> tensor<3xf32>
// CHECK-NEXT:    %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT:    %[[L:.*]] = tosa.sub %[[ONE]], %[[X]]
// CHECK-NEXT:    %[[R:.*]] = tosa.add %[[ONE]], %[[X]]
// CHECK-NEXT:    %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT:    %[[P:.*]] = tosa.mul %[[L]], %[[R]], %[[SHIFT]]
// CHECK-NEXT:    %[[LOG:.*]] = tosa.log %[[P]]
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT:    %[[W:.*]] = tosa.sub %[[ZERO]], %[[LOG]]
// CHECK-NEXT:    %[[HALF5:.*]] = "tosa.const"() <{values = dense<2.500000e+00> : tensor<1xf32>}>
// CHECK-NEXT:    %[[S:.*]] = tosa.sub %[[W]], %[[HALF5]]
// CHECK-NEXT:    "tosa.const"() <{values = dense<2.81022636e-08> : tensor<1xf32>}>
// CHECK:         %[[C8:.*]] = "tosa.const"() <{values = dense<1.50140941> : tensor<1xf32>}>
// CHECK-NEXT:    %[[M8:.*]] = tosa.mul %{{.*}}, %[[S]], %[[SHIFT]]
// CHECK-NEXT:    %[[CENTRE:.*]] = tosa.add %[[C8]], %[[M8]]
// CHECK-NEXT:    %[[HALF:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}>
// CHECK-NEXT:    %[[ROOT:.*]] = tosa.pow %[[W]], %[[HALF]]
// CHECK-NEXT:    %[[THREE:.*]] = "tosa.const"() <{values = dense<3.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT:    %[[T:.*]] = tosa.sub %[[ROOT]], %[[THREE]]
// CHECK-NEXT:    "tosa.const"() <{values = dense<-0.000200214257> : tensor<1xf32>}>
// CHECK:         %[[T8:.*]] = "tosa.const"() <{values = dense<2.83297682> : tensor<1xf32>}>
// CHECK-NEXT:    %[[N8:.*]] = tosa.mul %{{.*}}, %[[T]], %[[SHIFT]]
// CHECK-NEXT:    %[[TAIL:.*]] = tosa.add %[[T8]], %[[N8]]
// CHECK-NEXT:    %[[FIVE:.*]] = "tosa.const"() <{values = dense<5.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT:    %[[IN:.*]] = tosa.greater %[[FIVE]], %[[W]]
// CHECK-NEXT:    %[[POLY:.*]] = tosa.select %[[IN]], %[[CENTRE]], %[[TAIL]]
// CHECK-NEXT:    %[[Y:.*]] = tosa.mul %[[POLY]], %[[X]], %[[SHIFT]]
// CHECK-NEXT:    %[[ABS:.*]] = tosa.abs %[[X]]
// CHECK-NEXT:    %[[EDGE:.*]] = tosa.equal %[[ABS]], %[[ONE]]
// CHECK-NEXT:    %[[INF:.*]] = "tosa.const"() <{values = dense<0x7f800000> : tensor<1xf32>}>
// CHECK-NEXT:    %[[INFS:.*]] = tosa.mul %[[X]], %[[INF]], %[[SHIFT]]
// CHECK-NEXT:    %[[SEL:.*]] = tosa.select %[[EDGE]], %[[INFS]], %[[Y]]
// CHECK-NEXT:    %[[OUT:.*]] = tosa.cast %[[SEL]] : (tensor<3xf32>) -> tensor<3xf16>
// CHECK-NEXT:    func.return %[[OUT]]
func.func @erfinv(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = openvino.erfinv %x : (tensor<3xf16>) -> tensor<3xf16>
  func.return %0 : tensor<3xf16>
}

// -----

// A scan over 5 elements: shifts by 1, 2, 4 (reverse: zeros come in at the end), then one
// more place for `exclusive`.
// CHECK-LABEL: func.func @cumsum_exclusive_reverse(
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-NEXT:    %[[P1:.*]] = tosa.const_shape  {values = dense<[0, 0, 0, 1]> : tensor<4xindex>}
// CHECK-NEXT:    %[[PAD1:.*]] = tosa.pad %x, %[[P1]], %[[ZERO]] : (tensor<2x5xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<2x6xi32>
// CHECK-NEXT:    %[[SIZE:.*]] = tosa.const_shape  {values = dense<[2, 5]> : tensor<2xindex>}
// CHECK-NEXT:    %[[S1:.*]] = tosa.const_shape  {values = dense<[0, 1]> : tensor<2xindex>}
// CHECK-NEXT:    %[[SH1:.*]] = tosa.slice %[[PAD1]], %[[S1]], %[[SIZE]]
// CHECK-NEXT:    %[[A1:.*]] = tosa.add %x, %[[SH1]]
// CHECK-NEXT:    %[[P2:.*]] = tosa.const_shape  {values = dense<[0, 0, 0, 2]> : tensor<4xindex>}
// CHECK-NEXT:    %[[PAD2:.*]] = tosa.pad %[[A1]], %[[P2]], %[[ZERO]]
// CHECK-NEXT:    %[[S2:.*]] = tosa.const_shape  {values = dense<[0, 2]> : tensor<2xindex>}
// CHECK-NEXT:    %[[SH2:.*]] = tosa.slice %[[PAD2]], %[[S2]], %[[SIZE]]
// CHECK-NEXT:    %[[A2:.*]] = tosa.add %[[A1]], %[[SH2]]
// CHECK-NEXT:    %[[P4:.*]] = tosa.const_shape  {values = dense<[0, 0, 0, 4]> : tensor<4xindex>}
// CHECK-NEXT:    %[[PAD4:.*]] = tosa.pad %[[A2]], %[[P4]], %[[ZERO]]
// CHECK-NEXT:    %[[S4:.*]] = tosa.const_shape  {values = dense<[0, 4]> : tensor<2xindex>}
// CHECK-NEXT:    %[[SH4:.*]] = tosa.slice %[[PAD4]], %[[S4]], %[[SIZE]]
// CHECK-NEXT:    %[[A4:.*]] = tosa.add %[[A2]], %[[SH4]]
// CHECK-NEXT:    %[[PADX:.*]] = tosa.pad %[[A4]], %[[P1]], %[[ZERO]]
// CHECK-NEXT:    %[[R:.*]] = tosa.slice %[[PADX]], %[[S1]], %[[SIZE]] : (tensor<2x6xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x5xi32>
// CHECK-NEXT:    func.return %[[R]]
func.func @cumsum_exclusive_reverse(%x: tensor<2x5xi32>) -> tensor<2x5xi32> {
  %axis = openvino.constant dense<-1> : tensor<i64>
  %0 = openvino.cumsum %x, %axis {exclusive = true, reverse = true} : (tensor<2x5xi32>, tensor<i64>) -> tensor<2x5xi32>
  func.return %0 : tensor<2x5xi32>
}

// -----

// Forward: zeros come in at the start; unsigned values sum in the signless type.
// CHECK-LABEL: func.func @cumsum_unsigned(
// CHECK-NEXT:    %[[X:.*]] = tensor.bitcast %x : tensor<2xui8> to tensor<2xi8>
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT:    %[[P:.*]] = tosa.const_shape  {values = dense<[1, 0]> : tensor<2xindex>}
// CHECK-NEXT:    %[[PAD:.*]] = tosa.pad %[[X]], %[[P]], %[[ZERO]] : (tensor<2xi8>, !tosa.shape<2>, tensor<1xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %[[SIZE:.*]] = tosa.const_shape  {values = dense<2> : tensor<1xindex>}
// CHECK-NEXT:    %[[START:.*]] = tosa.const_shape  {values = dense<0> : tensor<1xindex>}
// CHECK-NEXT:    %[[SH:.*]] = tosa.slice %[[PAD]], %[[START]], %[[SIZE]]
// CHECK-NEXT:    %[[SUM:.*]] = tosa.add %[[X]], %[[SH]] : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
// CHECK-NEXT:    %[[R:.*]] = tensor.bitcast %[[SUM]] : tensor<2xi8> to tensor<2xui8>
// CHECK-NEXT:    func.return %[[R]]
func.func @cumsum_unsigned(%x: tensor<2xui8>) -> tensor<2xui8> {
  %axis = openvino.constant dense<0> : tensor<i32>
  %0 = openvino.cumsum %x, %axis : (tensor<2xui8>, tensor<i32>) -> tensor<2xui8>
  func.return %0 : tensor<2xui8>
}

// -----

// Shifts of a repeated axis add up (1 + 2 = 3 places along axis 1); a dynamic dim that is
// not rolled stays dynamic.
// CHECK-LABEL: func.func @roll(
// CHECK-NEXT:    %[[SIZE3:.*]] = tosa.const_shape  {values = dense<[-1, 3]> : tensor<2xindex>}
// CHECK-NEXT:    %[[AT1:.*]] = tosa.const_shape  {values = dense<[0, 1]> : tensor<2xindex>}
// CHECK-NEXT:    %[[TAIL:.*]] = tosa.slice %x, %[[AT1]], %[[SIZE3]] : (tensor<?x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3xf32>
// CHECK-NEXT:    %[[SIZE1:.*]] = tosa.const_shape  {values = dense<[-1, 1]> : tensor<2xindex>}
// CHECK-NEXT:    %[[AT0:.*]] = tosa.const_shape  {values = dense<0> : tensor<2xindex>}
// CHECK-NEXT:    %[[HEAD:.*]] = tosa.slice %x, %[[AT0]], %[[SIZE1]] : (tensor<?x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x1xf32>
// CHECK-NEXT:    %[[R:.*]] = tosa.concat %[[TAIL]], %[[HEAD]] {axis = 1 : i32} : (tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @roll(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %shift = openvino.constant dense<[1, 2]> : tensor<2xi64>
  %axes = openvino.constant dense<[1, -1]> : tensor<2xi64>
  %0 = openvino.roll %x, %shift, %axes : (tensor<?x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// One shift for every axis; a whole turn along axis 0 is no roll.
// CHECK-LABEL: func.func @roll_one_shift(
// CHECK-NEXT:    %[[SIZE:.*]] = tosa.const_shape  {values = dense<[2, 1]> : tensor<2xindex>}
// CHECK-NEXT:    %[[AT:.*]] = tosa.const_shape  {values = dense<[0, 2]> : tensor<2xindex>}
// CHECK-NEXT:    %[[TAIL:.*]] = tosa.slice %x, %[[AT]], %[[SIZE]]
// CHECK-NEXT:    %[[SIZE2:.*]] = tosa.const_shape  {values = dense<2> : tensor<2xindex>}
// CHECK-NEXT:    %[[AT0:.*]] = tosa.const_shape  {values = dense<0> : tensor<2xindex>}
// CHECK-NEXT:    %[[HEAD:.*]] = tosa.slice %x, %[[AT0]], %[[SIZE2]]
// CHECK-NEXT:    %[[R:.*]] = tosa.concat %[[TAIL]], %[[HEAD]] {axis = 1 : i32} : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @roll_one_shift(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %shift = openvino.constant dense<4> : tensor<i64>
  %axes = openvino.constant dense<[0, 1]> : tensor<2xi64>
  %0 = openvino.roll %x, %shift, %axes : (tensor<2x3xf32>, tensor<i64>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// Float Mod: the quotient rounded once to f32 as OpenVINO divides (computed in f64), then
// truncated.
// CHECK-LABEL: func.func @mod(
// CHECK-NEXT:    %[[A:.*]] = tosa.cast %a : (tensor<3xf32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[B:.*]] = tosa.cast %b : (tensor<3xf32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[INV:.*]] = tosa.reciprocal %[[B]]
// CHECK-NEXT:    %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT:    %[[Q64:.*]] = tosa.mul %[[A]], %[[INV]], %[[SHIFT]]
// CHECK-NEXT:    %[[Q:.*]] = tosa.cast %[[Q64]] : (tensor<3xf64>) -> tensor<3xf32>
// CHECK:         %[[T:.*]] = tosa.select
// CHECK-NEXT:    %[[P:.*]] = tosa.mul %[[T]], %b, %[[SHIFT]]
// CHECK-NEXT:    %[[R:.*]] = tosa.sub %a, %[[P]]
// CHECK-NEXT:    func.return %[[R]]
func.func @mod(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %0 = openvino.mod %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// A run-time length: positions sliced from the constant table, a triangular selection
// `pos_i >= pos_j`, summed over j.
// CHECK-LABEL: func.func @cumsum_dynamic(
// CHECK:         %[[N:.*]] = tosa.dim %x {axis = 1 : i32}
// CHECK:         %[[POS:.*]] = tosa.slice %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8192xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK:         %[[PI:.*]] = tosa.reshape %[[POS]], %{{.*}} -> tensor<1x?x1xi32>
// CHECK:         %[[PJ:.*]] = tosa.reshape %[[POS]], %{{.*}} -> tensor<1x1x?xi32>
// CHECK-NEXT:    %[[LOWER:.*]] = tosa.greater_equal %[[PI]], %[[PJ]] : (tensor<1x?x1xi32>, tensor<1x1x?xi32>) -> tensor<1x?x?xi1>
// CHECK:         %[[TERMS:.*]] = tosa.select %[[LOWER]], %{{.*}}, %{{.*}} : (tensor<1x?x?xi1>, tensor<?x1x?xi64>, tensor<1x1x1xi64>) -> tensor<?x?x?xi64>
// CHECK-NEXT:    tosa.reduce_sum %[[TERMS]] {axis = 2 : i32} : (tensor<?x?x?xi64>) -> tensor<?x?x1xi64>
func.func @cumsum_dynamic(%x: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %axis = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.cumsum %x, %axis : (tensor<?x?xi64>, tensor<i64>) -> tensor<?x?xi64>
  func.return %0 : tensor<?x?xi64>
}
