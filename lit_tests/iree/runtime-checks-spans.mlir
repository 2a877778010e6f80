// RUN: tosa-state-opt %s -p tosa-lower-shape-ops,tosa-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-lower-shape-ops,tosa-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// Gather indices made of ranges (a converted Range: a slice of the constant table
// `[0, 1, ...)`), their broadcast sums and products by a count (`reduce_sum` of ones: a
// dynamic dim) are checked from their span: the smallest and largest index as arithmetic
// on dims, exact since both are attained, so nothing is read back and
// hoist-runtime-checks can merge the check with the others. Empty indices pass. A
// converted Gather's wrapping `select(0 > x, x + k, x)` checks `x` in [-K, K) and `k == K`.
// Sums whose operands vary along the same axis fall back to the reduction read back. Each
// slice of run-time offsets or sizes is checked within its input (a Range past the table).

// The causal mask's flat indices: `kv + row * L` over the batch, into the mask of b x L.
// CHECK-LABEL: func.func @mask(
// CHECK:         %[[P:.*]] = tensor.dim %past
// CHECK:         %[[N:.*]] = tensor.dim %new
// CHECK:         %[[T:.*]] = arith.addi %[[P]], %[[N]] : index
// CHECK:         %[[B:.*]] = tensor.dim %mask
// CHECK:         %[[L:.*]] = tensor.dim %mask
// CHECK:         %[[END:.*]] = arith.addi %{{.*}}, %[[T]] : index
// CHECK-NEXT:    %[[LE:.*]] = arith.cmpi sle, %[[END]], %{{.*}} : index
// CHECK-NEXT:    %[[SIGNS:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    %[[OKS:.*]] = arith.andi %[[SIGNS]], %[[LE]] : i1
// CHECK-NEXT:    cf.assert %[[OKS]], "{{.*}}runtime-checks-spans.mlir:{{[0-9]+}}:3: error: 'tensor.extract_slice' op window out of bounds of its input"
// CHECK-NEXT:    %kv = tensor.extract_slice %iota[%{{.*}}] [%[[T]]] [1]
// CHECK:         %m = tensor.reshape %mask
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    %[[K:.*]] = tensor.dim %m, %{{.*}} : tensor<1x?x1xi1>
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.subi %[[T]], %[[ONE]] : index
// CHECK-NEXT:    %[[ONE2:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.subi %[[B]], %[[ONE2]] : index
// CHECK-NEXT:    %[[BASE:.*]] = arith.muli %[[ROW]], %[[L]] : index
// CHECK-NEXT:    %[[HIGH:.*]] = arith.addi %[[LAST]], %[[BASE]] : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[LOW]], %[[ZERO]] : index
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[HIGH]], %[[K]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    %[[W:.*]] = tensor.dim %idx, %{{.*}} : tensor<1x?xi32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[EMPTY:.*]] = arith.cmpi eq, %[[W]], %[[Z]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.ori %[[EMPTY]], %[[IN]] : i1
// CHECK-NEXT:    cf.assert %[[OK]], "{{.*}}runtime-checks-spans.mlir:{{[0-9]+}}:3: error: 'tosa.gather' op index out of range"
// CHECK-NEXT:    %g = tosa.gather %m, %idx
// CHECK-NOT:     tensor.extract %

// Negative indices counted from the end: x = [0, n) in [-K, K), its k (a count of K's
// dim) equal to K.
// CHECK-LABEL: func.func @wrapped(
// CHECK:         %[[N:.*]] = tensor.dim %x
// CHECK:         %[[COUNT:.*]] = tensor.dim %v
// CHECK:         %idx = tosa.reshape %w
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    %[[K:.*]] = tensor.dim %v
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[HIGH:.*]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[FLOOR:.*]] = arith.subi %[[Z]], %[[K]] : index
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[LOW]], %[[FLOOR]] : index
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[HIGH]], %[[K]] : index
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[K]], %[[COUNT]] : index
// CHECK:         cf.assert %{{.*}}, "{{.*}}'tosa.gather' op index out of range"
// CHECK-NEXT:    %g = tosa.gather %v, %idx

// A progression of step 2 sliced at a run-time offset: [2p, 2(p + n - 1)].
// CHECK-LABEL: func.func @evens(
// CHECK:         %[[P:.*]] = tensor.dim %p
// CHECK:         %[[N:.*]] = tensor.dim %x
// CHECK:         %r = tensor.extract_slice %evens[%[[P]]] [%[[N]]] [1]
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[LOW:.*]] = arith.muli %[[TWO]], %[[P]] : index
// CHECK-NEXT:    %[[TWO2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[END:.*]] = arith.addi %[[P]], %[[N]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.subi %[[END]], %[[ONE]] : index
// CHECK-NEXT:    %[[HIGH:.*]] = arith.muli %[[TWO2]], %[[LAST]] : index
// CHECK:         cf.assert %{{.*}}, "{{.*}}'tosa.gather' op index out of range"

