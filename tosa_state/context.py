"""The xDSL context holding every dialect tosa-state understands."""

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.bufferization import Bufferization
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf

from tosa_state.dialects.ml_program import ML_PROGRAM
from tosa_state.dialects.openvino import OpenVINO
from tosa_state.dialects.stream import STREAM
from tosa_state.dialects.tensor import TENSOR
from tosa_state.dialects.tfl import TFL
from tosa_state.dialects.tosa import TOSA
from tosa_state.dialects.tosa_state import TOSA_STATE


def make_context() -> Context:
    """A fresh context with the builtin, func, arith, memref, scf, bufferization, tosa,
    ml_program, openvino, tfl, tosa_state (compressed weights), (upstream's `tensor.bitcast`)
    tensor and (IREE's named parameters) stream dialects."""
    ctx = Context()
    dialects = (Builtin, Func, Arith, MemRef, Scf, Bufferization, TOSA, ML_PROGRAM, OpenVINO,
                TFL, TENSOR, TOSA_STATE, STREAM)
    for dialect in dialects:
        ctx.load_dialect(dialect)
    return ctx
