"""The rules a module must keep to be a TOSA graph of a target (`Target`), as upstream
MLIR's `TosaValidation` checks them: every op a TOSA operator of the target's
specification version, its types admitted by one of the target's profiles (or an
extension the target has), the extensions the operator needs, and the level's limits.
`violations` lists every op that breaks a rule, not only the first."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from tosa_state.diagnostics import describe_layer, location_prefix

from .target import Target
from .type_support import SPELLINGS, STRUCTURAL, SUPPORT, requirements, signature

_SHAPE_OPS = ("tosa.dim", "tosa.add_shape", "tosa.sub_shape", "tosa.mul_shape",
              "tosa.div_floor_shape", "tosa.max_shape", "tosa.min_shape", "tosa.concat_shape",
              "tosa.shape_from_tensor")
_HINTS = {
    "tosa_state.dequantize": "expand it (tosa-expand-dequantize)",
    **{name: "a run-time shape computation (TOSA 1.1 draft 'shape' extension): give the model "
             "static input shapes" for name in _SHAPE_OPS},
}
_OP_EXTENSIONS = {"tosa.variable": "variable", "tosa.variable_read": "variable",
                  "tosa.variable_write": "variable", "tosa.cond_if": "controlflow",
                  "tosa.while_loop": "controlflow"}
_ROUNDING_EXTENSIONS = {"DOUBLE_ROUND": "doubleround", "INEXACT_ROUND": "inexactround"}
_KERNEL_OPS = ("tosa.conv2d", "tosa.depthwise_conv2d", "tosa.transpose_conv2d",
               "tosa.avg_pool2d", "tosa.max_pool2d")
_CONTROL_FLOW = ("tosa.cond_if", "tosa.while_loop")


@dataclass(frozen=True)
class Violation:
    """One op breaking one rule of the target."""

    op: Operation
    rule: str
    """`operator`, `profile`, `extension` or `level`."""
    message: str

    def __str__(self) -> str:
        layer = describe_layer(self.op)
        where = f" ({layer})" if layer else ""
        return (f"{location_prefix(self.op)}error: '{self.op.name}' op {self.message}{where} "
                f"[{self.rule}]")


def violations(module: ModuleOp, target: Target) -> list[Violation]:
    """Every violation of `target` in `module`, in program order."""
    found: list[Violation] = []
    functions = [op for op in module.body.block.ops if op.name == "func.func"]
    if len(functions) != 1:
        found.append(Violation(module, "operator", f"holds {len(functions)} functions; a TOSA "
                               "graph is one function (the entry)"))
    for op, depth in _walk(module):
        found.extend(_check(op, depth, target))
    return found


def _walk(op: Operation, depth: int = 0) -> Iterator[tuple[Operation, int]]:
    """Every op nested in `op`, with how many control-flow ops enclose it."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield inner, depth
                yield from _walk(inner, depth + (inner.name in _CONTROL_FLOW))


def _check(op: Operation, depth: int, target: Target) -> Iterator[Violation]:
    name = SPELLINGS.get(op.name, op.name)
    if name not in SUPPORT and name not in STRUCTURAL:
        hint = _HINTS.get(name)
        yield Violation(op, "operator", f"is not a TOSA {target.version} operator"
                        + (f": {hint}" if hint else ""))
        return
    yield from _profile(op, name, target)
    yield from _extension(op, name, target)
    yield from _level(op, name, depth, target)


def _profile(op: Operation, name: str, target: Target) -> Iterator[Violation]:
    if name not in SUPPORT:
        return
    types = signature(name, op)
    ways = requirements(name, types)
    if not ways:
        yield Violation(op, "profile", f"has types ({', '.join(types)}), which no TOSA "
                        f"{target.version} profile or extension supports")
        return
    if any(set(profiles) & target.profiles and (ext is None or ext in target.extensions)
           for profiles, ext in ways):
        return
    needs = sorted({p for profiles, _ in ways for p in profiles}
                   | {ext for _, ext in ways if ext is not None})
    yield Violation(op, "profile", f"with types ({', '.join(types)}) requires any of "
                    f"[{', '.join(needs)}] profiles/extensions to be specified in the target")


def _extension(op: Operation, name: str, target: Target) -> Iterator[Violation]:
    needed = _OP_EXTENSIONS.get(name)
    if name == "tosa.rescale":
        mode = op.properties.get("rounding_mode")
        needed = _ROUNDING_EXTENSIONS.get(getattr(mode, "data", str(mode)).upper()
                                          if mode is not None else "")
    if needed is not None and needed not in target.extensions:
        yield Violation(op, "extension", f"requires the '{needed}' extension")


def _level(op: Operation, name: str, depth: int, target: Target) -> Iterator[Violation]:
    limits = target.limits
    types = [v.type for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    if name == "tosa.variable":
        types.append(op.tensor_type)  # type: ignore[attr-defined]
    for tensor_type in types:
        shape = tensor_type.get_shape()
        if len(shape) > limits.max_rank:
            yield _over(op, f"rank {len(shape)} exceeds MAX_RANK {limits.max_rank}", limits)
        if any(d < 0 for d in shape):
            if limits.static_shapes:
                yield _over(op, f"shape of '{tensor_type}' has a dynamic dimension", limits)
            continue
        size = _bytes(tensor_type)
        if size >= 2**limits.max_log2_size:
            yield _over(op, f"tensor '{tensor_type}' has {size} bytes, over "
                        f"2^{limits.max_log2_size}", limits)
    if depth > limits.max_nesting:
        yield _over(op, f"is nested {depth} control-flow levels deep, over MAX_NESTING "
                    f"{limits.max_nesting}", limits)
    if name in ("tosa.concat", *_CONTROL_FLOW) and len(op.operands) > limits.max_tensor_list_size:
        yield _over(op, f"takes {len(op.operands)} tensors, over MAX_TENSOR_LIST_SIZE "
                    f"{limits.max_tensor_list_size}", limits)
    if name in _KERNEL_OPS:
        yield from _kernel(op, name, limits)


def _kernel(op: Operation, name: str, limits) -> Iterator[Violation]:
    def values(prop: str) -> list[int]:
        attr = op.properties.get(prop)
        return list(attr.get_values()) if attr is not None and hasattr(attr, "get_values") else []

    kernel = values("kernel")
    if not kernel and name != "tosa.avg_pool2d" and name != "tosa.max_pool2d":
        weight = op.operands[1].type
        if isinstance(weight, TensorType):
            shape = weight.get_shape()
            kernel = list(shape[:2]) if name == "tosa.depthwise_conv2d" else list(shape[1:3])
    dilation = values("dilation") or [1] * len(kernel)
    for k, d in zip(kernel, dilation, strict=False):
        if k * d > limits.max_kernel:
            yield _over(op, f"kernel {k} x dilation {d} exceeds MAX_KERNEL {limits.max_kernel}",
                        limits)
    for p in values("pad") + values("out_pad"):
        if p > limits.max_kernel:
            yield _over(op, f"pad {p} exceeds MAX_KERNEL {limits.max_kernel}", limits)
    for s in values("stride"):
        if s > limits.max_stride:
            yield _over(op, f"stride {s} exceeds MAX_STRIDE {limits.max_stride}", limits)


def _over(op: Operation, message: str, limits) -> Violation:
    return Violation(op, "level", f"failed level {limits.name} check: {message}")


def _bytes(tensor_type: TensorType) -> int:
    count = 1
    for d in tensor_type.get_shape():
        count *= d
    width = getattr(tensor_type.get_element_type(), "bitwidth", 32)
    return count * max(width, 8) // 8
