"""TensorIterator-1 and Loop-5 of the `openvino` dialect: their body region, terminator and
port maps."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, NoneAttr, i64
from xdsl.ir import Attribute, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import TensorLike, element_type

_PORT_MAP_SLICE_FIELDS = ("start", "end", "stride", "part_size")


@irdl_attr_definition
class PortMapAttr(ParametrizedAttribute):
    """One TensorIterator `<port_map>` entry, by position rather than by XML id.

    For an input: `external` = operand index, `internal` = body block-argument index. For an
    output: `external` = result index, `internal` = index into the body's `openvino.yield`.
    With `axis` the value is sliced (inputs) or concatenated (outputs) along `axis` in steps of
    `part_size` from `start` to `end` by `stride`; without it, it is passed whole (inputs) or the
    last iteration's value is returned (outputs).

    `#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1,
    part_size = 1>` or `#openvino.port_map<external = 1, internal = 1>`.
    """

    name = "openvino.port_map"

    external: IntAttr
    internal: IntAttr
    axis: IntAttr | NoneAttr
    start: IntAttr
    end: IntAttr
    stride: IntAttr
    part_size: IntAttr

    @staticmethod
    def make(
        external: int,
        internal: int,
        axis: int | None = None,
        start: int = 0,
        end: int = -1,
        stride: int = 1,
        part_size: int = 1,
    ) -> PortMapAttr:
        return PortMapAttr(
            IntAttr(external),
            IntAttr(internal),
            NoneAttr() if axis is None else IntAttr(axis),
            IntAttr(start),
            IntAttr(end),
            IntAttr(stride),
            IntAttr(part_size),
        )

    @property
    def sliced_axis(self) -> int | None:
        return self.axis.data if isinstance(self.axis, IntAttr) else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, int] = {}
        with parser.in_angle_brackets():
            values["external"] = _parse_keyword_int(parser, "external")
            parser.parse_punctuation(",")
            values["internal"] = _parse_keyword_int(parser, "internal")
            if parser.parse_optional_punctuation(",") is not None:
                values["axis"] = _parse_keyword_int(parser, "axis")
                for field in _PORT_MAP_SLICE_FIELDS:
                    parser.parse_punctuation(",")
                    values[field] = _parse_keyword_int(parser, field)
        return PortMapAttr.make(**values).parameters

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            external, internal = self.external.data, self.internal.data
            printer.print_string(f"external = {external}, internal = {internal}")
            if self.sliced_axis is None:
                return
            printer.print_string(f", axis = {self.sliced_axis}")
            for field in _PORT_MAP_SLICE_FIELDS:
                printer.print_string(f", {field} = {getattr(self, field).data}")


@irdl_attr_definition
class BackEdgeAttr(ParametrizedAttribute):
    """A TensorIterator back edge: `openvino.yield` operand `from` feeds block argument `to` in
    the next iteration. `#openvino.back_edge<from = 1, to = 1>`."""

    name = "openvino.back_edge"

    from_result: IntAttr
    to_param: IntAttr

    @staticmethod
    def make(from_result: int, to_param: int) -> BackEdgeAttr:
        return BackEdgeAttr(IntAttr(from_result), IntAttr(to_param))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            from_result = _parse_keyword_int(parser, "from")
            parser.parse_punctuation(",")
            to_param = _parse_keyword_int(parser, "to")
        return (IntAttr(from_result), IntAttr(to_param))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<from = {self.from_result.data}, to = {self.to_param.data}>")


def _parse_keyword_int(parser: AttrParser, keyword: str) -> int:
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parser.parse_integer(allow_boolean=False)


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminates a TensorIterator body: its operands are the body's Results, in IR order."""

    name = "openvino.yield"

    values = var_operand_def(TensorLike)

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(TensorIteratorOp, LoopOp)))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[list(values)])


