// tests/programs/growing_cache.mlir's @kv after tosa-static-state{capacity=4}: 4 rows and a
// count; each call adds 1 to 3 rows, so a call past the capacity fails (and changes no state)
// within the sequence, as does a call after set_state gives the count a value out of range.
builtin.module {
  tosa.variable @kv = dense<0.000000e+00> : tensor<2x4x3xf32>
  tosa.variable @kv__count {tosa_state.count_of = "kv"} = dense<0> : tensor<1xi32>
  func.func @main(%x: tensor<2x?x3xf32>) -> (tensor<2x?x3xf32>, tensor<2x1x3xf32>) {
    %past = tosa.variable.read @kv : tensor<2x4x3xf32>
    %0 = tosa.variable.read @kv__count : tensor<1xi32>
    %1 = tosa.dim %x {axis = 1 : i32} : (tensor<2x?x3xf32>) -> !tosa.shape<1>
    tosa_state.check_capacity %0, %1 {variable = "kv", capacity = 4 : i64} : tensor<1xi32>, !tosa.shape<1>
    %2 = tosa.const_shape  {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
    %3 = tosa.sub_shape %2, %1 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
    %4 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = tosa.const_shape  {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
    %6 = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
    %7 = tosa.concat_shape %5, %3, %6 : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
    %8 = tosa.slice %past, %4, %7 : (tensor<2x4x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x?x3xf32>
    %all = tosa.concat %8, %x {axis = 1 : i32} : (tensor<2x?x3xf32>, tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %sum = tosa.reduce_sum %all {axis = 1 : i32} : (tensor<2x?x3xf32>) -> tensor<2x1x3xf32>
    %9 = tosa.const_shape  {values = dense<[2, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.reshape %all, %9 : (tensor<2x?x3xf32>, !tosa.shape<3>) -> tensor<2x4x3xf32>
    %11 = tosa.const_shape  {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
    %12 = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
    %13 = tosa.concat_shape %11, %1, %12 : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
    %14 = tosa.reshape %x, %13 : (tensor<2x?x3xf32>, !tosa.shape<3>) -> tensor<2x?x3xf32>
    %15 = "tosa.const"() <{values = dense<[0, 1, 2, 3]> : tensor<4xi32>}> : () -> tensor<4xi32>
    %16 = tosa.const_shape  {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
    %17 = tosa.slice %15, %16, %1 : (tensor<4xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
    %18 = tosa.add %17, %0 : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
    %19 = tosa.const_shape  {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
    %20 = tosa.concat_shape %19, %1 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
    %21 = tosa.reshape %18, %20 : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
    %22 = tosa.const_shape  {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %23 = tosa.tile %21, %22 : (tensor<1x?xi32>, !tosa.shape<2>) -> tensor<2x?xi32>
    %24 = tosa.scatter %10, %23, %14 : (tensor<2x4x3xf32>, tensor<2x?xi32>, tensor<2x?x3xf32>) -> tensor<2x4x3xf32>
    %25 = tosa.const_shape  {values = dense<[2, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %26 = tosa.reshape %24, %25 : (tensor<2x4x3xf32>, !tosa.shape<3>) -> tensor<2x4x3xf32>
    %27 = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %28 = tosa.tile %27, %1 : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
    %29 = tosa.reduce_sum %28 {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
    %30 = tosa.add %0, %29 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    tosa.variable.write @kv, %26 : tensor<2x4x3xf32>
    tosa.variable.write @kv__count, %30 : tensor<1xi32>
    func.return %all, %sum : tensor<2x?x3xf32>, tensor<2x1x3xf32>
  }
}
