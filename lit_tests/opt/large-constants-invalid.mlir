// RUN: not tosa-state-opt %s --split-input-file 2>&1 | filecheck %s

// Blobs that are missing or do not fit their type: one located error each.

// CHECK: large-constants-invalid.mlir:[[# @LINE + 1]]:20: error: dense_resource<nope> has no blob in the file's dialect_resources
tosa.variable @v = dense_resource<nope> : tensor<2xf32>

// -----
// CHECK: large-constants-invalid.mlir:[[# @LINE + 1]]:20: error: dense_resource<short> has 4 bytes; 'tensor<2xf32>' needs 8
tosa.variable @v = dense_resource<short> : tensor<2xf32>
{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F"
    }
  }
#-}
