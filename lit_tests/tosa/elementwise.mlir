// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// TOSA 1.0 elementwise operators in `tosa-opt`'s custom form: each prints back unchanged,
// and so does its generic form.

// CHECK-LABEL: func.func @activation(
// CHECK-NEXT:    %{{.*}} = tosa.clamp %{{.*}} {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.clamp %{{.*}} {max_val = 1.000000e+00 : f32, min_val = -1.000000e+00 : f32, nan_mode = IGNORE} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.clamp %{{.*}} {max_val = 1.000000e+00 : f32, min_val = -1.000000e+00 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.clamp %{{.*}} {max_val = 127 : i8, min_val = -5 : i8} : (tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.clamp %{{.*}} {max_val = 6.000000e+00 : bf16, min_val = 0.000000e+00 : bf16} : (tensor<2xbf16>) -> tensor<2xbf16>
// CHECK-NEXT:    %{{.*}} = tosa.sigmoid %{{.*}} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.tanh %{{.*}} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.erf %{{.*}} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.sigmoid %{{.*}} : (tensor<2xbf16>) -> tensor<2xbf16>
// CHECK-NEXT:    %{{.*}} = tosa.tanh %{{.*}} : (tensor<f16>) -> tensor<f16>
// CHECK-NEXT:    func.return
func.func @activation(%x: tensor<1x4xf32>, %q: tensor<3xi8>, %b: tensor<2xbf16>, %h: tensor<f16>) {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = tosa.clamp %x {max_val = 1.0 : f32, min_val = -1.0 : f32, nan_mode = IGNORE} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = tosa.clamp %x {max_val = 1.0 : f32, min_val = -1.0 : f32, nan_mode = PROPAGATE} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = tosa.clamp %q {max_val = 127 : i8, min_val = -5 : i8} : (tensor<3xi8>) -> tensor<3xi8>
  %4 = tosa.clamp %b {max_val = 6.0 : bf16, min_val = 0.0 : bf16} : (tensor<2xbf16>) -> tensor<2xbf16>
  %5 = tosa.sigmoid %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %6 = tosa.tanh %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %7 = tosa.erf %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %8 = tosa.sigmoid %b : (tensor<2xbf16>) -> tensor<2xbf16>
  %9 = tosa.tanh %h : (tensor<f16>) -> tensor<f16>
  return
}

