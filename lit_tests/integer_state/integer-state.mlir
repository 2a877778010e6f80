// RUN: tosa-state-opt %s --split-input-file -p tosa-integer-state | filecheck %s

// A float variable written only from a dequantize and read only through a quantize (the
// lowerings of TFLite's DEQUANTIZE / QUANTIZE) becomes an int8 (int16) variable with the
// same bits.

// Same scale and zero point (TensorFlow's full-integer export): the read is the value.
// CHECK:       tosa.variable @h {tosa_state.scale = 2.500000e-01 : f32, tosa_state.zero_point = 3 : i32} = dense<3> : tensor<1x4xi8>
// CHECK-LABEL: func.func @same_scale
// CHECK-NEXT:    %[[R:.*]] = tosa.variable.read @h : tensor<1x4xi8>
// CHECK-NEXT:    tosa.variable.write @h, %x : tensor<1x4xi8>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x4xi8>
tosa.variable @h = dense<0.0> : tensor<1x4xf32>
func.func @same_scale(%x: tensor<1x4xi8>, %y: tensor<1x4xf32>) -> (tensor<1x4xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<3.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %ds = "tosa.const"() <{values = dense<0.25> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<3.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %dw : tensor<1x4xf32>
  func.return %q : tensor<1x4xi8>
}

// -----

// The read's scale is half the write's: a tosa.rescale by 2 (it gives the float path's
// value for all 256 stored values). A non-zero initial value is converted exactly.
// CHECK:       tosa.variable @h {tosa_state.scale = 5.000000e-01 : f32, tosa_state.zero_point = 0 : i32} = dense<[{{\[}}2, -3, 0, 1]]> : tensor<1x4xi8>
// CHECK-LABEL: func.func @rescaled
// CHECK-NEXT:    %[[V:.*]] = tosa.variable.read @h : tensor<1x4xi8>
// CHECK-NEXT:    %{{.*}} = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-NEXT:    %{{.*}} = "tosa.const"() <{values = dense<29> : tensor<1xi8>}>
// CHECK-NEXT:    %{{.*}} = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT:    %{{.*}} = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT:    %[[R:.*]] = tosa.rescale %[[V]], {{.*}} rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4xi8>
// CHECK-NEXT:    tosa.variable.write @h, %x : tensor<1x4xi8>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x4xi8>
tosa.variable @h = dense<[[1.0, -1.5, 0.0, 0.5]]> : tensor<1x4xf32>
func.func @rescaled(%x: tensor<1x4xi8>, %y: tensor<1x4xf32>) -> (tensor<1x4xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %ds = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %dw : tensor<1x4xf32>
  func.return %q : tensor<1x4xi8>
}

// -----

// A read at scale 1 of a write at scale 0.5 clamped to [-10, 10]: no rescale gives that,
// so the read's value for each of the 256 stored values is a tosa.table.
// CHECK-LABEL: func.func @table
// CHECK-NEXT:    %[[V:.*]] = tosa.variable.read @h : tensor<1x4xi8>
// CHECK-NEXT:    %[[T:.*]] = "tosa.const"() <{values = dense<"0xF6F6F6F6{{.*}}F7F8F8F9F9FAFAFBFBFCFCFDFDFEFEFFFF000101020203030404050506060707080809090A0A{{.*}}0A0A"> : tensor<256xi8>}>
// CHECK-NEXT:    %[[Q:.*]] = tosa.table %[[V]], %[[T]] : (tensor<1x4xi8>, tensor<256xi8>) -> tensor<1x4xi8>
// CHECK-NEXT:    tosa.variable.write @h, %x : tensor<1x4xi8>
// CHECK-NEXT:    func.return %[[Q]] : tensor<1x4xi8>
tosa.variable @h = dense<0.0> : tensor<1x4xf32>
func.func @table(%x: tensor<1x4xi8>, %y: tensor<1x4xf32>) -> (tensor<1x4xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 1.000000e+01 : f32, min_val = -1.000000e+01 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %ds = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %dw : tensor<1x4xf32>
  func.return %q : tensor<1x4xi8>
}

// -----

// An int16 state (the same bits too).
// CHECK:       tosa.variable @h {tosa_state.scale = 0.0009765625 : f32, tosa_state.zero_point = 7 : i32} = dense<7> : tensor<1x4xi16>
// CHECK-LABEL: func.func @int16
// CHECK-NEXT:    %[[R:.*]] = tosa.variable.read @h : tensor<1x4xi16>
// CHECK-NEXT:    tosa.variable.write @h, %x : tensor<1x4xi16>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x4xi16>
tosa.variable @h = dense<0.0> : tensor<1x4xf32>
func.func @int16(%x: tensor<1x4xi16>) -> tensor<1x4xi16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<1024.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<7.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 3.276700e+04 : f32, min_val = -3.276800e+04 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi16>
  %ds = "tosa.const"() <{values = dense<0.0009765625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<7.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi16>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %dw : tensor<1x4xf32>
  func.return %q : tensor<1x4xi16>
}

// -----

// Left as they are: the float read also returned (its value leaks), a write of a float
// that is no dequantize, an initial value that no int8 value dequantizes to.
// CHECK:       tosa.variable @h = dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-LABEL: func.func @read_leaks
// CHECK:         tosa.variable.write @h, %dw : tensor<1x4xf32>
tosa.variable @h = dense<0.0> : tensor<1x4xf32>
func.func @read_leaks(%x: tensor<1x4xi8>, %y: tensor<1x4xf32>) -> (tensor<1x4xi8>, tensor<1x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %ds = "tosa.const"() <{values = dense<0.25> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %dw : tensor<1x4xf32>
  func.return %q, %r : tensor<1x4xi8>, tensor<1x4xf32>
}

// -----

// CHECK:       tosa.variable @h = dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-LABEL: func.func @float_write
// CHECK:         tosa.variable.write @h, %y : tensor<1x4xf32>
tosa.variable @h = dense<0.0> : tensor<1x4xf32>
func.func @float_write(%x: tensor<1x4xi8>, %y: tensor<1x4xf32>) -> (tensor<1x4xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %ds = "tosa.const"() <{values = dense<0.25> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %y : tensor<1x4xf32>
  func.return %q : tensor<1x4xi8>
}

// -----

// CHECK:       tosa.variable @h = dense<1.000000e-01> : tensor<1x4xf32>
// CHECK-LABEL: func.func @inexact_initial_value
// CHECK:         tosa.variable.write @h, %dw : tensor<1x4xf32>
tosa.variable @h = dense<0.1> : tensor<1x4xf32>
func.func @inexact_initial_value(%x: tensor<1x4xi8>, %y: tensor<1x4xf32>) -> (tensor<1x4xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.variable.read @h : tensor<1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.mul %r, %inv, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %neg = tosa.greater %zero, %m : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %lo = tosa.sub %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %ce = tosa.ceil %lo : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %hi = tosa.add %m, %half : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %fl = tosa.floor %hi : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %sel = tosa.select %neg, %ce, %fl : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %sh = tosa.add %sel, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %cl = tosa.clamp %sh {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = tosa.cast %cl : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %ds = "tosa.const"() <{values = dense<0.25> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %dz = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %df = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %dc = tosa.sub %df, %dz : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %dw = tosa.mul %dc, %ds, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  tosa.variable.write @h, %dw : tensor<1x4xf32>
  func.return %q : tensor<1x4xi8>
}
