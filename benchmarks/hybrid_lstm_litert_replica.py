"""A numpy replica of LiteRT's hybrid UNIDIRECTIONAL_SEQUENCE_LSTM cell (ai-edge-litert
2.3.0, x86-64 built-in kernels), every operation rounded to f32 as its SSE code does, and
its comparison with LiteRT and with tosa-state over a 300-call randomized run (a reset
every 12). The evidence behind the hybrid LSTM lowering (docs/tflite.md, "quantized"). It
prints, per contender, the calls not bitwise equal to LiteRT, and fails
(`agreement.Disagreement`) when tosa-state or the Eigen replica is not equal on every call
(the replica with the standard sigmoid / tanh is the contrast: it may differ).

    python benchmarks/hybrid_lstm_litert_replica.py [seed] [input scale]

Run after `pip install -e '.[test]'` (ai-edge-litert).
"""
import sys
from pathlib import Path

import numpy as np
from agreement import Disagreement
from ai_edge_litert.interpreter import Interpreter, OpResolverType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_tflite_quantized import litert_sigmoid, litert_tanh

BUILTIN = OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES

f32 = np.float32
P = str(Path(__file__).resolve().parent.parent
        / 'tests/tflite_models/quantized/tf_keras_lstm_dynamic_range.tflite')

def std_sigmoid(x):
    return (f32(1) / (f32(1) + np.exp(-x))).astype(f32)

def asym_quantize(v):
    rmin = min(f32(0), v.min())
    rmax = max(f32(0), v.max())
    if rmin == rmax:
        return np.zeros(v.shape, np.int32), f32(1), 0
    scale = float(f32(rmax - rmin)) / 255.0
    zmin = -128.0 - float(rmin) / scale
    zmax = 127.0 - float(rmax) / scale
    emin = 128.0 + abs(float(rmin) / scale)
    emax = 127.0 + abs(float(rmax) / scale)
    zd = zmin if emin < emax else zmax
    z = -128 if zd <= -128 else 127 if zd >= 127 else int(np.trunc(zd + np.copysign(0.5, zd)))
    sf = f32(scale)
    inv = f32(1) / sf
    t = v * inv
    r = np.trunc(t + np.where(t < 0, f32(-0.5), f32(0.5))).astype(np.int32)
    return np.clip(r + z, -128, 127), sf, z

class Model:
    def __init__(self, sig=litert_sigmoid, tanh=litert_tanh):
        it = Interpreter(model_path=P, experimental_op_resolver_type=BUILTIN)
        it.allocate_tensors()
        d = {t['index']: t for t in it.get_tensor_details()}
        g = it.get_tensor
        self.W = {n: (g(i).astype(np.int32), f32(d[i]['quantization'][0])) for n, i in
                  zip(['xi', 'xf', 'xc', 'xo', 'hi', 'hf', 'hc', 'ho'], range(4, 12), strict=True)}
        self.b = {'i': g(2), 'f': g(1), 'c': g(2), 'o': g(2)}
        self.sig, self.tanh = sig, tanh
        self.reset()

    def reset(self):
        self.h = np.zeros(64, f32)
        self.c = np.zeros(64, f32)

    def product(self, q, sf, z, name):
        w, ws = self.W[name]
        acc = w @ q - z * w.sum(axis=1)
        return acc.astype(f32) * (sf * ws)

    def gate(self, qx, qh, g):
        out = self.b[g].astype(f32).copy()
        if qx is not None:
            out = out + self.product(*qx, 'x' + g)
        if qh is not None:
            out = out + self.product(*qh, 'h' + g)
        return out

    def step(self, x):
        qx = asym_quantize(x) if x.any() else None
        qh = asym_quantize(self.h) if self.h.any() else None
        i = self.sig(self.gate(qx, qh, 'i'))
        f = self.sig(self.gate(qx, qh, 'f'))
        g = self.tanh(self.gate(qx, qh, 'c'))
        c = f * self.c
        c = c + g * i
        self.c = c
        o = self.sig(self.gate(qx, qh, 'o'))
        self.h = (o * self.tanh(c)).astype(f32)
        return self.h

    def infer(self, x):  # x [1, T, 32]
        return np.stack([self.step(x[0, t]) for t in range(x.shape[1])])[None]


def main() -> None:
    import tosa_state as ts

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0

    def litert() -> object:
        it = Interpreter(model_path=P, experimental_op_resolver_type=BUILTIN)
        it.allocate_tensors()
        return it.get_signature_runner()

    runner = litert()
    (name,) = runner.get_input_details()
    replicas = {"replica (Eigen sigmoid/tanh)": Model(),
                "replica with std sigmoid/tanh": Model(std_sigmoid, np.tanh)}
    request = ts.compile_model(P).create_infer_request()
    rng = np.random.default_rng(seed)
    stats = {k: [0, 0, 0.0] for k in [*replicas, "tosa-state"]}
    for call in range(300):
        if call and call % 12 == 0:
            runner = litert()
            request.reset_state()
            for m in replicas.values():
                m.reset()
        x = (rng.standard_normal((1, 3, 32)) * scale).astype(f32)
        (theirs,) = runner(**{name: x}).values()
        outs = {k: m.infer(x) for k, m in replicas.items()}
        outs["tosa-state"] = request.infer([x])[0]
        for k, o in outs.items():
            d = float(np.abs(o - theirs).max())
            stats[k][0] += int(not np.array_equal(o, theirs))
            stats[k][1] += int(d > 1e-4)
            stats[k][2] = max(stats[k][2], d)
    for k, (unequal, over, worst) in stats.items():
        print(f"{k}: {unequal}/300 calls not bitwise equal, {over} beyond 1e-4, max {worst:.3g}")
    unequal = [k for k in ("replica (Eigen sigmoid/tanh)", "tosa-state") if stats[k][0]]
    if unequal:
        raise Disagreement(f"{' and '.join(unequal)} not bitwise equal to LiteRT (seed {seed}, "
                           f"input scale {scale})")


if __name__ == "__main__":
    main()
