// RUN: tosa-state-opt %s --split-input-file -p mlprogram-stores-last | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p mlprogram-stores-last --tosa-spelling=upstream | iree-opt --split-input-file > /dev/null
// RUN: not tosa-state-opt %S/Inputs/store-in-loop.mlir -p mlprogram-stores-last 2>&1 | filecheck %s --check-prefix=LOOP

// A store in a tosa.cond_if branch, nested or not, becomes a result of the cond_if, stored
// after it and then moved last: the branch that stores yields the value (a load after the
// store reads it), the other yields the global as it is; a load after the cond_if reads the
// result.

// CHECK-LABEL: func.func @step(%x: tensor<2xf32>, %c: tensor<i1>, %d: tensor<i1>) -> tensor<2xf32> {
// CHECK-NEXT:    %a = ml_program.global_load @a : tensor<2xf32>
// CHECK-NEXT:    %s = tosa.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %r, %r_1, %r_2 = tosa.cond_if %c (%v = %s) : tensor<i1> (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%v: tensor<2xf32>):
// CHECK-NEXT:      %w = tosa.add %v, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:      %0 = tosa.cond_if %d : tensor<i1> -> tensor<2xf32> {
// CHECK-NEXT:        tosa.yield %w : tensor<2xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %1 = ml_program.global_load @b : tensor<2xf32>
// CHECK-NEXT:        tosa.yield %1 : tensor<2xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      tosa.yield %w, %v, %0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    ^bb0(%v_1: tensor<2xf32>):
// CHECK-NEXT:      %2 = ml_program.global_load @a : tensor<2xf32>
// CHECK-NEXT:      %3 = ml_program.global_load @b : tensor<2xf32>
// CHECK-NEXT:      tosa.yield %v_1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %y = tosa.sub %r, %r_2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    ml_program.global_store @a = %r_1 : tensor<2xf32>
// CHECK-NEXT:    ml_program.global_store @b = %r_2 : tensor<2xf32>
// CHECK-NEXT:    func.return %y : tensor<2xf32>
// CHECK-NEXT:  }
ml_program.global private mutable @a(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private mutable @b(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
func.func @step(%x: tensor<2xf32>, %c: tensor<i1>, %d: tensor<i1>) -> tensor<2xf32> {
  %a = ml_program.global_load @a : tensor<2xf32>
  %s = tosa.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r = tosa.cond_if %c (%v = %s) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%v: tensor<2xf32>):
    ml_program.global_store @a = %v : tensor<2xf32>
    %again = ml_program.global_load @a : tensor<2xf32>
    %w = tosa.add %again, %again : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.cond_if %d : tensor<i1> -> () {
      ml_program.global_store @b = %w : tensor<2xf32>
      tosa.yield
    } else {
      tosa.yield
    }
    tosa.yield %w : tensor<2xf32>
  } else {
  ^bb0(%v: tensor<2xf32>):
    tosa.yield %v : tensor<2xf32>
  }
  %b = ml_program.global_load @b : tensor<2xf32>
  %y = tosa.sub %r, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// A store of the global before the cond_if and one in a branch: the branch that does not
// store yields the value stored before; the later store wins.

// CHECK-LABEL: func.func @twice(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
// CHECK-NEXT:    %t = tosa.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %0 = tosa.cond_if %c : tensor<i1> -> tensor<2xf32> {
// CHECK-NEXT:      tosa.yield %x : tensor<2xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tosa.yield %t : tensor<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    ml_program.global_store @a = %0 : tensor<2xf32>
// CHECK-NEXT:    func.return %t : tensor<2xf32>
// CHECK-NEXT:  }
ml_program.global private mutable @a(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
func.func @twice(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
  %t = tosa.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ml_program.global_store @a = %t : tensor<2xf32>
  tosa.cond_if %c : tensor<i1> -> () {
    ml_program.global_store @a = %x : tensor<2xf32>
    tosa.yield
  } else {
    tosa.yield
  }
  return %t : tensor<2xf32>
}

// A store in a tosa.while_loop body cannot be moved: refused, at the store.
// LOOP: store-in-loop.mlir:13:5: error: global @a is stored inside 'tosa.while_loop', whose stores cannot be moved to the end of the call (those of a 'tosa.cond_if' branch can): a call failing after it would leave it written
// LOOP-NEXT: note: in pass 'mlprogram-stores-last'
