"""The TFLite frontend: a `.tflite` flatbuffer into a module of `tfl` ops.

Subgraph 0 becomes the public entry function (named as the subgraph, `main` for TensorFlow's
exports), the others private functions that WHILE / CALL_ONCE name. Inputs and outputs are
named after the model's signature (`serving_default`) when it has one, else after their
tensors. Constant tensors become `tfl.pseudo_const` ops. Quantized tensors: the int8 weights
of hybrid operators (their scales on the op), and the int8 tensors of operators with an
integer lowering (their scales and zero points in `tfl.quantization`); any other is refused,
naming the operator. Every index, offset and shape read
from the file is checked (see `reader`); errors name the operator:
`model.tflite: error: operator #12 (FULLY_CONNECTED) in subgraph 'while_body': ...`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from tflite.BuiltinOperator import BuiltinOperator
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    NameLoc,
    StringAttr,
    TensorType,
    UnknownLoc,
    i8,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from tosa_state.diagnostics import OPERATOR_ATTR
from tosa_state.dialects.tfl.common import ResourceType
from tosa_state.dialects.tfl.data_movement import PseudoConstOp
from tosa_state.dialects.tfl.quantized import Quantization, set_quantization
from tosa_state.dialects.tfl.state import VariableTensorOp
from tosa_state.frontends.tflite import (
    control_flow,
    convolution,
    data_movement,
    elementwise,
    matrix,
    quantized,
    rnn,
    state,
)
from tosa_state.frontends.tflite.common import Builder, OperatorInput
from tosa_state.frontends.tflite.reader import (
    OPERATOR_NAMES,
    CheckedModel,
    TensorInfo,
    TFLiteError,
    Where,
    guarded,
    map_file,
    tensor_type,
)

BUILDERS: dict[int, Builder] = {
    **elementwise.BUILDERS,
    **data_movement.BUILDERS,
    **matrix.BUILDERS,
    **convolution.BUILDERS,
    **rnn.BUILDERS,
    **control_flow.BUILDERS,
    **state.BUILDERS,
    **quantized.BUILDERS,
}
SOURCE_ATTR = OPERATOR_ATTR
"""Discardable attribute on each imported op: `operator #12 (FULLY_CONNECTED) in subgraph
'main'`, used by the conversion's diagnostics."""
FILE_ATTR = "tfl.file"
"""Module attribute: the path of the imported `.tflite` file."""


def supported_operators() -> list[str]:
    """The TFLite builtin operators the frontend imports, by name."""
    return sorted(OPERATOR_NAMES.get(code, str(code)) for code in BUILDERS)


def import_tflite(path: str | os.PathLike[str], ctx: Context | None = None) -> ModuleOp:
    """Read `path` (a `.tflite` file) into a module of `tfl` ops; `TFLiteError` if it is
    malformed or uses what tosa-state does not support."""
    try:
        data = map_file(str(path))
    except OSError as error:
        raise TFLiteError(f"{path}: error: cannot read the model: {error.strerror}") from None
    return _Importer(CheckedModel(str(path), data)).run()


