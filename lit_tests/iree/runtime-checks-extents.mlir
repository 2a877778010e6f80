// RUN: tosa-state-opt %s -p "tosa-runtime-checks{extents=true}" | filecheck %s
// RUN: tosa-state-opt %s -p "tosa-runtime-checks{extents=true}" --tosa-spelling=upstream | iree-opt > /dev/null

// With `extents` (device iree's own calls), gather indices that are an input (through
// reshapes), or a converted Gather's wrapping of one (`select(0 > x, x + k, x)`, negative
// indices counted from the end), are checked from the input's smallest and largest
// element: trailing `i32` arguments the caller passes (`tosa_state.min_of` / `max_of`: the
// input's index), one pair per input, so the module reads nothing back. The wrapped ones
// must lie in [-K, K), its `k` equal to `K`. Without the option (the portable `.vmfb`) the
// signature stays and the indices are read back (runtime-checks.mlir).

// CHECK-LABEL:   func.func @main(%v: tensor<1x?x16xf32>, %i: tensor<?xi32>, %w: tensor<1x4x16xf32>, %0: i32 {tosa_state.min_of = 1 : i64}, %1: i32 {tosa_state.max_of = 1 : i64}) -> (tensor<1x?x16xf32>, tensor<1x?x16xf32>) {
// CHECK-NEXT:     %shape = tosa.const_shape  {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:     %r = tosa.reshape %i, %shape : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     %3 = tensor.dim %v, %2 : tensor<1x?x16xf32>
// CHECK-NEXT:     %4 = arith.index_cast %3 : index to i32
// CHECK-NEXT:     %5 = arith.constant 0 : i32
// CHECK-NEXT:     %6 = arith.cmpi sge, %0, %5 : i32
// CHECK-NEXT:     %7 = arith.cmpi slt, %1, %4 : i32
// CHECK-NEXT:     %8 = arith.andi %6, %7 : i1
// CHECK-NEXT:     cf.assert %8, "{{.*}}runtime-checks-extents.mlir:{{[0-9]+}}:3: error: 'tosa.gather' op index out of range"
// CHECK-NEXT:     %g = tosa.gather %v, %r : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
// CHECK-NEXT:     %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:     %k = "tosa.const"() <{values = dense<4> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:     %negative = tosa.greater %zero, %i : (tensor<1xi32>, tensor<?xi32>) -> tensor<?xi1>
// CHECK-NEXT:     %up = tosa.add %i, %k : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
// CHECK-NEXT:     %9 = arith.constant 0 : index
// CHECK-NEXT:     %10 = tensor.dim %negative, %9 : tensor<?xi1>
// CHECK-NEXT:     %11 = arith.constant 0 : index
// CHECK-NEXT:     %12 = tensor.dim %up, %11 : tensor<?xi32>
// CHECK-NEXT:     %13 = arith.constant 0 : index
// CHECK-NEXT:     %14 = tensor.dim %i, %13 : tensor<?xi32>
// CHECK-NEXT:     %15 = arith.constant 1 : index
// CHECK-NEXT:     %16 = arith.cmpi eq, %10, %12 : index
// CHECK-NEXT:     %17 = arith.cmpi eq, %10, %15 : index
// CHECK-NEXT:     %18 = arith.cmpi eq, %12, %15 : index
// CHECK-NEXT:     %19 = arith.ori %17, %18 : i1
// CHECK-NEXT:     %20 = arith.ori %16, %19 : i1
// CHECK-NEXT:     %21 = arith.cmpi eq, %10, %14 : index
// CHECK-NEXT:     %22 = arith.cmpi eq, %10, %15 : index
// CHECK-NEXT:     %23 = arith.cmpi eq, %14, %15 : index
// CHECK-NEXT:     %24 = arith.ori %22, %23 : i1
// CHECK-NEXT:     %25 = arith.ori %21, %24 : i1
// CHECK-NEXT:     %26 = arith.andi %20, %25 : i1
// CHECK-NEXT:     cf.assert %26, "{{.*}}runtime-checks-extents.mlir:{{[0-9]+}}:3: error: 'tosa.select' op operands do not broadcast to one shape"
// CHECK-NEXT:     %wrapped = tosa.select %negative, %up, %i : (tensor<?xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
// CHECK-NEXT:     %wr = tosa.reshape %wrapped, %shape : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
// CHECK-NEXT:     %27 = arith.constant 1 : index
// CHECK-NEXT:     %28 = tensor.dim %w, %27 : tensor<1x4x16xf32>
// CHECK-NEXT:     %29 = arith.index_cast %28 : index to i32
// CHECK-NEXT:     %30 = arith.constant 0 : i32
// CHECK-NEXT:     %31 = arith.subi %30, %29 : i32
// CHECK-NEXT:     %32 = arith.constant 4 : index
// CHECK-NEXT:     %33 = arith.cmpi eq, %28, %32 : index
// CHECK-NEXT:     %34 = arith.cmpi sge, %0, %31 : i32
// CHECK-NEXT:     %35 = arith.cmpi slt, %1, %29 : i32
// CHECK-NEXT:     %36 = arith.andi %34, %35 : i1
// CHECK-NEXT:     %37 = arith.andi %36, %33 : i1
// CHECK-NEXT:     cf.assert %37, "{{.*}}runtime-checks-extents.mlir:{{[0-9]+}}:3: error: 'tosa.gather' op index out of range"
// CHECK-NEXT:     %h = tosa.gather %w, %wr : (tensor<1x4x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
// CHECK-NEXT:     func.return %g, %h : tensor<1x?x16xf32>, tensor<1x?x16xf32>
// CHECK-NEXT:   }
func.func @main(%v: tensor<1x?x16xf32>, %i: tensor<?xi32>, %w: tensor<1x4x16xf32>) -> (tensor<1x?x16xf32>, tensor<1x?x16xf32>) {
  %shape = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %i, %shape : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %g = tosa.gather %v, %r : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %k = "tosa.const"() <{values = dense<4> : tensor<1xi32>}> : () -> tensor<1xi32>
  %negative = tosa.greater %zero, %i : (tensor<1xi32>, tensor<?xi32>) -> tensor<?xi1>
  %up = tosa.add %i, %k : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
  %wrapped = tosa.select %negative, %up, %i : (tensor<?xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %wr = tosa.reshape %wrapped, %shape : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %h = tosa.gather %w, %wr : (tensor<1x4x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
  return %g, %h : tensor<1x?x16xf32>, tensor<1x?x16xf32>
}
