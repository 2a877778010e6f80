"""TOSA 1.0's type support: which element types each operator takes under which profile.

Transcribed from the specification's "Supported Data Types" tables (TOSA 1.0.1, profiles
PRO-INT and PRO-FP), the same tables upstream MLIR's `TosaValidation` generates its
compliance data from. A row lists the element types in the order `signature` reads them
from an op: its tensor operands (shape operands left out), then its accumulator type where
it has one, then its results; a few operators read differently (`_READERS`). Rows whose
profiles are `ANY` are legal under either profile.

Extensions are not tabulated row by row: a signature that no profile row admits is checked
again with its extension types in their base type's place (`EXTENSION_TYPES`: `i16` for
`int16` is only tried where `i8` is a profile type, `bf16` where `f32` is, ...); a match
then needs that extension.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    TensorType,
    TypeAttribute,
)
from xdsl.ir import Attribute, Operation

INT, FP = "pro_int", "pro_fp"
ANY = (INT, FP)

Rows = tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


def _rows(*groups: tuple[tuple[str, ...], str]) -> Rows:
    """`(profiles, "i8,i32 f16,i32")`: rows separated by spaces, types by commas."""
    return tuple((profiles, tuple(row.split(",")))
                 for profiles, text in groups for row in text.split())


_I, _F, _A = (INT,), (FP,), ANY
_UNARY_FP = _rows((_F, "f16,f16 f32,f32"))
_MOVE = _rows((_A, "bool,bool"), (_I, "i8,i8 i16,i16 i32,i32"), (_F, "f16,f16 f32,f32"))
_BITWISE = _rows((_I, "i8,i8,i8 i16,i16,i16 i32,i32,i32"))
_COMPARE = _rows((_I, "i32,i32,bool"), (_F, "f16,f16,bool f32,f32,bool"))
_CONV = _rows((_I, "i8,i8,i32,i8,i8,i32,i32"),
              (_F, "f16,f16,f16,f16,f16,f16,f16 f16,f16,f16,f16,f16,f32,f16 "
                   "f32,f32,f32,f32,f32,f32,f32"))

SUPPORT: dict[str, Rows] = {
    "tosa.argmax": _rows((_I, "i8,i32"), (_F, "f16,i32 f32,i32")),
    "tosa.avg_pool2d": _rows((_I, "i8,i8,i8,i32,i8"),
                             (_F, "f16,f16,f16,f16,f16 f16,f16,f16,f32,f16 f32,f32,f32,f32,f32")),
    "tosa.conv2d": _CONV,
    "tosa.conv3d": _CONV,
    "tosa.depthwise_conv2d": _CONV,
    "tosa.transpose_conv2d": _CONV,
    "tosa.matmul": _rows((_I, "i8,i8,i8,i8,i32"),
                         (_F, "f16,f16,f16,f16,f16 f16,f16,f16,f16,f32 f32,f32,f32,f32,f32")),
    "tosa.max_pool2d": _rows((_I, "i8,i8"), (_F, "f16,f16 f32,f32")),
    "tosa.clamp": _rows((_I, "i8,i8"), (_F, "f16,f16 f32,f32")),
    "tosa.erf": _UNARY_FP,
    "tosa.sigmoid": _UNARY_FP,
    "tosa.tanh": _UNARY_FP,
    "tosa.add": _rows((_A, "i32,i32,i32"), (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.sub": _rows((_A, "i32,i32,i32"), (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.arithmetic_right_shift": _BITWISE,
    "tosa.bitwise_and": _BITWISE,
    "tosa.bitwise_or": _BITWISE,
    "tosa.bitwise_xor": _BITWISE,
    "tosa.intdiv": _rows((_A, "i32,i32,i32")),
    "tosa.logical_and": _rows((_A, "bool,bool,bool")),
    "tosa.logical_or": _rows((_A, "bool,bool,bool")),
    "tosa.logical_xor": _rows((_A, "bool,bool,bool")),
    "tosa.logical_left_shift": _rows((_A, "i8,i8,i8 i16,i16,i16 i32,i32,i32")),
    "tosa.logical_right_shift": _rows((_A, "i8,i8,i8 i16,i16,i16 i32,i32,i32")),
    "tosa.maximum": _rows((_I, "i32,i32,i32"), (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.minimum": _rows((_I, "i32,i32,i32"), (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.mul": _rows((_I, "i8,i8,i32 i16,i16,i32"), (_A, "i32,i32,i32"),
                      (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.pow": _rows((_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.table": _rows((_I, "i8,i8,i8")),
    "tosa.abs": _rows((_I, "i32,i32"), (_F, "f16,f16 f32,f32")),
    "tosa.bitwise_not": _rows((_I, "i8,i8 i16,i16 i32,i32")),
    "tosa.ceil": _UNARY_FP,
    "tosa.clz": _rows((_I, "i32,i32")),
    "tosa.cos": _UNARY_FP,
    "tosa.exp": _UNARY_FP,
    "tosa.floor": _UNARY_FP,
    "tosa.log": _UNARY_FP,
    "tosa.logical_not": _rows((_A, "bool,bool")),
    "tosa.negate": _rows((_I, "i8,i8,i8,i8 i16,i16,i16,i16 i32,i32,i32,i32"),
                         (_F, "f16,f16,f16,f16 f32,f32,f32,f32")),
    "tosa.reciprocal": _UNARY_FP,
    "tosa.rsqrt": _UNARY_FP,
    "tosa.sin": _UNARY_FP,
    "tosa.select": _rows((_A, "bool,bool,bool"), (_I, "i8,i8,i8 i16,i16,i16 i32,i32,i32"),
                         (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.equal": _COMPARE,
    "tosa.greater": _COMPARE,
    "tosa.greater_equal": _COMPARE,
    "tosa.reduce_all": _rows((_A, "bool,bool")),
    "tosa.reduce_any": _rows((_A, "bool,bool")),
    "tosa.reduce_max": _rows((_I, "i8,i8 i16,i16 i32,i32"), (_F, "f16,f16 f32,f32")),
    "tosa.reduce_min": _rows((_I, "i8,i8 i16,i16 i32,i32"), (_F, "f16,f16 f32,f32")),
    "tosa.reduce_product": _UNARY_FP,
    "tosa.reduce_sum": _rows((_I, "i32,i32"), (_F, "f16,f16 f32,f32")),
    "tosa.concat": _rows((_A, "bool,bool"), (_I, "i8,i8 i32,i32"), (_F, "f16,f16 f32,f32")),
    "tosa.pad": _rows((_A, "bool,bool,bool"), (_I, "i8,i8,i8 i16,i16,i16 i32,i32,i32"),
                      (_F, "f16,f16,f16 f32,f32,f32")),
    "tosa.reshape": _MOVE,
    "tosa.reverse": _MOVE,
    "tosa.slice": _MOVE,
    "tosa.tile": _MOVE,
    "tosa.transpose": _MOVE,
    "tosa.gather": _rows((_I, "i8,i32,i8 i16,i32,i16 i32,i32,i32"),
                         (_F, "f16,i32,f16 f32,i32,f32")),
    "tosa.scatter": _rows((_I, "i8,i32,i8,i8 i16,i32,i16,i16 i32,i32,i32,i32"),
                          (_F, "f16,i32,f16,f16 f32,i32,f32,f32")),
    "tosa.resize": _rows((_I, "i8,i32 i8,i8"), (_F, "f16,f16 f32,f32")),
    "tosa.cast": _rows(
        (_I, "bool,i8 bool,i16 bool,i32 i8,bool i8,i16 i8,i32 i16,bool i16,i8 i16,i32 "
             "i32,bool i32,i8 i32,i16"),
        (_F, "i8,f16 i8,f32 i16,f16 i16,f32 i32,f16 i32,f32 f16,i8 f16,i16 f16,i32 f16,f32 "
             "f32,i8 f32,i16 f32,i32 f32,f16")),
    "tosa.rescale": _rows((_I, "i8,i8,i8,i8 i8,i8,i16,i16 i8,i8,i32,i32 i16,i16,i8,i8 "
                               "i16,i16,i16,i16 i16,i16,i32,i32 i32,i32,i8,i8 "
                               "i32,i32,i16,i16 i32,i32,i32,i32")),
    "tosa.const": _rows((_A, "bool i8 i16 i32"), (_F, "f16 f32")),
    "tosa.identity": _rows((_A, "bool,bool i8,i8 i16,i16 i32,i32"), (_F, "f16,f16 f32,f32")),
    "tosa.variable": _rows((_I, "i8"), (_F, "f16 f32")),
    "tosa.variable_read": _rows((_I, "i8"), (_F, "f16 f32")),
    "tosa.variable_write": _rows((_I, "i8"), (_F, "f16 f32")),
}
"""Operator (upstream name) -> its rows: (profiles any of which admits it, element types)."""

STRUCTURAL = frozenset({"tosa.cond_if", "tosa.while_loop", "tosa.yield", "tosa.const_shape",
                        "func.func", "func.return", "builtin.module"})
"""TOSA 1.0 operators (and the function around them) without a type table."""

SPELLINGS = {"tosa.variable.read": "tosa.variable_read",
             "tosa.variable.write": "tosa.variable_write"}
"""Our dotted spellings of upstream's operator names."""

