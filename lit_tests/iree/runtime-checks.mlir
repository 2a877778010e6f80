// RUN: tosa-state-opt %s -p tosa-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// What the interpreter checks at run time, as assertions device iree keeps: gather indices
// in range, the dynamic dims of a broadcast equal or 1 (none for an operand of static size 1
// there; a tosa.mul's shift, of another rank, is no operand to broadcast), the dynamic dims
// of a concat but its axis equal. Each message is the op's location.

// CHECK-LABEL:   func.func @main(%v: tensor<1x?x16xf32>, %i: tensor<1x?xi32>, %a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<1x4xf32>, %shift: tensor<1xi8>) -> (tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>) {
// CHECK-NEXT:     %0 = tosa.reduce_min %i {axis = 1 : i32} : (tensor<1x?xi32>) -> tensor<1x1xi32>
// CHECK-NEXT:     %1 = tosa.reduce_max %i {axis = 1 : i32} : (tensor<1x?xi32>) -> tensor<1x1xi32>
// CHECK-NEXT:     %2 = arith.constant 0 : index
// CHECK-NEXT:     %3 = tensor.extract %0[%2, %2] : tensor<1x1xi32>
// CHECK-NEXT:     %4 = tensor.extract %1[%2, %2] : tensor<1x1xi32>
// CHECK-NEXT:     %5 = arith.constant 1 : index
// CHECK-NEXT:     %6 = tensor.dim %v, %5 : tensor<1x?x16xf32>
// CHECK-NEXT:     %7 = arith.index_cast %6 : index to i32
// CHECK-NEXT:     %8 = arith.constant 0 : i32
// CHECK-NEXT:     %9 = arith.cmpi sge, %3, %8 : i32
// CHECK-NEXT:     %10 = arith.cmpi slt, %4, %7 : i32
// CHECK-NEXT:     %11 = arith.andi %9, %10 : i1
// CHECK-NEXT:     cf.assert %11, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.gather' op index out of range"
// CHECK-NEXT:     %g = tosa.gather %v, %i : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
// CHECK-NEXT:     %12 = arith.constant 0 : index
// CHECK-NEXT:     %13 = tensor.dim %a, %12 : tensor<?x4xf32>
// CHECK-NEXT:     %14 = arith.constant 0 : index
// CHECK-NEXT:     %15 = tensor.dim %b, %14 : tensor<?x4xf32>
// CHECK-NEXT:     %16 = arith.constant 1 : index
// CHECK-NEXT:     %17 = arith.cmpi eq, %13, %15 : index
// CHECK-NEXT:     %18 = arith.cmpi eq, %13, %16 : index
// CHECK-NEXT:     %19 = arith.cmpi eq, %15, %16 : index
// CHECK-NEXT:     %20 = arith.ori %18, %19 : i1
// CHECK-NEXT:     %21 = arith.ori %17, %20 : i1
// CHECK-NEXT:     cf.assert %21, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.add' op operands do not broadcast to one shape"
// CHECK-NEXT:     %s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:     %t = tosa.sub %a, %c : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:     %22 = arith.constant 0 : index
// CHECK-NEXT:     %23 = tensor.dim %a, %22 : tensor<?x4xf32>
// CHECK-NEXT:     %24 = arith.constant 0 : index
// CHECK-NEXT:     %25 = tensor.dim %b, %24 : tensor<?x4xf32>
// CHECK-NEXT:     %26 = arith.cmpi eq, %23, %25 : index
// CHECK-NEXT:     cf.assert %26, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.concat' op inputs differ in a dimension other than the axis"
// CHECK-NEXT:     %j = tosa.concat %a, %b {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
// CHECK-NEXT:     %27 = arith.constant 0 : index
// CHECK-NEXT:     %28 = tensor.dim %a, %27 : tensor<?x4xf32>
// CHECK-NEXT:     %29 = arith.constant 0 : index
// CHECK-NEXT:     %30 = tensor.dim %b, %29 : tensor<?x4xf32>
// CHECK-NEXT:     %31 = arith.constant 1 : index
// CHECK-NEXT:     %32 = arith.cmpi eq, %28, %30 : index
// CHECK-NEXT:     %33 = arith.cmpi eq, %28, %31 : index
// CHECK-NEXT:     %34 = arith.cmpi eq, %30, %31 : index
// CHECK-NEXT:     %35 = arith.ori %33, %34 : i1
// CHECK-NEXT:     %36 = arith.ori %32, %35 : i1
// CHECK-NEXT:     cf.assert %36, "{{.*}}runtime-checks.mlir:{{[0-9]+}}:3: error: 'tosa.mul' op operands do not broadcast to one shape"
// CHECK-NEXT:     %m = tosa.mul %a, %b, %shift : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
// CHECK-NEXT:     func.return %g, %s, %t, %j, %m : tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>
// CHECK-NEXT:   }
func.func @main(%v: tensor<1x?x16xf32>, %i: tensor<1x?xi32>, %a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<1x4xf32>, %shift: tensor<1xi8>) -> (tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>) {
  %g = tosa.gather %v, %i : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
  %s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %t = tosa.sub %a, %c : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %j = tosa.concat %a, %b {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  %m = tosa.mul %a, %b, %shift : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
  return %g, %s, %t, %j, %m : tensor<1x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x4xf32>
}
