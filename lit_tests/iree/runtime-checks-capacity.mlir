// RUN: tosa-state-opt %s -p tosa-runtime-checks --split-input-file --verify-diagnostics | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks --split-input-file --verify-diagnostics --tosa-spelling=upstream | iree-opt --split-input-file > /dev/null

// A static state's capacity check (tosa-static-state's tosa_state.check_capacity, which
// upstream cannot read) as the assertion device iree keeps: the count not negative, and
// the count plus the call's constant rows within the capacity.

// CHECK-LABEL:  func.func @main(%count: tensor<1xi32>) {
// CHECK-NEXT:     %rows = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %1 = tensor.extract %count[%0] : tensor<1xi32>
// CHECK-NEXT:     %2 = arith.constant 3 : i32
// CHECK-NEXT:     %3 = arith.addi %1, %2 : i32
// CHECK-NEXT:     %4 = arith.constant 64 : i32
// CHECK-NEXT:     %5 = arith.constant 0 : i32
// CHECK-NEXT:     %6 = arith.cmpi sge, %1, %5 : i32
// CHECK-NEXT:     %7 = arith.cmpi sle, %3, %4 : i32
// CHECK-NEXT:     %8 = arith.andi %6, %7 : i1
// CHECK-NEXT:     cf.assert %8, "{{.*}}runtime-checks-capacity.mlir:{{[0-9]+}}:3: error: 'tosa_state.check_capacity' op variable 'k' would pass its static capacity of 64 rows"
// CHECK-NEXT:     func.return
func.func @main(%count: tensor<1xi32>) {
  %rows = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
  tosa_state.check_capacity %count, %rows {variable = "k", capacity = 64 : i64} : tensor<1xi32>, !tosa.shape<1>
  func.return
}

// -----

// Rows known only at run time: no assertion can be written for them.

func.func @main(%count: tensor<1xi32>, %new: tensor<1x?xf32>) {
  %rows = tosa.dim %new {axis = 1 : i32} : (tensor<1x?xf32>) -> !tosa.shape<1>
  // expected-error@+1 {{'tosa_state.check_capacity' op adds a number of rows known only at run time; give the calls static shapes (input_shapes)}}
  tosa_state.check_capacity %count, %rows {variable = "k", capacity = 64 : i64} : tensor<1xi32>, !tosa.shape<1>
  func.return
}
