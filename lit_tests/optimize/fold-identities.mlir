// RUN: tosa-state-opt %s -p tosa-fold-identities | filecheck %s

// A mean over one element (reduce_sum along a size-1 axis, then a mul by 1/1) returns its
// operand: the ops are replaced by it.

// CHECK-LABEL: func.func @folded
// CHECK-NEXT:    func.return %x, %x : tensor<1x1xf32>, tensor<1x1xf32>
func.func @folded(%x: tensor<1x1xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>) {
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mean = tosa.mul %sum, %one, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>
  %max = tosa.reduce_max %x {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x1xf32>
  func.return %mean, %max : tensor<1x1xf32>, tensor<1x1xf32>
}

// Kept: a reduction along a longer axis, a one that broadcasts the other operand, an
// integer mul (its shift rounds), a mul by a non-constant.

// CHECK-LABEL: func.func @kept
// CHECK:         tosa.reduce_sum %x {axis = 1 : i32}
// CHECK:         tosa.mul %y, %{{.*}}, %{{.*}} : (tensor<1xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<3xf32>
// CHECK:         tosa.mul %i, %{{.*}}, %{{.*}} : (tensor<3xi32>, tensor<3xi32>, tensor<1xi8>) -> tensor<3xi32>
// CHECK:         tosa.mul %y, %z, %{{.*}} : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
func.func @kept(%x: tensor<1x3xf32>, %y: tensor<1xf32>, %z: tensor<1xf32>, %i: tensor<3xi32>) -> (tensor<1x1xf32>, tensor<3xf32>, tensor<3xi32>, tensor<1xf32>) {
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x3xf32>) -> tensor<1x1xf32>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = tosa.mul %y, %ones, %shift : (tensor<1xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<3xf32>
  %ione = "tosa.const"() <{values = dense<1> : tensor<3xi32>}> : () -> tensor<3xi32>
  %ishift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %im = tosa.mul %i, %ione, %ishift : (tensor<3xi32>, tensor<3xi32>, tensor<1xi8>) -> tensor<3xi32>
  %m = tosa.mul %y, %z, %shift : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
  func.return %sum, %b, %im, %m : tensor<1x1xf32>, tensor<3xf32>, tensor<3xi32>, tensor<1xf32>
}
