// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

func.func @size() -> tensor<5xui4> {
  // expected-error@+1 {{'openvino.packed_constant' op 5 elements of u4 take 3 bytes, data has 2}}
  %0 = openvino.packed_constant dense<[1, 2]> : tensor<2xui8> -> tensor<5xui4>
  func.return %0 : tensor<5xui4>
}

// -----

func.func @not_packed() -> tensor<2xui8> {
  // expected-error@+1 {{'openvino.packed_constant' op element type ui8 is not a packed type (ui1, ui4, i4, !openvino.nf4, f8E4M3FN, f8E5M2)}}
  %0 = openvino.packed_constant dense<[1, 2]> : tensor<2xui8> -> tensor<2xui8>
  func.return %0 : tensor<2xui8>
}

// -----

func.func @data_type() -> tensor<2xi4> {
  // expected-error@+1 {{'openvino.packed_constant' op data must be a 1-D tensor of ui8 bytes}}
  %0 = openvino.packed_constant dense<[1]> : tensor<1xi8> -> tensor<2xi4>
  func.return %0 : tensor<2xi4>
}
