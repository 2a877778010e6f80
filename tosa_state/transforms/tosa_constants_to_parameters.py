"""`tosa-constants-to-parameters`: large constants kept outside the module, as IREE
parameters.

A model's weights printed into the module's text make `iree-compile` parse, fold and embed
them (a 538 MB decoder took it 30 minutes at 5 GB resident). IREE's answer is parameters:
an immutable global whose value is `#stream.parameter.named<"scope"::"key">`, supplied at
run time by a parameter provider. Every `tosa.const` of at least `min-bytes` bytes (not a
splat) becomes such a global and a `ml_program.global_load_const` of it; equal constants
(the same weights' bytes) share one parameter. Keys are `p0`, `p1`, ... in the module's
order, so the text, hence the compiled artifact's cache key, does not depend on the values:

```mlir
%w = "tosa.const"() <{values = dense<"0x..."> : tensor<576x9xf32>}> : () -> tensor<576x9xf32>
```
becomes
```mlir
ml_program.global private @__parameter_p0(#stream.parameter.named<"model"::"p0">
    : tensor<576x9xf32>) : tensor<576x9xf32>
%w = ml_program.global_load_const @__parameter_p0 : tensor<576x9xf32>
```
`constants_to_parameters` returns the values by key (device `iree` hands them to IREE's
runtime, `tosa_state.devices.iree_parameters`); the pass on its own drops them (to read
the rewritten module).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, StringAttr, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.ml_program import GlobalLoadConstOp, GlobalOp
from tosa_state.dialects.stream import NamedParameterAttr
from tosa_state.dialects.tosa.common import ConstOp
from tosa_state.resources import element_count, identity, mapped, resource_able

PARAMETERS_FROM = 1 << 16
"""Constants of at least this many bytes become parameters (the size from which an
OpenVINO `.bin`'s weights are used in place, `resources.MAPPED_MIN_BYTES`)."""

SCOPE = "model"
"""The parameter scope of the keys."""

GLOBAL_PREFIX = "__parameter_"


def _splat(values: DenseIntOrFPElementsAttr) -> bool:
    """Whether every element is the first (a weights file's bytes are not read to know)."""
    if mapped(values):
        return False
    data = memoryview(values.data.data).cast("B")
    width = len(data) // max(1, element_count(values))
    return width == 0 or data[width:] == data[:-width]


def _large_constants(module: ModuleOp, min_bytes: int) -> list[ConstOp]:
    """The `tosa.const`s of at least `min_bytes` bytes that can be parameters."""
    return [op for op in module.walk() if isinstance(op, ConstOp)
            and isinstance(op.values.type, TensorType) and resource_able(op.values)
            and len(op.values.data.data) >= min_bytes and not _splat(op.values)]


def large_constants_nbytes(module: ModuleOp, min_bytes: int = PARAMETERS_FROM) -> int:
    """The bytes of the distinct constants that `constants_to_parameters` would make
    parameters (what a module with its constants inline carries as weights)."""
    distinct = {identity(op.values): len(op.values.data.data)
                for op in _large_constants(module, min_bytes)}
    return sum(distinct.values())


def constants_to_parameters(module: ModuleOp, min_bytes: int = PARAMETERS_FROM,
                            scope: str = SCOPE) -> dict[str, DenseIntOrFPElementsAttr]:
    """Make every `tosa.const` of `module` of at least `min_bytes` bytes a parameter (see the
    module's docstring); the constants by key."""
    body = module.body.block
    taken = {sym.data for op in body.ops
             if isinstance(sym := op.properties.get("sym_name"), StringAttr)}
    parameters: dict[str, DenseIntOrFPElementsAttr] = {}
    globals_by_value: dict[object, str] = {}
    where = InsertPoint.at_start(body)
    for op in _large_constants(module, min_bytes):
        values = op.values
        name = globals_by_value.get(identity(values))
        if name is None:
            key = f"p{len(parameters)}"
            name = GLOBAL_PREFIX + key
            while name in taken:
                name = "_" + name
            taken.add(name)
            parameters[key] = values
            globals_by_value[identity(values)] = name
            declaration = GlobalOp(name, values.type, NamedParameterAttr(scope, key, values.type))
            Rewriter.insert_op(declaration, where)
            where = InsertPoint.after(declaration)
        Rewriter.replace_op(op, GlobalLoadConstOp(name, op.output.type))
    return parameters


@dataclass(frozen=True)
class TosaConstantsToParametersPass(ModulePass):
    """Large constants as IREE parameters (see the module's docstring)."""

    name = "tosa-constants-to-parameters"

    min_bytes: int = PARAMETERS_FROM
    scope: str = SCOPE

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        constants_to_parameters(op, self.min_bytes, self.scope)
