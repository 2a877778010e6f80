"""TOSA variable operators: persistent tensors that live across graph invocations.

`tosa.variable` declares a named, mutable tensor (a symbol of the enclosing module);
`tosa.variable.read` / `tosa.variable.write` read and write it by name, with exactly the
declared shape and element type. Upstream MLIR spells the accessors `tosa.variable_read` /
`tosa.variable_write`; both spellings parse to the same ops here.

- TOSA 1.0 specification, EXT-VARIABLE: https://www.mlplatform.org/tosa/tosa_spec.html#_variable
- Upstream MLIR: https://mlir.llvm.org/docs/Dialects/TOSA/#tosavariable-mlirtosavariableop
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, SymbolOpInterface, SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException

from tosa_state.symbol_cache import memoized

DYNAMIC = -1
"""A dynamic dimension in `var_shape` (printed `?` in the tensor type)."""

INIT_FLAG_ATTR = "tosa_state.init_flag_of"
"""Discardable attribute of a boolean variable that records whether the variable it names
has received its initial value yet (for initial values computed from a model's inputs, as
OpenVINO's ReadValue allows). The runtime hides such flags and sets/resets them together
with their variable."""

INIT_FLAG_SUFFIX = "__initialized"
"""The name of a variable's init flag is the variable's name and this suffix."""


def init_flag_name(variable: str) -> str:
    """The name of the init flag (`INIT_FLAG_ATTR`) of `variable`."""
    return variable + INIT_FLAG_SUFFIX

SIZES_ATTR = "tosa_state.sizes_of"
"""Discardable attribute of the `memref.global` that `convert-tosa-variables-to-memref`
creates next to a dynamic-shape variable's buffer: it holds the lengths and capacities of
the variable's dynamic dimensions (see that pass). The runtime hides it like an init flag."""

SUPPORTED_ELEMENT_TYPES: tuple[Attribute, ...] = (
    i1,
    i8,
    i16,
    i32,
    i64,
    IntegerType(8, Signedness.UNSIGNED),
    f16,
    bf16,
    f32,
    f64,
)
"""Element types a variable may hold: the TOSA spec's (i8, f16, f32) plus those of
OpenVINO state (i1 for boolean, ui8, i16, i32, i64, bf16, f64)."""


def _supported_list() -> str:
    return ", ".join(str(t) for t in SUPPORTED_ELEMENT_TYPES)


def var_shape_attr(shape: Sequence[int]) -> DenseIntOrFPElementsAttr:
    """`dense<[2, -1]> : tensor<2xindex>`, the upstream encoding of `tensor<2x?x...>`."""
    dims = [DYNAMIC if d == DYNAMIC_INDEX else d for d in shape]
    return DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(dims)]), dims)