EXTENSION_TYPES = {"i16": ("int16", "i8"), "i48": ("int16", "i32"), "i4": ("int4", "i8"),
                   "bf16": ("bf16", "f32"), "fp8e4m3": ("fp8e4m3", "f16"),
                   "fp8e5m2": ("fp8e5m2", "f16")}
"""An extension type -> (the extension, the base type a row must hold in its place)."""

EXTENSION_ROWS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "tosa.table": (("int16", ("i16", "i16", "i32")),),
    "tosa.matmul": (("int16", ("i16", "i16", "i16", "i16", "i48")),),
}
"""Extension rows the substitution of `EXTENSION_TYPES` does not give (the accumulator or
table types of 16-bit integers differ from the 8-bit ones')."""


def type_name(attr: Attribute) -> str:
    """The spec's name of an element (or tensor) type: `bool`, `i8`, `f32`, `bf16`, ...;
    the MLIR spelling for a type TOSA has not (`f64`, `ui8`, `i64`)."""
    if isinstance(attr, TensorType):
        attr = attr.get_element_type()
    if isinstance(attr, IntegerType):
        width = attr.width.data
        if width == 1:
            return "bool"
        if attr.signedness.data != Signedness.SIGNLESS:
            return str(attr)
        return f"i{width}"
    return {Float16Type: "f16", Float32Type: "f32", BFloat16Type: "bf16",
            Float8E4M3FNType: "fp8e4m3", Float8E5M2Type: "fp8e5m2"}.get(type(attr), str(attr))


