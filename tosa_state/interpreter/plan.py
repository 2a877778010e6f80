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

Control flow is planned too: `tosa.cond_if` and `scf.if` become a Python `if` and
`tosa.while_loop` a Python `while` around the planned ops of their regions (constants inside
are folded once, values from outside are plain locals), so a loop step costs what the same
ops cost in a function. Other ops with regions run their regions through the stock
interpreter, with the values they capture from outside put in its scope first. Each local is
deleted after its last use (`liveness.py`), so a call holds only its live values. A failing
op is reported with its location and layer (the generated line maps back to the op;
`run_errors.py`). A call of the entry is a transaction of the request's store (`state.py`):
if it raises, no variable changes.

What the models' IR repeats is fused (`plan_fusions.py` finds it, this module emits it):
gathers of whole rows and grouped-query products become one kernel call each; a loop
condition comparing a one-element integer with a constant compares Python ints, a step
index that only advances and selects one row to gather or scatter is a Python int (the
gather a slice, the scatter an assignment), and an output the loop only scatters into is
updated in place.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Collection, Sequence
from itertools import count
from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, OpImplResult
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator, is_side_effect_free

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.dialects.tosa.control_flow import IfOp, WhileOp, YieldOp
from tosa_state.dialects.tosa.elementwise import AddOp
from tosa_state.dialects.tosa.tensor import (
    GatherOp,
    ScatterOp,
)
from tosa_state.dialects.tosa_state import NotFolded
from tosa_state.dtypes import numpy_dtype
from tosa_state.interpreter.liveness import releases
from tosa_state.interpreter.plan_fusions import (
    UNFUSED_LOOP,
    Fusion,
    block_fusions,
    loop_fusion,
    static_dim,
)
from tosa_state.interpreter.run_errors import run_failure
from tosa_state.interpreter.tosa_tensor import (
    scatter_into,
    shape_only,
)
from tosa_state.interpreter.write_order import run_order
from tosa_state.resources import shared_weights

_plan_ids = count()


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


def _plan_expression(functions: InterpreterFunctions, op: Operation) -> str | None:
    """The Python expression of `op`'s one result over its operands (`{0}`, `{1}`, ...), when
    its class gives one (through an optional `plan_expression(op)`): size arithmetic and
    index comparisons that cost less than a call. The plan writes it inline."""
    plan_expression = getattr(functions, "plan_expression", None)
    if plan_expression is None or op.regions or len(op.results) != 1:
        return None
    return plan_expression(op)


def _plan_store_kernel(functions: InterpreterFunctions, op: Operation
                       ) -> Callable[..., Any] | None:
    """The function of `op`'s request's variable store and its operands, when its class
    gives one (through an optional `plan_store_kernel(op)`): the memref ops of state."""
    plan_store_kernel = getattr(functions, "plan_store_kernel", None)
    if plan_store_kernel is None or op.regions or len(op.results) > 1:
        return None
    return plan_store_kernel(op)


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
    misses of memory-bound matmuls (about 5% of an LSTM step at H=512). A view of a weights
    file's bytes is not (`resources.mapped`): it is used in place."""
    if isinstance(value, np.ndarray):
        if value.base is not None and value.nbytes >= _HUGE_PAGE_BYTES \
                and not shared_weights(value):
            value = value.copy()
        value.flags.writeable = False
    return value


