// RUN: tosa-state-opt %s -p cse,dce,canonicalize | filecheck %s

// Reads and writes are ordered by program order, not by data edges: CSE must not merge
// the two reads (a write stands between them), and DCE must not drop an unused read
// (it still checks that the variable is initialised) nor any write.

tosa.variable @v = dense<0.0> : tensor<2xf32>

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %[[A:.*]] = tosa.variable.read @v : tensor<2xf32>
// CHECK-NEXT:    tosa.variable.write @v, %{{.*}} : tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = tosa.variable.read @v : tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = tosa.variable.read @v : tensor<2xf32>
// CHECK-NEXT:    tosa.variable.write @v, %[[A]] : tensor<2xf32>
// CHECK-NEXT:    func.return %[[A]], %[[B]] : tensor<2xf32>, tensor<2xf32>
func.func @f(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = tosa.variable.read @v : tensor<2xf32>
  tosa.variable.write @v, %x : tensor<2xf32>
  %b = tosa.variable.read @v : tensor<2xf32>
  %unused = tosa.variable.read @v : tensor<2xf32>
  tosa.variable.write @v, %a : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}
