// RUN: not tosa-state-opt %s -p tosa-static-state 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not tosa-state-opt %s -p 'tosa-static-state{max-prompt-len=6}' 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not tosa-state-opt %s -p 'tosa-static-state{capacity=8 max-prompt-len=6}' 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: not tosa-state-opt %s -p 'tosa-static-state{capacity=0}' 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not tosa-state-opt %s -p 'tosa-static-state{max-prompt-len=-2 min-response-len=1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE

// The pass's options: a capacity, or OpenVINO GenAI's two lengths.

// NONE: error: tosa-static-state needs capacity=N or max-prompt-len=P min-response-len=R
// BOTH: error: tosa-static-state takes capacity=N or max-prompt-len=P min-response-len=R, not both
// ZERO: error: tosa-static-state's capacity must be at least 1, got 0
// NEGATIVE: error: tosa-static-state's max-prompt-len and min-response-len must not be negative

tosa.variable @k : tensor<1x?xf32>