class _Importer:
    def __init__(self, model: CheckedModel):
        self.model = model
        names: list[str] = []
        for index in range(model.num_subgraphs):
            name = model.subgraph_name(index)
            base, suffix = name, 1
            while name in names:
                name, suffix = f"{base}_{suffix}", suffix + 1
            names.append(name)
        self.names = names
        self.deferred: list[tuple[Operation, Where]] = []

    def run(self) -> ModuleOp:
        funcs = [self._subgraph(i) for i in range(self.model.num_subgraphs)]
        module = ModuleOp(funcs)
        module.attributes[FILE_ATTR] = StringAttr(self.model.path)
        for op, where in self.deferred:  # control flow: needs the other functions
            _verify(op, where)
        return module

    # -- tensors ------------------------------------------------------------------------

    def _tensors(self, subgraph: object, where: Where) -> list[TensorInfo]:
        count = self.model.length("tensors", subgraph.TensorsLength, where)  # type: ignore[attr-defined]
        infos = []
        for index in range(count):
            def read(index: int = index) -> TensorInfo:
                tensor = subgraph.Tensors(index)  # type: ignore[attr-defined]
                name = (tensor.Name() or b"").decode("utf-8")
                rank = self.model.length(f"the shape of tensor #{index}", tensor.ShapeLength,
                                         where)
                shape = [int(tensor.Shape(i)) for i in range(min(rank, 64))]
                signature = self.model.length(f"the shape signature of tensor #{index}",
                                              tensor.ShapeSignatureLength, where)
                if signature == rank:  # -1 marks a dynamic dim
                    shape = [int(tensor.ShapeSignature(i)) for i in range(min(rank, 64))]
                if rank > 64:
                    shape = [0] * rank
                what = f"tensor #{index} ('{name}')"
                return TensorInfo(index, name, tensor_type(tensor.Type(), shape, where, what),
                                  tensor.Buffer(), bool(tensor.IsVariable()),
                                  self._quantization(tensor, where, what))
            infos.append(guarded(where, f"tensor #{index}", read))
        return infos

    def _quantization(self, tensor: object, where: Where, what: str) -> Quantization | None:
        params = tensor.Quantization()  # type: ignore[attr-defined]
        if params is None:
            return None
        count = self.model.length(f"the scales of {what}", params.ScaleLength, where)
        if count == 0:
            return None
        zero_count = self.model.length(f"the zero points of {what}", params.ZeroPointLength,
                                       where)
        if zero_count not in (0, count):
            raise where.error(f"{what} has {count} scales but {zero_count} zero points")
        scales = tuple(float(params.Scale(i)) for i in range(count))
        zeros = tuple(int(params.ZeroPoint(i)) for i in range(zero_count)) or (0,) * count
        return Quantization(scales, zeros, int(params.QuantizedDimension()))

    def _index_list(self, read_length: object, read: object, what: str, where: Where,
                    num_tensors: int, optional: bool = False) -> list[int]:
        count = self.model.length(what, read_length, where)  # type: ignore[arg-type]
        indices = [int(guarded(where, what, lambda i=i: read(i))) for i in range(count)]  # type: ignore[operator, misc]
        for index in indices:
            if not (0 <= index < num_tensors or (optional and index == -1)):
                raise where.error(
                    f"{what}: tensor index {index} is out of range [0, {num_tensors})"
                )
        return indices

    # -- subgraphs ----------------------------------------------------------------------

    def _subgraph(self, index: int) -> FuncOp:
        name = self.names[index]
        where = Where(self.model.path, name)
        subgraph = guarded(where, "the subgraph", lambda: self.model.model.Subgraphs(index))
        tensors = self._tensors(subgraph, where)
        inputs = self._index_list(subgraph.InputsLength, subgraph.Inputs, "inputs", where,
                                  len(tensors))
        outputs = self._index_list(subgraph.OutputsLength, subgraph.Outputs, "outputs", where,
                                   len(tensors))
        block = Block(arg_types=[tensors[i].type for i in inputs])
        values: dict[int, SSAValue] = dict(zip(inputs, block.args, strict=True))
        builder = _SubgraphBuilder(self, where, tensors, values, block)
        count = self.model.length("operators", subgraph.OperatorsLength, where)
        for op_index in range(count):
            builder.operator(op_index, guarded(where, f"operator #{op_index}",
                                               lambda i=op_index: subgraph.Operators(i)))
        results = [builder.value(i, where, "output") for i in outputs]
        block.add_op(ReturnOp(*results))
        func = FuncOp(name, FunctionType.from_lists(block.arg_types, [r.type for r in results]),
                      Region(block), visibility="public" if index == 0 else "private")
        if index == 0:
            in_names, out_names = self._signature_names(inputs, outputs, tensors)
            func.arg_attrs = _name_attrs(in_names)
            func.res_attrs = _name_attrs(out_names)
        return func

    def _signature_names(self, inputs: Sequence[int], outputs: Sequence[int],
                         tensors: Sequence[TensorInfo]) -> tuple[list[str], list[str]]:
        """Input and output names: the signature's keys, else the tensor names."""
        by_tensor: dict[int, str] = {}
        model, where = self.model.model, self.model.where
        count = self.model.length("signatures", model.SignatureDefsLength)
        for s in range(count):
            def read(s: int = s) -> None:
                signature = model.SignatureDefs(s)
                if signature.SubgraphIndex() != 0:
                    return
                for i in range(self.model.length("signature inputs", signature.InputsLength)):
                    entry = signature.Inputs(i)
                    by_tensor[entry.TensorIndex()] = entry.Name().decode("utf-8")
                for i in range(self.model.length("signature outputs", signature.OutputsLength)):
                    entry = signature.Outputs(i)
                    by_tensor[entry.TensorIndex()] = entry.Name().decode("utf-8")
            guarded(where, f"signature #{s}", read)
        def names(indices: Sequence[int]) -> list[str]:
            return [by_tensor.get(i, tensors[i].name) for i in indices]
        return names(inputs), names(outputs)

    def function_name(self, index: int, what: str, where: Where) -> str:
        self.model.check_subgraph_index(index, where, what)
        if index == 0:
            raise where.error(f"the {what} subgraph is the entry subgraph (recursion)")
        return self.names[index]