class FunctionPlan:
    """One `func.func`, compiled to a Python function `plan(interpreter, args) -> results`.

    `model_inputs`: the function's arguments are the model's inputs (it is the entry), so
    that errors may name them; `fuse`: with the fusions of `plan_fusions` (without, every
    op is planned alike)."""

    def __init__(
        self,
        func: FuncOp,
        interpreter: Interpreter,
        plan_of: Callable[[str, Operation], FunctionPlan],
        model_inputs: bool = False,
        fuse: bool = True,
    ):
        self.func = func
        self._fuse = fuse
        self._model_inputs = model_inputs
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
        if not self._model_inputs:
            return self._call(interpreter, args)
        # imported here: the variables' module imports `PlanError` from this one
        from tosa_state.interpreter.tosa_variables import attached_store

        store = attached_store(interpreter)  # a call of a request's entry is a transaction
        if store is None or not store.transactions:  # no request, no state to keep
            return self._call(interpreter, args)
        store.begin()
        try:
            results = self._call(interpreter, args)
        except BaseException:  # a KeyboardInterrupt too: no state changes half done
            store.rollback()
            raise
        store.commit()
        return results

    def _call(self, interpreter: Interpreter, args: Sequence[Any]) -> tuple[Any, ...]:
        try:
            return self._run(interpreter, *args)
        except Exception as error:
            failure = run_failure(error, self._failing_op(error),
                                  self.func if self._model_inputs else None, args)
            if failure is None:
                raise
            raise failure from (None if isinstance(error, TosaStateError) else error)

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
        self._interpreter = interpreter
        self._impls = interpreter._impls._impl_dict  # resolved once, here
        self._namespace: dict[str, Any] = {}
        self._names: dict[SSAValue, str] = {}
        self._folded: dict[SSAValue, Any] = {}
        self._ints: set[SSAValue] = set()
        """Step indices of loops kept as Python ints (`plan_fusions.step_indices`)."""
        self._lines: list[str] = []
        block = self.func.body.block
        for i, arg in enumerate(block.args):
            self._names[arg] = f"a{i}"
        params = "".join(f"{self._names[a]}, " for a in block.args)
        self._lines.append(f"def run(interp, {params}):")
        self._uses_store = False
        terminator = self._emit_ops(block, 1)
        if not isinstance(terminator, ReturnOp):
            raise PlanError(error_at(self.func, f"function '{self.name}' has no return"))
        self._emit(terminator, f"return ({self._list(terminator.operands)})", 1)
        if self._uses_store:
            self._fetch_store()
        self._release_at_last_use()
        source = self.source = "\n".join(self._lines) + "\n"
        linecache.cache[self._filename] = (len(source), None, source.splitlines(True), "")
        namespace = self._namespace
        exec(compile(source, self._filename, "exec"), namespace)
        del self._namespace, self._names, self._folded, self._ints, self._lines, self._impls
        del self._uses_store
        del self._interpreter
        return namespace["run"]

    def _fetch_store(self) -> None:
        """`store`, the request's variables, fetched once at the top of the function (the
        op lines move down one)."""
        # imported here: the variables' module imports `PlanError` from this one
        from tosa_state.interpreter.tosa_variables import variable_store

        self._lines.insert(1, f"    store = {self._bind(variable_store)}(interp)")
        self._line_ops = {line + 1: op for line, op in self._line_ops.items()}

    def _release_at_last_use(self) -> None:
        """A `del` after the last use of each local (`liveness.releases`), so that a call
        holds only its live values; `_line_ops` follows the lines that move."""
        inserts = releases(self._lines)
        lines: list[str] = []
        line_ops: dict[int, Operation] = {}
        for number, line in enumerate(self._lines, 1):
            lines.append(line)
            if (op := self._line_ops.get(number)) is not None:
                line_ops[len(lines)] = op
            for depth, names in inserts.get(number, ()):
                lines.append(f"{'    ' * depth}del {', '.join(names)}")
        self._lines, self._line_ops = lines, line_ops

    def _bind(self, value: Any) -> str:
        key = f"k{len(self._namespace)}"
        self._namespace[key] = value
        return key

    def _list(self, values: Sequence[SSAValue]) -> str:
        return "".join(f"{self._names[v]}, " for v in values)

    def _fresh(self, values: Sequence[SSAValue]) -> str:
        """New local names for `values`: `"v1, v2, "`."""
        for value in values:
            self._names[value] = f"v{len(self._names)}"
        return self._list(values)

    def _emit_ops(
        self, block: Block, depth: int, in_place: Collection[ScatterOp] = (),
        skip: Operation | None = None,
    ) -> Operation | None:
        """Plan the ops of `block` at indentation `depth`, but `skip`; returns its terminator
        (unplanned). The scatters of `in_place` write into their `values_in`."""
        fusions = block_fusions(block, self._folded) if self._fuse else {}
        fused = {op: fusion for fusion in fusions.values() for op in fusion.fused}
        for op in run_order(block):  # state writes as early as they can run
            if op.has_trait(IsTerminator):
                return op
            if op is skip:
                continue
            if op in fusions:
                self._emit_fusion(fusions[op], depth)
                continue
            if op in fused:
                if op in fused[op].shape_only:
                    self._emit_shape_only(op, depth)
                continue
            if self._emit_on_step_index(op, depth, in_place):
                continue
            if op in in_place:
                assert isinstance(op, ScatterOp)
                target = self._names[op.values_in]
                self._emit(op, f"{self._bind(scatter_into)}({self._bind(op)}, {target}, "
                           f"{self._names[op.indices]}, {self._names[op.input]})", depth)
                self._names[op.values_out] = target
            elif isinstance(op, CallOp):
                callee = self._bind(self._plan_of(op.callee.root_reference.data, op))
                targets = f"{self._fresh(op.results)}= " if op.results else ""
                self._emit(op, f"{targets}{callee}(interp, ({self._list(op.operands)}))", depth)
            elif isinstance(op, WhileOp):
                self._emit_while(op, depth)
            elif isinstance(op, IfOp):
                self._emit_if(op, depth)
            elif isinstance(op, scf.IfOp):
                self._emit_scf_if(op, depth)
            else:
                self._emit_op(op, depth)
        return None

    def _kernel(self, op: Operation) -> Callable[..., Any]:
        kernel = _plan_kernel(self._impls[type(op)][0], op)
        assert kernel is not None, op.name
        return kernel

    def _emit_fusion(self, fusion: Fusion, depth: int) -> None:
        """One call of the fusion's kernel at its anchor (`plan_fusions`)."""
        fn = self._bind(fusion.build(self._kernel))
        args = self._list(fusion.operands)
        (result,) = fusion.anchor.results
        self._fresh([result])
        self._emit(fusion.reported, f"{self._names[result]} = {fn}({args})", depth)

    def _emit_shape_only(self, op: Operation, depth: int) -> None:
        """A fused op whose result `tosa.dim`s read too (a reshape of a grouped product's
        chain): its shape, computed on an array of no memory (`shape_only`), so that
        nothing is copied."""
        kernel = self._kernel(op)
        operands = [self._names[v] for v in op.operands]
        operands[0] = f"{self._bind(shape_only)}({operands[0]})"
        self._fresh(op.results)
        self._emit(op, f"{self._names[op.results[0]]} = {self._bind(kernel)}"
                       f"({', '.join(operands)})", depth)

    def _emit_op(self, op: Operation, depth: int) -> None:
        if type(op) not in self._impls:
            raise PlanError(error_at(op, f"'{op.name}' op cannot be executed: "
                                     "no interpreter implementation"))
        functions, impl = self._impls[type(op)]
        if self._foldable(op):
            self._fold(op, functions, impl)
            return
        if (expression := _plan_expression(functions, op)) is not None:
            operands = [self._names[v] for v in op.operands]
            self._fresh(op.results)
            self._emit(op, f"{self._names[op.results[0]]} = {expression.format(*operands)}",
                       depth)
            return
        operands = self._list(op.operands)
        if (kernel := _plan_store_kernel(functions, op)) is not None:
            self._uses_store = True
            if (store_operands := getattr(functions, "plan_store_operands", None)) is not None:
                operands = self._list(store_operands(op))
            self._fresh(op.results)
            target = f"{self._names[op.results[0]]} = " if op.results else ""
            self._emit(op, f"{target}{self._bind(kernel)}(store, {operands})", depth)
            return
        if (kernel := _plan_kernel(functions, op)) is not None:
            self._fresh(op.results)
            self._emit(op, f"{self._names[op.results[0]]} = {self._bind(kernel)}({operands})",
                       depth)
            return
        fn, plain = _unwrapped(impl)
        call = f"{self._bind(fn)}({self._bind(functions)}, interp, {self._bind(op)}, ({operands}))"
        if not plain:
            call += ".values"
        targets = f"{self._fresh(op.results)}= " if op.results else ""
        if not op.regions:
            self._emit(op, f"{targets}{call}", depth)
            return
        # Other ops with regions run them through the stock interpreter,
        # with the values they capture from outside put in its scope first.
        self._emit_captures(op, depth)
        self._emit(op, f"{targets}{call}", depth)
        self._emit(op, "interp.pop_scope()", depth)

    def _emit_captures(self, op: Operation, depth: int) -> None:
        """Values defined outside `op` and used inside its regions, into the scope."""
        for inner in op.walk():
            if type(inner) not in self._impls and not inner.has_trait(IsTerminator):
                raise PlanError(error_at(inner, f"'{inner.name}' op cannot be executed: "
                                         "no interpreter implementation"))
        captured: dict[SSAValue, None] = {}
        for inner in op.walk():
            if inner is op:
                continue
            for operand in inner.operands:
                owner = operand.owner
                owner_op = owner if isinstance(owner, Operation) else owner.parent_op()
                if (owner_op is not None and not op.is_ancestor(owner_op)
                        and operand in self._names):
                    captured[operand] = None
        pairs = "".join(f"({self._bind(v)}, {self._names[v]}), " for v in captured)
        self._emit(op, f"interp.push_scope(); interp.set_values(({pairs}))", depth)

    def _fold(self, op: Operation, functions: InterpreterFunctions, impl: Any) -> None:
        """Run `op` now, on constant operands: its results become constants of the plan."""
        args = tuple(self._folded[v] for v in op.operands)
        try:
            result = impl(functions, self._interpreter, op, args)
        except TosaStateError:
            raise
        except Exception as error:
            raise PlanError(error_at(op, f"'{op.name}' op cannot be executed: {error}")) \
                from error
        assert isinstance(result, OpImplResult)
        for res, value in zip(op.results, result.values, strict=True):
            self._folded[res] = _freeze(value)
            self._constants.append(self._folded[res])
            self._names[res] = self._bind(self._folded[res])

    def _emit_if(self, op: IfOp, depth: int) -> None:
        """`tosa.cond_if` as a Python `if`: each branch's ops, planned, then its results."""
        for region in (op.then_graph, op.else_graph):
            for arg, value in zip(region.block.args, op.input_list, strict=True):
                self._names[arg] = self._names[value]
        self._emit_branches(op, f"{self._names[op.condition]}.item()",
                            (op.then_graph, op.else_graph), depth)

    def _emit_scf_if(self, op: scf.IfOp, depth: int) -> None:
        """`scf.if` (the growth checks of dynamic variables at the memref level, two per
        variable and call) as a Python `if` too: through the stock interpreter each cost
        tens of µs."""
        self._emit_branches(op, self._names[op.cond], (op.true_region, op.false_region), depth)

    def _emit_branches(self, op: Operation, condition: str, regions: Sequence[Region],
                       depth: int) -> None:
        """`if condition:` the first region's ops, `else:` the second's (if it has a
        block); each assigns the values its terminator yields to `op`'s results."""
        results = [f"r{len(self._names)}_{i}" for i in range(len(op.results))]
        self._emit(op, f"if {condition}:", depth)
        for index, region in enumerate(regions):
            if not region.blocks:
                continue
            if index:
                self._emit(op, "else:", depth)
            terminator = self._emit_ops(region.block, depth + 1)
            assert terminator is not None
            assigned = "".join(f"{r}, " for r in results)
            self._emit(terminator, f"{assigned or 'pass'}"
                       f"{' = ' + self._list(terminator.operands) if results else ''}",
                       depth + 1)
        for res, name in zip(op.results, results, strict=True):
            self._names[res] = name

    def _emit_while(self, op: WhileOp, depth: int) -> None:
        """`tosa.while_loop` as a Python `while`: the loop-carried values are locals, the
        planned ops of `cond_graph` and `body_graph` run in its body. A carried value that
        the body only updates with a `tosa.scatter` (an output accumulated step by step) is
        copied once before the loop and updated in place."""
        carried = [f"s{len(self._names)}_{i}" for i in range(len(op.input_list))]
        cond, body = op.cond_graph.block, op.body_graph.block
        loop = loop_fusion(op) if self._fuse else UNFUSED_LOOP
        in_place, compared, steps = loop.in_place, loop.compared, loop.steps
        for i, value in enumerate(op.input_list):
            init = self._names[value]
            if i in in_place:
                init = f"{self._bind(np.array)}({init})"
            elif i in steps:
                init = self._scalar(value)
                self._ints.update((cond.args[i], body.args[i]))
            self._emit(op, f"{carried[i]} = {init}", depth)
        for args in (cond.args, body.args):
            for arg, name in zip(args, carried, strict=True):
                self._names[arg] = name
        self._emit(op, "while True:", depth)
        cond_yield = self._emit_ops(cond, depth + 1, skip=compared)
        assert isinstance(cond_yield, YieldOp)
        if compared is None:
            self._emit(cond_yield, f"if not {self._names[cond_yield.inputs[0]]}.item(): break",
                       depth + 1)
        else:
            a, b = (self._scalar(v) for v in compared.operands)
            self._emit(compared, f"if not {a} > {b}: break", depth + 1)
        body_yield = self._emit_ops(body, depth + 1, set(in_place.values()))
        assert isinstance(body_yield, YieldOp)
        if carried:
            self._emit(body_yield, f"{', '.join(carried)}, = {self._list(body_yield.inputs)}",
                       depth + 1)
        for i, (res, name) in enumerate(zip(op.results, carried, strict=True)):
            if i in steps and res.uses:  # the step index as a tensor again
                array = self._bind(_int_tensor(res))
                name = self._fresh([res]).rstrip(", ")
                self._emit(op, f"{name} = {array}({carried[i]})", depth)
            self._names[res] = name

    def _scalar(self, value: SSAValue) -> str:
        """A one-element integer value as a Python int: a literal when folded."""
        if value in self._folded:
            return str(int(np.asarray(self._folded[value]).reshape(-1)[0]))
        if value in self._ints:
            return self._names[value]
        return f"{self._names[value]}.item()"

    def _emit_on_step_index(self, op: Operation, depth: int, in_place: Collection[ScatterOp]
                            ) -> bool:
        """Plan `op` if it works on a step index kept as a Python int (`plan_fusions`):
        the index's update, a one-row gather (a slice) or an in-place scatter of one row
        (an assignment); an index out of range fails in the op's kernel, with its message.
        Returns whether it did."""
        if isinstance(op, AddOp) and any(v in self._ints for v in op.operands):
            step, delta = op.operands if op.operands[0] in self._ints else op.operands[::-1]
            self._ints.add(op.output)
            target = self._fresh([op.output]).rstrip(", ")
            self._emit(op, f"{target} = {self._names[step]} + {self._scalar(delta)}", depth)
            return True
        if not isinstance(op, GatherOp | ScatterOp) or op.indices not in self._ints:
            return False
        index = self._names[op.indices]
        rows = static_dim(op.values if isinstance(op, GatherOp) else op.values_in, 1)
        wrapped = f"{self._bind(_int_tensor(op.indices))}({index})"
        if isinstance(op, GatherOp):
            values, kernel = self._names[op.values], self._bind(_plan_kernel(
                self._impls[type(op)][0], op))
            target = self._fresh([op.output]).rstrip(", ")
            self._emit(op, f"{target} = {values}[:, {index}:{index} + 1] if 0 <= {index} < "
                       f"{rows} else {kernel}({values}, {wrapped})", depth)
            return True
        assert op in in_place
        target, update = self._names[op.values_in], self._names[op.input]
        self._emit(op, f"if not 0 <= {index} < {rows}: {self._bind(scatter_into)}("
                   f"{self._bind(op)}, {target}, {wrapped}, {update})", depth)
        self._emit(op, f"{target}[0, {index}] = {update}[0, 0]", depth)
        self._names[op.values_out] = target
        return True

    def _foldable(self, op: Operation) -> bool:
        return (
            not op.regions
            and all(v in self._folded for v in op.operands)
            and is_side_effect_free(op)
            and not op.has_trait(NotFolded)
        )

    def _emit(self, op: Operation, code: str, depth: int) -> None:
        self._lines.append(f"{'    ' * depth}{code}")
        self._line_ops[len(self._lines)] = op

    def _failing_op(self, error: BaseException) -> Operation | None:
        tb = error.__traceback__
        op = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                op = self._line_ops.get(tb.tb_lineno, op)
            tb = tb.tb_next
        return op


