// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// One case per verifier error of the elementwise operators (wording as upstream MLIR's
// where it has one), then the parse errors of their custom syntax.

func.func @ranks(%a: tensor<1x4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.add' op operands don't have matching ranks}}
  %0 = tosa.add %a, %b : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return
}
// -----
func.func @result_rank(%a: tensor<f32>) {
  // expected-error@+1 {{'tosa.add' op result type has different rank than operands}}
  %0 = tosa.add %a, %a : (tensor<f32>, tensor<f32>) -> tensor<1xf32>
  return
}
// -----
func.func @not_broadcastable(%a: tensor<3x4xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'tosa.sub' op operands don't have broadcast-compatible shapes}}
  %0 = tosa.sub %a, %b : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}
// -----
func.func @result_shape(%a: tensor<1x4xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'tosa.maximum' op result type '1x4' not broadcast compatible with broadcasted operands's shapes '2x4'}}
  %0 = tosa.maximum %a, %b : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
  return
}
// -----
func.func @binary_element_types(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.add' op requires the same element type for all operands and results}}
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}
// -----
func.func @binary_result_element_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.pow' op requires the same element type for all operands and results}}
  %0 = tosa.pow %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}
// -----
func.func @bool_add(%a: tensor<4xi1>) {
  // expected-error@+1 {{'tosa.add' op operand #0 must be tensor of 8/16/32/64-bit signless integer or floating-point values, but got 'tensor<4xi1>'}}
  %0 = tosa.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}
// -----
func.func @float_only_binary(%a: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.pow' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = tosa.pow %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}
// -----
func.func @intdiv_float(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.intdiv' op operand #0 must be tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.intdiv %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @shift_float(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.logical_left_shift' op operand #0 must be tensor of 8/16/32/64-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.logical_left_shift %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @clz_float(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.clz' op operand #0 must be tensor of 8/16/32/64-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.clz %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @sin_integer(%i: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.sin' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = tosa.sin %i : (tensor<4xi32>) -> tensor<4xi32>
  return
}
// -----
func.func @bitwise_float(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.bitwise_and' op operand #0 must be tensor of 8/16/32/64-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.bitwise_and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @logical_int(%a: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error@+1 {{'tosa.logical_or' op operand #1 must be tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = tosa.logical_or %b, %a : (tensor<4xi1>, tensor<4xi32>) -> tensor<4xi1>
  return
}
// -----
func.func @logical_result(%a: tensor<4xi1>) {
  // expected-error@+1 {{'tosa.logical_xor' op result #0 must be tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = tosa.logical_xor %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi8>
  return
}
// -----
func.func @compare_result(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.equal' op result #0 must be tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.equal %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @compare_operands(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.greater' op requires the same element type for all operands}}
  %0 = tosa.greater %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}
