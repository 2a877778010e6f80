"""The rules a module must keep to be a TOSA graph of a target (`Target`), as upstream
MLIR's `TosaValidation` checks them: every op a TOSA operator of the target's
specification version, its types admitted by one of the target's profiles (or an
extension the target has), the extensions the operator needs, and the level's limits.
`violations` lists every op that breaks a rule, not only the first."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, TensorType, UnknownLoc
from xdsl.ir import Block, Operation, Region, SSAValue

from tosa_state.diagnostics import describe_layer, location_prefix
from tosa_state.dialects.tosa.common import constant_shape

from .target import Target
from .type_support import SPELLINGS, STRUCTURAL, SUPPORT, requirements, signature

_SHAPE_OPS = ("tosa.dim", "tosa.add_shape", "tosa.sub_shape", "tosa.mul_shape",
              "tosa.div_floor_shape", "tosa.max_shape", "tosa.min_shape", "tosa.concat_shape",
              "tosa.shape_from_tensor")
_HINTS = {
    "tosa_state.dequantize": "expand it (tosa-expand-dequantize)",
    "tosa_state.check_capacity": "a static state's capacity guard (tosa-static-state) on rows "
                                 "known at run time, which TOSA cannot hold: give the model "
                                 "static input shapes (the host then checks it: "
                                 "tosa-host-capacity-checks)",
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
    """`operator`, `profile`, `extension`, `level` or `spec` (a rule of the specification
    the op's form breaks)."""
    message: str

    def __str__(self) -> str:
        located = _located(self.op)
        layer = describe_layer(located) if located is not None else None
        where = "" if layer is None else f" ({layer})" if located is self.op else \
            f" (made for {layer})"
        return (f"{location_prefix(located)}error: '{self.op.name}' op {self.message}{where} "
                f"[{self.rule}]")


def _located(op: Operation, depth: int = 3) -> Operation | None:
    """`op` if it has a location or a source layer; else the nearest op it feeds (or that
    feeds it) that has one: an op a pass made in place of others (a folded constant, a
    reshape) is named by the layer it computes for."""
    if not isinstance(op.location, UnknownLoc) or describe_layer(op) is not None:
        return op
    if depth == 0:
        return None
    neighbours = [use.operation for result in op.results for use in result.uses]
    neighbours += [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    for neighbour in neighbours:
        if (found := _located(neighbour, depth - 1)) is not None:
            return found
    return None


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
    if name in _CONTROL_FLOW:
        yield from _isolated(op, name)
    if name == "tosa.reshape" and -1 in (constant_shape(op.operands[1]) or ()):
        yield Violation(op, "spec", "shape input contains inferable dimension (-1) which "
                        "does not conform to the TOSA specification")
    if not name.startswith("tosa."):
        return  # the function around the graph: its signature is its ops' operands
    seen: set[str] = set()  # a limit broken by several operands is one violation
    for violation in _level(op, name, depth, target):
        if violation.message not in seen:
            seen.add(violation.message)
            yield violation


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


_REGION_NAMES = {"tosa.cond_if": ("then", "else"), "tosa.while_loop": ("cond", "body")}


def _isolated(op: Operation, name: str) -> Iterator[Violation]:
    """TOSA's control flow regions take their values as block arguments: a region that uses
    a value from outside it is not conformant (upstream's strict spec alignment)."""
    for region, region_name in zip(op.regions, _REGION_NAMES[name], strict=False):
        for inner in region.walk():
            if any(not _inside(operand, region) for operand in inner.operands):
                yield Violation(op, "spec", f"requires the '{region_name}' region to be "
                                "isolated from above (it uses a value defined outside it)")
                break


def _inside(value: SSAValue, region: Region) -> bool:
    block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    while block is not None:
        parent = block.parent
        if parent is region:
            return True
        if parent is None or (owner := parent.parent) is None:
            return False
        block = owner.parent_block()
    return False


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