def _tensor_types(values) -> list[str]:
    return [type_name(v.type) for v in values if isinstance(v.type, TensorType)]


def _default(op: Operation) -> list[str]:
    return _tensor_types(op.operands) + _tensor_types(op.results)


def _with_accumulator(op: Operation) -> list[str]:
    acc = op.properties.get("acc_type")
    extra = [type_name(acc)] if isinstance(acc, TypeAttribute) else []
    return _tensor_types(op.operands) + extra + _tensor_types(op.results)


def _variable(op: Operation) -> list[str]:
    element = op.properties.get("type")
    return [type_name(element)] if element is not None else []


_READERS: dict[str, Callable[[Operation], list[str]]] = {
    "tosa.mul": lambda op: _tensor_types(op.operands[:2]) + _tensor_types(op.results),
    "tosa.select": lambda op: _tensor_types(op.operands[1:]) + _tensor_types(op.results),
    "tosa.concat": lambda op: _tensor_types(op.operands[:1]) + _tensor_types(op.results),
    "tosa.rescale": lambda op: _tensor_types([op.operands[0], op.operands[3], op.operands[4]])
    + _tensor_types(op.results),
    "tosa.conv2d": _with_accumulator,
    "tosa.conv3d": _with_accumulator,
    "tosa.depthwise_conv2d": _with_accumulator,
    "tosa.transpose_conv2d": _with_accumulator,
    "tosa.avg_pool2d": _with_accumulator,
    "tosa.variable": _variable,
}


def signature(name: str, op: Operation) -> tuple[str, ...]:
    """The element types of `op` (upstream name `name`) in its rows' order."""
    return tuple(_READERS.get(name, _default)(op))


def requirements(name: str, types: tuple[str, ...]) -> list[tuple[tuple[str, ...], str | None]]:
    """Each way `types` is legal for operator `name`: (profiles any of which admits it, the
    extension it also needs or None). Empty when no row admits it, even with extensions."""
    rows = SUPPORT[name]
    ways = [(profiles, None) for profiles, row in rows if row == types]
    ways += [((INT,) if extension in ("int16", "int4") else (FP,), extension)
             for extension, row in EXTENSION_ROWS.get(name, ()) if row == types]
    if ways:
        return ways
    extensions = {EXTENSION_TYPES[t][0] for t in types if t in EXTENSION_TYPES}
    if len(extensions) != 1:
        return []
    (extension,) = extensions
    base = tuple(EXTENSION_TYPES[t][1] if t in EXTENSION_TYPES else t for t in types)
    return [(profiles, extension) for profiles, row in rows if row == base]