// `r + reverse(r)` varies along one axis in both: its span is not the sum of theirs.
// CHECK-LABEL: func.func @not_apart(
// CHECK:         tosa.reduce_max
// CHECK:         tensor.extract
// CHECK:         cf.assert %{{.*}}, "{{.*}}'tosa.gather' op index out of range"

func.func @mask(%mask: tensor<?x?xi1>, %past: tensor<?x4xf32>, %new: tensor<?x4xf32>) -> tensor<1x?x1xi1> {
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %p = tosa.dim %past {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %n = tosa.dim %new {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %t = tosa.add_shape %p, %n : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %b = tosa.dim %mask {axis = 0 : i32} : (tensor<?x?xi1>) -> !tosa.shape<1>
  %l = tosa.dim %mask {axis = 1 : i32} : (tensor<?x?xi1>) -> !tosa.shape<1>
  %kv = tosa.slice %iota, %zero, %t : (tensor<8xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %kv2 = tosa.reshape %kv, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %rows = tosa.slice %iota, %zero, %b : (tensor<8xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %column = tosa.const_shape {values = dense<[-1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %rows2 = tosa.reshape %rows, %column : (tensor<?xi32>, !tosa.shape<2>) -> tensor<?x1xi32>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ones = tosa.tile %one, %l : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
  %len = tosa.reduce_sum %ones {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
  %corner = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %len2 = tosa.reshape %len, %corner : (tensor<1xi32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %base = tosa.mul %rows2, %len2, %shift : (tensor<?x1xi32>, tensor<1x1xi32>, tensor<1xi8>) -> tensor<?x1xi32>
  %flat = tosa.add %kv2, %base : (tensor<1x?xi32>, tensor<?x1xi32>) -> tensor<?x?xi32>
  %idx = tosa.reshape %flat, %row : (tensor<?x?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %bl = tosa.mul_shape %b, %l : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %one_shape = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %sm = tosa.concat_shape %one_shape, %bl, %one_shape : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
  %m = tosa.reshape %mask, %sm : (tensor<?x?xi1>, !tosa.shape<3>) -> tensor<1x?x1xi1>
  %g = tosa.gather %m, %idx : (tensor<1x?x1xi1>, tensor<1x?xi32>) -> tensor<1x?x1xi1>
  return %g : tensor<1x?x1xi1>
}

func.func @wrapped(%v: tensor<1x?x4xf32>, %x: tensor<?x4xf32>) -> tensor<1x?x4xf32> {
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %n = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %k = tosa.dim %v {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %r = tosa.slice %iota, %zero, %n : (tensor<8xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ones = tosa.tile %one, %k : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
  %count = tosa.reduce_sum %ones {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %negative = tosa.greater %z, %r : (tensor<1xi32>, tensor<?xi32>) -> tensor<?xi1>
  %up = tosa.add %r, %count : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
  %w = tosa.select %negative, %up, %r : (tensor<?xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %idx = tosa.reshape %w, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %g = tosa.gather %v, %idx : (tensor<1x?x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  return %g : tensor<1x?x4xf32>
}

func.func @evens(%v: tensor<1x?x4xf32>, %p: tensor<?x4xf32>, %x: tensor<?x4xf32>) -> tensor<1x?x4xf32> {
  %evens = "tosa.const"() <{values = dense<[0, 2, 4, 6, 8, 10, 12, 14]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %start = tosa.dim %p {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %n = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %r = tosa.slice %evens, %start, %n : (tensor<8xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %idx = tosa.reshape %r, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %g = tosa.gather %v, %idx : (tensor<1x?x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  return %g : tensor<1x?x4xf32>
}

func.func @not_apart(%v: tensor<1x?x4xf32>, %x: tensor<?x4xf32>) -> tensor<1x?x4xf32> {
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %n = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %r = tosa.slice %iota, %zero, %n : (tensor<8xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %rev = tosa.reverse %r {axis = 0 : i32} : (tensor<?xi32>) -> tensor<?xi32>
  %sum = tosa.add %r, %rev : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %idx = tosa.reshape %sum, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %g = tosa.gather %v, %idx : (tensor<1x?x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  return %g : tensor<1x?x4xf32>
}