// -----
func.func @compare_shape(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'tosa.greater_equal' op operands don't have broadcast-compatible shapes}}
  %0 = tosa.greater_equal %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xi1>
  return
}
// -----
func.func @float_only_unary(%a: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.sigmoid' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = tosa.sigmoid %a : (tensor<4xi32>) -> tensor<4xi32>
  return
}
// -----
func.func @unary_element_type(%a: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.abs' op requires the same element type for all operands and results}}
  %0 = tosa.abs %a : (tensor<4xi32>) -> tensor<4xf32>
  return
}
// -----
func.func @unary_shape(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.exp' op requires the same shape for all operands and results}}
  %0 = tosa.exp %a : (tensor<4xf32>) -> tensor<2x4xf32>
  return
}
// -----
func.func @logical_not_float(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.logical_not' op operand #0 must be tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.logical_not %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @clamp_bound_types(%a: tensor<4xi8>) {
  // expected-error@+1 {{'tosa.clamp' op min/max attributes types are incompatible with input/output element types.}}
  %0 = tosa.clamp %a {max_val = 1 : i32, min_val = 0 : i32} : (tensor<4xi8>) -> tensor<4xi8>
  return
}
// -----
func.func @clamp_nan_bound(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.clamp' op min/max attributes should not be 'NaN', got min_val=0.000000e+00 : f32, max_val=0x7fc00000 : f32}}
  %0 = tosa.clamp %a {max_val = 0x7FC00000 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @clamp_bounds_order(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.clamp' op expected min_val <= max_val, got min_val=1.000000e+00 : f32, max_val=0.000000e+00 : f32}}
  %0 = tosa.clamp %a {max_val = 0.0 : f32, min_val = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @clamp_bool(%a: tensor<4xi1>) {
  // expected-error@+1 {{'tosa.clamp' op operand #0 must be tensor of 8/16/32/64-bit signless integer or floating-point values, but got 'tensor<4xi1>'}}
  %0 = tosa.clamp %a {max_val = 1 : i1, min_val = 0 : i1} : (tensor<4xi1>) -> tensor<4xi1>
  return
}
// -----
func.func @clamp_element_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.clamp' op requires the same element type for all operands and results}}
  %0 = tosa.clamp %a {max_val = 1.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf16>
  return
}
// -----
func.func @mul_shift_type(%a: tensor<4xi32>, %s: tensor<1xi16>) {
  // expected-error@+1 {{'tosa.mul' op operand #2 must be scalar tensor of 8-bit signless integer values, but got 'tensor<1xi16>'}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi16>) -> tensor<4xi32>
  return
}
// -----
func.func @mul_operand_types(%a: tensor<4xi8>, %b: tensor<4xi16>, %s: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.mul' op requires the same element type for all operands}}
  %0 = tosa.mul %a, %b, %s : (tensor<4xi8>, tensor<4xi16>, tensor<1xi8>) -> tensor<4xi32>
  return
}
// -----
func.func @mul_narrowing(%a: tensor<4xi32>, %s: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.mul' op invalid data type size for operands or result}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi16>
  return
}
// -----
func.func @mul_float_result_type(%a: tensor<4xf32>, %s: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.mul' op requires the same element type for all operands and results}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf16>
  return
}
// -----
func.func @mul_float_shift(%a: tensor<4xf32>) {
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op require shift to be 0 for float type}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return
}
// -----
func.func @mul_i8_shift(%a: tensor<4xi8>) {
  %s = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op require shift to be 0 for 'i8' operands, got 2}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  return
}
// -----
func.func @mul_shift_range(%a: tensor<4xi32>) {
  %s = "tosa.const"() <{values = dense<64> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op require shift to be in [0, 63], got 64}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return
}
// -----
func.func @mul_shape(%a: tensor<4xi32>, %b: tensor<3xi32>, %s: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.mul' op operands don't have broadcast-compatible shapes}}
  %0 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<3xi32>, tensor<1xi8>) -> tensor<4xi32>
  return
}
// -----
func.func @negate_result_type(%a: tensor<4xi8>, %z: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.negate' op expect input and output to have same element type, got 'i8' and 'i16'}}
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi16>
  return
}
// -----
func.func @negate_input_zp_type(%a: tensor<4xi8>, %z: tensor<1xi16>, %y: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.negate' op expect both input1 and its zero point are the same element type, got 'i8' and 'i16'}}
  %0 = tosa.negate %a, %z, %y : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<4xi8>
  return
}
// -----
func.func @negate_output_zp_type(%a: tensor<4xi8>, %z: tensor<1xi8>, %y: tensor<1xi16>) {
  // expected-error@+1 {{'tosa.negate' op expect both output and its zero point are the same element type, got 'i8' and 'i16'}}
  %0 = tosa.negate %a, %z, %y : (tensor<4xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<4xi8>
  return
}
// -----
func.func @negate_zp_shape(%a: tensor<4xi8>, %z: tensor<2xi8>) {
  // expected-error@+1 {{'tosa.negate' op operand #1 must be scalar tensor of 8/16/32/64-bit signless integer or floating-point values, but got 'tensor<2xi8>'}}
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<2xi8>, tensor<2xi8>) -> tensor<4xi8>
  return
}
// -----
func.func @negate_input_zp(%a: tensor<4xi16>, %y: tensor<1xi16>) {
  %z = "tosa.const"() <{values = dense<3> : tensor<1xi16>}> : () -> tensor<1xi16>
  // expected-error@+1 {{'tosa.negate' op input1 zero point must be zero for non-int8 integer types}}
  %0 = tosa.negate %a, %z, %y : (tensor<4xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<4xi16>
  return
}
// -----
func.func @negate_output_zp(%a: tensor<4xf32>, %z: tensor<1xf32>) {
  %y = "tosa.const"() <{values = dense<1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error@+1 {{'tosa.negate' op output zero point must be zero for non-int8 integer types}}
  %0 = tosa.negate %a, %z, %y : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @negate_shape(%a: tensor<4xi8>, %z: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.negate' op requires the same shape for input1 and output}}
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4xi8>
  return
}
// -----
func.func @select_condition(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.select' op operand #0 must be tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tosa.select %a, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @select_element_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error@+1 {{'tosa.select' op expect input and output to have same element type, got 'i32' and 'f32'}}
  %0 = tosa.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}
// -----
func.func @select_ranks(%c: tensor<4xi1>, %a: tensor<1x4xf32>) {
  // expected-error@+1 {{'tosa.select' op operands don't have matching ranks}}
  %0 = tosa.select %c, %a, %a : (tensor<4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}
// -----
func.func @cast_pair(%a: tensor<4xf16>) {
  // expected-error@+1 {{'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (f16,bf16)}}
  %0 = tosa.cast %a : (tensor<4xf16>) -> tensor<4xbf16>
  return
}
// -----
func.func @cast_identity(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (f32,f32)}}
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @cast_shape(%a: tensor<4xf32>) {
  // expected-error@+1 {{'tosa.cast' op requires the same shape for all operands and results}}
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<2x4xi32>
  return
}
// -----
func.func @cast_unsupported_type(%a: tensor<4xui8>) {
  // expected-error@+1 {{'tosa.cast' op operand #0 must be tensor of 1/8/16/32/64-bit signless integer or floating-point values, but got 'tensor<4xui8>'}}
  %0 = tosa.cast %a : (tensor<4xui8>) -> tensor<4xi32>
  return
}
// -----
func.func @not_a_tensor(%a: f32) {
  // expected-error@+1 {{'tosa.tanh' op operand 'input' at position 0 does not verify:}}
  %0 = tosa.tanh %a : (f32) -> f32
  return
}
// -----
func.func @operand_count(%a: tensor<4xi32>) {
  // expected-error@+1 {{expected 3 operands, got 2}}
  %0 = tosa.mul %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}
// -----
func.func @nan_mode_keyword(%a: tensor<4xf32>) {
  // expected-error@+1 {{expected nan_mode PROPAGATE or IGNORE, got 'SOMETIMES'}}
  %0 = tosa.minimum %a, %a {nan_mode = SOMETIMES} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @two_results(%a: tensor<4xf32>) {
  // expected-error@+1 {{expected one result type}}
  %0 = tosa.floor %a : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}
// -----
func.func @rescale_multiplier(%x: tensor<2x3xi32>, %m: tensor<1xi32>, %s: tensor<1xi8>, %izp: tensor<1xi32>, %ozp: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.rescale' op expect 'multiplier' to be a tensor<3xi32>, got 'tensor<1xi32>'}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return
}
// -----
func.func @rescale_zero_point(%x: tensor<2x3xi32>, %m: tensor<1xi32>, %s: tensor<1xi8>, %ozp: tensor<1xi8>) {
  %izp = "tosa.const"() <{values = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op expect 'input_zp' to be zero unless its type is i8, ui8 or ui16}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return
}
// -----
func.func @rescale_unsigned_to_i32(%x: tensor<2x3xi8>, %m: tensor<1xi32>, %s: tensor<1xi8>, %izp: tensor<1xi8>, %ozp: tensor<1xi32>) {
  // expected-error@+1 {{'tosa.rescale' op expect an i8 or i16 output when input_unsigned is set}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<2x3xi32>
  return
}
// -----
func.func @rescale_i32_to_unsigned(%x: tensor<2x3xi32>, %m: tensor<1xi32>, %s: tensor<1xi8>, %izp: tensor<1xi32>, %ozp: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.rescale' op expect an i8 or i16 input when output_unsigned is set}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = true, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return
}
// -----
func.func @rescale_double_round_16(%x: tensor<2x3xi8>, %m: tensor<1xi16>, %s: tensor<1xi8>, %izp: tensor<1xi8>, %ozp: tensor<1xi8>) {
  // expected-error@+1 {{'tosa.rescale' op DOUBLE_ROUND is only allowed with scale32 = true}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = false} : (tensor<2x3xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>
  return
}
// -----
func.func @rescale_rounding_keyword(%x: tensor<2x3xi32>, %m: tensor<1xi32>, %s: tensor<1xi8>, %izp: tensor<1xi32>, %ozp: tensor<1xi8>) {
  // expected-error@+1 {{expected rounding_mode SINGLE_ROUND or INEXACT_ROUND or DOUBLE_ROUND, got 'HALF_EVEN'}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = HALF_EVEN, scale32 = true} : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return
}
// -----
func.func @table_size(%x: tensor<2x3xi8>, %t: tensor<255xi8>) {
  // expected-error@+1 {{'tosa.table' op expect table to be a tensor<256xi8>, got 'tensor<255xi8>'}}
  %0 = tosa.table %x, %t : (tensor<2x3xi8>, tensor<255xi8>) -> tensor<2x3xi8>
  return
}
