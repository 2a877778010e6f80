// RUN: tosa-state-opt %s --split-input-file -p convert-tflite-to-tosa | filecheck %s

// Full-integer (int8) TFLite ops in TOSA's integer profile, with LiteRT's built-in kernels'
// scales and rounding. QUANTIZE and DEQUANTIZE as LiteRT's int8 kernels: the first
// 8 * floor(n / 8) values (its vector loop) and the rest (one by one) computed differently,
// a constant mask selecting: QUANTIZE as x * (1/scale) rounded half to even (adding and
// subtracting 1.5 * 2^23) there, the exact x / scale rounded half away from zero here (a
// quotient corrected by its residual; floor / ceil and select), + zero point, clamped, cast
// to i8; DEQUANTIZE as q * scale + (-zero point * scale) there and (q - zero point) * scale
// here, and per channel;
// FULLY_CONNECTED as an i8 x i8 -> i32 tosa.matmul with the input's zero point, the i32 bias,
// and two rescales (ruy's rounding doubling high multiply, then its half-up rounding shift);
// ADD as both inputs shifted left 20 bits and rescaled to twice the larger scale, an i32 add,
// and a DOUBLE_ROUND rescale; MUL as the i32 product of the centred inputs rescaled; RELU as
// a rescale and a clamp at the output's zero point; TANH / LOGISTIC as a tosa.table of
// LiteRT's lookup table.

// CHECK-LABEL: func.func @quantize(
// CHECK:         %[[LANES:.*]] = "tosa.const"() <{values = dense<{{\[\[}}true, true, true, true, true], [true, true, true, false, false]]> : tensor<2x5xi1>}>
// CHECK:         %[[INV:.*]] = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}>
// CHECK:         %[[SCALED:.*]] = tosa.mul %x, %[[INV]]
// CHECK:         %[[BOUNDED:.*]] = tosa.clamp %[[SCALED]] {max_val = 1.024000e+03 : f32, min_val = -1.024000e+03 : f32}
// CHECK:         %[[MAGIC:.*]] = "tosa.const"() <{values = dense<0x4B400000> : tensor<1x1xf32>}>
// CHECK:         %[[BIG:.*]] = tosa.add %[[BOUNDED]], %[[MAGIC]]
// CHECK:         %[[EVEN:.*]] = tosa.sub %[[BIG]], %[[MAGIC]]
// CHECK:         tosa.floor
// CHECK:         tosa.logical_and
// CHECK:         %[[ROUNDED:.*]] = tosa.select %[[LANES]], %[[EVEN]], %{{.*}}
// CHECK-NEXT:    "tosa.const"() <{values = dense<-3.000000e+00> : tensor<1x1xf32>}>
// CHECK-NEXT:    tosa.add %[[ROUNDED]]
// CHECK-NEXT:    tosa.clamp %{{.*}} {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32}
// CHECK-NEXT:    %q = tosa.cast %{{.*}} : (tensor<2x5xf32>) -> tensor<2x5xi8>
// CHECK-NEXT:    %[[F:.*]] = tosa.cast %q : (tensor<2x5xi8>) -> tensor<2x5xf32>
// CHECK-NEXT:    %[[S:.*]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[P:.*]] = tosa.mul %[[F]], %[[S]]
// CHECK-NEXT:    %[[OFFSET:.*]] = "tosa.const"() <{values = dense<-1.250000e+00> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[FUSED:.*]] = tosa.add %[[P]], %[[OFFSET]]
// CHECK-NEXT:    %[[Z:.*]] = "tosa.const"() <{values = dense<5.000000e+00> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[C:.*]] = tosa.sub %[[F]], %[[Z]]
// CHECK-NEXT:    %[[PRODUCT:.*]] = tosa.mul %[[C]], %[[S]]
// CHECK-NEXT:    %d = tosa.select %[[LANES]], %[[FUSED]], %[[PRODUCT]]
// CHECK-NEXT:    "tosa.const"() <{values = dense<{{\[\[}}2.500000e-01, 1.250000e-01, 2.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<1x5xf32>}>
// CHECK-NEXT:    "tosa.const"() <{values = dense<{{\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<1x5xf32>}>
// CHECK-NEXT:    tosa.sub %[[F]]
// CHECK-NEXT:    %c = tosa.mul
func.func @quantize(%x: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) {
  %q = tfl.quantize %x {scale = array<f32: 0.5>, zero_point = array<i64: -3>} : (tensor<2x5xf32>) -> tensor<2x5xi8>
  %d = tfl.dequantize %q {scale = array<f32: 0.25>, zero_point = array<i64: 5>} : (tensor<2x5xi8>) -> tensor<2x5xf32>
  %c = tfl.dequantize %q {quantized_dimension = 1 : i64, scale = array<f32: 0.25, 0.125, 2.0, 1.0, 1.0>, zero_point = array<i64: 0, 1, 2, 3, 4>} : (tensor<2x5xi8>) -> tensor<2x5xf32>
  func.return %d, %c : tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @fully_connected(
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1, 4], [-2, 5], [3, -127]]]> : tensor<1x3x2xi8>}>
// CHECK:         %[[ZP:.*]] = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}>
// CHECK:         %[[ACC:.*]] = tosa.matmul %{{.*}}, %[[W]], %[[ZP]], %{{.*}} : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[}}100, -100]]> : tensor<1x2xi32>}>
// CHECK:         %[[BIASED:.*]] = tosa.add
// CHECK:         "tosa.const"() <{values = dense<1374389504> : tensor<2xi32>}>
// CHECK:         "tosa.const"() <{values = dense<31> : tensor<2xi8>}>
// CHECK:         %[[HIGH:.*]] = tosa.rescale %[[BIASED]], {{.*}} {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : {{.*}} -> tensor<2x2xi32>
// CHECK:         "tosa.const"() <{values = dense<[35, 34]> : tensor<2xi8>}>
// CHECK:         tosa.rescale %[[HIGH]], {{.*}}rounding_mode = SINGLE_ROUND{{.*}} -> tensor<2x2xi8>
// CHECK:         %y = tosa.clamp %{{.*}} {max_val = 127 : i8, min_val = 10 : i8}
func.func @fully_connected(%x: tensor<2x3xi8>) -> tensor<2x2xi8> {
  %w = tfl.pseudo_const {value = dense<[[1, -2, 3], [4, 5, -127]]> : tensor<2x3xi8>} : tensor<2x3xi8>
  %b = tfl.pseudo_const {value = dense<[100, -100]> : tensor<2xi32>} : tensor<2xi32>
  %y = tfl.fully_connected %x, %w, %b {fused_activation_function = "RELU", tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}, {scale = array<f32: 0.01, 0.02>, zero_point = array<i64: 0, 0>, dimension = 0 : i64}, {scale = array<f32: 0.005, 0.01>, zero_point = array<i64: 0, 0>, dimension = 0 : i64}], outputs = [{scale = array<f32: 0.25>, zero_point = array<i64: 10>, dimension = 0 : i64}]}} : (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2xi32>) -> tensor<2x2xi8>
  func.return %y : tensor<2x2xi8>
}