class UnknownVariableEffects(MemoryEffect):
    """Reads and writes of a variable are ordered by program order, not by data edges.

    Like upstream MLIR, the ops report *unknown* effects, so that no transformation
    (CSE, DCE, canonicalisation, hoisting) merges, reorders or drops them.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> frozenset[EffectInstance] | None:
        return None


@irdl_op_definition
class VariableOp(IRDLOperation):
    """Declares a persistent tensor `@sym_name` of shape `var_shape` and element `type`.

    On a request's first execution (and after a reset) the variable holds
    `initial_value`; without one it must be written before it is read.

    ```mlir
    tosa.variable @v = dense<0.0> : tensor<2x3xf32>
    tosa.variable @w : tensor<4xi32>
    ```
    """

    name = "tosa.variable"

    sym_name = prop_def(StringAttr)
    var_shape = prop_def(DenseIntOrFPElementsAttr)
    element_type = prop_def(TypeAttribute, prop_name="type")
    initial_value = opt_prop_def(DenseIntOrFPElementsAttr)

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str,
        tensor_type: TensorType,
        initial_value: DenseIntOrFPElementsAttr | None = None,
    ):
        # Alphabetical, so that the generic form is exactly upstream MLIR's.
        properties: dict[str, Attribute] = {} if initial_value is None else {
            "initial_value": initial_value
        }
        properties["sym_name"] = StringAttr(sym_name)
        properties["type"] = tensor_type.get_element_type()
        properties["var_shape"] = var_shape_attr(tensor_type.get_shape())
        super().__init__(properties=properties)

    @property
    def var_name(self) -> str:
        return self.sym_name.data

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(d) for d in self.var_shape.get_values())

    @property
    def tensor_type(self) -> TensorType:
        """The declared type, `tensor<2x?xf32>` (a `-1` in `var_shape` is a `?`)."""
        dims = [DYNAMIC_INDEX if d == DYNAMIC else d for d in self.shape]
        return TensorType(self.element_type, dims)

    # -- syntax ---------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> VariableOp:
        name = parser.parse_symbol_name().data
        attributes = parser.parse_optional_attr_dict()  # where upstream prints it
        initial_value: DenseIntOrFPElementsAttr | None = None
        if parser.parse_optional_punctuation("=") is not None:
            pos = parser.pos
            attr = parser.parse_attribute()
            if not isinstance(attr, DenseIntOrFPElementsAttr):
                parser.raise_error("expected a dense elements initial value", pos, parser.pos)
            initial_value = attr
            tensor_type = attr.type
        else:
            parser.parse_punctuation(":")
            pos = parser.pos
            tensor_type = parser.parse_type()
            if isinstance(tensor_type, UnrankedTensorType):
                parser.raise_error("expected ranked type", pos, parser.pos)
            if not isinstance(tensor_type, TensorType):
                parser.raise_error("expected shaped type", pos, parser.pos)
        op = cls(name, tensor_type, initial_value)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.var_name)
        printer.print_op_attributes(self.attributes)
        if self.initial_value is not None:
            printer.print_string(" = ")
            printer.print_attribute(self.initial_value)
        else:
            printer.print_string(" : ")
            printer.print_attribute(self.tensor_type)

    # -- verification ---------------------------------------------------------------

    def verify_(self) -> None:
        shape_type = self.var_shape.type
        if not (
            isinstance(shape_type, TensorType)
            and isinstance(shape_type.element_type, IndexType)
            and shape_type.get_num_dims() == 1
        ):
            raise VerifyException(
                f"'var_shape' must be a 1-D tensor of index, got '{shape_type}'"
            )
        if any(d < DYNAMIC for d in self.shape):
            raise VerifyException(f"'var_shape' has a negative dimension: {list(self.shape)}")
        if self.element_type not in SUPPORTED_ELEMENT_TYPES:
            raise VerifyException(
                f"element type '{self.element_type}' is not supported; supported element "
                f"types: {_supported_list()}"
            )
        if self.initial_value is not None and self.initial_value.type != self.tensor_type:
            raise VerifyException(
                f"initial value of type '{self.initial_value.type}' does not match the "
                f"variable type '{self.tensor_type}'"
            )
        _verify_placement(self)


def _verify_placement(var: VariableOp) -> None:
    """Where a declaration may stand, and the RFC's rule for the legacy in-function form:
    one declaration of a name per function (as upstream, declarations are function-scoped:
    several functions may declare one name, even with different types)."""
    parent, block = var.parent_op(), var.parent_block()
    in_module = isinstance(parent, ModuleOp)
    in_function_body = isinstance(parent, FuncOp) and block is parent.body.blocks.first
    if block is None or parent is None or not (in_module or in_function_body):
        where = f"'{parent.name}'" if parent is not None else "no parent"
        raise VerifyException(
            f"variable '{var.var_name}' must be declared directly in a module (or, in the "
            f"legacy form, at the top of a function body), not inside {where}"
        )
    if _declarations_in(parent).get(var.var_name) is not var:
        raise VerifyException(f"redefinition of symbol named '{var.var_name}'")


def _enclosing_module(op: Operation) -> ModuleOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def _first_declarations(block: Block) -> dict[str, VariableOp]:
    """The first declaration of each name directly in `block`."""
    found: dict[str, VariableOp] = {}
    for op in block.ops:
        if isinstance(op, VariableOp):
            found.setdefault(op.var_name, op)
    return found


def _declarations_in(owner: Operation) -> dict[str, VariableOp]:
    """The declarations directly in a module's body or a function's entry block (indexed
    once per verification, see `tosa_state.symbol_cache`)."""

    def build() -> dict[str, VariableOp]:
        if not owner.regions or not owner.regions[0].blocks:
            return {}
        return _first_declarations(owner.regions[0].blocks.first)  # type: ignore[arg-type]

    found = memoized("tosa.variable declarations", owner, build)
    return build() if found is None else found


def _positions(func: FuncOp) -> dict[Operation, int]:
    """The index of each op of a function's entry block."""

    def build() -> dict[Operation, int]:
        return {op: index for index, op in enumerate(func.body.blocks.first.ops)}  # type: ignore[union-attr]

    found = memoized("block positions", func, build)
    return build() if found is None else found


def iter_declarations(module: ModuleOp, name: str | None = None) -> Iterator[VariableOp]:
    """Every declaration in `module`: module-level ones, then legacy in-function ones."""
    for op in module.body.block.ops:
        if isinstance(op, VariableOp):
            if name is None or op.var_name == name:
                yield op
        elif isinstance(op, FuncOp) and op.body.blocks:
            for inner in op.body.blocks.first.ops:
                if isinstance(inner, VariableOp) and (name is None or inner.var_name == name):
                    yield inner


def lookup_variable(user: Operation, name: str) -> VariableOp | None:
    """The declaration `user` refers to by `name`, following the scoping rules.

    In the legacy form a function's own declaration wins and must come before its uses
    (an error is raised otherwise); else the module's declaration, wherever it stands.
    """
    func = user.parent_op()
    while func is not None and not isinstance(func, FuncOp | ModuleOp):
        func = func.parent_op()
    if isinstance(func, FuncOp) and func.body.blocks:
        op = _declarations_in(func).get(name)
        if op is not None:
            positions = _positions(func)
            if positions[op] > positions[_ancestor_in(user, op)]:
                raise VerifyException(
                    f"'{name}' is used before its declaration in function "
                    f"'{func.sym_name.data}'"
                )
            return op
    module = _enclosing_module(user)
    if module is None:
        return None
    return _declarations_in(module).get(name)


