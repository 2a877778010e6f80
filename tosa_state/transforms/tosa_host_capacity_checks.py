"""`tosa-host-capacity-checks`: a static state's capacity guards left to the host.

`tosa-static-state` guards each variable of fixed capacity with `tosa_state.check_capacity
%count, %rows`: the call fails, before any write, when the rows held plus the rows the call
adds exceed the capacity. TOSA 1.0 has no operator that fails a call; what it can state is
the data the check needs. Where the count is the count variable's value (`tosa.cast` of a
`tosa.variable.read`) and the call adds a constant number of rows (static input shapes),
the guard is erased and the count variable says what to check:

    tosa.variable @k__count {tosa_state.count_of = "k", tosa_state.capacity = 64 : i64,
                             tosa_state.rows_per_call = 1 : i64} = dense<0.0> : tensor<1xf32>

The runner of the graph (device `reference`; an application through the artifact's
manifest) checks `count + rows_per_call <= capacity` before each call. A guard on any other
count (an init chosen at run time, rows computed at run time) stays, and the target check
refuses it as not a TOSA operator.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_state.dialects.tosa.common import constant_shape
from tosa_state.dialects.tosa.type_conversion import CastOp
from tosa_state.dialects.tosa.variables import (
    VariableReadOp,
    iter_declarations,
    lookup_variable,
)
from tosa_state.dialects.tosa_state import CheckCapacityOp
from tosa_state.transforms.tosa_static_state import COUNT_ATTR

CAPACITY_ATTR = "tosa_state.capacity"
"""On a count variable: the capacity of the variable it counts."""
ROWS_ATTR = "tosa_state.rows_per_call"
"""On a count variable: the rows each call adds to the variable it counts."""


@dataclass(frozen=True)
class HostCheck:
    """What the host checks before each call: `count + rows <= capacity`, the count being
    the value of variable `count` (the rows `variable` holds)."""

    variable: str
    count: str
    capacity: int
    rows: int


def host_checks(module: ModuleOp) -> list[HostCheck]:
    """The checks `tosa-host-capacity-checks` left to the host of `module`, in the order of
    the count variables."""
    checks = []
    for op in iter_declarations(module):
        capacity, rows = op.attributes.get(CAPACITY_ATTR), op.attributes.get(ROWS_ATTR)
        counted = op.attributes.get(COUNT_ATTR)
        if isinstance(capacity, IntegerAttr) and isinstance(rows, IntegerAttr) and \
                isinstance(counted, StringAttr):
            checks.append(HostCheck(counted.data, op.var_name, capacity.value.data,
                                    rows.value.data))
    return checks


@dataclass(frozen=True)
class TosaHostCapacityChecksPass(ModulePass):
    """Erases the capacity guards a host can run (a count variable's value, a constant
    number of rows), recording the capacity and the rows per call on the count variable."""

    name = "tosa-host-capacity-checks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        host_capacity_checks(op)


def host_capacity_checks(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if not isinstance(op, CheckCapacityOp):
            continue
        rows = constant_shape(op.rows)
        cast = op.count.owner
        read = cast.input.owner if isinstance(cast, CastOp) else None
        if rows is None or not isinstance(read, VariableReadOp):
            continue
        count = lookup_variable(read, read.var_name)
        counted = count.attributes.get(COUNT_ATTR) if count is not None else None
        if count is None or counted is None or counted.data != op.variable.data:  # type: ignore[attr-defined]
            continue
        count.attributes[CAPACITY_ATTR] = IntegerAttr(op.capacity.value.data, i64)
        count.attributes[ROWS_ATTR] = IntegerAttr(rows[0], i64)
        shape = op.rows.owner
        Rewriter.erase_op(op)
        if not shape.results[0].uses:  # type: ignore[union-attr]
            Rewriter.erase_op(shape)  # type: ignore[arg-type]


__all__ = ["CAPACITY_ATTR", "ROWS_ATTR", "HostCheck", "TosaHostCapacityChecksPass",
           "host_capacity_checks", "host_checks"]
