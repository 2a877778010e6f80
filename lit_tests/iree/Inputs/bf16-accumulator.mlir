// bf16 in, out and in the state (tests/test_iree_device.py).
tosa.variable @acc = dense<1.0> : tensor<1x4xbf16>
func.func @main(%x: tensor<1x4xbf16>) -> (tensor<1x4xbf16>, tensor<1x4xf32>) {
  %a = tosa.variable.read @acc : tensor<1x4xbf16>
  %s = tosa.add %a, %x : (tensor<1x4xbf16>, tensor<1x4xbf16>) -> tensor<1x4xbf16>
  tosa.variable.write @acc, %s : tensor<1x4xbf16>
  %f = tosa.cast %s : (tensor<1x4xbf16>) -> tensor<1x4xf32>
  return %s, %f : tensor<1x4xbf16>, tensor<1x4xf32>
}
