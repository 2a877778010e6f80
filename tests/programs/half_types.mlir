// 16-bit float state: a bf16 and an f16 variable, plus an i32 one; each call returns the
// previous values and stores the inputs (the bf16 one through an addition).
tosa.variable @brain = dense<[1.5, -2.0, 0.25, 3.0]> : tensor<4xbf16>
tosa.variable @half = dense<[[0.5, 1.0], [2.0, -0.125]]> : tensor<2x2xf16>
tosa.variable @ticks = dense<[7, -7]> : tensor<2xi32>
func.func @main(%b: tensor<4xbf16>, %h: tensor<2x2xf16>, %t: tensor<2xi32>)
    -> (tensor<4xbf16>, tensor<2x2xf16>, tensor<2xi32>) {
  %b0 = tosa.variable.read @brain : tensor<4xbf16>
  %h0 = tosa.variable.read @half : tensor<2x2xf16>
  %t0 = tosa.variable.read @ticks : tensor<2xi32>
  %b1 = tosa.add %b0, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  tosa.variable.write @brain, %b1 : tensor<4xbf16>
  tosa.variable.write @half, %h : tensor<2x2xf16>
  tosa.variable.write @ticks, %t : tensor<2xi32>
  return %b0, %h0, %t0 : tensor<4xbf16>, tensor<2x2xf16>, tensor<2xi32>
}
