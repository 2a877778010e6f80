// tosa-state-run's input errors: one line each, naming what the .npz holds and what is expected.

// RUN: python -c "import numpy as n; n.savez('%t.wrong.npz', y=n.ones((3, 2, 4), 'f4'), z=n.ones(3, 'i8'))"
// RUN: not tosa-state-run %s --inputs %t.wrong.npz 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: no array for input 'x' (arg0) in the inputs; expected one of shape [steps, 2, 4] and dtype float32; the inputs hold: y float32[3,2,4], z int64[3]

// RUN: python -c "import numpy as n; n.savez('%t.one.npz', x=n.ones((2, 4), 'f4'))"
// RUN: not tosa-state-run %s --inputs %t.one.npz 2>&1 | FileCheck %s --check-prefix=NOSTEP
// NOSTEP: error: input 'x' has shape [2, 4], the shape of one call: the step axis is missing; expected [steps, 2, 4] (x[None] for one step)

// RUN: python -c "import numpy as n; n.savez('%t.f64.npz', x=n.ones((3, 2, 4)))"
// RUN: tosa-state-run %s --inputs %t.f64.npz -o %t.out.npz 2>&1 | FileCheck %s --check-prefix=CAST
// RUN: tosa-state-run %s --inputs %t.f64.npz -o %t.out.npz --quiet 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// CAST: note: input 'x' is float64; cast to the model's float32
// QUIET-NOT: note

// RUN: not tosa-state-run %s --inputs %s 2>&1 | FileCheck %s --check-prefix=NOTNPZ
// NOTNPZ: error: not an .npz archive (a model file? the model is the first argument); --inputs takes an .npz with one array per model input, keyed by input name or arg<i>, each with a leading step axis: numpy.savez('in.npz', x=xs)

// RUN: python -c "open('%t.onnx', 'wb').write(bytes([8, 7, 18, 196]))"
// RUN: not tosa-state-run %t.onnx 2>&1 | FileCheck %s --check-prefix=ONNX
// ONNX: .onnx: error: this is an ONNX model, which is not read directly; tosa-state reads MLIR text (.mlir), OpenVINO IR (.xml, its .bin beside it), TFLite (.tflite) and TOSA flatbuffers (.tosa); convert it to OpenVINO IR first: `ovc {{.*}}.onnx` writes {{.*}}.xml and {{.*}}.bin
// ONNX-NOT: {{.}}

tosa.variable @acc = dense<0.0> : tensor<2x4xf32>
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %a = tosa.variable.read @acc : tensor<2x4xf32>
  %s = tosa.add %a, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  tosa.variable.write @acc, %s : tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
