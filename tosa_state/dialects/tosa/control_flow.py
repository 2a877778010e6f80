"""TOSA 1.0 control flow (the CONTROLFLOW extension): `tosa.cond_if`, `tosa.while_loop` and
their terminator `tosa.yield`.

Syntax and verifiers as upstream MLIR's (`TosaOps.td` / `TosaOps.cpp`): the regions are single
blocks whose arguments are the ops' `input_list`; `tosa.while_loop` prints its `cond_graph`
without the entry block header, its arguments named in the initialization list:

```mlir
%r:2 = tosa.while_loop (%i = %zero, %acc = %x) : (tensor<1xi32>, tensor<4xf32>)
    -> (tensor<1xi32>, tensor<4xf32>) {
  %c = tosa.greater %n, %i : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
  tosa.yield %c : tensor<1xi1>
} do {
^bb0(%i: tensor<1xi32>, %acc: tensor<4xf32>):
  ...
  tosa.yield %i2, %acc2 : tensor<1xi32>, tensor<4xf32>
}
```

https://mlir.llvm.org/docs/Dialects/TOSA/#tosawhile_loop-mlirtosawhileop
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.common import _is_static, _same_shape


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Returns values from a `tosa.cond_if` branch or a `tosa.while_loop` region.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosayield-mlirtosayieldop
    """

    name = "tosa.yield"

    inputs = var_operand_def(TensorType)

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(IfOp, WhileOp), Pure()))

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def print(self, printer: Printer) -> None:
        # Upstream prints `tosa.yield  : ` when empty (which upstream cannot parse back:
        # `tosa.cond_if` prints an empty yield in generic form instead).
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        pos = parser.pos
        unresolved = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        attributes = parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if parser.parse_optional_punctuation(":") is not None and unresolved:
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls(*parser.resolve_operands(unresolved, types, pos))
        op.attributes.update(attributes)
        return op


def _print_branch(printer: Printer, region: Region) -> None:
    """A branch or loop body; an empty `tosa.yield` prints in generic form (see `YieldOp`)."""
    block = region.blocks.first
    terminator = block.last_op if block is not None else None
    if (
        block is None
        or block.next_block is not None
        or not isinstance(terminator, YieldOp)
        or terminator.inputs
    ):
        printer.print_region(region)
        return
    # What `Printer.print_region` does, with the terminator printed by hand. xDSL has no
    # public hook for this; the private helpers below exist in xdsl 0.74 (pinned).
    if block not in printer._blocks:  # pyright: ignore[reportPrivateUsage]
        printer._populate_block_name(block, 0)  # pyright: ignore[reportPrivateUsage]
    with printer.in_braces():
        printer.print_block(block, print_block_args=bool(block.args), print_block_terminator=False)
        with printer.indented():
            printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
            printer.print_string(f'"{YieldOp.name}"')
            printer.print_op_with_default_format(terminator)
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]


