// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p convert-openvino-to-tosa

// What the conversions of the optimum-intel ops refuse (the importer names the layer as
// well).

func.func @cumsum_computed_axis(%x: tensor<2x3xf32>, %axis: tensor<i64>) -> tensor<2x3xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.cumsum' op could not be converted to TOSA: the axis must be a constant (or computed from static shapes only)}}
  %0 = openvino.cumsum %x, %axis : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @roll_dynamic_axis(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %shift = openvino.constant dense<1> : tensor<i64>
  %axis = openvino.constant dense<0> : tensor<i64>
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.roll' op could not be converted to TOSA: rolling along the dynamic axis 0}}
  %0 = openvino.roll %x, %shift, %axis : (tensor<?x4xf32>, tensor<i64>, tensor<i64>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

func.func @scatter_reduction_too_large(%data: tensor<4096x1024xf32>, %idx: tensor<8x1xi32>, %upd: tensor<8x1024xf32>) -> tensor<4096x1024xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.scatter_nd_update' op could not be converted to TOSA: the one-hot table of a scatter reduction would have 33554432 elements (limit 4194304)}}
  %0 = openvino.scatter_nd_update %data, %idx, %upd {reduction = "sum"} : (tensor<4096x1024xf32>, tensor<8x1xi32>, tensor<8x1024xf32>) -> tensor<4096x1024xf32>
  func.return %0 : tensor<4096x1024xf32>
}

// -----

func.func @topk_computed_k(%x: tensor<2x4xf32>, %k: tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi32>) {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.topk' op could not be converted to TOSA: k must be one count, a constant or computed from shapes}}
  %0, %1 = openvino.topk %x, %k {axis = 1 : i64, mode = "max", sort = "value"} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
  func.return %0, %1 : tensor<2x?xf32>, tensor<2x?xi32>
}

// -----

func.func @topk_k_beyond_the_axis(%x: tensor<2x4xf32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
  %k = openvino.constant dense<5> : tensor<i64>
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.topk' op could not be converted to TOSA: k = 5 is not a count in [1, 4] (the axis size)}}
  %0, %1 = openvino.topk %x, %k {axis = 1 : i64, mode = "max", sort = "value"} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
  func.return %0, %1 : tensor<2x5xf32>, tensor<2x5xi32>
}

// -----

func.func @non_zero_of_an_input(%x: tensor<2x2xi32>) -> tensor<2x?xi64> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.non_zero' op could not be converted to TOSA: NonZero of values known only at run time (its output length depends on them; only a constant input folds)}}
  %0 = openvino.non_zero %x : (tensor<2x2xi32>) -> tensor<2x?xi64>
  func.return %0 : tensor<2x?xi64>
}

// -----

func.func @einsum_diagonal(%x: tensor<3x3xf32>) -> tensor<3xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.einsum' op could not be converted to TOSA: the term 'ii' repeats a label (a diagonal)}}
  %0 = openvino.einsum %x {equation = "ii->i"} : (tensor<3x3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @einsum_broadcast(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.einsum' op could not be converted to TOSA: label 'i' has sizes 2 and 1 (broadcasting is not supported)}}
  %0 = openvino.einsum %a, %b {equation = "ij,ij->i"} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @scatter_elements_dynamic_not_spanning(%data: tensor<?x5xf32>, %idx: tensor<2x2xi64>, %upd: tensor<2x2xf32>) -> tensor<?x5xf32> {
  %axis = openvino.constant dense<1> : tensor<i64>
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.scatter_elements_update' op could not be converted to TOSA: indices [2,2] that do not span the other dims of data [?,5] (dynamic shapes)}}
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis : (tensor<?x5xf32>, tensor<2x2xi64>, tensor<2x2xf32>, tensor<i64>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// -----

// Sizes computed from data are read one `tosa.shape_from_tensor` each, up to 16 of them.
func.func @tile_by_long_data(%x: tensor<2xf32>, %r: tensor<17xi64>) -> tensor<?xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.tile' op could not be converted to TOSA: repeats must be constants, or computed from shapes or from data (at most 16 values)}}
  %0 = openvino.tile %x, %r : (tensor<2xf32>, tensor<17xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