class _IteratorOp(IRDLOperation):
    """What TensorIterator and Loop share: a body block whose arguments are the body
    Parameters and whose `openvino.yield` operands are the body Results (both in IR order),
    `input_port_map` binding operands to block arguments (sliced with `axis`, else passed
    whole), `output_port_map` binding yield operands to results (concatenated with `axis`,
    else the last iteration's value), and `back_edges` feeding a yield operand into a block
    argument for the next iteration (the mapped operand is then only the first value)."""

    inputs = var_operand_def(TensorLike)
    outputs = var_result_def(TensorLike)
    body = region_def("single_block")
    input_port_map = prop_def(ArrayAttr[PortMapAttr])
    output_port_map = prop_def(ArrayAttr[PortMapAttr])
    back_edges = prop_def(ArrayAttr[BackEdgeAttr])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $inputs `)` attr-dict `:` functional-type($inputs, results) $body"

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
        input_port_map: Sequence[PortMapAttr],
        output_port_map: Sequence[PortMapAttr],
        back_edges: Sequence[BackEdgeAttr],
        properties: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[list(inputs)],
            result_types=[list(result_types)],
            regions=[body],
            properties={
                "input_port_map": ArrayAttr(input_port_map),
                "output_port_map": ArrayAttr(output_port_map),
                "back_edges": ArrayAttr(back_edges),
                **(properties or {}),
            },
        )

    @property
    def body_yield(self) -> YieldOp:
        terminator = self.body.block.last_op
        if not isinstance(terminator, YieldOp):
            raise VerifyException(f"{self.name}: the body must end with openvino.yield")
        return terminator

    def verify_(self) -> None:
        block = self.body.block
        num_params, num_results = len(block.args), len(self.body_yield.values)
        mapped_params: set[int] = set()
        for entry in self.input_port_map.data:
            _check_index(self, "input_port_map external", entry.external.data, len(self.inputs))
            _check_index(self, "input_port_map internal", entry.internal.data, num_params)
            if entry.internal.data in mapped_params:
                raise VerifyException(
                    f"{self.name}: body argument {entry.internal.data} is mapped twice"
                )
            mapped_params.add(entry.internal.data)
            outer = self.inputs[entry.external.data].type
            inner = block.args[entry.internal.data].type
            _check_port_types(self, outer, inner)
        for entry in self.output_port_map.data:
            _check_index(self, "output_port_map external", entry.external.data, len(self.outputs))
            _check_index(self, "output_port_map internal", entry.internal.data, num_results)
            inner = self.body_yield.values[entry.internal.data].type
            _check_port_types(self, self.outputs[entry.external.data].type, inner)
        for edge in self.back_edges.data:
            _check_index(self, "back edge from", edge.from_result.data, num_results)
            _check_index(self, "back edge to", edge.to_param.data, num_params)
            if edge.to_param.data not in mapped_params:
                raise VerifyException(
                    f"{self.name}: back edge to body argument {edge.to_param.data}, which has "
                    "no initial value in input_port_map"
                )


@irdl_op_definition
class TensorIteratorOp(_IteratorOp):
    """TensorIterator-1: runs `body` once per slice of its sliced inputs.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/tensor-iterator-1.html
    """

    name = "openvino.tensor_iterator"


@irdl_op_definition
class LoopOp(_IteratorOp):
    """Loop-5: runs `body` while the iteration is below the trip count (operand 0, `-1`:
    no bound) and the condition holds (operand 1 before the first iteration, then the body
    Result `condition`); the port maps and back edges as TensorIterator's (external indices
    count every operand, the trip count and the condition included); `current_iteration`
    is the body argument that receives the iteration's number (-1: none).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/loop-5.html
    """

    name = "openvino.loop"

    current_iteration = prop_def(IntegerAttr)
    condition = prop_def(IntegerAttr)

    @staticmethod
    def properties_of(current_iteration: int, condition: int) -> dict[str, Attribute]:
        """The Loop's own properties, for `__init__`'s `properties`."""
        return {"current_iteration": IntegerAttr(current_iteration, i64),
                "condition": IntegerAttr(condition, i64)}

    def verify_(self) -> None:
        super().verify_()
        if len(self.inputs) < 2:
            raise VerifyException(f"{self.name}: needs a trip count and an execution condition")
        block = self.body.block
        current = self.current_iteration.value.data
        if current != -1:
            _check_index(self, "current_iteration", current, len(block.args))
            if any(entry.internal.data == current for entry in self.input_port_map.data):
                raise VerifyException(f"{self.name}: body argument {current} is the current "
                                      "iteration and is mapped to an input too")
        _check_index(self, "condition", self.condition.value.data, len(self.body_yield.values))


def _check_index(op: IRDLOperation, what: str, index: int, size: int) -> None:
    if not 0 <= index < size:
        raise VerifyException(f"{op.name}: {what} index {index} is out of range [0, {size})")


def _check_port_types(op: IRDLOperation, outer: Attribute, inner: Attribute) -> None:
    if element_type(outer) != element_type(inner):
        raise VerifyException(
            f"{op.name}: port map connects {outer} and {inner} of different element types"
        )


TENSOR_ITERATOR_OPS = (
    TensorIteratorOp,
    LoopOp,
    YieldOp,
)

TENSOR_ITERATOR_ATTRIBUTES = (PortMapAttr, BackEdgeAttr,)
