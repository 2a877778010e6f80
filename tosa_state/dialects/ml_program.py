"""The `ml_program` dialect: module-level globals, as upstream MLIR defines them.

xDSL 0.74 ships `ml_program.global` and `ml_program.global_load_const` only, and its
`global` has traps: its verifier is misnamed (`_verify`, never run), `sym_visibility` is
mandatory as a property, and `global_load_const` names its property `global_attr`
instead of upstream's `global`. This module defines the four ops we need, with upstream's
custom syntax, generic form, and verifier wording:

```mlir
ml_program.global private mutable @x(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private mutable @y : tensor<4xi32>
%0 = ml_program.global_load @x : tensor<2xf32>
ml_program.global_store @x = %0 : tensor<2xf32>
%1 = ml_program.global_load_const @c : tensor<2xf32>
```

Like upstream, `global_load` and `global_store` declare no memory effects (so that no
transformation reorders, merges or drops them); `global_load_const` is pure.

https://mlir.llvm.org/docs/Dialects/MLProgramOps/
"""

from __future__ import annotations

from abc import ABC
from typing import Self

from xdsl.dialects.builtin import StringAttr, SymbolNameConstraint, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute, Dialect, Operation, SSAValue, TypeAttribute
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
from xdsl.traits import Pure, SymbolOpInterface, SymbolTable, SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException

from tosa_state.symbol_cache import memoized

VISIBILITIES = ("public", "private", "nested")


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A module-level global: a value of type `type`, mutable when `is_mutable`.

    Without `value` a (mutable) global is uninitialised. The custom syntax needs an
    explicit visibility keyword, as upstream's; a global without `sym_visibility` is
    public and prints `public`.
    """

    name = "ml_program.global"

    sym_name = prop_def(SymbolNameConstraint())
    type = prop_def(TypeAttribute)
    is_mutable = opt_prop_def(UnitAttr)
    value = opt_prop_def(Attribute)
    sym_visibility = opt_prop_def(StringAttr)

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str,
        global_type: Attribute,
        value: Attribute | None = None,
        *,
        is_mutable: bool = False,
        visibility: str | None = "private",
    ):
        # Alphabetical, so that the generic form is exactly upstream MLIR's.
        properties: dict[str, Attribute | None] = {
            "is_mutable": UnitAttr() if is_mutable else None,
            "sym_name": StringAttr(sym_name),
            "sym_visibility": None if visibility is None else StringAttr(visibility),
            "type": global_type,
            "value": value,
        }
        super().__init__(properties=properties)

    @property
    def global_name(self) -> str:
        return self.sym_name.data

    @property
    def mutable(self) -> bool:
        return self.is_mutable is not None

    @property
    def visibility(self) -> str:
        return "public" if self.sym_visibility is None else self.sym_visibility.data

    def verify_(self) -> None:
        if self.sym_visibility is not None and self.sym_visibility.data not in VISIBILITIES:
            raise VerifyException(
                f"visibility must be one of {', '.join(VISIBILITIES)}, got "
                f"'{self.sym_visibility.data}'"
            )
        if self.is_mutable is None and self.value is None:
            raise VerifyException("immutable global must have an initial value")

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        pos = parser.pos
        visibility = parser.parse_optional_visibility_keyword()
        if visibility is None:
            parser.raise_error("expected 'public', 'private', or 'nested'", pos, parser.pos)
        is_mutable = parser.parse_optional_keyword("mutable") is not None
        sym_name = parser.parse_symbol_name().data
        value: Attribute | None = None
        if parser.parse_optional_punctuation("(") is not None:
            value = parser.parse_attribute()
            parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        global_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict()
        op = cls(sym_name, global_type, value, is_mutable=is_mutable, visibility=visibility.data)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.visibility} ")
        if self.mutable:
            printer.print_string("mutable ")
        printer.print_symbol_name(self.global_name)
        if self.value is not None:
            printer.print_string("(")
            printer.print_attribute(self.value)
            printer.print_string(")")
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        printer.print_op_attributes(self.attributes)


def lookup_global(op: Operation, ref: SymbolRefAttr) -> GlobalOp | None:
    """The `ml_program.global` that `ref` names, from `op`'s nearest symbol table."""
    found = lookup_symbol(op, ref)
    return found if isinstance(found, GlobalOp) else None


