// tests/programs/growing_cache.mlir's @kv after tosa-static-state{capacity=4}: 4 rows and a
// count; each call adds 1 to 3 rows, so a call past the capacity fails (and changes no state)
// within the sequence; set_state gives the count (an f32) random values.
builtin.module {
  tosa.variable @kv = dense<0.000000e+00> : tensor<2x4x3xf32>
  tosa.variable @kv__count {tosa_state.count_of = "kv"} = dense<0.000000e+00> : tensor<1xf32>
  func.func @main(%x: tensor<2x?x3xf32>) -> (tensor<2x?x3xf32>, tensor<2x1x3xf32>) {
    %past = tosa.variable.read @kv : tensor<2x4x3xf32>
    %0 = tosa.variable.read @kv__count : tensor<1xf32>
    %1 = tosa.cast %0 : (tensor<1xf32>) -> tensor<1xi32>
    %2 = tosa.dim %x {axis = 1 : i32} : (tensor<2x?x3xf32>) -> !tosa.shape<1>
    tosa_state.check_capacity %1, %2 {variable = "kv", capacity = 4 : i64} : tensor<1xi32>, !tosa.shape<1>
    %3 = tosa.const_shape  {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
    %4 = tosa.sub_shape %3, %2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
    %5 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
    %7 = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
    %8 = tosa.concat_shape %6, %4, %7 : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
    %9 = tosa.slice %past, %5, %8 : (tensor<2x4x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x?x3xf32>
    %all = tosa.concat %9, %x {axis = 1 : i32} : (tensor<2x?x3xf32>, tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %sum = tosa.reduce_sum %all {axis = 1 : i32} : (tensor<2x?x3xf32>) -> tensor<2x1x3xf32>
    %10 = tosa.const_shape  {values = dense<[2, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = tosa.reshape %all, %10 : (tensor<2x?x3xf32>, !tosa.shape<3>) -> tensor<2x4x3xf32>
    %12 = tosa.const_shape  {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
    %13 = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
    %14 = tosa.concat_shape %12, %2, %13 : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
    %15 = tosa.reshape %x, %14 : (tensor<2x?x3xf32>, !tosa.shape<3>) -> tensor<2x?x3xf32>
    %16 = "tosa.const"() <{values = dense<[0, 1, 2, 3]> : tensor<4xi32>}> : () -> tensor<4xi32>
    %17 = tosa.const_shape  {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
    %18 = tosa.slice %16, %17, %2 : (tensor<4xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
    %19 = tosa.add %18, %1 : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
    %20 = tosa.const_shape  {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
    %21 = tosa.concat_shape %20, %2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
    %22 = tosa.reshape %19, %21 : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
    %23 = tosa.const_shape  {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %24 = tosa.tile %22, %23 : (tensor<1x?xi32>, !tosa.shape<2>) -> tensor<2x?xi32>
    %25 = tosa.scatter %11, %24, %15 : (tensor<2x4x3xf32>, tensor<2x?xi32>, tensor<2x?x3xf32>) -> tensor<2x4x3xf32>
    %26 = tosa.const_shape  {values = dense<[2, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %27 = tosa.reshape %25, %26 : (tensor<2x4x3xf32>, !tosa.shape<3>) -> tensor<2x4x3xf32>
    %28 = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %29 = tosa.tile %28, %2 : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
    %30 = tosa.reduce_sum %29 {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
    %31 = tosa.add %1, %30 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %32 = tosa.cast %31 : (tensor<1xi32>) -> tensor<1xf32>
    tosa.variable.write @kv, %27 : tensor<2x4x3xf32>
    tosa.variable.write @kv__count, %32 : tensor<1xf32>
    func.return %all, %sum : tensor<2x?x3xf32>, tensor<2x1x3xf32>
  }
}
