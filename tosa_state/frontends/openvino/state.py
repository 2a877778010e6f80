"""Importing ReadValue and Assign (opset3 / opset6) and checking how they declare a variable."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec
from tosa_state.frontends.openvino.element_types import DYNAMIC_ELEMENT_TYPES


def _build_read_value(b: OpBuilder) -> Operation:
    variable_id = _variable_id(b)
    init = b.optional_operand(0)
    if b.layer.version == "opset3":
        if init is None:
            b.fail("ReadValue-3 requires an init input")
        return ov.ReadValueOp(variable_id, b.result_types[0], init, version=3)
    declared_type = _declared_variable_type(b)
    declared_shape = _declared_variable_shape(b)
    return ov.ReadValueOp(
        variable_id,
        b.result_types[0],
        init,
        version=6,
        variable_type=declared_type,
        variable_shape=declared_shape,
    )


def _variable_id(b: OpBuilder) -> str:
    variable_id = b.layer.data.get("variable_id")
    if variable_id is None:
        b.fail("missing attribute 'variable_id'")
    if not variable_id:
        b.fail("attribute 'variable_id' is empty")
    return variable_id


def _declared_variable_type(b: OpBuilder) -> Attribute | None:
    name = b.data("variable_type", "dynamic").strip()
    if name in DYNAMIC_ELEMENT_TYPES:
        return None
    return b.data_element("variable_type").mlir


def _declared_variable_shape(b: OpBuilder) -> ov.PartialShapeAttr:
    text = b.data("variable_shape", "...")
    try:
        return ov.PartialShapeAttr.from_openvino(text)
    except ValueError as error:
        b.fail(f"bad variable_shape='{text}': {error}")


def _build_assign(b: OpBuilder) -> Operation:
    version = 3 if b.layer.version == "opset3" else 6
    return ov.AssignOp(_variable_id(b), b.operands[0], version=version)


def variable_declaration(read: ov.ReadValueOp) -> tuple[Attribute | None, ov.PartialShapeAttr]:
    """The variable's element type (None: dynamic) and shape, as its ReadValue declares them."""
    if read.version.value.data == 3:
        assert read.init is not None
        init_type = read.init.type
        return ov.element_type(init_type), ov.PartialShapeAttr.from_shape(
            ov.tensor_shape(init_type)
        )
    assert read.variable_shape is not None
    return read.variable_type, read.variable_shape


def depends_on(value: SSAValue, op: Operation) -> bool:
    stack, seen = [value], set()
    while stack:
        current = stack.pop()
        owner = current.owner
        if owner is op:
            return True
        if not isinstance(owner, Operation) or owner in seen:
            continue
        seen.add(owner)
        stack.extend(owner.operands)
    return False


STATE_LAYERS: dict[str, OpSpec] = {
    "ReadValue": OpSpec(("opset3", "opset6"), (0, 1), _build_read_value),
    "Assign": OpSpec(("opset3", "opset6"), (1, 1), _build_assign, outputs=None),
}