@irdl_op_definition
class IfOp(IRDLOperation):
    """Runs `then_graph` if `condition` (a one-element i1 tensor) is true, else `else_graph`.

    Both branches take `input_list` as block arguments and yield `output_list`:

    ```mlir
    %r = tosa.cond_if %c (%x = %a) : tensor<1xi1> (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<4xf32>):
      tosa.yield %x : tensor<4xf32>
    } else {
    ^bb0(%x: tensor<4xf32>):
      tosa.yield %x : tensor<4xf32>
    }
    ```

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosacond_if-mlirtosaifop
    """

    name = "tosa.cond_if"

    condition = operand_def(TensorType)
    input_list = var_operand_def(TensorType)
    output_list = var_result_def(TensorType)

    then_graph = region_def("single_block")
    else_graph = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        condition: SSAValue | Operation,
        input_list: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        then_graph: Region | Block,
        else_graph: Region | Block,
    ):
        super().__init__(
            operands=[condition, input_list],
            result_types=[result_types],
            regions=[
                Region(graph) if isinstance(graph, Block) else graph
                for graph in (then_graph, else_graph)
            ],
        )

    # -- syntax ---------------------------------------------------------------------

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        if self.input_list:
            entry = self.then_graph.blocks.first
            names = list(entry.args) if entry is not None else []
            printer.print_string(" ")
            with printer.in_parens():
                for index, value in enumerate(self.input_list):
                    if index:
                        printer.print_string(", ")
                    printer.print_operand(names[index] if index < len(names) else value)
                    printer.print_string(" = ")
                    printer.print_operand(value)
        printer.print_string(" : ")
        printer.print_attribute(self.condition.type)
        if self.input_list:
            printer.print_string(" ")
            printer.print_function_type(self.input_list.types, self.output_list.types)
        else:
            printer.print_string(" -> ")
            types = self.output_list.types
            if len(types) == 1:
                printer.print_attribute(types[0])
            else:
                with printer.in_parens():
                    printer.print_list(types, printer.print_attribute)
        printer.print_string(" ")
        _print_branch(printer, self.then_graph)
        printer.print_string(" else ")
        _print_branch(printer, self.else_graph)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        condition = parser.parse_unresolved_operand()
        pos = parser.pos
        inputs: list[object] = []
        if parser.parse_optional_punctuation("(") is not None:

            def parse_assignment():
                parser.parse_argument(expect_type=False)  # the branch argument's name
                parser.parse_punctuation("=")
                return parser.parse_unresolved_operand()

            inputs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_assignment)
            parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        condition_type = parser.parse_type()
        input_types: Sequence[Attribute] = []
        if inputs:
            input_types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
        parser.parse_punctuation("->")
        result_types = parser.parse_optional_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        if result_types is None:
            result_types = [parser.parse_type()]
        input_values = parser.resolve_operands(inputs, input_types, pos)  # pyright: ignore
        then_graph = parser.parse_region()
        parser.parse_keyword("else")
        else_graph = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(condition, condition_type),
            input_values,
            result_types,
            then_graph,
            else_graph,
        )
        op.attributes.update(attributes)
        return op

    # -- verification ---------------------------------------------------------------

    def verify_(self) -> None:
        condition_type = self.condition.type
        assert isinstance(condition_type, TensorType)
        if condition_type.element_type != i1:
            raise VerifyException(
                f"'condition' must be a tensor of i1 values, got '{condition_type}'"
            )
        shape = condition_type.get_shape()
        if not _is_static(shape) or prod(shape) != 1:
            raise VerifyException(f"'condition' must be a size 1 tensor, got '{condition_type}'")
        inputs = self.input_list.types
        outputs = self.output_list.types
        branches = (("then_graph", self.then_graph), ("else_graph", self.else_graph))
        for region_name, region in branches:
            block = region.block
            _check_type_lists(f"'{region_name}' arguments", block.arg_types, "'input_list'", inputs)
            terminator = block.last_op
            if not isinstance(terminator, YieldOp):
                raise VerifyException(f"expect '{region_name}' to end with '{YieldOp.name}'")
            _check_type_lists(
                f"'{region_name}' results", terminator.inputs.types, "'output_list'", outputs
            )


def _check_type_lists(
    what: str, types: Sequence[Attribute], other: str, other_types: Sequence[Attribute]
) -> None:
    if len(types) != len(other_types):
        raise VerifyException(
            f"require same number of values in {what} ({len(types)}) and {other} "
            f"({len(other_types)})"
        )
    for a, b in zip(types, other_types, strict=True):
        if not (isinstance(a, TensorType) and isinstance(b, TensorType)):
            if a != b:
                raise VerifyException(f"require same types for {what} ('{a}') and {other} ('{b}')")
            continue
        if a.element_type != b.element_type:
            raise VerifyException(
                f"require same element type for {what} ('{a.element_type}') and {other} "
                f"('{b.element_type}')"
            )
        if not _same_shape(a.get_shape(), b.get_shape()):
            raise VerifyException(f"require same shapes for {what} ('{a}') and {other} ('{b}')")


def _print_initialization_list(
    printer: Printer, names: Sequence[SSAValue], values: Sequence[SSAValue]
) -> None:
    """`(%name = %value, ...)` (upstream's `printInitializationList`)."""
    with printer.in_parens():
        for index, value in enumerate(values):
            if index:
                printer.print_string(", ")
            printer.print_operand(names[index] if index < len(names) else value)
            printer.print_string(" = ")
            printer.print_operand(value)


def _print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """`-> t` or `-> (t1, t2)` (MLIR's functional-type results)."""
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def _parse_result_types(parser: Parser) -> list[Attribute]:
    parser.parse_punctuation("->")
    types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return list(types) if types is not None else [parser.parse_type()]


