"""Module verification with MLIR-style diagnostics.

xDSL's verifier raises bare exceptions; this driver walks the module the same way
(nested ops first) and reports the first failure as `file:line:col: error: 'op' op msg`.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr
from xdsl.ir import Block, ErasedSSAValue, Operation, SSAValue
from xdsl.traits import (
    ConstantLike,
    HasParent,
    IsTerminator,
    SymbolOpInterface,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from tosa_state.diagnostics import VerificationError, error_at
from tosa_state.symbol_cache import frozen_ir


def verify_module(module: Operation) -> None:
    """Raise `VerificationError` naming the first op (innermost first) that does not verify.

    Runs in `frozen_ir()`: symbol lookups are indexed once, so verification is linear in
    the size of the module. A compute op whose verification depends only on what
    `verification_signature` holds is verified once per signature (a decoder repeats each
    of its layers' ops with the same types, operands' producers and properties)."""
    verified: set[Hashable] = set()
    with frozen_ir():
        for op in module.walk(reverse=False, region_first=True):
            signature = verification_signature(op)
            if signature is not None and signature in verified:
                continue
            try:
                op.verify(verify_nested_ops=False)
            except (VerifyException, DiagnosticException) as error:
                raise VerificationError(
                    error_at(op, f"'{op.name}' op {_first_line(error)}")
                ) from None
            if signature is not None:
                verified.add(signature)


_CONTEXT_TRAITS = (HasParent, IsTerminator, SymbolOpInterface, SymbolUserOpInterface,
                   ConstantLike)


def verification_signature(op: Operation) -> Hashable | None:
    """What the verification of `op` depends on, when `op` is a compute op (of
    `_DIALECTS`; no regions, no symbols, not a terminator or a constant, not last in its
    block; detached, or in a block); else None.

    Besides the op's class, operand and result types, properties and attributes, these
    verifiers read only their operands' producers (the TOSA ones): a constant's values
    (`tosa.const`, `tosa.const_shape`, `arith.constant`: a small one's values are in the
    signature, else the producer itself, which the signature keeps alive and whose values
    do not change) or a producer's name (a shape op). Two ops of one signature verify
    alike; so one verification stands for both."""
    if not _compute_op(type(op)) or op.regions or op.successors:
        return None
    block = op.parent
    if block is not None and block.last_op is op:
        return None  # the terminator rules
    operands = []
    for value in op.operands:
        origin = _origin(value)
        if origin is None:
            return None
        operands.append((value.type, origin))
    properties = sorted(op.properties.items())
    attributes = sorted(op.attributes.items())
    if any(isinstance(v, DenseIntOrFPElementsAttr | DenseResourceAttr)
           for _, v in (*properties, *attributes)):
        return None  # weights: hashing them would cost more than verifying
    parent = type(block.parent_op()) if block is not None else None
    return (type(op), parent, tuple(operands), tuple(op.result_types),
            tuple(properties), tuple(attributes))


_DIALECTS = ("tosa.", "memref.", "arith.", "tensor.", "bufferization.", "openvino.")
"""Dialects whose verifiers read nothing beyond `verification_signature` but for the ops
of `_CONTEXT_TRAITS` (a terminator looking at its parent, `memref.get_global` at its symbol)
and TOSA's variable ops (symbols)."""


@cache
def _compute_op(cls: type[Operation]) -> bool:
    """Whether ops of `cls` have verifiers that depend on no context (no parent, position
    or symbol)."""
    return (cls.name.startswith(_DIALECTS) and not cls.name.startswith("tosa.variable")
            and not any(isinstance(trait, _CONTEXT_TRAITS) for trait in cls.traits))


def _origin(value: SSAValue) -> Hashable | None:
    if isinstance(value, ErasedSSAValue):
        return None
    owner = value.owner
    if isinstance(owner, Block):
        return "block argument"
    if _constant(type(owner)):
        values = owner.properties.get("values", owner.properties.get("value"))
        if isinstance(values, DenseIntOrFPElementsAttr) and len(values) <= _SMALL:
            return owner.name, values  # a shape, a scalar: by value
        return owner  # by identity (its values may be large)
    return owner.name


_SMALL = 16
"""Constants of up to this many elements are compared by value in signatures."""


@cache
def _constant(cls: type[Operation]) -> bool:
    return cls.name == "arith.constant" or any(isinstance(t, ConstantLike) for t in cls.traits)


def _first_line(error: Exception) -> str:
    message = str(error.args[0]) if error.args else str(error)
    return message.removeprefix("Operation does not verify: ")