// CHECK-LABEL: func.func @binary(
// CHECK-NEXT:    %{{.*}} = tosa.add %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.sub %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>, tensor<1xi8>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xi8>, tensor<3xi8>, tensor<1xi8>) -> tensor<3xi32>
// CHECK-NEXT:    %{{.*}} = tosa.pow %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.maximum %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.maximum %{{.*}}, %{{.*}} {nan_mode = IGNORE} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.minimum %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.minimum %{{.*}}, %{{.*}} {nan_mode = IGNORE} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.intdiv %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.logical_and %{{.*}}, %{{.*}} : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.logical_or %{{.*}}, %{{.*}} : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.logical_xor %{{.*}}, %{{.*}} : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.bitwise_and %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.bitwise_or %{{.*}}, %{{.*}} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.bitwise_xor %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.add %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.logical_left_shift %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.logical_right_shift %{{.*}}, %{{.*}} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.arithmetic_right_shift %{{.*}}, %{{.*}} {round = true} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.arithmetic_right_shift %{{.*}}, %{{.*}} {round = false} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    func.return
func.func @binary(%a: tensor<2x4xf32>, %b: tensor<1x4xf32>, %i: tensor<2x4xi32>, %q: tensor<3xi8>,
                  %p: tensor<2x4xi1>, %s: tensor<1xi8>, %d: tensor<?x4xf32>) {
  %0 = tosa.add %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %1 = tosa.sub %b, %a : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = tosa.mul %a, %b, %s : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %3 = tosa.mul %i, %i, %s : (tensor<2x4xi32>, tensor<2x4xi32>, tensor<1xi8>) -> tensor<2x4xi32>
  %4 = tosa.mul %q, %q, %s : (tensor<3xi8>, tensor<3xi8>, tensor<1xi8>) -> tensor<3xi32>
  %5 = tosa.pow %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %6 = tosa.maximum %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %7 = tosa.maximum %a, %b {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %8 = tosa.minimum %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %9 = tosa.minimum %a, %b {nan_mode = IGNORE} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %10 = tosa.intdiv %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %11 = tosa.logical_and %p, %p : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %12 = tosa.logical_or %p, %p : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %13 = tosa.logical_xor %p, %p : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %14 = tosa.bitwise_and %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %15 = tosa.bitwise_or %q, %q : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %16 = tosa.bitwise_xor %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %17 = tosa.add %d, %b : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %18 = tosa.logical_left_shift %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %19 = tosa.logical_right_shift %q, %q : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %20 = tosa.arithmetic_right_shift %i, %i {round = true} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %21 = tosa.arithmetic_right_shift %q, %q round(false) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return
}

// CHECK-LABEL: func.func @unary(
// CHECK-NEXT:    %{{.*}} = tosa.abs %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.abs %{{.*}} : (tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.exp %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.log %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.negate %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.negate %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.reciprocal %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.rsqrt %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.logical_not %{{.*}} : (tensor<2x4xi1>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.floor %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.ceil %{{.*}} : (tensor<2x4xf16>) -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = tosa.sin %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.cos %{{.*}} : (tensor<2x4xf16>) -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = tosa.bitwise_not %{{.*}} : (tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.clz %{{.*}} : (tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    func.return
func.func @unary(%a: tensor<2x4xf32>, %i: tensor<2x4xi32>, %q: tensor<3xi8>, %p: tensor<2x4xi1>,
                 %h: tensor<2x4xf16>, %zf: tensor<1xf32>, %zq: tensor<1xi8>) {
  %0 = tosa.abs %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = tosa.abs %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %2 = tosa.exp %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = tosa.log %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %4 = tosa.negate %a, %zf, %zf : (tensor<2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4xf32>
  %5 = tosa.negate %q, %zq, %zq : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
  %6 = tosa.reciprocal %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %7 = tosa.rsqrt %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %8 = tosa.logical_not %p : (tensor<2x4xi1>) -> tensor<2x4xi1>
  %9 = tosa.floor %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %10 = tosa.ceil %h : (tensor<2x4xf16>) -> tensor<2x4xf16>
  %11 = tosa.sin %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %12 = tosa.cos %h : (tensor<2x4xf16>) -> tensor<2x4xf16>
  %13 = tosa.bitwise_not %q : (tensor<3xi8>) -> tensor<3xi8>
  %14 = tosa.clz %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  return
}

// CHECK-LABEL: func.func @select_compare_cast(
// CHECK-NEXT:    %{{.*}} = tosa.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x1xi1>, tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = tosa.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = tosa.equal %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.greater %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.greater_equal %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.cast %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.cast %{{.*}} : (tensor<2x4xi32>) -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = tosa.cast %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = tosa.cast %{{.*}} : (tensor<2x4xi1>) -> tensor<2x4xi8>
// CHECK-NEXT:    %{{.*}} = tosa.cast %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xi1>
// CHECK-NEXT:    %{{.*}} = tosa.cast %{{.*}} : (tensor<2x4xi32>) -> tensor<2x4xi64>
// CHECK-NEXT:    func.return
func.func @select_compare_cast(%c: tensor<2x1xi1>, %a: tensor<2x4xf32>, %b: tensor<1x4xf32>,
                               %i: tensor<2x4xi32>, %p: tensor<2x4xi1>, %s: tensor<i1>) {
  %0 = tosa.select %c, %a, %b : (tensor<2x1xi1>, tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %1 = tosa.select %s, %s, %s : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
  %2 = tosa.equal %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %3 = tosa.greater %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
  %4 = tosa.greater_equal %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %5 = tosa.cast %a : (tensor<2x4xf32>) -> tensor<2x4xi32>
  %6 = tosa.cast %i : (tensor<2x4xi32>) -> tensor<2x4xbf16>
  %7 = tosa.cast %a : (tensor<2x4xf32>) -> tensor<2x4xf16>
  %8 = tosa.cast %p : (tensor<2x4xi1>) -> tensor<2x4xi8>
  %9 = tosa.cast %a : (tensor<2x4xf32>) -> tensor<2x4xi1>
  %10 = tosa.cast %i : (tensor<2x4xi32>) -> tensor<2x4xi64>
  return
}

// Constant shift and zero points (checked by the verifiers) and discardable attributes.
// CHECK-LABEL: func.func @constants_and_attributes(
// CHECK:         %{{.*}} = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %{{.*}} = tosa.negate %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
// CHECK-NEXT:    %{{.*}} = tosa.add %{{.*}}, %{{.*}} {note = "kept", unit} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @constants_and_attributes(%i: tensor<4xi32>, %q: tensor<4xi8>) {
  %shift = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %i, %i, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %1 = tosa.negate %q, %zp, %zp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %2 = tosa.add %i, %i {unit, note = "kept"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// Upstream MLIR's generic form: properties in `<{...}>`, `nan_mode` always spelled out.
// GENERIC: "tosa.clamp"(%{{.*}}) <{max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// GENERIC: "tosa.clamp"(%{{.*}}) <{max_val = 1.000000e+00 : f32, min_val = -1.000000e+00 : f32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// GENERIC: "tosa.clamp"(%{{.*}}) <{max_val = 1.000000e+00 : f32, min_val = -1.000000e+00 : f32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
// GENERIC: "tosa.sigmoid"(%{{.*}}) : (tensor<1x4xf32>) -> tensor<1x4xf32>
// GENERIC: "tosa.mul"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
// GENERIC: "tosa.maximum"(%{{.*}}, %{{.*}}) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// GENERIC: "tosa.maximum"(%{{.*}}, %{{.*}}) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// GENERIC: "tosa.negate"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
// GENERIC: "tosa.cast"(%{{.*}}) : (tensor<2x4xf32>) -> tensor<2x4xi32>
// GENERIC: "tosa.add"(%{{.*}}, %{{.*}}) {note = "kept", unit} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>

// CHECK-LABEL: func.func @rescale(
// CHECK-NEXT:    %{{.*}} = tosa.rescale %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.rescale %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = false} : (tensor<2x3xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<2x3xi16>
// GENERIC-LABEL: sym_name = "rescale"
// GENERIC:       "tosa.rescale"({{.*}}) <{input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, scale32 = true}>
func.func @rescale(%x: tensor<2x3xi32>, %m: tensor<3xi32>, %s: tensor<3xi8>, %izp: tensor<1xi32>, %ozp: tensor<1xi8>,
                   %q: tensor<2x3xi8>, %m16: tensor<1xi16>, %s1: tensor<1xi8>, %qzp: tensor<1xi8>, %ozp32: tensor<1xi16>) {
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  %1 = "tosa.rescale"(%q, %m16, %s1, %qzp, %ozp32) <{input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, scale32 = false}> : (tensor<2x3xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<2x3xi16>
  return
}

// CHECK-LABEL: func.func @table(
// CHECK-NEXT:    %{{.*}} = tosa.table %{{.*}}, %{{.*}} : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = tosa.table %{{.*}}, %{{.*}} : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
func.func @table(%x: tensor<2x3xi8>, %t: tensor<256xi8>, %y: tensor<4xi16>, %u: tensor<513xi16>) {
  %0 = tosa.table %x, %t : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x3xi8>
  %1 = tosa.table %y, %u : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  return
}
