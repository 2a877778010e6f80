// RUN: tosa-state-opt %s -p tosa-runtime-checks,hoist-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks,hoist-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// A root is raised only from before the first op that may write a global (a store, a
// call): this load of @kv, after its store (no mlprogram-stores-last here), stays where it
// is, and so does the mul's check, which reads its dims; the add's check is the first.

// CHECK:   ml_program.global private mutable @kv : tensor<?x4xf32>
// CHECK-LABEL:   func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>, %shift: tensor<1xi8>) -> tensor<?x4xf32> {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %1 = tensor.dim %x, %0 : tensor<?x4xf32>
// CHECK-NEXT:     %2 = arith.constant 0 : index
// CHECK-NEXT:     %3 = tensor.dim %y, %2 : tensor<?x4xf32>
// CHECK-NEXT:     %4 = arith.constant 1 : index
// CHECK-NEXT:     %5 = arith.cmpi eq, %1, %3 : index
// CHECK-NEXT:     %6 = arith.cmpi eq, %1, %4 : index
// CHECK-NEXT:     %7 = arith.cmpi eq, %3, %4 : index
// CHECK-NEXT:     %8 = arith.ori %6, %7 : i1
// CHECK-NEXT:     %9 = arith.ori %5, %8 : i1
// CHECK-NEXT:     cf.assert %9, "{{.*}}hoist-runtime-checks-stores.mlir:{{[0-9]+}}:3: error: 'tosa.add' op operands do not broadcast to one shape"
// CHECK-NEXT:     %s = tosa.add %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:     ml_program.global_store @kv = %s : tensor<?x4xf32>
// CHECK-NEXT:     %kv = ml_program.global_load @kv : tensor<?x4xf32>
// CHECK-NEXT:     %10 = arith.constant 0 : index
// CHECK-NEXT:     %11 = tensor.dim %kv, %10 : tensor<?x4xf32>
// CHECK-NEXT:     %12 = arith.constant 0 : index
// CHECK-NEXT:     %13 = tensor.dim %y, %12 : tensor<?x4xf32>
// CHECK-NEXT:     %14 = arith.constant 1 : index
// CHECK-NEXT:     %15 = arith.cmpi eq, %11, %13 : index
// CHECK-NEXT:     %16 = arith.cmpi eq, %11, %14 : index
// CHECK-NEXT:     %17 = arith.cmpi eq, %13, %14 : index
// CHECK-NEXT:     %18 = arith.ori %16, %17 : i1
// CHECK-NEXT:     %19 = arith.ori %15, %18 : i1
// CHECK-NEXT:     cf.assert %19, "{{.*}}hoist-runtime-checks-stores.mlir:{{[0-9]+}}:3: error: 'tosa.mul' op operands do not broadcast to one shape"
// CHECK-NEXT:     %m = tosa.mul %kv, %y, %shift : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
// CHECK-NEXT:     func.return %m : tensor<?x4xf32>
// CHECK-NEXT:   }
ml_program.global private mutable @kv : tensor<?x4xf32>
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>, %shift: tensor<1xi8>) -> tensor<?x4xf32> {
  %s = tosa.add %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  ml_program.global_store @kv = %s : tensor<?x4xf32>
  %kv = ml_program.global_load @kv : tensor<?x4xf32>
  %m = tosa.mul %kv, %y, %shift : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
  return %m : tensor<?x4xf32>
}
