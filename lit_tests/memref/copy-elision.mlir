// RUN: tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p 'convert-tosa-variables-to-memref{elide-copies=false}' | filecheck %s --check-prefix=ALWAYS
// RUN: tosa-state-opt %s --split-input-file -p 'convert-tosa-variables-to-memref{elide-copies=false}' | grep -c "memref.alloc()" | filecheck %s --check-prefix=COUNT

// When a read may alias the global instead of copying it (see `CopyElision`): its value,
// and every value that may be a view of it, is dead before anything may write the
// variable, it does not escape to a caller in the module, and it is the function's
// first such read of that variable. `elide-copies=false` copies every read.

// All 14 reads of this file are copied with `elide-copies=false`:
// COUNT: 14

tosa.variable @acc = dense<0.0> : tensor<3xf32>

// The value is consumed (by an op computing a new tensor) before the write: no copy.
// CHECK-LABEL: func.func @accumulate
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @acc : memref<3xf32>
// CHECK-NEXT:    %[[OLD:.*]] = bufferization.to_tensor %[[G]] restrict : memref<3xf32> to tensor<3xf32>
// CHECK-NEXT:    %[[NEW:.*]] = tosa.add %[[OLD]], %{{.*}}
// CHECK-NEXT:    %[[B:.*]] = bufferization.to_buffer %[[NEW]] read_only
// CHECK-NEXT:    %[[G2:.*]] = memref.get_global @acc : memref<3xf32>
// CHECK-NEXT:    "memref.copy"(%[[B]], %[[G2]])
// CHECK-NEXT:    func.return %[[NEW]]
// ALWAYS-LABEL: func.func @accumulate
// ALWAYS-NEXT:    %[[G:.*]] = memref.get_global @acc : memref<3xf32>
// ALWAYS-NEXT:    %[[B:.*]] = memref.alloc() : memref<3xf32>
// ALWAYS-NEXT:    "memref.copy"(%[[G]], %[[B]])
// ALWAYS-NEXT:    bufferization.to_tensor %[[B]] restrict
func.func @accumulate(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tosa.variable.read @acc : tensor<3xf32>
  %1 = tosa.add %0, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  tosa.variable.write @acc, %1 : tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

tosa.variable @acc = dense<0.0> : tensor<3xf32>

// Returned after a write: the value must keep the old state, so it is copied.
// CHECK-LABEL: func.func @old_value
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @acc : memref<3xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT:    "memref.copy"(%[[G]], %[[B]])
// CHECK-NEXT:    %[[OLD:.*]] = bufferization.to_tensor %[[B]] restrict
func.func @old_value(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tosa.variable.read @acc : tensor<3xf32>
  tosa.variable.write @acc, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// The only later use is the write of the same variable, which reads it first: no copy.
// CHECK-LABEL: func.func @write_back
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @acc : memref<3xf32>
// CHECK-NEXT:    %[[V:.*]] = bufferization.to_tensor %[[G]] restrict
// CHECK-NEXT:    bufferization.to_buffer %[[V]] read_only
func.func @write_back() {
  %0 = tosa.variable.read @acc : tensor<3xf32>
  tosa.variable.write @acc, %0 : tensor<3xf32>
  return
}

// -----

tosa.variable @v = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>

// A reshape may be a view of the read: it is alive after the write, so the read is copied.
// CHECK-LABEL: func.func @view
// CHECK-NEXT:    memref.get_global @v
// CHECK-NEXT:    memref.alloc()
func.func @view(%x: tensor<2x2xi32>) -> tensor<4xi32> {
  %0 = tosa.variable.read @v : tensor<2x2xi32>
  %s = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %1 = tosa.reshape %0, %s : (tensor<2x2xi32>, !tosa.shape<1>) -> tensor<4xi32>
  tosa.variable.write @v, %x : tensor<2x2xi32>
  return %1 : tensor<4xi32>
}

// -----

tosa.variable @v = dense<1.0> : tensor<2xf32>
tosa.variable @w = dense<2.0> : tensor<2xf32>

func.func private @write_v(%x: tensor<2xf32>) {
  tosa.variable.write @v, %x : tensor<2xf32>
  return
}
func.func private @write_v_indirectly(%x: tensor<2xf32>) {
  func.call @write_v(%x) : (tensor<2xf32>) -> ()
  return
}
func.func private @external(tensor<2xf32>)

// A call to a function that (transitively) writes @v, before the last use: copied; @w
// is not written by the call: not copied.
// CHECK-LABEL: func.func @call_writes
// CHECK-NEXT:    memref.get_global @v
// CHECK-NEXT:    memref.alloc()
// CHECK:         %[[W:.*]] = memref.get_global @w
// CHECK-NEXT:    bufferization.to_tensor %[[W]] restrict
func.func @call_writes(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = tosa.variable.read @v : tensor<2xf32>
  %1 = tosa.variable.read @w : tensor<2xf32>
  func.call @write_v_indirectly(%x) : (tensor<2xf32>) -> ()
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// A call to a function with no body may write anything: copied.
// CHECK-LABEL: func.func @call_external
// CHECK-NEXT:    memref.get_global @w
// CHECK-NEXT:    memref.alloc()
func.func @call_external(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.variable.read @w : tensor<2xf32>
  func.call @external(%x) : (tensor<2xf32>) -> ()
  return %0 : tensor<2xf32>
}

// -----

tosa.variable @v = dense<1.0> : tensor<2xf32>

// Returned by a function that a caller in the module may use after writing @v: copied.
// CHECK-LABEL: func.func private @peek
// CHECK-NEXT:    memref.get_global @v
// CHECK-NEXT:    memref.alloc()
func.func private @peek() -> tensor<2xf32> {
  %0 = tosa.variable.read @v : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Returned by a function nothing in the module calls (the runtime copies results): no copy.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[P:.*]] = func.call @peek()
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @v
// CHECK-NEXT:    bufferization.to_tensor %[[G]] restrict
func.func @main() -> (tensor<2xf32>, tensor<2xf32>) {
  %p = func.call @peek() : () -> tensor<2xf32>
  %0 = tosa.variable.read @v : tensor<2xf32>
  return %p, %0 : tensor<2xf32>, tensor<2xf32>
}

// -----

tosa.variable @v = dense<1.0> : tensor<2xf32>

// Only the first read of a variable in a function aliases the global (each
// `to_tensor restrict` must be the only tensor view of its buffer); reads inside a
// region are always copied.
// CHECK-LABEL: func.func @twice
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @v
// CHECK-NEXT:    bufferization.to_tensor %[[G]] restrict
// CHECK-NEXT:    memref.get_global @v
// CHECK-NEXT:    memref.alloc()
// CHECK:         tosa.cond_if
// CHECK-NEXT:      memref.get_global @v
// CHECK-NEXT:      memref.alloc()
func.func @twice(%c: tensor<i1>) -> tensor<2xf32> {
  %0 = tosa.variable.read @v : tensor<2xf32>
  %1 = tosa.variable.read @v : tensor<2xf32>
  %2 = tosa.add %0, %1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = tosa.cond_if %c : tensor<i1> -> tensor<2xf32> {
    %4 = tosa.variable.read @v : tensor<2xf32>
    tosa.yield %4 : tensor<2xf32>
  } else {
    tosa.yield %2 : tensor<2xf32>
  }
  return %3 : tensor<2xf32>
}

// -----

tosa.variable @h = dense<0.5> : tensor<1x2xf32>

// A `tosa.while_loop` result may be a view of an initial value only where the body may
// carry one: the read's own position (no iteration returns it) and where the body yields
// a view of it. Here the body computes new values: the loop's other result, returned
// after the write, is no view of the read, which is not copied.
// CHECK-LABEL: func.func @loop_computes
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @h
// CHECK-NEXT:    bufferization.to_tensor %[[G]] restrict
func.func @loop_computes(%n: tensor<1xi32>) -> tensor<1x2xf32> {
  %h = tosa.variable.read @h : tensor<1x2xf32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %acc0 = "tosa.const"() <{values = dense<0.0> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>
  %r:3 = tosa.while_loop (%t = %zero, %s = %h, %acc = %acc0) : (tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>) {
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %s: tensor<1x2xf32>, %acc: tensor<1x2xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %s2 = tosa.tanh %s : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %acc2 = tosa.add %acc, %s : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    tosa.yield %t2, %s2, %acc2 : tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>
  }
  tosa.variable.write @h, %r#1 : tensor<1x2xf32>
  return %r#2 : tensor<1x2xf32>
}

// Here the body carries the state unchanged into its last position (the value of a
// step's input after the loop): that result may be the read itself and is returned after
// the write, so the read is copied.
// CHECK-LABEL: func.func @loop_carries_the_read
// CHECK-NEXT:    memref.get_global @h
// CHECK-NEXT:    memref.alloc()
func.func @loop_carries_the_read(%n: tensor<1xi32>) -> tensor<1x2xf32> {
  %h = tosa.variable.read @h : tensor<1x2xf32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %last0 = "tosa.const"() <{values = dense<0.0> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>
  %r:3 = tosa.while_loop (%t = %zero, %s = %h, %last = %last0) : (tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>) {
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %s: tensor<1x2xf32>, %last: tensor<1x2xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %s2 = tosa.tanh %s : (tensor<1x2xf32>) -> tensor<1x2xf32>
    tosa.yield %t2, %s2, %s : tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>
  }
  tosa.variable.write @h, %r#1 : tensor<1x2xf32>
  return %r#2 : tensor<1x2xf32>
}
