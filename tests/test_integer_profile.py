"""TOSA's integer profile in the interpreter against the TOSA reference model (`tosa-tools`) on
randomized cases, bit-exact: `tosa.rescale` (every rounding mode, per-channel, zero points,
signed and unsigned i8 / i16, i32), integer `tosa.mul` with a shift, i8 / i16
`tosa.matmul` and `tosa.conv2d` with zero points, `tosa.table` (i8 and i16). Each test
draws many cases into one function so that the reference model runs once."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir

pytestmark = [pytest.mark.peers, pytest.mark.usefixtures("tosa_reference_tools")]

ELEMENT = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32"}


def _type(shape: tuple[int, ...], dtype: np.dtype) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{ELEMENT[np.dtype(dtype)]}>"


def _const(name: str, values: np.ndarray) -> str:
    t = _type(values.shape, values.dtype)
    listed = ", ".join(str(int(v)) for v in values.reshape(-1))
    return (f'  %{name} = "tosa.const"() <{{values = dense<[{listed}]> : {t}}}> : () -> {t}')


@dataclass
class Program:
    """One function: its arguments (with the values drawn for them), body and results."""

    args: list[tuple[str, np.ndarray]]
    body: list[str]
    results: list[tuple[str, str]]
    inexact: set[str] = field(default_factory=set)

    def text(self) -> str:
        params = ", ".join(f"%{n}: {_type(v.shape, v.dtype)}" for n, v in self.args)
        types = ", ".join(t for _, t in self.results)
        names = ", ".join(f"%{n}" for n, _ in self.results)
        return (f"func.func @main({params}) -> ({types}) {{\n" + "\n".join(self.body)
                + f"\n  return {names} : {types}\n}}\n")

    def check(self) -> None:
        from peers.tosa_reference import run_reference

        text, inputs = self.text(), [v for _, v in self.args]
        module = parse_mlir(ts.make_context(), text, "integer.mlir")
        ours = ts.compile_model(module, pipeline="").create_infer_request().infer(inputs)
        (theirs,) = run_reference(text, [inputs]).outputs
        assert len(ours) == len(theirs) == len(self.results)
        for (name, _), mine, reference in zip(self.results, ours, theirs, strict=True):
            assert mine.dtype == reference.dtype, name
            if name in self.inexact:  # the reference model computes INEXACT_ROUND in f32
                wide = reference.astype(np.float64)
                bound = np.maximum(1.0, np.abs(wide) * 2.0**-23)
                assert np.all(np.abs(mine.astype(np.float64) - wide) <= bound), name
            else:
                np.testing.assert_array_equal(mine, reference, err_msg=f"%{name}\n{text}")


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype,
            bits: int | None = None) -> np.ndarray:
    """Uniform over the type (or `bits` signed bits), with its extremes in the first places."""
    info = np.iinfo(dtype)
    low, high = (info.min, info.max) if bits is None else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    x = rng.integers(low, high, shape, endpoint=True).astype(dtype)
    x.reshape(-1)[:2] = [low, high]
    return x


# (input, output, input_unsigned, output_unsigned): what TOSA 1.0's RESCALE allows
RESCALE_TYPES = [
    (np.int8, np.int8, False, False), (np.int8, np.int8, True, False),
    (np.int8, np.int8, False, True), (np.int8, np.int16, False, False),
    (np.int8, np.int32, False, False), (np.int16, np.int8, True, False),
    (np.int16, np.int8, False, False), (np.int16, np.int16, False, False),
    (np.int16, np.int16, True, False), (np.int16, np.int16, False, True),
    (np.int16, np.int32, False, False), (np.int32, np.int8, False, False),
    (np.int16, np.int8, False, True), (np.int32, np.int16, False, False),
    (np.int32, np.int32, False, False),
]


def _zero_point(rng: np.random.Generator, dtype: type, unsigned: bool) -> int:
    """i8 takes any zero point; unsigned i16 0 or 32768 (as -32768); others 0."""
    if dtype == np.int8:
        return int(rng.integers(-128, 128))
    if dtype == np.int16 and unsigned:
        return int(rng.choice([0, -32768]))
    return 0


def test_rescale_randomized() -> None:
    rng = np.random.default_rng(18)
    program = Program([], [], [])
    shape = (3, 5)
    for k in range(48):
        in_t, out_t, in_u, out_u = RESCALE_TYPES[k % len(RESCALE_TYPES)]
        scale32 = bool(k % 4) or in_t == np.int32  # and 16-bit multipliers
        rounding = ["SINGLE_ROUND", "INEXACT_ROUND", "DOUBLE_ROUND"][k % 3] if scale32 \
            else ["SINGLE_ROUND", "INEXACT_ROUND"][k % 2]
        per_channel = bool(rng.integers(2))
        n = shape[-1] if per_channel else 1
        if scale32:
            mult = rng.integers(1 << 30, (1 << 31) - 1, n, endpoint=True).astype(np.int32)
        else:
            mult = rng.integers(1 << 14, (1 << 15) - 1, n, endpoint=True).astype(np.int16)
        x = _values(rng, shape, in_t, 24 if in_t == np.int32 and k % 2 else None)
        izp = np.array([_zero_point(rng, in_t, in_u)], in_t)
        ozp = np.array([_zero_point(rng, out_t, out_u)], out_t)
        # shifts around the one that maps the input range onto the output range, and wide
        # ones (double rounding matters above 31); apply_scale REQUIREs |x - zp| < 2**(shift-1)
        widened = [x.view(f"u{x.itemsize}") if in_u else x, izp.view(f"u{x.itemsize}") if in_u
                   else izp]
        value = widened[0].astype(np.int64) - widened[1].astype(np.int64)
        least = max(2, int(np.abs(value).max()).bit_length() + 1)
        in_bits, out_bits = np.iinfo(in_t).bits, np.iinfo(out_t).bits
        centre = 30 + in_bits - out_bits + (0 if scale32 else -16)
        high_shift = 62 if scale32 else 46
        shift = np.clip(rng.integers(centre - 6, centre + 8, n), least, high_shift)
        shift[rng.random(n) < 0.2] = rng.integers(least, high_shift + 1)
        shift = shift.astype(np.int8)
        if k % 2:  # zero points as inputs, or constants (the interpreter prepares those)
            program.args += [(f"x{k}", x), (f"izp{k}", izp), (f"ozp{k}", ozp)]
        else:
            program.args.append((f"x{k}", x))
            program.body += [_const(f"izp{k}", izp), _const(f"ozp{k}", ozp)]
        program.body += [_const(f"m{k}", mult), _const(f"s{k}", shift)]
        i, o = _type(shape, in_t), _type(shape, out_t)
        flags = (f"input_unsigned = {str(in_u).lower()}, output_unsigned = {str(out_u).lower()}, "
                 f"per_channel = {str(per_channel).lower()}, rounding_mode = {rounding}, "
                 f"scale32 = {str(scale32).lower()}")
        program.body.append(
            f"  %r{k} = tosa.rescale %x{k}, %m{k}, %s{k}, %izp{k}, %ozp{k} {{{flags}}} : "
            f"({i}, {_type(mult.shape, mult.dtype)}, {_type(shift.shape, np.int8)}, "
            f"{_type((1,), in_t)}, {_type((1,), out_t)}) -> {o}")
        program.results.append((f"r{k}", o))
        if rounding == "INEXACT_ROUND":
            program.inexact.add(f"r{k}")
    program.check()


def test_mul_with_shift_randomized() -> None:
    """i32 x i32 with shifts 0..63 (the spec's rounding `(a*b + 2**(s-1)) >> s`, inputs small
    enough that the result fits), and i8 / i16 products into i32 (shift 0)."""
    rng = np.random.default_rng(5)
    program = Program([], [], [])
    shape = (4, 6)
    for k, shift in enumerate([0, 1, 2, 7, 15, 16, 30, 31, 32, 40, 47, 62, 63]):
        # |a*b| >> shift must stay within i32
        bits = min(31, (31 + shift) // 2)
        a, b = _values(rng, shape, np.int32, bits), _values(rng, (1, 6), np.int32, bits)
        program.args += [(f"a{k}", a), (f"b{k}", b)]
        program.body.append(_const(f"s{k}", np.array([shift], np.int8)))
        t = _type(shape, np.int32)
        program.body.append(f"  %r{k} = tosa.mul %a{k}, %b{k}, %s{k} : ({t}, {_type((1, 6), np.int32)},"
                            f" tensor<1xi8>) -> {t}")
        program.results.append((f"r{k}", t))
    program.body.append(_const("zero", np.array([0], np.int8)))
    for dtype in (np.int8, np.int16):
        name = ELEMENT[np.dtype(dtype)]
        a, b = _values(rng, shape, dtype), _values(rng, shape, dtype)
        program.args += [(f"a{name}", a), (f"b{name}", b)]
        t, o = _type(shape, dtype), _type(shape, np.int32)
        program.body.append(f"  %r{name} = tosa.mul %a{name}, %b{name}, %zero : ({t}, {t}, "
                            f"tensor<1xi8>) -> {o}")
        program.results.append((f"r{name}", o))
    program.check()


def test_matmul_with_zero_points_randomized() -> None:
    """i8 with random zero points into i32 (i16 x i16 -> i48 is not in tosa-state's TOSA)."""
    rng = np.random.default_rng(6)
    program = Program([], [], [])
    for k, (n, h, c, w) in enumerate([(1, 1, 64, 20), (2, 3, 7, 5), (1, 4, 128, 9)]):
        a, b = _values(rng, (n, h, c), np.int8), _values(rng, (n, c, w), np.int8)
        azp, bzp = (np.array([rng.integers(-128, 128)], np.int8) for _ in range(2))
        program.args += [(f"a{k}", a), (f"b{k}", b), (f"azp{k}", azp), (f"bzp{k}", bzp)]
        ta, tb, o = _type(a.shape, np.int8), _type(b.shape, np.int8), _type((n, h, w), np.int32)
        program.body.append(f"  %r{k} = tosa.matmul %a{k}, %b{k}, %azp{k}, %bzp{k} : ({ta}, {tb}, "
                            f"tensor<1xi8>, tensor<1xi8>) -> {o}")
        program.results.append((f"r{k}", o))
    program.check()


def test_conv2d_with_zero_points_randomized() -> None:
    """i8 conv2d / depthwise_conv2d with random input and weight zero points, strides,
    dilations and paddings; i32 bias."""
    rng = np.random.default_rng(7)
    program = Program([], [], [])
    cases = [((1, 7, 6, 3), (4, 3, 2, 3), (1, 2, 0, 0), (1, 2), (2, 1), "conv2d"),
             ((2, 5, 5, 8), (3, 1, 1, 8), (0, 0, 0, 0), (1, 1), (1, 1), "conv2d"),
             ((1, 6, 6, 4), (5, 3, 3, 4), (1, 0, 1, 0), (2, 2), (1, 1), "conv2d"),
             ((1, 6, 5, 3), (3, 2, 3, 2), (1, 1, 0, 1), (1, 1), (1, 2), "depthwise_conv2d")]
    for k, (xs, ws, pad, stride, dil, op) in enumerate(cases):
        depthwise = op == "depthwise_conv2d"
        kh, kw = (ws[0], ws[1]) if depthwise else (ws[1], ws[2])
        oh = (xs[1] + pad[0] + pad[1] - (kh - 1) * dil[0] - 1) // stride[0] + 1
        ow = (xs[2] + pad[2] + pad[3] - (kw - 1) * dil[1] - 1) // stride[1] + 1
        oc = ws[2] * ws[3] if depthwise else ws[0]
        out = (xs[0], oh, ow, oc)
        x, w = _values(rng, xs, np.int8), _values(rng, ws, np.int8)
        bias = rng.integers(-20000, 20000, oc).astype(np.int32)
        xzp, wzp = (np.array([rng.integers(-128, 128)], np.int8) for _ in range(2))
        program.args += [(f"x{k}", x), (f"w{k}", w), (f"b{k}", bias), (f"xzp{k}", xzp),
                         (f"wzp{k}", wzp)]

        def array(v: tuple[int, ...]) -> str:
            return f"array<i64: {', '.join(map(str, v))}>"

        tx, tw, o = _type(xs, np.int8), _type(ws, np.int8), _type(out, np.int32)
        program.body.append(
            f"  %r{k} = tosa.{op} %x{k}, %w{k}, %b{k}, %xzp{k}, %wzp{k} {{acc_type = i32, "
            f"dilation = {array(dil)}, pad = {array(pad)}, stride = {array(stride)}}} : "
            f"({tx}, {tw}, tensor<{oc}xi32>, tensor<1xi8>, tensor<1xi8>) -> {o}")
        program.results.append((f"r{k}", o))
    program.check()


def test_table_randomized() -> None:
    """Every i8 input through a random table; random i16 inputs (and the ends) through a
    random 513-entry table."""
    rng = np.random.default_rng(9)
    x8 = np.arange(-128, 128, dtype=np.int8).reshape(16, 16)
    t8 = _values(rng, (256,), np.int8)
    x16 = _values(rng, (8, 64), np.int16)
    x16.reshape(-1)[2:6] = [-32768 + 127, 32767 - 127, -1, 0]
    # neighbours differ by at most an i16 (the spec REQUIREs the slope to fit)
    t16 = np.clip(np.cumsum(rng.integers(-3000, 3000, 513)), -32768, 32767).astype(np.int16)
    program = Program([("x8", x8), ("t8", t8), ("x16", x16), ("t16", t16)], [
        "  %r8 = tosa.table %x8, %t8 : (tensor<16x16xi8>, tensor<256xi8>) -> tensor<16x16xi8>",
        "  %r16 = tosa.table %x16, %t16 : (tensor<8x64xi16>, tensor<513xi16>) -> tensor<8x64xi32>",
    ], [("r8", "tensor<16x16xi8>"), ("r16", "tensor<8x64xi32>")])
    program.check()