def lookup_symbol(op: Operation, ref: SymbolRefAttr) -> Operation | None:
    """`SymbolTable.lookup_symbol`, from an index of the nearest symbol table while the IR
    is frozen (verification; see `tosa_state.symbol_cache`), else by a scan."""
    table = op.parent_op()
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op()
    index = None
    if table is not None and not ref.nested_references.data:
        body = table.regions[0].blocks.first
        index = memoized("symbols", table, lambda: {
            sym.data: symbol for symbol in (body.ops if body else ())
            if isinstance(sym := symbol.properties.get("sym_name"), StringAttr)
        })
    if index is not None:
        return index.get(ref.root_reference.data)
    try:
        return SymbolTable.lookup_symbol(op, ref)
    except ValueError:  # not inside a symbol table
        return None


class GlobalUser(SymbolUserOpInterface):
    """Upstream's `verifySymbolUses` of the three accessors.

    The global is read through its properties, so that xDSL's own `ml_program.global`
    (which `xdsl-opt` parses, see `tosa_state.universe`) is accepted as well as ours.
    """

    def verify(self, op: Operation) -> None:
        assert isinstance(op, GlobalLoadOp | GlobalStoreOp | GlobalLoadConstOp)
        ref = op.global_
        found = lookup_symbol(op, ref)
        if found is None or found.name != GlobalOp.name:
            raise VerifyException(f"undefined global: {ref}")
        global_type = found.properties.get("type")
        mutable = found.properties.get("is_mutable") is not None
        if isinstance(op, GlobalStoreOp):
            if not mutable:
                raise VerifyException(f"cannot store to an immutable global {ref}")
            if global_type != op.value.type:
                raise VerifyException(
                    f"cannot store to a global typed '{global_type}' from '{op.value.type}'"
                )
            return
        if isinstance(op, GlobalLoadConstOp) and mutable:
            raise VerifyException(f"cannot load as const from mutable global {ref}")
        if global_type != op.result.type:
            raise VerifyException(
                f"cannot load from global typed '{global_type}' as '{op.result.type}'"
            )


def _parse_global_ref(parser: Parser) -> SymbolRefAttr:
    pos = parser.pos
    ref = parser.parse_attribute()
    if not isinstance(ref, SymbolRefAttr):
        parser.raise_error("expected a symbol reference", pos, parser.pos)
    return ref


class _GlobalLoadBase(IRDLOperation, ABC):
    """What `global_load` and `global_load_const` share: `%0 = <name> @x : T`."""

    global_ = prop_def(SymbolRefAttr, prop_name="global")
    result = result_def()

    @property
    def global_name(self) -> str:
        """The name of the global (the root of `@name`), as the request's store keys it."""
        return self.global_.root_reference.data

    def __init__(self, global_ref: str | SymbolRefAttr, result_type: Attribute):
        if isinstance(global_ref, str):
            global_ref = SymbolRefAttr(global_ref)
        super().__init__(properties={"global": global_ref}, result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ref = _parse_global_ref(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(ref, parser.parse_type())
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.global_)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class GlobalLoadOp(_GlobalLoadBase):
    """The current value of a (mutable) global: `%0 = ml_program.global_load @x : T`."""

    name = "ml_program.global_load"

    traits = traits_def(GlobalUser())


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """Replaces the value of a mutable global: `ml_program.global_store @x = %v : T`."""

    name = "ml_program.global_store"

    global_ = prop_def(SymbolRefAttr, prop_name="global")
    value = operand_def()

    traits = traits_def(GlobalUser())

    @property
    def global_name(self) -> str:
        """The name of the global (the root of `@name`), as the request's store keys it."""
        return self.global_.root_reference.data

    def __init__(self, global_ref: str | SymbolRefAttr, value: SSAValue | Operation):
        if isinstance(global_ref, str):
            global_ref = SymbolRefAttr(global_ref)
        super().__init__(properties={"global": global_ref}, operands=[value])

    @classmethod
    def parse(cls, parser: Parser) -> GlobalStoreOp:
        ref = _parse_global_ref(parser)
        parser.parse_punctuation("=")
        unresolved = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        op = cls(ref, parser.resolve_operand(unresolved, value_type))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.global_)
        printer.print_string(" = ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)


@irdl_op_definition
class GlobalLoadConstOp(_GlobalLoadBase):
    """The value of an immutable global: `%0 = ml_program.global_load_const @c : T`."""

    name = "ml_program.global_load_const"

    traits = traits_def(GlobalUser(), Pure())


ML_PROGRAM = Dialect(
    "ml_program", [GlobalOp, GlobalLoadOp, GlobalStoreOp, GlobalLoadConstOp]
)

__all__ = [
    "ML_PROGRAM",
    "GlobalLoadConstOp",
    "GlobalLoadOp",
    "GlobalOp",
    "GlobalStoreOp",
    "lookup_global",
]
