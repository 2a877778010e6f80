// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p convert-openvino-to-tosa
// RUN: not tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa 2>&1 | filecheck %s --check-prefix=FAIL

// The pass fails at the first op it cannot convert (after an OpenVINO IR import, the message
// also names the layer: id, name, type and opset).

// A shape argument computed at run time.
// FAIL: invalid.mlir:[[# @LINE + 5]]:3: error: 'openvino.reshape' op could not be converted to TOSA: the target shape must be a constant (or computed from static shapes only)
// FAIL-NEXT: note: in pass 'convert-openvino-to-tosa'
// expected-note@+3 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+2 {{'openvino.reshape' op could not be converted to TOSA: the target shape must be a constant (or computed from static shapes only)}}
func.func @computed_shape(%x: tensor<6xf32>, %shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = openvino.reshape %x, %shape : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// Inputs must have static shapes.
// expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+1 {{input 'x' of 'dynamic' has type tensor<?x4xf32>: tosa-state needs static input shapes (give them with specialize-input-shapes, tosa-state-run --input-shape or compile_model(..., input_shapes=...))}}
func.func @dynamic(%x: tensor<?x4xf32> {openvino.name = "x"}) -> tensor<?x4xf32> {
  %0 = openvino.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// A variable without init starts as zeros of variable_shape: an interval has no static size.
// expected-note@+4 {{1 more 'openvino' op(s) were left unconverted}}
// expected-note@+3 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+2 {{'openvino.read_value' op could not be converted to TOSA: variable 'v' has shape [2..8,4] and no init: OpenVINO starts it as zeros of that shape, which has no static size (tosa-state needs static variable shapes; give the ReadValue an init or a static variable_shape)}}
func.func @interval(%x: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %0 = openvino.read_value "v" {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2:8, 4]>} : () -> tensor<?x4xf32>
  openvino.assign "v", %x {version = 6 : i64} : tensor<2x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// A `?` variable without init starts empty ([0, 4]); writing [1, 4] would change its shape.
// expected-note@+5 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+4 {{'openvino.assign' op could not be converted to TOSA: it writes tensor<1x4xf32> to variable 'v' of type tensor<0x4xf32>: a variable keeps one static shape and type across calls}}
func.func @grows(%x: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %0 = openvino.read_value "v" {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?, 4]>} : () -> tensor<?x4xf32>
  %1 = openvino.relu %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  openvino.assign "v", %1 {version = 6 : i64} : tensor<1x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// Recurrent cells support the sigmoid, tanh and relu activations.
// expected-note@+6 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+5 {{'openvino.gru_cell' op could not be converted to TOSA: activation(s) softsign (supported: sigmoid, tanh, relu)}}
func.func @activation(%x: tensor<1x2xf32>, %h: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %w = openvino.constant dense<0.5> : tensor<9x2xf32>
  %r = openvino.constant dense<0.25> : tensor<9x3xf32>
  %b = openvino.constant dense<0.0> : tensor<9xf32>
  %0 = openvino.gru_cell %x, %h, %w, %r, %b {hidden_size = 3 : i64, activations = ["softsign", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32} : (tensor<1x2xf32>, tensor<1x3xf32>, tensor<9x2xf32>, tensor<9x3xf32>, tensor<9xf32>) -> tensor<1x3xf32>
  func.return %0 : tensor<1x3xf32>
}

// -----

// Element types TOSA has no operator for are reported with the TOSA verifier's reason; the
// ops that depend on the failed one are counted.
// expected-note@+4 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+3 {{'openvino.add' op could not be converted to TOSA: 'tosa.add' would be invalid: operand #0 must be tensor of 8/16/32/64-bit signless integer or floating-point values, but got 'tensor<4xui16>'}}
// expected-note@+2 {{1 more 'openvino' op(s) were left unconverted}}
func.func @unsigned(%x: tensor<4xui16>) -> tensor<4xui16> {
  %0 = openvino.add %x, %x : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  %1 = openvino.multiply %0, %x : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  func.return %1 : tensor<4xui16>
}
