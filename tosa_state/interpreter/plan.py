"""Fast dispatch: each function resolved once into a flat plan of impl calls.

xDSL's interpreter walks the IR on every call: it looks up the impl of each op, fetches
operands from a scoped dictionary and wraps results (about 5 µs per op). A plan does all
of that once. It

- resolves the `InterpreterFunctions` impl of every op (the very same impls the stock
  interpreter runs),
- folds every side-effect-free op whose operands are all constants (`tosa.const`,
  `tosa.const_shape`, reshapes of weights, ...) by running its impl at compile time, and
- generates a straight-line Python function whose locals are the SSA values:

      def run(interp, a0, a1):
          v0, = f3(t3, interp, o3, (a0, c1))
          ...
          return (v7,)

Ops with regions (`tosa.cond_if`) run their regions through the stock interpreter, with
the values they capture from outside put in its scope first. A failing op is reported
with its location (the generated line maps back to the op).
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Sequence
from itertools import count
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, OpImplResult
from xdsl.ir import Operation, SSAValue
from xdsl.traits import is_side_effect_free

from tosa_state.diagnostics import InferenceError, TosaStateError, error_at, location_prefix

_plan_ids = count()


def _layer_of(op: Operation) -> str | None:
    """The OpenVINO layer an op was converted from (its location is the layer's line)."""
    from tosa_state.transforms.openvino_to_tosa.common import describe_layer

    return describe_layer(op)


class PlanError(TosaStateError):
    """A function that cannot be planned (no impl for an op, several blocks, ...)."""


def _unwrapped(impl: Callable[..., Any]) -> tuple[Callable[..., Any], bool]:
    """The user function under xDSL's `@impl` wrapper, and whether unwrapping worked.

    `@impl` wraps each impl into a closure that builds an `OpImplResult`; calling the
    inner function directly saves a call and a tuple per op.
    """
    for cell in impl.__closure__ or ():
        inner = cell.cell_contents
        if callable(inner) and getattr(inner, "__name__", "").startswith("run"):
            return inner, True
    return impl, False


def _plan_kernel(functions: InterpreterFunctions, op: Operation) -> Callable[..., Any] | None:
    """The function the impl of `op` applies to its operands, when its class says (through
    an optional `plan_kernel(op)`) that the impl is exactly `(kernel(*args),)`: the plan
    then calls it directly, two Python calls and a tuple fewer per op."""
    plan_kernel = getattr(functions, "plan_kernel", None)
    if plan_kernel is None or op.regions or len(op.results) != 1:
        return None
    return plan_kernel(op)


_HUGE_PAGE_BYTES = 4 << 20
"""numpy backs allocations of at least this size with transparent huge pages."""


def _freeze(value: Any) -> Any:
    """A compile-time constant, read-only. A large one that is a view (of an attribute's
    bytes, say) is copied into numpy's own memory first: its huge pages spare the TLB
    misses of memory-bound matmuls (about 5% of an LSTM step at H=512)."""
    if isinstance(value, np.ndarray):
        if value.base is not None and value.nbytes >= _HUGE_PAGE_BYTES:
            value = value.copy()
        value.flags.writeable = False
    return value


class FunctionPlan:
    """One `func.func`, compiled to a Python function `plan(interpreter, args) -> results`."""

    def __init__(
        self,
        func: FuncOp,
        interpreter: Interpreter,
        plan_of: Callable[[str, Operation], FunctionPlan],
    ):
        self.func = func
        self.name = func.sym_name.data
        self._plan_of = plan_of
        self._filename = f"<plan {self.name} #{next(_plan_ids)}>"
        self._line_ops: dict[int, Operation] = {}
        self._constants: list[Any] = []
        self.source = ""
        """The generated Python function (tracebacks show its lines)."""
        self._run = self._compile(interpreter)

    @property
    def ops_per_call(self) -> tuple[Operation, ...]:
        """The ops each call runs, in order (everything else was folded at compile time)."""
        return tuple(dict.fromkeys(self._line_ops[line] for line in sorted(self._line_ops)))

    @property
    def constants(self) -> tuple[Any, ...]:
        """The values folded at compile time (read-only), in the order of their ops."""
        return tuple(self._constants)

    def __call__(self, interpreter: Interpreter, args: Sequence[Any]) -> tuple[Any, ...]:
        try:
            return self._run(interpreter, *args)
        except InferenceError as error:
            op = self._failing_op(error)
            if op is None or not str(error).startswith("error: "):
                raise
            raise InferenceError(location_prefix(op) + str(error)) from None
        except TosaStateError:
            raise
        except Exception as error:
            op = self._failing_op(error)
            message = f"'{op.name}' op failed at run time: {error}" if op else str(error)
            if op is not None and (layer := _layer_of(op)) is not None:
                message = f"{layer}: {message}"
            raise InferenceError(error_at(op, message)) from error

    # -- generation -----------------------------------------------------------------

    def _compile(self, interpreter: Interpreter) -> Callable[..., tuple[Any, ...]]:
        if not self.func.body.blocks:
            raise PlanError(
                error_at(self.func, f"function '{self.name}' is only declared (it has no body) "
                         "and cannot be executed")
            )
        if len(self.func.body.blocks) != 1:
            raise PlanError(
                error_at(self.func, f"function '{self.name}' has several blocks; only "
                         "single-block functions can be executed")
            )
        impls = interpreter._impls._impl_dict  # resolved once, here
        namespace: dict[str, Any] = {}
        names: dict[SSAValue, str] = {}
        block = self.func.body.block
        for i, arg in enumerate(block.args):
            names[arg] = f"a{i}"
        lines = [f"def run(interp, {''.join(f'{names[a]}, ' for a in block.args)}):"]

        def bind(value: Any) -> str:
            key = f"k{len(namespace)}"
            namespace[key] = value
            return key

        constants: dict[SSAValue, Any] = {}
        for op in block.ops:
            if isinstance(op, ReturnOp):
                returned = "".join(f"{names[v]}, " for v in op.operands)
                self._emit(lines, op, f"return ({returned})")
                break
            if isinstance(op, CallOp):
                callee = bind(self._plan_of(op.callee.root_reference.data, op))
                args = "".join(f"{names[v]}, " for v in op.operands)
                self._emit(lines, op, f"{self._targets(op, names)}{callee}(interp, ({args}))")
                continue
            for inner in op.walk():  # the op, and what its regions hold
                if type(inner) not in impls and not isinstance(inner, ReturnOp | CallOp):
                    raise PlanError(error_at(inner, f"'{inner.name}' op cannot be executed: "
                                             "no interpreter implementation"))
            functions, impl = impls[type(op)]
            if self._foldable(op, constants):
                args = tuple(constants[v] for v in op.operands)
                try:
                    result = impl(functions, interpreter, op, args)
                except TosaStateError:
                    raise
                except Exception as error:
                    raise PlanError(error_at(op, f"'{op.name}' op cannot be executed: {error}")) \
                        from error
                assert isinstance(result, OpImplResult)
                for res, value in zip(op.results, result.values, strict=True):
                    constants[res] = _freeze(value)
                    self._constants.append(constants[res])
                    names[res] = bind(constants[res])
                continue
            operands = "".join(f"{names[v]}, " for v in op.operands)
            if (direct := _plan_kernel(functions, op)) is not None:
                self._targets(op, names)
                self._emit(lines, op, f"{names[op.results[0]]} = {bind(direct)}({operands})")
                continue
            fn, plain = _unwrapped(impl)
            call = f"{bind(fn)}({bind(functions)}, interp, {bind(op)}, ({operands}))"
            if not plain:
                call += ".values"
            if op.regions:
                self._emit_captures(lines, op, names, bind)
                self._emit(lines, op, f"{self._targets(op, names)}{call}")
                self._emit(lines, op, "interp.pop_scope()")
            else:
                self._emit(lines, op, f"{self._targets(op, names)}{call}")
        else:
            raise PlanError(error_at(self.func, f"function '{self.name}' has no return"))

        source = self.source = "\n".join(lines) + "\n"
        linecache.cache[self._filename] = (len(source), None, source.splitlines(True), "")
        exec(compile(source, self._filename, "exec"), namespace)
        return namespace["run"]

    @staticmethod
    def _foldable(op: Operation, constants: dict[SSAValue, Any]) -> bool:
        return (
            not op.regions
            and all(v in constants for v in op.operands)
            and is_side_effect_free(op)
        )

    @staticmethod
    def _targets(op: Operation, names: dict[SSAValue, str]) -> str:
        if not op.results:
            return ""
        for res in op.results:
            names[res] = f"v{len(names)}"
        return "".join(f"{names[r]}, " for r in op.results) + "= "

    def _emit(self, lines: list[str], op: Operation, code: str) -> None:
        lines.append(f"    {code}")
        self._line_ops[len(lines)] = op

    def _emit_captures(
        self,
        lines: list[str],
        op: Operation,
        names: dict[SSAValue, str],
        bind: Callable[[Any], str],
    ) -> None:
        """Values defined outside `op` and used inside its regions, into the scope."""
        captured: dict[SSAValue, None] = {}
        for inner in op.walk():
            if inner is op:
                continue
            for operand in inner.operands:
                owner = operand.owner
                owner_op = owner if isinstance(owner, Operation) else owner.parent_op()
                if owner_op is not None and not op.is_ancestor(owner_op) and operand in names:
                    captured[operand] = None
        pairs = "".join(f"({bind(v)}, {names[v]}), " for v in captured)
        self._emit(lines, op, f"interp.push_scope(); interp.set_values(({pairs}))")

    def _failing_op(self, error: BaseException) -> Operation | None:
        tb = error.__traceback__
        op = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                op = self._line_ops.get(tb.tb_lineno, op)
            tb = tb.tb_next
        return op


class ModulePlan:
    """Plans of every function of a module, built lazily and shared by all requests."""

    def __init__(self, module: ModuleOp, interpreter: Interpreter):
        self.module = module
        self._interpreter = interpreter
        self._funcs = {
            op.sym_name.data: op for op in module.body.block.ops if isinstance(op, FuncOp)
        }
        self._plans: dict[str, FunctionPlan] = {}
        self._planning: list[str] = []
        """The functions being planned (callers first): a call back into one is recursion."""

    def plan(self, name: str, call: Operation | None = None) -> FunctionPlan:
        """The plan of function `name` (planned on first use; `call` is the op calling it)."""
        if (plan := self._plans.get(name)) is None:
            if name not in self._funcs:
                raise PlanError(error_at(call, f"no function named '{name}' in the module"))
            if name in self._planning:
                raise PlanError(
                    error_at(call, f"function '{name}' is called recursively "
                             f"({' -> '.join([*self._planning, name])}); recursion cannot be "
                             "executed")
                )
            self._planning.append(name)
            try:
                plan = FunctionPlan(self._funcs[name], self._interpreter, self.plan)
            finally:
                self._planning.pop()
            self._plans[name] = plan
        return plan

