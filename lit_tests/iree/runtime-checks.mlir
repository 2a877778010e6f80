// RUN: tosa-state-opt %s -p tosa-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// What the interpreter checks at run time, as assertions device iree keeps: gather indices
// in range, the dynamic dims of a broadcast equal or 1 (none for an operand of static size 1
// there; a tosa.mul's shift, of another rank, is no operand to broadcast), the dynamic dims
// of a concat but its axis equal. Each message is the op's location. The gather's indices
// are computed here: their largest is read back from one reduction, a negative index
// counted as the largest integer (runtime-checks-extents.mlir: indices that are an input).

// CHECK-LABEL:   func.func @main(%v: tensor<1x?x16xf32>, %i: tensor<1x?xi32>, %a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<1x4xf32>, %shift: tensor<1xi8>) -> (tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>) {
// CHECK-NEXT:     %k = tosa.abs %i : (tensor<1x?xi32>) -> tensor<1x?xi32>
// CHECK-NEXT:     %0 = arith.constant 1 : index
// CHECK-NEXT:     %1 = tensor.dim %v, %0 : tensor<1x?x16xf32>
// CHECK-NEXT:     %2 = arith.index_cast %1 : index to i32
// CHECK-NEXT:     %3 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
// CHECK-NEXT:     %4 = "tosa.const"() <{values = dense<2147483647> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
// CHECK-NEXT:     %5 = tosa.greater %3, %k : (tensor<1x1xi32>, tensor<1x?xi32>) -> tensor<1x?xi1>
// CHECK-NEXT:     %6 = tosa.select %5, %4, %k : (tensor<1x?xi1>, tensor<1x1xi32>, tensor<1x?xi32>) -> tensor<1x?xi32>
// CHECK-NEXT:     %7 = tosa.reduce_max %6 {axis = 1 : i32} : (tensor<1x?xi32>) -> tensor<1x1xi32>
// CHECK-NEXT:     %8 = arith.constant 0 : index
// CHECK-NEXT:     %9 = tensor.extract %7[%8, %8] : tensor<1x1xi32>
// CHECK-NEXT:     %10 = arith.cmpi slt, %9, %2 : i32
// CHECK-NEXT:     cf.assert %10, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.gather' op index out of range"
// CHECK-NEXT:     %g = tosa.gather %v, %k : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
// CHECK-NEXT:     %11 = arith.constant 0 : index
// CHECK-NEXT:     %12 = tensor.dim %a, %11 : tensor<?x4xf32>
// CHECK-NEXT:     %13 = arith.constant 0 : index
// CHECK-NEXT:     %14 = tensor.dim %b, %13 : tensor<?x4xf32>
// CHECK-NEXT:     %15 = arith.constant 1 : index
// CHECK-NEXT:     %16 = arith.cmpi eq, %12, %14 : index
// CHECK-NEXT:     %17 = arith.cmpi eq, %12, %15 : index
// CHECK-NEXT:     %18 = arith.cmpi eq, %14, %15 : index
// CHECK-NEXT:     %19 = arith.ori %17, %18 : i1
// CHECK-NEXT:     %20 = arith.ori %16, %19 : i1
// CHECK-NEXT:     cf.assert %20, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.add' op operands do not broadcast to one shape"
// CHECK-NEXT:     %s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:     %t = tosa.sub %a, %c : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:     %21 = arith.constant 0 : index
// CHECK-NEXT:     %22 = tensor.dim %a, %21 : tensor<?x4xf32>
// CHECK-NEXT:     %23 = arith.constant 0 : index
// CHECK-NEXT:     %24 = tensor.dim %b, %23 : tensor<?x4xf32>
// CHECK-NEXT:     %25 = arith.cmpi eq, %22, %24 : index
// CHECK-NEXT:     cf.assert %25, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.concat' op inputs differ in a dimension other than the axis"
// CHECK-NEXT:     %j = tosa.concat %a, %b {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
// CHECK-NEXT:     %26 = arith.constant 0 : index
// CHECK-NEXT:     %27 = tensor.dim %a, %26 : tensor<?x4xf32>
// CHECK-NEXT:     %28 = arith.constant 0 : index
// CHECK-NEXT:     %29 = tensor.dim %b, %28 : tensor<?x4xf32>
// CHECK-NEXT:     %30 = arith.constant 1 : index
// CHECK-NEXT:     %31 = arith.cmpi eq, %27, %29 : index
// CHECK-NEXT:     %32 = arith.cmpi eq, %27, %30 : index
// CHECK-NEXT:     %33 = arith.cmpi eq, %29, %30 : index
// CHECK-NEXT:     %34 = arith.ori %32, %33 : i1
// CHECK-NEXT:     %35 = arith.ori %31, %34 : i1
// CHECK-NEXT:     cf.assert %35, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.mul' op operands do not broadcast to one shape"
// CHECK-NEXT:     %m = tosa.mul %a, %b, %shift : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
// CHECK-NEXT:     func.return %g, %s, %t, %j, %m : tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>
// CHECK-NEXT:   }
func.func @main(%v: tensor<1x?x16xf32>, %i: tensor<1x?xi32>, %a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<1x4xf32>, %shift: tensor<1xi8>) -> (tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>) {
  %k = tosa.abs %i : (tensor<1x?xi32>) -> tensor<1x?xi32>
  %g = tosa.gather %v, %k : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
  %s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %t = tosa.sub %a, %c : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %j = tosa.concat %a, %b {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  %m = tosa.mul %a, %b, %shift : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
  return %g, %s, %t, %j, %m : tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>
}
