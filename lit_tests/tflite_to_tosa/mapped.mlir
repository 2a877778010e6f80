// A .tflite weight of at least 64 KiB is mapped from the file (`resources.mapped`) and kept
// as it is by convert-tflite-to-tosa: FULLY_CONNECTED's transpose of it is not folded into a
// new constant (the plan makes it a view); a smaller one is folded, transposed, as before
// (compute.mlir). The models are written at test time (tests/tflite_writer.py).

// RUN: python -c "import sys; sys.path.insert(0, '%S/../../tests'); import numpy as n; from pathlib import Path; from tflite_writer import fully_connected as f; f(Path('%t.big.tflite'), n.arange(128 * 128, dtype='f4').reshape(128, 128), n.zeros(128, 'f4')); f(Path('%t.small.tflite'), n.arange(8 * 128, dtype='f4').reshape(8, 128), n.zeros(8, 'f4'))"
// RUN: tosa-state-opt %t.big.tflite -p convert-tflite-to-tosa --elide-large-constants=16 | filecheck %s
// RUN: tosa-state-opt %t.small.tflite -p convert-tflite-to-tosa --elide-large-constants=16 | filecheck %s --check-prefix=SMALL

// CHECK:      %[[W:.*]] = "tosa.const"() <{values = dense_resource<__elided__> : tensor<128x128xf32>}>
// CHECK:      %[[T:.*]] = tosa.transpose %[[W]] {perms = array<i32: 1, 0>} : (tensor<128x128xf32>) -> tensor<128x128xf32>
// CHECK:      %[[R:.*]] = tosa.reshape %[[T]], %{{.*}} -> tensor<1x128x128xf32>
// CHECK:      tosa.matmul %{{.*}}, %[[R]], {{.*}} -> tensor<1x1x128xf32>

// SMALL-NOT:  tosa.transpose
// SMALL:      %[[W:.*]] = "tosa.const"() <{values = dense_resource<__elided__> : tensor<1x128x8xf32>}>
// SMALL:      tosa.matmul %{{.*}}, %[[W]], {{.*}} -> tensor<1x1x8xf32>