def _ancestor_in(op: Operation, sibling: Operation) -> Operation:
    """The ancestor of `op` (or `op`) that sits in the same block as `sibling`."""
    block = sibling.parent_block()
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


class VariableUser(SymbolUserOpInterface):
    """Checks that the variable is declared, with the exact shape and element type."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, VariableReadOp | VariableWriteOp)
        var = lookup_variable(op, op.var_name)
        if var is None:
            raise VerifyException(f"'{op.var_name}' has not been declared by 'tosa.variable'")
        value_type = op.value_type
        if not isinstance(value_type, TensorType):
            raise VerifyException("expected ranked type")
        role = op.VALUE_ROLE
        if value_type.element_type != var.element_type:
            raise VerifyException(
                f"require same element type for '{role}' ('{value_type.element_type}') and "
                f"the input tensor ('{var.element_type}')"
            )
        if value_type != var.tensor_type:
            raise VerifyException(
                f"require same shapes for '{role}' ('{value_type}') and the input tensor "
                f"('{var.tensor_type}')"
            )


def _parse_accessor_type(parser: Parser) -> Attribute:
    parser.parse_punctuation(":")
    return parser.parse_type()


@irdl_op_definition
class VariableReadOp(IRDLOperation):
    """Reads the current value of variable `@name`.

    The value is a snapshot: a later write to the variable does not change it.

    ```mlir
    %0 = tosa.variable.read @v : tensor<2x3xf32>
    ```
    """

    name = "tosa.variable.read"
    UPSTREAM_NAME: ClassVar[str] = "tosa.variable_read"
    VALUE_ROLE: ClassVar[str] = "output1"

    var_name_attr = prop_def(StringAttr, prop_name="name")
    output1 = result_def(TensorType)

    traits = traits_def(VariableUser(), UnknownVariableEffects())

    def __init__(self, var_name: str, result_type: Attribute):
        super().__init__(properties={"name": StringAttr(var_name)}, result_types=[result_type])

    @property
    def var_name(self) -> str:
        return self.var_name_attr.data

    @property
    def value_type(self) -> Attribute:
        return self.output1.type

    @classmethod
    def parse(cls, parser: Parser) -> VariableReadOp:
        var_name = parser.parse_symbol_name().data
        result_type = _parse_accessor_type(parser)
        op = cls(var_name, result_type)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.var_name)
        printer.print_string(" : ")
        printer.print_attribute(self.output1.type)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class VariableWriteOp(IRDLOperation):
    """Replaces the value of variable `@name` by `input1`.

    ```mlir
    tosa.variable.write @v, %0 : tensor<2x3xf32>
    ```
    """

    name = "tosa.variable.write"
    UPSTREAM_NAME: ClassVar[str] = "tosa.variable_write"
    VALUE_ROLE: ClassVar[str] = "input1"

    var_name_attr = prop_def(StringAttr, prop_name="name")
    input1 = operand_def(TensorType)

    traits = traits_def(VariableUser(), UnknownVariableEffects())

    def __init__(self, var_name: str, value: SSAValue | Operation):
        super().__init__(properties={"name": StringAttr(var_name)}, operands=[value])

    @property
    def var_name(self) -> str:
        return self.var_name_attr.data

    @property
    def value_type(self) -> Attribute:
        return self.input1.type

    @classmethod
    def parse(cls, parser: Parser) -> VariableWriteOp:
        var_name = parser.parse_symbol_name().data
        parser.parse_punctuation(",")
        unresolved = parser.parse_unresolved_operand()
        value_type = _parse_accessor_type(parser)
        op = cls(var_name, parser.resolve_operand(unresolved, value_type))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.var_name)
        printer.print_string(", ")
        printer.print_operand(self.input1)
        printer.print_string(" : ")
        printer.print_attribute(self.input1.type)
        printer.print_op_attributes(self.attributes)


VARIABLE_OPS: list[type[IRDLOperation]] = [VariableOp, VariableReadOp, VariableWriteOp]
UPSTREAM_SPELLINGS: dict[str, str] = {
    VariableReadOp.UPSTREAM_NAME: VariableReadOp.name,
    VariableWriteOp.UPSTREAM_NAME: VariableWriteOp.name,
}
"""Upstream MLIR op name -> our op name, for the parser."""

__all__ = [
    "DYNAMIC",
    "INIT_FLAG_ATTR",
    "INIT_FLAG_SUFFIX",
    "SIZES_ATTR",
    "SUPPORTED_ELEMENT_TYPES",
    "UPSTREAM_SPELLINGS",
    "VARIABLE_OPS",
    "VariableOp",
    "VariableReadOp",
    "VariableWriteOp",
    "init_flag_name",
    "iter_declarations",
    "lookup_variable",
    "var_shape_attr",
]
