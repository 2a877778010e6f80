"""Device `interpreter` (the default): the module planned once (`interpreter.plan`) and run
by the numpy interpreter, each request with its own `VariableStore` and interpreter."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tosa_state.interpreter.functions import all_functions, make_interpreter
from tosa_state.interpreter.plan import FunctionPlan, ModulePlan
from tosa_state.interpreter.state import VariableStore
from tosa_state.interpreter.tosa_variables import attach_store
from tosa_state.runtime.decoder import TIME_AXIS, decoder_inputs
from tosa_state.runtime.ports import input_ports
from tosa_state.runtime.variables import VariableSpec, collect_specs
from tosa_state.signature import select_entry

from . import INTERPRETER


class InterpreterExecutable:
    """The plan of a module's entry function (constants decoded and folded once) and the
    variables' specs, shared by the requests."""

    device = INTERPRETER

    def __init__(self, module: ModuleOp, entry: str | None = None):
        self.module = module
        self.functions = all_functions()
        self.specs: tuple[VariableSpec, ...] = tuple(collect_specs(module))
        compile_time = make_interpreter(module, self.functions)
        attach_store(compile_time, VariableStore(self.specs))
        self.plans = ModulePlan(module, compile_time)
        func = select_entry(module, entry)
        self.plan: FunctionPlan = self.plans.plan(func.sym_name.data)
        self.decoder = decoder_inputs(func, input_ports(func), self.specs)

    def create_request(self) -> InterpreterRequest:
        return InterpreterRequest(self)


class InterpreterRequest:
    """One request's variables (`store`) and interpreter; `run` plays the plan."""

    def __init__(self, executable: InterpreterExecutable):
        self.store = VariableStore(executable.specs)
        self.interpreter = make_interpreter(executable.module, executable.functions)
        attach_store(self.interpreter, self.store)
        self.plan = executable.plan
        self.plans = executable.plans
        self.decoder = executable.decoder

    def run(self, args: list[Any]) -> list[np.ndarray]:
        """One call on checked inputs (a decoder's against its cache:
        `runtime.decoder`); the results are copies."""
        if (decoder := self.decoder) is not None:
            lengths = [self.store.length(name, TIME_AXIS) for name in decoder.caches]
            decoder.check(args, max((n for n in lengths if n is not None), default=None))
        return self._run(self.plan, args)

    def run_entry(self, entry: str, args: list[Any]) -> list[np.ndarray]:
        """One call of another entry function of the module (a static decoder's)."""
        return self._run(self.plans.plan(entry), args)

    def _run(self, plan: FunctionPlan, args: list[Any]) -> list[np.ndarray]:
        with np.errstate(all="ignore"):  # IEEE results (inf, nan) are the spec's answers
            results = plan(self.interpreter, args)
        return [r.copy() if type(r) is np.ndarray else np.array(r, copy=True) for r in results]


__all__ = ["InterpreterExecutable", "InterpreterRequest"]
