"""The recurrent cells of the `openvino` dialect: LSTMCell-4, GRUCell-3, RNNCell-0,
LSTMSequence-5, GRUSequence-5, RNNSequence-5.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    f32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    bool_attr,
    check_integer_operand,
    check_same_element_type,
    format_shape,
    i64_attr,
    shapes_compatible,
    tensor_shape,
)


class _RecurrentCellOp(IRDLOperation):
    """Shared properties and checks of LSTMCell / GRUCell."""

    GATES: ClassVar[int]
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]]

    def _init_properties(
        self,
        hidden_size: int,
        activations: Sequence[str] | None,
        activations_alpha: Sequence[float],
        activations_beta: Sequence[float],
        clip: float,
    ) -> dict[str, Attribute]:
        return {
            "hidden_size": i64_attr(hidden_size),
            "activations": ArrayAttr(
                StringAttr(a) for a in (activations or self.DEFAULT_ACTIVATIONS)
            ),
            "activations_alpha": DenseArrayBase.from_list(f32, list(activations_alpha)),
            "activations_beta": DenseArrayBase.from_list(f32, list(activations_beta)),
            "clip": FloatAttr(clip, f32),
        }

    def _verify_cell(
        self,
        hidden: int,
        activations: Sequence[StringAttr],
        inputs: tuple[SSAValue, SSAValue, SSAValue, SSAValue],
    ) -> None:
        """Checks hidden_size, the activations and the shapes of X, W, R, B."""
        x, w, r, b = inputs
        if hidden < 1:
            raise VerifyException(f"{self.name}: hidden_size must be positive, got {hidden}")
        if len(activations) != len(self.DEFAULT_ACTIVATIONS):
            raise VerifyException(
                f"{self.name}: expects {len(self.DEFAULT_ACTIVATIONS)} activations, got "
                f"{len(activations)}"
            )
        check_same_element_type(self, self.operands, "operands")
        gates = self.GATES * hidden
        _expect_shape(self, x, "X", (DYNAMIC_INDEX, DYNAMIC_INDEX))
        input_size = _dim(x, 1)
        _expect_shape(self, w, "W", (gates, input_size))
        _expect_shape(self, r, "R", (gates, hidden))
        _expect_shape(self, b, "B", (self._bias_size(hidden),))

    def _bias_size(self, hidden: int) -> int:
        return self.GATES * hidden


def _dim(value: SSAValue, index: int) -> int:
    shape = tensor_shape(value.type)
    if shape is None or len(shape) <= index:
        return DYNAMIC_INDEX
    return shape[index]


def _expect_shape(op: IRDLOperation, value: SSAValue, what: str, expected: Sequence[int]) -> None:
    shape = tensor_shape(value.type)
    if not shapes_compatible(shape, expected):
        raise VerifyException(
            f"{op.name}: {what} must have shape {format_shape(expected)}, got {format_shape(shape)}"
        )


@irdl_op_definition
class LSTMCellOp(_RecurrentCellOp):
    """LSTMCell-4 / -1: one LSTM step. Gates are stacked in OpenVINO order f, i, c, o in
    W [4H, I], R [4H, H] and B [4H]; results are the new hidden and cell state [N, H].
    LSTMCell-1 adds peepholes P [3H] (f, i, o, as OpenVINO's reference splits them:
    `P_f ⊙ C` and `P_i ⊙ C` join the f and i gates, `P_o ⊙ C'` the o gate, C' the new cell)
    and `input_forget` (i = 1 - f).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/lstm-cell-1.html
    """

    name = "openvino.lstm_cell"

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    initial_cell_state = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    p = opt_operand_def(TensorLike)
    hidden_state = result_def(TensorLike)
    cell_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])
    input_forget = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    GATES: ClassVar[int] = 4
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh", "tanh")

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        hidden_size: int,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        input_forget: bool = False,
    ):
        """`operands`: X, H, C, W, R, B and (LSTMCell-1) P."""
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["input_forget"] = IntegerAttr.from_bool(input_forget)
        super().__init__(operands=[*operands[:6], list(operands[6:7])],
                         result_types=list(result_types), properties=props)

    def verify_(self) -> None:
        hidden = self.hidden_size.value.data
        self._verify_cell(hidden, self.activations.data, (self.x, self.w, self.r, self.b))
        if self.p is not None:
            _expect_shape(self, self.p, "P", (3 * hidden,))
        state_shape = (_dim(self.x, 0), hidden)
        for what, value in (
            ("initial_hidden_state", self.initial_hidden_state),
            ("initial_cell_state", self.initial_cell_state),
            ("hidden_state", self.hidden_state),
            ("cell_state", self.cell_state),
        ):
            _expect_shape(self, value, what, state_shape)


class _HiddenStateCellOp(_RecurrentCellOp):
    """A cell with one state H: GRUCell, RNNCell."""

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    hidden_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        hidden_size: int,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        linear_before_reset: bool | None = None,
    ):
        """`linear_before_reset`: GRUCell only."""
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        if linear_before_reset is not None:
            props["linear_before_reset"] = bool_attr(linear_before_reset)
        super().__init__(operands=list(operands), result_types=[result_type], properties=props)

    def verify_(self) -> None:
        hidden = self.hidden_size.value.data
        self._verify_cell(hidden, self.activations.data, (self.x, self.w, self.r, self.b))
        state_shape = (_dim(self.x, 0), hidden)
        _expect_shape(self, self.initial_hidden_state, "initial_hidden_state", state_shape)
        _expect_shape(self, self.hidden_state, "hidden_state", state_shape)


@irdl_op_definition
class GRUCellOp(_HiddenStateCellOp):
    """GRUCell-3: one GRU step. Gates are stacked in OpenVINO order z, r, h in W [3H, I] and
    R [3H, H]; B is [3H], or [4H] with `linear_before_reset`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/gru-cell-3.html
    """

    name = "openvino.gru_cell"

    linear_before_reset = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    GATES: ClassVar[int] = 3
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh")

    def _bias_size(self, hidden: int) -> int:
        return (4 if self.linear_before_reset.value.data else 3) * hidden


@irdl_op_definition
class RNNCellOp(_HiddenStateCellOp):
    """RNNCell-0 (opset1): one step of a plain recurrent cell,
    `H' = f(X W^T + H R^T + B)` with W [H, I], R [H, H], B [H].

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/rnn-cell-3.html
    """

    name = "openvino.rnn_cell"

    GATES: ClassVar[int] = 1
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("tanh",)


DIRECTIONS = ("forward", "reverse", "bidirectional")
"""The `direction` of LSTMSequence / GRUSequence."""


class _RecurrentSequenceOp(_RecurrentCellOp):
    """Shared checks of LSTMSequence-5 / GRUSequence-5: `X [N, T, I]`, states `[N, D, H]`,
    `sequence_lengths [N]`, `W [D, G*H, I]`, `R [D, G*H, H]`, `B [D, G*H]` (D = 2 when
    bidirectional), `Y [N, D, T, H]`."""

    def _verify_sequence(self, states: Sequence[SSAValue], lengths: SSAValue) -> None:
        x, w, r, b = self.x, self.w, self.r, self.b  # type: ignore[attr-defined]
        hidden = self.hidden_size.value.data  # type: ignore[attr-defined]
        direction = self.direction.data  # type: ignore[attr-defined]
        if direction not in DIRECTIONS:
            raise VerifyException(
                f"{self.name}: direction must be one of {', '.join(DIRECTIONS)}, got "
                f"'{direction}'"
            )
        if hidden < 1:
            raise VerifyException(f"{self.name}: hidden_size must be positive, got {hidden}")
        activations = self.activations.data  # type: ignore[attr-defined]
        count = len(self.DEFAULT_ACTIVATIONS)
        if len(activations) != count and not (
            direction == "bidirectional" and len(activations) == 2 * count
        ):
            per_direction = (
                f" (or {2 * count}, per direction)" if direction == "bidirectional" else ""
            )
            raise VerifyException(
                f"{self.name}: expects {count}{per_direction} activations, got "
                f"{len(activations)}"
            )
        check_same_element_type(self, (x, w, r, b, *states, *self.results),
                                 "X, W, R, B, states and results")
        check_integer_operand(self, lengths, "sequence_lengths")
        directions = 2 if direction == "bidirectional" else 1
        n, steps, gates = _dim(x, 0), _dim(x, 1), self.GATES * hidden
        _expect_shape(self, x, "X", (n, steps, DYNAMIC_INDEX))
        _expect_shape(self, lengths, "sequence_lengths", (n,))
        _expect_shape(self, w, "W", (directions, gates, _dim(x, 2)))
        _expect_shape(self, r, "R", (directions, gates, hidden))
        _expect_shape(self, b, "B", (directions, self._bias_size(hidden)))
        for index, state in enumerate(states):
            _expect_shape(self, state, f"initial state {index}", (n, directions, hidden))
        _expect_shape(self, self.results[0], "Y", (n, directions, steps, hidden))
        for result in self.results[1:]:
            _expect_shape(self, result, "output state", (n, directions, hidden))


@irdl_op_definition
class LSTMSequenceOp(_RecurrentSequenceOp):
    """LSTMSequence-5: LSTMCell-4 steps over `T` time steps, in `direction`; steps of a
    batch element beyond its `sequence_lengths` leave its state unchanged and output zeros.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/lstm-sequence-5.html
    """

    name = "openvino.lstm_sequence"

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    initial_cell_state = operand_def(TensorLike)
    sequence_lengths = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    y = result_def(TensorLike)
    hidden_state = result_def(TensorLike)
    cell_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])
    direction = prop_def(StringAttr)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    GATES: ClassVar[int] = 4
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh", "tanh")

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        hidden_size: int,
        direction: str,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
    ):
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["direction"] = StringAttr(direction)
        super().__init__(operands=list(operands), result_types=list(result_types), properties=props)

    def verify_(self) -> None:
        self._verify_sequence((self.initial_hidden_state, self.initial_cell_state),
                              self.sequence_lengths)


class _HiddenStateSequenceOp(_RecurrentSequenceOp):
    """A sequence with one state H: GRUSequence, RNNSequence."""

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    sequence_lengths = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    y = result_def(TensorLike)
    hidden_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])
    direction = prop_def(StringAttr)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        hidden_size: int,
        direction: str,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        linear_before_reset: bool | None = None,
    ):
        """`linear_before_reset`: GRUSequence only."""
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["direction"] = StringAttr(direction)
        if linear_before_reset is not None:
            props["linear_before_reset"] = bool_attr(linear_before_reset)
        super().__init__(operands=list(operands), result_types=list(result_types),
                         properties=props)

    def verify_(self) -> None:
        self._verify_sequence((self.initial_hidden_state,), self.sequence_lengths)


@irdl_op_definition
class GRUSequenceOp(_HiddenStateSequenceOp):
    """GRUSequence-5: GRUCell-3 steps over `T` time steps, in `direction` (see
    LSTMSequence-5 for `sequence_lengths`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/gru-sequence-5.html
    """

    name = "openvino.gru_sequence"

    linear_before_reset = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    GATES: ClassVar[int] = 3
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh")

    def _bias_size(self, hidden: int) -> int:
        return (4 if bool(self.linear_before_reset.value.data) else 3) * hidden


@irdl_op_definition
class RNNSequenceOp(_HiddenStateSequenceOp):
    """RNNSequence-5: RNNCell steps over `T` time steps, in `direction` (see
    LSTMSequence-5 for `sequence_lengths`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/rnn-sequence-5.html
    """

    name = "openvino.rnn_sequence"

    GATES: ClassVar[int] = 1
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("tanh",)


RNN_CELL_OPS = (
    LSTMCellOp,
    GRUCellOp,
    LSTMSequenceOp,
    GRUSequenceOp,
    RNNCellOp,
    RNNSequenceOp,
)