@irdl_op_definition
class WhileOp(IRDLOperation):
    """Runs `body_graph` while `cond_graph` yields true; both take the loop-carried values
    (`input_list` first, then what the body yields), the op returns the last ones.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosawhile_loop-mlirtosawhileop
    """

    name = "tosa.while_loop"

    input_list = var_operand_def(TensorType)
    output_list = var_result_def(TensorType)

    cond_graph = region_def("single_block")
    body_graph = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        input_list: Sequence[SSAValue | Operation],
        cond_graph: Region | Block,
        body_graph: Region | Block,
        result_types: Sequence[Attribute] | None = None,
    ):
        values = [SSAValue.get(v) for v in input_list]
        super().__init__(
            operands=[values],
            result_types=[list(result_types) if result_types is not None
                          else [v.type for v in values]],
            regions=[
                Region(graph) if isinstance(graph, Block) else graph
                for graph in (cond_graph, body_graph)
            ],
        )

    def print(self, printer: Printer) -> None:
        entry = self.cond_graph.blocks.first
        printer.print_string(" ")
        _print_initialization_list(
            printer, list(entry.args) if entry is not None else [], self.input_list
        )
        printer.print_string(" : ")
        with printer.in_parens():
            printer.print_list(self.input_list.types, printer.print_attribute)
        _print_result_types(printer, self.output_list.types)
        printer.print_string(" ")
        printer.print_region(self.cond_graph, print_entry_block_args=False)
        printer.print_string(" do ")
        _print_branch(printer, self.body_graph)
        if self.attributes:
            printer.print_string(" attributes")
            printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        pos = parser.pos
        parser.parse_punctuation("(")
        names: list[object] = []
        values: list[object] = []
        if parser.parse_optional_punctuation(")") is None:

            def parse_assignment() -> None:
                names.append(parser.parse_argument(expect_type=False))
                parser.parse_punctuation("=")
                values.append(parser.parse_unresolved_operand())

            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_assignment)
            parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        input_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        result_types = _parse_result_types(parser)
        if len(input_types) != len(values):
            parser.raise_error(
                f"expected {len(values)} input types, got {len(input_types)}", pos, parser.pos
            )
        inputs = parser.resolve_operands(values, input_types, pos)  # pyright: ignore
        arguments = [
            name.resolve(t)  # pyright: ignore
            for name, t in zip(names, input_types, strict=True)
        ]
        cond_graph = parser.parse_region(arguments)
        parser.parse_keyword("do")
        body_graph = parser.parse_region()
        op = cls(inputs, cond_graph, body_graph, result_types)
        if parser.parse_optional_keyword("attributes") is not None:
            op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def verify_(self) -> None:
        inputs = self.input_list.types
        _check_type_lists("'output_list'", self.output_list.types, "'input_list'", inputs)
        graphs = (("cond_graph", self.cond_graph), ("body_graph", self.body_graph))
        for region_name, region in graphs:
            block = region.block
            _check_type_lists(f"'{region_name}' arguments", block.arg_types, "'input_list'", inputs)
            if not isinstance(block.last_op, YieldOp):
                raise VerifyException(f"expect '{region_name}' to end with '{YieldOp.name}'")
        body_yield = self.body_graph.block.last_op
        assert isinstance(body_yield, YieldOp)
        _check_type_lists("'body_graph' results", body_yield.inputs.types, "'input_list'", inputs)
        cond_yield = self.cond_graph.block.last_op
        assert isinstance(cond_yield, YieldOp)
        if len(cond_yield.inputs) != 1:
            raise VerifyException("require 'cond_graph' only have one result")
        cond_type = cond_yield.inputs.types[0]
        if not (
            isinstance(cond_type, TensorType)
            and _is_static(cond_type.get_shape())
            and prod(cond_type.get_shape()) == 1
        ):
            raise VerifyException(f"'cond_graph' result must be a size 1 tensor, got {cond_type}")
        if cond_type.element_type != i1:
            raise VerifyException(
                f"'cond_graph' result must be a boolean tensor, got {cond_type}"
            )


CONTROL_FLOW_OPS: list[type[IRDLOperation]] = [IfOp, WhileOp, YieldOp]

__all__ = ["CONTROL_FLOW_OPS", "IfOp", "WhileOp", "YieldOp"]
