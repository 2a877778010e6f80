// RUN: tosa-state-opt %s -p tosa-runtime-checks,hoist-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks,hoist-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// The checks of a function body merged into the fewest assertions (IREE closes an execution
// region at each), each group before the first op one of its members guards. A dim is
// traced back to its roots: `dim(%s, 0)` is `max(dim(%a, 0), dim(%b, 0))`, the concat's
// first input's elsewhere. A root the tracing does not see through (the `tosa.reverse`)
// moves, with what it reads, to the top when it only reads. So the add's, the concat's and
// the mul's checks become one, before the add. The gather's check reads its reduction,
// so it stays where it is, alone.

// CHECK-LABEL:   func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<?x8xf32>, %v: tensor<1x?x16xf32>, %i: tensor<1x?xi32>, %shift: tensor<1xi8>) -> (tensor<?x8xf32>, tensor<1x?x16xf32>) {
// CHECK-NEXT:     %n = tosa.reverse %c {axis = 0 : i32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %1 = tensor.dim %a, %0 : tensor<?x4xf32>
// CHECK-NEXT:     %2 = tensor.dim %b, %0 : tensor<?x4xf32>
// CHECK-NEXT:     %3 = arith.cmpi eq, %1, %2 : index
// CHECK-NEXT:     %4 = arith.constant 1 : index
// CHECK-NEXT:     %5 = arith.cmpi eq, %1, %4 : index
// CHECK-NEXT:     %6 = arith.cmpi eq, %2, %4 : index
// CHECK-NEXT:     %7 = arith.ori %5, %6 : i1
// CHECK-NEXT:     %8 = arith.ori %3, %7 : i1
// CHECK-NEXT:     %9 = arith.maxui %1, %2 : index
// CHECK-NEXT:     %10 = arith.cmpi eq, %9, %1 : index
// CHECK-NEXT:     %11 = arith.andi %8, %10 : i1
// CHECK-NEXT:     %12 = tensor.dim %n, %0 : tensor<?x8xf32>
// CHECK-NEXT:     %13 = arith.cmpi eq, %9, %12 : index
// CHECK-NEXT:     %14 = arith.cmpi eq, %9, %4 : index
// CHECK-NEXT:     %15 = arith.cmpi eq, %12, %4 : index
// CHECK-NEXT:     %16 = arith.ori %14, %15 : i1
// CHECK-NEXT:     %17 = arith.ori %13, %16 : i1
// CHECK-NEXT:     %18 = arith.andi %11, %17 : i1
// CHECK-NEXT:     cf.assert %18, "one of these run-time checks failed:\0A{{.*}}hoist-runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.add' op operands do not broadcast to one shape\0A{{.*}}hoist-runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.concat' op inputs differ in a dimension other than the axis\0A{{.*}}hoist-runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.mul' op operands do not broadcast to one shape"
// CHECK-NEXT:     %s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:     %k = tosa.abs %i : (tensor<1x?xi32>) -> tensor<1x?xi32>
// CHECK-NEXT:     %19 = arith.constant 1 : index
// CHECK-NEXT:     %20 = tensor.dim %v, %19 : tensor<1x?x16xf32>
// CHECK-NEXT:     %21 = arith.index_cast %20 : index to i32
// CHECK-NEXT:     %22 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
// CHECK-NEXT:     %23 = "tosa.const"() <{values = dense<2147483647> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
// CHECK-NEXT:     %24 = tosa.greater %22, %k : (tensor<1x1xi32>, tensor<1x?xi32>) -> tensor<1x?xi1>
// CHECK-NEXT:     %25 = tosa.select %24, %23, %k : (tensor<1x?xi1>, tensor<1x1xi32>, tensor<1x?xi32>) -> tensor<1x?xi32>
// CHECK-NEXT:     %26 = tosa.reduce_max %25 {axis = 1 : i32} : (tensor<1x?xi32>) -> tensor<1x1xi32>
// CHECK-NEXT:     %27 = arith.constant 0 : index
// CHECK-NEXT:     %28 = tensor.extract %26[%27, %27] : tensor<1x1xi32>
// CHECK-NEXT:     %29 = arith.cmpi slt, %28, %21 : i32
// CHECK-NEXT:     cf.assert %29, "{{.*}}hoist-runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.gather' op index out of range"
// CHECK-NEXT:     %g = tosa.gather %v, %k : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
// CHECK-NEXT:     %j = tosa.concat %s, %a {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
// CHECK-NEXT:     %m = tosa.mul %j, %n, %shift : (tensor<?x8xf32>, tensor<?x8xf32>, tensor<1xi8>) -> tensor<?x8xf32>
// CHECK-NEXT:     func.return %m, %g : tensor<?x8xf32>, tensor<1x?x16xf32>
// CHECK-NEXT:   }
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<?x8xf32>, %v: tensor<1x?x16xf32>, %i: tensor<1x?xi32>, %shift: tensor<1xi8>) -> (tensor<?x8xf32>, tensor<1x?x16xf32>) {
  %s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %k = tosa.abs %i : (tensor<1x?xi32>) -> tensor<1x?xi32>
  %g = tosa.gather %v, %k : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
  %j = tosa.concat %s, %a {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  %n = tosa.reverse %c {axis = 0 : i32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %m = tosa.mul %j, %n, %shift : (tensor<?x8xf32>, tensor<?x8xf32>, tensor<1xi8>) -> tensor<?x8xf32>
  return %m, %g : tensor<?x8xf32>, tensor<1x?x16xf32>
}