// -----

// CHECK-LABEL: func.func @add_mul(
// CHECK:         %[[A:.*]] = tosa.rescale %a, %{{.*}} : (tensor<1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4xi32>
// CHECK:         %[[A2:.*]] = tosa.rescale %[[A]], {{.*}}rounding_mode = DOUBLE_ROUND
// CHECK:         %[[B:.*]] = tosa.rescale %b,
// CHECK:         %[[B2:.*]] = tosa.rescale %[[B]],
// CHECK:         %[[SUM:.*]] = tosa.add %[[A2]], %[[B2]] : (tensor<1x4xi32>, tensor<1x4xi32>) -> tensor<1x4xi32>
// CHECK:         "tosa.const"() <{values = dense<50> : tensor<1xi8>}>
// CHECK:         %s = tosa.rescale %[[SUM]], {{.*}} -> tensor<1x4xi8>
// CHECK:         %[[PRODUCT:.*]] = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<1x4xi32>
// CHECK:         "tosa.const"() <{values = dense<33> : tensor<1xi8>}>
// CHECK:         %m = tosa.rescale %[[PRODUCT]], {{.*}}rounding_mode = DOUBLE_ROUND{{.*}} -> tensor<1x4xi8>
func.func @add_mul(%a: tensor<1x4xi8>, %b: tensor<1x4xi8>) -> (tensor<1x4xi8>, tensor<1x4xi8>) {
  %s = tfl.add %a, %b {tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}, {scale = array<f32: 0.25>, zero_point = array<i64: 7>, dimension = 0 : i64}], outputs = [{scale = array<f32: 1.0>, zero_point = array<i64: 0>, dimension = 0 : i64}]}} : (tensor<1x4xi8>, tensor<1x4xi8>) -> tensor<1x4xi8>
  %m = tfl.mul %a, %b {tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}, {scale = array<f32: 0.25>, zero_point = array<i64: 7>, dimension = 0 : i64}], outputs = [{scale = array<f32: 1.0>, zero_point = array<i64: 0>, dimension = 0 : i64}]}} : (tensor<1x4xi8>, tensor<1x4xi8>) -> tensor<1x4xi8>
  func.return %s, %m : tensor<1x4xi8>, tensor<1x4xi8>
}

// -----

// CHECK-LABEL: func.func @activations(
// CHECK:         "tosa.const"() <{values = dense<29> : tensor<1xi8>}>
// CHECK:         %r = tosa.rescale %a, {{.*}} -> tensor<1x4xi8>
// CHECK-NOT:     tosa.clamp
// CHECK:         %[[T:.*]] = "tosa.const"() <{values = dense<"0x8080{{.*}}"> : tensor<256xi8>}>
// CHECK:         %t = tosa.table %a, %[[T]] : (tensor<1x4xi8>, tensor<256xi8>) -> tensor<1x4xi8>
func.func @activations(%a: tensor<1x4xi8>) -> (tensor<1x4xi8>, tensor<1x4xi8>) {
  %r = tfl.relu %a {tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}], outputs = [{scale = array<f32: 0.25>, zero_point = array<i64: -128>, dimension = 0 : i64}]}} : (tensor<1x4xi8>) -> tensor<1x4xi8>
  %t = tfl.tanh %a {tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}], outputs = [{scale = array<f32: 0.0078125>, zero_point = array<i64: 0>, dimension = 0 : i64}]}} : (tensor<1x4xi8>) -> tensor<1x4xi8>
  func.return %r, %t : tensor<1x4xi8>, tensor<1x4xi8>
}
