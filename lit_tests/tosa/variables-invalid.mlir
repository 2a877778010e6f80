// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics
// RUN: not tosa-state-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=FAIL

// Every verifier rule of the stateful ops, with upstream MLIR's wording where upstream
// has the rule. Element type is checked before shape.

// FAIL: variables-invalid.mlir:[[# @LINE + 3]]:3: error: 'tosa.variable.read' op 'nope' has not been declared by 'tosa.variable'
// expected-error@+2 {{'tosa.variable.read' op 'nope' has not been declared by 'tosa.variable'}}
func.func @undeclared_read() -> tensor<f32> {
  %0 = tosa.variable.read @nope : tensor<f32>
  return %0 : tensor<f32>
}

// -----
// expected-error@+2 {{'tosa.variable.write' op 'nope' has not been declared by 'tosa.variable'}}
func.func @undeclared_write(%x: tensor<f32>) {
  tosa.variable.write @nope, %x : tensor<f32>
  return
}

// -----
tosa.variable @v : tensor<2x4x8xi8>
// expected-error@+2 {{'tosa.variable.read' op require same element type for 'output1' ('i16') and the input tensor ('i8')}}
func.func @read_element_type() -> tensor<2x4x8xi16> {
  %0 = tosa.variable.read @v : tensor<2x4x8xi16>
  return %0 : tensor<2x4x8xi16>
}

// -----
tosa.variable @v : tensor<2x4x8xi8>
// expected-error@+2 {{'tosa.variable.write' op require same element type for 'input1' ('i16') and the input tensor ('i8')}}
func.func @write_element_type(%x: tensor<2x4x8xi16>) {
  tosa.variable.write @v, %x : tensor<2x4x8xi16>
  return
}

// -----
tosa.variable @v : tensor<2x4x8xi8>
// Both the element type and the shape differ: the element type is reported.
// expected-error@+2 {{'tosa.variable.write' op require same element type for 'input1' ('i16') and the input tensor ('i8')}}
func.func @element_type_before_shape(%x: tensor<1x4x8xi16>) {
  tosa.variable.write @v, %x : tensor<1x4x8xi16>
  return
}

// -----
tosa.variable @v : tensor<2x4x8xi8>
// expected-error@+2 {{'tosa.variable.write' op require same shapes for 'input1' ('tensor<1x4x8xi8>') and the input tensor ('tensor<2x4x8xi8>')}}
func.func @write_shape(%x: tensor<1x4x8xi8>) {
  tosa.variable.write @v, %x : tensor<1x4x8xi8>
  return
}

// -----
tosa.variable @v = dense<0.0> : tensor<2x4xf32>
// expected-error@+2 {{'tosa.variable.read' op require same shapes for 'output1' ('tensor<8xf32>') and the input tensor ('tensor<2x4xf32>')}}
func.func @read_rank() -> tensor<8xf32> {
  %0 = tosa.variable.read @v : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----
tosa.variable @v = dense<0.0> : tensor<2x4xf32>
// Upstream accepts a compatible `?` here, but its own lowering then breaks: we require
// exactly the declared shape.
// expected-error@+2 {{'tosa.variable.read' op require same shapes for 'output1' ('tensor<?x4xf32>') and the input tensor ('tensor<2x4xf32>')}}
func.func @read_dynamic_of_static() -> tensor<?x4xf32> {
  %0 = tosa.variable.read @v : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----
tosa.variable @v : tensor<2xf32>
// expected-error@+1 {{'tosa.variable' op redefinition of symbol named 'v'}}
tosa.variable @v : tensor<2xf32>

// -----
// expected-error@+1 {{expected ranked type}}
tosa.variable @v : tensor<*xf32>

// -----
// expected-error@+1 {{expected shaped type}}
tosa.variable @v : f32

// -----
// expected-error@+1 {{'tosa.variable' op initial value of type 'tensor<3xf32>' does not match the variable type 'tensor<2xf32>'}}
"tosa.variable"() <{initial_value = dense<0.0> : tensor<3xf32>, sym_name = "v", type = f32, var_shape = dense<2> : tensor<1xindex>}> : () -> ()

// -----
// expected-error@+1 {{'tosa.variable' op initial value of type 'tensor<2xi32>' does not match the variable type 'tensor<2xf32>'}}
"tosa.variable"() <{initial_value = dense<0> : tensor<2xi32>, sym_name = "v", type = f32, var_shape = dense<2> : tensor<1xindex>}> : () -> ()

// -----
// expected-error@+1 {{'tosa.variable' op 'var_shape' must be a 1-D tensor of index, got 'tensor<2xi32>'}}
"tosa.variable"() <{sym_name = "v", type = f32, var_shape = dense<2> : tensor<2xi32>}> : () -> ()

// -----
// expected-error@+1 {{'tosa.variable' op element type 'i4' is not supported; supported element types: i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64}}
tosa.variable @v : tensor<2xi4>

// -----
// expected-error@+1 {{'tosa.variable' op element type 'complex<f32>' is not supported}}
tosa.variable @v : tensor<2xcomplex<f32>>