FULLY_CONNECTED_CODE = BuiltinOperator.FULLY_CONNECTED
HYBRID_WEIGHTS: dict[int, tuple[int, ...]] = {
    **matrix.HYBRID_WEIGHTS, **convolution.HYBRID_WEIGHTS, **rnn.HYBRID_WEIGHTS}
"""The builtin operators that take quantized int8 weights with float activations (LiteRT's
hybrid kernels), and the positions of those weights."""


def _form(info: TensorInfo) -> str:
    """`i8, per-channel (80 scales, dimension 0)` / `i16, per-tensor`."""
    element = info.type.element_type if isinstance(info.type, TensorType) else info.type
    q = info.quantization
    assert q is not None
    if len(q.scales) == 1:
        return f"{element}, per-tensor"
    return f"{element}, per-channel ({len(q.scales)} scales, dimension {q.dimension})"


def _name_attrs(names: Sequence[str]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr([DictionaryAttr({"tosa_state.name": StringAttr(n)}) for n in names])


def _verify(op: Operation, where: Where) -> None:
    try:
        op.verify()
    except VerifyException as error:
        raise where.error(f"invalid operator: {error}") from None


class _SubgraphBuilder:
    """Builds the ops of one subgraph into `block`, mapping tensor indices to values."""

    def __init__(self, importer: _Importer, where: Where, tensors: list[TensorInfo],
                 values: dict[int, SSAValue], block: Block):
        self.importer, self.where, self.tensors = importer, where, tensors
        self.values, self.block = values, block
        self.quantized_constants: set[int] = set()
        """Quantized constant tensors an operator takes (its int8 / i32 values imported)."""

    def value(self, index: int, where: Where, what: str) -> SSAValue:
        """The value of tensor `index`: computed before, or a constant from its buffer."""
        if index in self.values:
            return self.values[index]
        info = self.tensors[index]
        if info.is_variable:  # persistent across calls: state, named after the tensor
            if not isinstance(info.type, TensorType) or not info.type.has_static_shape():
                raise where.error(f"variable tensor #{index} ('{info.name}') needs a static "
                                  "shape")
            variable = VariableTensorOp(info.name or f"variable_tensor{index}", info.type)
            self.block.add_op(variable)
            self.values[index] = variable.output
            return variable.output
        raw = self.importer.model.buffer_bytes(info.buffer, where)
        if not raw or not isinstance(info.type, TensorType):
            raise where.error(f"{what} tensor #{index} ('{info.name}') is used before any "
                              "operator computes it and has no constant data")
        if info.quantized and index not in self.quantized_constants:
            raise where.error(f"{what} tensor #{index} ('{info.name}') is quantized, which "
                              "tosa-state does not support yet")
        const = PseudoConstOp(self.importer.model.constant(info, raw, where))
        self.block.add_op(const)
        self.values[index] = const.output
        return const.output

    def _check_quantized(self, code: int, inputs: Sequence[int], outputs: Sequence[int],
                         where: Where) -> bool:
        """Whether the operator runs on quantized tensors (full-integer); refused, naming the
        operator, unless they are int8 (an i32 bias) of an operator with an integer lowering,
        or the int8 weight of a hybrid operator (float input and output, zero points 0)."""
        used = [(p, i) for p, i in enumerate(inputs) if i != -1]
        marked = [(p, i) for p, i in used if self.tensors[i].quantized]
        marked_out = [i for i in outputs if self.tensors[i].quantized]
        if not marked and not marked_out:
            return False
        hybrid = HYBRID_WEIGHTS.get(code, ())
        if not marked_out and {p for p, _ in marked} <= set(hybrid) and \
                not self.tensors[inputs[0]].quantized:
            for _, index in marked:
                info = self.tensors[index]
                assert info.quantization is not None
                if not isinstance(info.type, TensorType) or info.type.element_type != i8 or \
                        any(info.quantization.zero_points) or \
                        not self.importer.model.buffer_bytes(info.buffer, where):
                    raise where.error(f"input tensor #{index} ('{info.name}'): a hybrid weight "
                                      "must be a constant int8 tensor with zero points 0, got "
                                      f"{_form(info)}")
                self.quantized_constants.add(index)
            return False
        for position, index in [*marked, *[(-1, o) for o in marked_out]]:
            info = self.tensors[index]
            what = f"{'output' if position < 0 else 'input'} tensor #{index} ('{info.name}')"
            element = info.type.element_type if isinstance(info.type, TensorType) else None
            allowed = element == i8 or (element == i32 and code == FULLY_CONNECTED_CODE
                                        and position == 2)
            if code not in quantized.INTEGER_OPERATORS or not allowed:
                raise where.error(f"{what} is quantized ({_form(info)}), which tosa-state does "
                                  "not support for this operator yet")
            if position >= 0:
                self.quantized_constants.add(index)
        if code not in (BuiltinOperator.QUANTIZE, BuiltinOperator.DEQUANTIZE):
            for index in [i for _, i in used if not self.tensors[i].quantized] + \
                    [o for o in outputs if not self.tensors[o].quantized]:
                info = self.tensors[index]
                if isinstance(info.type, TensorType) and isinstance(
                        info.type.element_type, AnyFloat):
                    raise where.error(f"tensor #{index} ('{info.name}') is float while others of "
                                      "the operator are quantized, which tosa-state does not "
                                      "support for this operator yet")
        return True

    def operator(self, index: int, operator: object) -> None:
        model, tensors = self.importer.model, self.tensors
        opcode_index = guarded(self.where, f"operator #{index}", operator.OpcodeIndex)  # type: ignore[attr-defined]
        if not 0 <= opcode_index < len(model.opcodes):
            raise self.where.error(f"operator #{index}: opcode index {opcode_index} is out of "
                                   f"range [0, {len(model.opcodes)})")
        code = model.opcodes[opcode_index]
        op_name = OPERATOR_NAMES.get(code, f"builtin #{code}")
        where = Where(model.path, self.where.subgraph, f"operator #{index} ({op_name})")
        builder = BUILDERS.get(code)
        if builder is None:
            raise where.error(f"the builtin operator {op_name} is not supported (supported: "
                              f"{', '.join(supported_operators())})")
        inputs = self.importer._index_list(operator.InputsLength, operator.Inputs, "inputs",  # type: ignore[attr-defined]
                                           where, len(tensors), optional=True)
        outputs = self.importer._index_list(operator.OutputsLength, operator.Outputs,  # type: ignore[attr-defined]
                                            "outputs", where, len(tensors))
        low, high = builder.inputs
        if not low <= len(inputs) <= high:
            raise where.error(f"expects {low}..{high} inputs, got {len(inputs)}")
        if builder.outputs is not None and len(outputs) != builder.outputs:
            raise where.error(f"expects {builder.outputs} outputs, got {len(outputs)}")
        for out in outputs:
            if out in self.values:
                raise where.error(f"output tensor #{out} is already computed (each tensor "
                                  "has one producer)")
        quantization = [None if i == -1 else tensors[i].quantization for i in inputs]
        integer = self._check_quantized(code, inputs, outputs, where)
        operands = [None if i == -1 else self.value(i, where, "input") for i in inputs]
        result_types: list[Attribute] = [tensors[o].type for o in outputs]
        op_input = OperatorInput(
            operands, result_types,
            guarded(where, "builtin options", operator.BuiltinOptions),  # type: ignore[attr-defined]
            guarded(where, "builtin options type", operator.BuiltinOptionsType),  # type: ignore[attr-defined]
            where, lambda i, what: self.importer.function_name(i, what, where), quantization,
            [tensors[o].quantization for o in outputs])
        op = builder.build(op_input)
        if integer and code not in (BuiltinOperator.QUANTIZE, BuiltinOperator.DEQUANTIZE):
            set_quantization(op, quantization, op_input.result_quantization)
        source = StringAttr(f"{where.operator} in subgraph '{where.subgraph}'")
        op.attributes[SOURCE_ATTR] = source
        op.location = NameLoc(source, UnknownLoc())  # carried to the ops converted from it
        if op.name in ("tfl.while", "tfl.call_once"):
            self.importer.deferred.append((op, where))
        else:
            _verify(op, where)
        for out, result in zip(outputs, op.results, strict=True):
            if isinstance(result.type, ResourceType) != isinstance(tensors[out].type,
                                                                    ResourceType):
                raise where.error("resource handles and tensors are mixed up")
            self.values[out] = result
        self.block.add_op(op)


__all__ = ["FILE_ATTR", "SOURCE_ATTR", "TFLiteError", "import_tflite", "supported_operators"]
