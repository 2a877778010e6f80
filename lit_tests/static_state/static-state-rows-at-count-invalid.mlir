// RUN: tosa-state-opt %s --verify-diagnostics -p 'tosa-static-state{capacity=8 rows-at-count=true}'

// Two rows a call cannot be read at the count (among several new rows the causal mask needs
// them last): refused, so that no entry mixes the layouts.

tosa.variable @k : tensor<1x?xf32>
func.func @two_rows(%new: tensor<1x2xf32>) -> tensor<1x?xf32> {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  // expected-note@+2 {{in pass 'tosa-static-state'}}
  // expected-error@+1 {{tosa-static-state cannot read the new rows of 'k' at the count (rows-at-count): a call adds 2 rows, not one}}
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x2xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return %all : tensor<1x?xf32>
}