def _int_tensor(value: SSAValue) -> Callable[[int], np.ndarray]:
    """A Python int back as an array of `value`'s (one-element) type."""
    value_type = value.type
    assert isinstance(value_type, TensorType)
    shape = tuple(value_type.get_shape())
    dtype = numpy_dtype(value_type.element_type)
    return lambda n: np.full(shape, n, dtype)


class ModulePlan:
    """Plans of every function of a module, built lazily and shared by all requests."""

    def __init__(self, module: ModuleOp, interpreter: Interpreter, fuse: bool = True):
        self.module = module
        self._fuse = fuse
        self._interpreter = interpreter
        self._funcs = {
            op.sym_name.data: op for op in module.body.block.ops if isinstance(op, FuncOp)
        }
        self._plans: dict[str, FunctionPlan] = {}
        self._planning: list[str] = []
        """The functions being planned (callers first): a call back into one is recursion."""

    def plan(self, name: str, call: Operation | None = None) -> FunctionPlan:
        """The plan of function `name` (planned on first use; `call` is the op calling it,
        `None` for the entry, whose arguments are the model's inputs)."""
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
                plan = FunctionPlan(self._funcs[name], self._interpreter, self.plan,
                                    model_inputs=call is None, fuse=self._fuse)
            finally:
                self._planning.pop()
            self._plans[name] = plan
        return plan

