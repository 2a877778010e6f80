"""Decode an op's attributes once, not on every call.

Interpreter impls receive the op on each call; reading and converting its properties
there would cost microseconds per op per call. `per_op` memoises such a decoder per op
object. The value is kept in the op's own `__dict__` under a key private to the decoder:
one dictionary lookup per call (a `WeakKeyDictionary` costs a weak reference and xDSL's
Python-level `__hash__` per lookup, ten times more), and it dies with the op. Clones do
not inherit it (they are built afresh), so a changed clone is decoded anew.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation

OpT = TypeVar("OpT", bound=Operation)
T = TypeVar("T")
FunctionsT = TypeVar("FunctionsT", bound=InterpreterFunctions)


def per_op(decode: Callable[[OpT], T], *, key: str | None = None) -> Callable[[OpT], T]:
    """`decode(op)` computed once per op; later calls return the cached value (kept in the
    op under `key`, by default one derived from `decode`'s name)."""
    key = key or f"_per_op_{decode.__module__}.{decode.__qualname__}"

    @wraps(decode)
    def cached(op: OpT) -> T:
        slots = op.__dict__
        try:
            return slots[key]
        except KeyError:
            value = slots[key] = decode(op)
            return value

    return cached


Kernel = Callable[..., Any]
"""A function of an op's operand values returning its one result (a fresh array or a
view; never writing to its operands)."""


class Kernels:
    """Kernels by op, built once per op.

    `@kernels.builds(AddOp, SubOp)` registers a builder `op -> Kernel` that specialises
    the kernel for the op's types and properties; `kernels.of(op)` is the kernel of `op`
    (built on first use, then kept with the op like a `per_op` value). Builders must not
    keep the op alive in the kernel beyond what they need (messages: format them first).

    `@kernels.impls` on an `InterpreterFunctions` class gives it an impl per registered op
    type (`return (kernels.of(op)(*args),)`) and `plan_kernel`: a plan then calls the
    kernel itself (see `interpreter/plan.py`).
    """

    def __init__(self, name: str, finish: Callable[[Operation, Kernel], Kernel] | None = None):
        """`finish(op, kernel)`, when given, adapts every built kernel (once per op)."""
        self._builders: dict[type[Operation], Callable[[Any], Kernel]] = {}
        self._finish = finish
        self._sealed = False
        """Whether `impls` has run: later builders would have no impl."""
        self.of: Callable[[Operation], Kernel] = per_op(self._build, key=f"_kernel_{name}")

    def builds(self, *op_types: type[Operation]) -> Callable[[Callable[[Any], Kernel]],
                                                           Callable[[Any], Kernel]]:
        """Registers the decorated builder for `op_types`."""
        if self._sealed:
            raise TypeError("builders must be registered before `impls` decorates a class")

        def register(builder: Callable[[Any], Kernel]) -> Callable[[Any], Kernel]:
            for op_type in op_types:
                self._builders[op_type] = builder
            return builder

        return register

    def impls(self, functions: type[FunctionsT]) -> type[FunctionsT]:
        """Class decorator: `functions` runs every op type of these kernels by its kernel (its
        own `@impl` methods win), offers `plan_kernel`, and is registered (`register_impls`).
        Builders must be registered before.

        The kernels' impls live in a base class of the returned one: `register_impls` lets
        a subclass's impl of an op type override its bases', so the class's own win."""
        of = self.of

        def run(ft: InterpreterFunctions, interpreter: Interpreter, op: Operation,
                args: PythonValues) -> PythonValues:
            return (of(op)(*args),)

        runs = {f"run_{op_type.__name__}": impl(op_type)(run) for op_type in self._builders}
        base = type(f"{functions.__name__}Kernels", (InterpreterFunctions,), runs)
        namespace = {"__module__": functions.__module__, "__doc__": functions.__doc__,
                     "__qualname__": functions.__qualname__,
                     "plan_kernel": staticmethod(self.plan_kernel)}
        self._sealed = True
        return register_impls(type(functions.__name__, (functions, base), namespace))

    def plan_kernel(self, op: Operation) -> Kernel | None:
        """The kernel of `op`, or None when no builder is registered for its type."""
        return self.of(op) if type(op) in self._builders else None

    def _build(self, op: Operation) -> Kernel:
        built = self._builders[type(op)](op)
        return built if self._finish is None else self._finish(op, built)
