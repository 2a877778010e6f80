// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics
// RUN: not tosa-state-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=FAIL

// One case per verifier rule of the TOSA tensor-level operators, with upstream MLIR's
// wording where upstream has the rule. Dynamic dimensions (`?`) are skipped by the shape
// checks; shape operands must come from `tosa.const_shape`.

// FAIL: tensor-invalid.mlir:[[# @LINE + 3]]:3: error: 'tosa.const' op expect 'values' of type 'tensor<2xf32>' to match the result type 'tensor<1xf32>'
// expected-error@+2 {{'tosa.const' op expect 'values' of type 'tensor<2xf32>' to match the result type 'tensor<1xf32>'}}
func.func @const_type() {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<1xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.const' op expect 'output' element type to be one of i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64, got 'i4'}}
func.func @const_element_type() {
  %0 = "tosa.const"() <{values = dense<1> : tensor<2xi4>}> : () -> tensor<2xi4>
  return
}

// -----
// expected-error@+2 {{'tosa.identity' op expect input and output to have the same type, got 'tensor<2x3xf32>' and 'tensor<3x2xf32>'}}
func.func @identity_type(%x: tensor<2x3xf32>) {
  %0 = tosa.identity %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.identity' op expect 'input1' element type to be one of i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64, got 'i4'}}
func.func @identity_element_type(%x: tensor<2xi4>) {
  %0 = tosa.identity %x : (tensor<2xi4>) -> tensor<2xi4>
  return
}

// -----
// expected-error@+2 {{'tosa.const_shape' op expect number of elements in attribute values (3) to be equal to the rank (2) for the result shape type}}
func.func @const_shape_count() {
  %0 = tosa.const_shape {values = dense<[4, 5, 1]> : tensor<3xindex>} : () -> !tosa.shape<2>
  return
}

// -----
// expected-error@+2 {{'tosa.const_shape' op expect 'values' to be a 1-D tensor of index, got 'tensor<2xi64>'}}
func.func @const_shape_values_type() {
  %0 = tosa.const_shape {values = dense<[4, 5]> : tensor<2xi64>} : () -> !tosa.shape<2>
  return
}

// -----
// expected-error@+2 {{'tosa.matmul' op expect 'a' to have rank 3, got rank 2}}
func.func @matmul_rank(%a: tensor<3x4xf32>, %b: tensor<1x4x5xf32>, %za: tensor<1xf32>, %zb: tensor<1xf32>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<3x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x5xf32>
  return
}

// -----
// i8 x i8 accumulates in i32 (upstream accepts any result element type).
// expected-error@+2 {{'tosa.matmul' op unsupported element types 'i8' x 'i8' -> 'i8'; supported: i8 x i8 -> i32; f16 x f16 -> f16 or f32; bf16 x bf16 -> f32; f32 x f32 -> f32}}
func.func @matmul_types(%a: tensor<1x3x4xi8>, %b: tensor<1x4x5xi8>, %za: tensor<1xi8>, %zb: tensor<1xi8>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi8>
  return
}

// -----
// expected-error@+2 {{'tosa.matmul' op expect 'a_zp' to be a tensor<1xf32>, got 'tensor<f32>'}}
func.func @matmul_zero_point_shape(%a: tensor<1x3x4xf32>, %b: tensor<1x4x5xf32>, %za: tensor<f32>, %zb: tensor<1xf32>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x3x4xf32>, tensor<1x4x5xf32>, tensor<f32>, tensor<1xf32>) -> tensor<1x3x5xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.matmul' op expect 'b_zp' to be a tensor<1xi8>, got 'tensor<1xi32>'}}
func.func @matmul_zero_point_type(%a: tensor<1x3x4xi8>, %b: tensor<1x4x5xi8>, %za: tensor<1xi8>, %zb: tensor<1xi32>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x3x5xi32>
  return
}

// -----
// Zero points must be zero unless the element type is i8 (checked when constant).
// expected-error@+3 {{'tosa.matmul' op expect 'b_zp' to be zero for non-int8 element type 'f32', got 1.5}}
func.func @matmul_float_zero_point(%a: tensor<1x3x4xf32>, %b: tensor<1x4x5xf32>, %za: tensor<1xf32>) {
  %zb = "tosa.const"() <{values = dense<1.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x3x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x5xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.matmul' op expected batch of b to match size 2, got 3}}
func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>, %za: tensor<1xf32>, %zb: tensor<1xf32>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<2x3x4xf32>, tensor<3x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.matmul' op expected channels of b to match size 4, got 5}}
func.func @matmul_channels(%a: tensor<2x3x4xf32>, %b: tensor<2x5x5xf32>, %za: tensor<1xf32>, %zb: tensor<1xf32>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<2x3x4xf32>, tensor<2x5x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.matmul' op expected output shape 2, 3, 6 to be compatible with inferred shape 2, 3, 5}}
func.func @matmul_output(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %za: tensor<1xf32>, %zb: tensor<1xf32>) {
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x6xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.argmax' op expect 'input' element type to be one of i8, i16, i32, i64, ui8, f16, bf16, f32, f64, got 'i1'}}
func.func @argmax_input_type(%x: tensor<2x3xi1>) {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2xi32>
  return
}

// -----
// expected-error@+2 {{'tosa.argmax' op expect 'output' element type to be one of i32, i64, got 'f32'}}
func.func @argmax_output_type(%x: tensor<2x3x4xf32>) {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.argmax' op expect input tensor rank (3) to be larger than reduce axis (3)}}
func.func @argmax_axis(%x: tensor<2x3x4xf32>) {
  %0 = tosa.argmax %x {axis = 3 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
  return
}

// -----
// ARGMAX removes the axis.
// expected-error@+2 {{'tosa.argmax' op expected output shape '2, 4', got '2, 3'}}
func.func @argmax_output_shape(%x: tensor<2x3x4xf32>) {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
  return
}

// -----
// Property constraints (here: `axis` is an i32) are checked by xDSL's IRDL definitions.
// expected-error@+2 {{'tosa.argmax' op Expected attribute i32 but got i64}}
func.func @argmax_axis_type(%x: tensor<2x3x4xf32>) {
  %0 = "tosa.argmax"(%x) <{axis = 1 : i64}> : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  return
}

// -----
// expected-error@+2 {{'tosa.reduce_all' op expect 'input' element type to be one of i1, got 'f32'}}
func.func @reduce_all_type(%x: tensor<2x3xf32>) {
  %0 = tosa.reduce_all %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.reduce_sum' op expect 'input' element type to be one of i32, i64, f16, bf16, f32, f64, got 'i8'}}
func.func @reduce_sum_type(%x: tensor<2x3xi8>) {
  %0 = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<2x3xi8>) -> tensor<1x3xi8>
  return
}

// -----
// expected-error@+2 {{'tosa.reduce_max' op expect input and output to have same element type, got 'f32' and 'f16'}}
func.func @reduce_max_element_types(%x: tensor<2x3xf32>) {
  %0 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf16>
  return
}

// -----
// expected-error@+2 {{'tosa.reduce_min' op expect input tensor rank (2) to be larger than reduce axis (-1)}}
func.func @reduce_min_axis(%x: tensor<2x3xf32>) {
  %0 = tosa.reduce_min %x {axis = -1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----
// Reductions keep the axis, with size 1.
// expected-error@+2 {{'tosa.reduce_product' op expect output rank (1) to equal input rank (2)}}
func.func @reduce_product_rank(%x: tensor<2x3xf32>) {
  %0 = tosa.reduce_product %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.reduce_sum' op expect reduced dimension size to be 1, got 3}}
func.func @reduce_sum_reduced_dim(%x: tensor<2x3xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.reduce_any' op expected output shape '1, 3', got '1, 2'}}
func.func @reduce_any_other_dims(%x: tensor<2x3xi1>) {
  %0 = tosa.reduce_any %x {axis = 0 : i32} : (tensor<2x3xi1>) -> tensor<1x2xi1>
  return
}

// -----
// expected-error@+3 {{'tosa.reshape' op expect input1 and output to have same element type, got 'f32' and 'i32'}}
func.func @reshape_element_type(%x: tensor<2x3x4xf32>) {
  %s = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xi32>
  return
}

// -----
// expected-error@+3 {{'tosa.reshape' op expect 'input1' element type to be one of i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64, got 'i4'}}
func.func @reshape_input_type(%x: tensor<2x3xi4>) {
  %s = tosa.const_shape {values = dense<[6]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %0 = tosa.reshape %x, %s : (tensor<2x3xi4>, !tosa.shape<1>) -> tensor<6xi4>
  return
}

// -----
// expected-error@+3 {{'tosa.reshape' op expect 'shape' to have rank 3 but got 2}}
func.func @reshape_shape_rank(%x: tensor<2x3x4xf32>) {
  %s = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6x1xf32>
  return
}

// -----
// Shape operands are compile-time constants in TOSA 1.0 (as upstream).
// expected-error@+2 {{'tosa.reshape' op shape operand is not compile time resolvable}}
func.func @reshape_shape_not_constant(%x: tensor<2x3x4xf32>, %s: !tosa.shape<2>) {
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.reshape' op cannot reshape 24 elements into 20}}
func.func @reshape_element_count(%x: tensor<2x3x4xf32>) {
  %s = tosa.const_shape {values = dense<[4, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x5xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.reshape' op new shape [4, 6] is inconsistent with result shape [6, 4]}}
func.func @reshape_inconsistent(%x: tensor<2x3x4xf32>) {
  %s = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.reshape' op new shape [-1, -1] is inconsistent with result shape [?, ?]}}
func.func @reshape_two_inferred(%x: tensor<2x3x4xf32>) {
  %s = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op expect 'start' to have rank 3 but got 2}}
func.func @slice_start_rank(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<2>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op expect 'size' to have rank 3 but got 2}}
func.func @slice_size_rank(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<2>) -> tensor<1x1x1xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.slice' op shape operand is not compile time resolvable}}
func.func @slice_not_constant(%x: tensor<2x3x4xf32>, %start: !tosa.shape<3>) {
  %size = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op expect output rank (2) to equal input rank (3)}}
func.func @slice_output_rank(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op expect start values to be non-negative, got -1 at dimension 0}}
func.func @slice_negative_start(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[-1, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op expect size values to be positive (or -1), got 0 at dimension 1}}
func.func @slice_empty_size(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 0, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x0x1xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op start + size must be less than or equal to input dimension size, got start=2, size=2 vs input dim size=3 at dimension 1}}
func.func @slice_out_of_bounds(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[0, 2, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[2, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x4xf32>
  return
}

// -----
// expected-error@+4 {{'tosa.slice' op expected output shape to match size values, got 'tensor<2x2x3xf32>' vs [2, 2, 4]}}
func.func @slice_output_shape(%x: tensor<2x3x4xf32>) {
  %start = tosa.const_shape {values = dense<[0, 1, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[2, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x3xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.tile' op expect 'multiples' to have rank 3 but got 2}}
func.func @tile_multiples_rank(%x: tensor<2x3x4xf32>) {
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<2x6x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.tile' op shape operand is not compile time resolvable}}
func.func @tile_not_constant(%x: tensor<2x3x4xf32>, %m: !tosa.shape<3>) {
  %0 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x6x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.tile' op expect output rank (2) to equal input rank (3)}}
func.func @tile_output_rank(%x: tensor<2x3x4xf32>) {
  %m = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<12x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.tile' op expect multiples to be positive, got 0 at dimension 1}}
func.func @tile_multiples_positive(%x: tensor<2x3x4xf32>) {
  %m = tosa.const_shape {values = dense<[1, 0, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x0x4xf32>
  return
}

// -----
// Upstream does not check this one.
// expected-error@+3 {{'tosa.tile' op expect output dimension 1 to be 3 * 2 = 6, got 3}}
func.func @tile_output_shape(%x: tensor<2x3x4xf32>) {
  %m = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.pad' op padding tensor must have 3 * 2 = 6 elements, but got 4}}
func.func @pad_padding_rank(%x: tensor<2x3x4xf32>, %z: tensor<1xf32>) {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x5x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.pad' op expect input and pad_const to have same element type, got 'f32' and 'i8'}}
func.func @pad_const_type(%x: tensor<2x3x4xf32>, %z: tensor<1xi8>) {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xi8>) -> tensor<2x5x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.pad' op expect 'pad_const' to have shape [1], got 'tensor<f32>'}}
func.func @pad_const_shape(%x: tensor<2x3x4xf32>, %z: tensor<f32>) {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<f32>) -> tensor<2x5x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.pad' op expect output rank (2) to equal input rank (3)}}
func.func @pad_output_rank(%x: tensor<2x3x4xf32>, %z: tensor<1xf32>) {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<10x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.pad' op shape operand is not compile time resolvable}}
func.func @pad_not_constant(%x: tensor<2x3x4xf32>, %z: tensor<1xf32>, %p: !tosa.shape<6>) {
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x5x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.pad' op expect padding values to be non-negative, got [-1, 0] at dimension 0}}
func.func @pad_negative(%x: tensor<2x3x4xf32>, %z: tensor<1xf32>) {
  %p = tosa.const_shape {values = dense<[-1, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<1x5x4xf32>
  return
}

// -----
// expected-error@+3 {{'tosa.pad' op mismatch in output shape at dimension 1: expected 3 + 1 + 1 = 5, but got 6}}
func.func @pad_output_shape(%x: tensor<2x3x4xf32>, %z: tensor<1xf32>) {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %0 = tosa.pad %x, %p, %z : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x6x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.reverse' op expect input tensor rank (3) to be larger than reverse axis (3)}}
func.func @reverse_axis(%x: tensor<2x3x4xf32>) {
  %0 = tosa.reverse %x {axis = 3 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.reverse' op expect output shape '3, 2' to equal input shape '2, 3'}}
func.func @reverse_output_shape(%x: tensor<2x3xf32>) {
  %0 = tosa.reverse %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.transpose' op expected perms attribute to have size 3 (input rank) but got size 2}}
func.func @transpose_perms_size(%x: tensor<2x3x4xf32>) {
  %0 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.transpose' op expected valid permutation indices}}
func.func @transpose_not_a_permutation(%x: tensor<2x3x4xf32>) {
  %0 = tosa.transpose %x {perms = array<i32: 2, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<4x4x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.transpose' op expect output rank (1) to equal input rank (3)}}
func.func @transpose_output_rank(%x: tensor<2x3x4xf32>) {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.transpose' op expected output tensor dim 1 to match input dim 0 with value of 2}}
func.func @transpose_output_shape(%x: tensor<2x3x4xf32>) {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect at least one input}}
func.func @concat_no_inputs() {
  %0 = "tosa.concat"() <{axis = 0 : i32}> : () -> tensor<2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect inputs and output to have same element type, got 'i32' and 'f32'}}
func.func @concat_element_type(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xi32>) {
  %0 = tosa.concat %x, %y {axis = 0 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xi32>) -> tensor<4x3x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect input tensor rank (3) to be larger than concat axis (3)}}
func.func @concat_axis(%x: tensor<2x3x4xf32>) {
  %0 = tosa.concat %x, %x {axis = 3 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect all operands to have the same rank, but got 3 vs 2 on operands 0 and 1}}
func.func @concat_rank(%x: tensor<2x3x4xf32>, %y: tensor<2x3xf32>) {
  %0 = tosa.concat %x, %y {axis = 0 : i32} : (tensor<2x3x4xf32>, tensor<2x3xf32>) -> tensor<4x3x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect all operand shapes to have the same sizes on non-axis dimensions, but got 5 vs 4 at index 2 on operands 0 and 1}}
func.func @concat_non_axis_dims(%x: tensor<2x3x4xf32>, %y: tensor<2x3x5xf32>) {
  %0 = tosa.concat %x, %y {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x3x5xf32>) -> tensor<2x6x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect output rank (1) to equal input rank (3)}}
func.func @concat_output_rank(%x: tensor<2x3x4xf32>) {
  %0 = tosa.concat %x, %x {axis = 0 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<48xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op expect output dimension 2 to be 4, got 5}}
func.func @concat_output_dims(%x: tensor<2x3x4xf32>) {
  %0 = tosa.concat %x, %x {axis = 0 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<4x3x5xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.concat' op requires sum of axis dimensions of input1 equal to output axis dimension, got 6 and 5}}
func.func @concat_axis_sum(%x: tensor<2x3x4xf32>) {
  %0 = tosa.concat %x, %x {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x5x4xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op expect 'values' to have rank 3, got rank 2}}
func.func @gather_values_rank(%v: tensor<5x3xf32>, %i: tensor<2x4xi32>) {
  %0 = tosa.gather %v, %i : (tensor<5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op expect 'indices' to have rank 2, got rank 1}}
func.func @gather_indices_rank(%v: tensor<2x5x3xf32>, %i: tensor<8xi32>) {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<8xi32>) -> tensor<2x4x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op expect 'output' to have rank 3, got rank 2}}
func.func @gather_output_rank(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>) {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x12xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op expect 'indices' element type to be one of i32, i64, got 'i8'}}
func.func @gather_indices_type(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi8>) {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi8>) -> tensor<2x4x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op expect values and output to have same element type, got 'f32' and 'f16'}}
func.func @gather_element_type(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>) {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf16>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op requires indices dimension 0 to have size 2, got 3}}
func.func @gather_batch(%v: tensor<2x5x3xf32>, %i: tensor<3x4xi32>) {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<3x4xi32>) -> tensor<2x4x3xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.gather' op requires output dimension 2 to have size 3, got 5}}
func.func @gather_output_shape(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>) {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x5xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op 'condition' must be a tensor of i1 values, got 'tensor<1xi8>'}}
func.func @cond_if_condition_type(%c: tensor<1xi8>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c : tensor<1xi8> -> tensor<4xf32> {
    tosa.yield %x : tensor<4xf32>
  } else {
    tosa.yield %x : tensor<4xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op 'condition' must be a size 1 tensor, got 'tensor<2xi1>'}}
func.func @cond_if_condition_size(%c: tensor<2xi1>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c : tensor<2xi1> -> tensor<4xf32> {
    tosa.yield %x : tensor<4xf32>
  } else {
    tosa.yield %x : tensor<4xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same number of values in 'then_graph' arguments (2) and 'input_list' (1)}}
func.func @cond_if_argument_count(%c: tensor<i1>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    tosa.yield %a : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    tosa.yield %a : tensor<4xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same element type for 'then_graph' arguments ('i32') and 'input_list' ('f32')}}
func.func @cond_if_argument_element_type(%c: tensor<i1>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xi32>):
    tosa.yield %x : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    tosa.yield %a : tensor<4xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same shapes for 'else_graph' arguments ('tensor<2xf32>') and 'input_list' ('tensor<4xf32>')}}
func.func @cond_if_argument_shape(%c: tensor<i1>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    tosa.yield %a : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<2xf32>):
    tosa.yield %x : tensor<4xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same types for 'then_graph' arguments ('i32') and 'input_list' ('tensor<4xf32>')}}
func.func @cond_if_argument_not_tensor(%c: tensor<i1>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: i32):
    tosa.yield %x : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    tosa.yield %a : tensor<4xf32>
  }
  return
}

// -----
// A branch must end with `tosa.yield` (xDSL reports the op that ends it).
// expected-error@+3 {{'tosa.identity' op Operation tosa.identity terminates block in single-block region but is not a terminator}}
func.func @cond_if_no_yield(%c: tensor<i1>, %x: tensor<4xf32>) {
  tosa.cond_if %c : tensor<i1> -> () {
    %y = tosa.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  } else {
    tosa.yield
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same number of values in 'then_graph' results (2) and 'output_list' (1)}}
func.func @cond_if_result_count(%c: tensor<i1>, %x: tensor<4xf32>) {
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<4xf32> {
    tosa.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    tosa.yield %x : tensor<4xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same element type for 'else_graph' results ('i32') and 'output_list' ('f32')}}
func.func @cond_if_result_element_type(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<4xf32> {
    tosa.yield %x : tensor<4xf32>
  } else {
    tosa.yield %y : tensor<4xi32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.cond_if' op require same shapes for 'else_graph' results ('tensor<4x5xf32>') and 'output_list' ('tensor<4xf32>')}}
func.func @cond_if_result_shape(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4x5xf32>) {
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<4xf32> {
    tosa.yield %x : tensor<4xf32>
  } else {
    tosa.yield %y : tensor<4x5xf32>
  }
  return
}

// -----
// expected-error@+2 {{'tosa.yield' op 'tosa.yield' expects parent op to be one of 'tosa.cond_if', 'tosa.while_loop'}}
func.func @yield_outside_cond_if(%x: tensor<4xf32>) {
  tosa.yield %x : tensor<4xf32>
}

// -----
// expected-error@+2 {{'tosa.conv2d' op expected input_height - 1 + pad - (kernel_height - 1) * dilation (4) to be wholly divisible by stride (3)}}
func.func @conv_stride(%x: tensor<1x5x5x2xf32>, %w: tensor<1x1x1x2xf32>, %b: tensor<1xf32>, %z: tensor<1xf32>) {
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 3, 1>} : (tensor<1x5x5x2xf32>, tensor<1x1x1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5x1xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.conv2d' op expect input channels (2) to match the weight's (3)}}
func.func @conv_channels(%x: tensor<1x5x5x2xf32>, %w: tensor<1x1x1x3xf32>, %b: tensor<1xf32>, %z: tensor<1xf32>) {
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<1x1x1x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x1xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.conv2d' op accumulator type 'f16' is not one of f32 for 'f32' inputs}}
func.func @conv_accumulator(%x: tensor<1x5x5x2xf32>, %w: tensor<1x1x1x2xf32>, %b: tensor<1xf32>, %z: tensor<1xf32>) {
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<1x1x1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x1xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.conv2d' op expected output shape 1, 5, 5, 2 to be compatible with inferred shape 1, 5, 5, 1}}
func.func @conv_output(%x: tensor<1x5x5x2xf32>, %w: tensor<1x1x1x2xf32>, %b: tensor<1xf32>, %z: tensor<1xf32>) {
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<1x1x1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.depthwise_conv2d' op expected output shape 1, 5, 5, 2 to be compatible with inferred shape 1, 5, 5, 6}}
func.func @depthwise_output(%x: tensor<1x5x5x2xf32>, %w: tensor<1x1x2x3xf32>, %b: tensor<1xf32>, %z: tensor<1xf32>) {
  %0 = tosa.depthwise_conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<1x1x2x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x2xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.max_pool2d' op expected padding [2, 0, 0, 0] to be less than the kernel [2, 2]}}
func.func @pool_padding(%x: tensor<1x4x4x1xf32>) {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 2, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>) -> tensor<1x5x3x1xf32>
  return
}

// -----
// expected-error@+2 {{'tosa.avg_pool2d' op expect 'input' element type to be one of i8, f16, bf16, f32, got 'i16'}}
func.func @avg_pool_int(%x: tensor<1x4x4x1xi16>, %z: tensor<1xi16>) {
  %0 = tosa.avg_pool2d %x, %z, %z {acc_type = i32, kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1x4x4x1xi16>
  return
}
