"""Generate the Keras models of the TFLite tests, their .tflite exports and Keras goldens.

Run with TensorFlow installed (not part of the test extra, see docs/tflite.md):
    pip install tensorflow-cpu==2.21.0 tf-keras==2.21.0
    python tests/tflite_models/make_tflite_models.py [OUTDIR]

For every model it writes `NAME.tflite` (TensorFlow's `TFLiteConverter.from_keras_model`) and
`NAME_keras.npz`: `inputs` (steps x input shape, f32), `outputs` (what Keras computed at each
step), `reset_at` (steps before which Keras's `reset_state()` was called) and
`state/<variable path>#<i>` (Keras's state variables after the last step; the converter names
a VAR_HANDLE after the variable's path, numbering repeated paths: `lstm/rnn_state`,
`lstm/rnn_state_1`, in an order Keras does not tell).

`quantized/` holds the dynamic-range (hybrid) and full-integer exports of `QUANTIZED`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from keras_stateful_lstm import seed_lstm

keras = tf.keras
STEPS = 12
RESET_AT = (6,)


def stateful_gru() -> keras.Model:
    inputs = keras.layers.Input(shape=(4, 8), batch_size=1)
    gru = keras.layers.GRU(16, stateful=True)(inputs)
    return keras.Model([inputs], [keras.layers.Dense(3)(gru)])


def stacked_lstm_batch2() -> keras.Model:
    inputs = keras.layers.Input(shape=(3, 6), batch_size=2)
    x = keras.layers.LSTM(12, stateful=True, return_sequences=True)(inputs)
    x = keras.layers.LSTM(8, stateful=True)(x)
    return keras.Model([inputs], [keras.layers.Dense(4)(x)])


def simple_rnn() -> keras.Model:
    inputs = keras.layers.Input(shape=(2, 5), batch_size=1)
    x = keras.layers.SimpleRNN(10, stateful=True, return_sequences=True)(inputs)
    return keras.Model([inputs], [x])


def gru_relu_batch3() -> keras.Model:
    """GRU with another activation, every step returned, batch 3."""
    inputs = keras.layers.Input(shape=(3, 5), batch_size=3)
    x = keras.layers.GRU(8, activation="relu", stateful=True, return_sequences=True)(inputs)
    return keras.Model([inputs], [x])


def simple_rnn_relu_batch2() -> keras.Model:
    """SimpleRNN with relu, the last step only, batch 2, then a Dense."""
    inputs = keras.layers.Input(shape=(4, 3), batch_size=2)
    x = keras.layers.SimpleRNN(7, activation="relu", stateful=True)(inputs)
    return keras.Model([inputs], [keras.layers.Dense(2)(x)])


class StreamingBuffer(keras.layers.Layer):
    """The last `frames` input frames kept in a non-trainable variable (kws_streaming style)."""

    def __init__(self, frames: int, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.frames = frames

    def build(self, input_shape: tuple[int, ...]) -> None:
        self.buffer = self.add_weight(
            name="buffer", shape=(input_shape[0], self.frames, input_shape[2]),
            initializer="zeros", trainable=False)

    def call(self, x: tf.Tensor) -> tf.Tensor:
        window = tf.concat([self.buffer[:, x.shape[1]:, :], x], axis=1)
        self.buffer.assign(window)
        return window

    def reset_state(self) -> None:
        self.buffer.assign(tf.zeros_like(self.buffer))


def conv1d_streaming() -> keras.Model:
    inputs = keras.layers.Input(shape=(1, 4), batch_size=1)
    window = StreamingBuffer(3)(inputs)
    x = keras.layers.Conv1D(6, 3, activation="relu")(window)
    return keras.Model([inputs], [x])


def dense() -> keras.Model:
    inputs = keras.layers.Input(shape=(7,), batch_size=1)
    x = keras.layers.Dense(5, activation="tanh")(inputs)
    return keras.Model([inputs], [keras.layers.Dense(2)(x)])


def lstm_sequence() -> keras.Model:
    """Non-stateful LSTM: the converter fuses it to UNIDIRECTIONAL_SEQUENCE_LSTM."""
    inputs = keras.layers.Input(shape=(5, 8), batch_size=1)
    return keras.Model([inputs], [keras.layers.LSTM(16, return_sequences=True)(inputs)])


def rnn_sequence() -> keras.Model:
    inputs = keras.layers.Input(shape=(5, 8), batch_size=1)
    return keras.Model([inputs], [keras.layers.SimpleRNN(6)(inputs)])


MODELS: dict[str, Callable[[], keras.Model]] = {
    "seed_lstm": seed_lstm,
    "stateful_gru": stateful_gru,
    "stacked_lstm_batch2": stacked_lstm_batch2,
    "simple_rnn": simple_rnn,
    "gru_relu_batch3": gru_relu_batch3,
    "simple_rnn_relu_batch2": simple_rnn_relu_batch2,
    "conv1d_streaming": conv1d_streaming,
    "dense": dense,
    "lstm_sequence": lstm_sequence,
    "rnn_sequence": rnn_sequence,
}


def _reset(model: keras.Model) -> None:
    for layer in model.layers:
        if hasattr(layer, "reset_state") and getattr(layer, "stateful", True):
            layer.reset_state()


def _state_variables(model: keras.Model) -> list[keras.Variable]:
    found = []
    for layer in model.layers:
        if getattr(layer, "stateful", False):
            found += list(layer.states)
        elif isinstance(layer, StreamingBuffer):
            found.append(layer.buffer)
    return found


def _keras_steps(model: keras.Model, inputs: np.ndarray) -> np.ndarray:
    """Keras's output at each step, its state reset first and before the steps of RESET_AT."""
    _reset(model)
    outputs = []
    for step in range(STEPS):
        if step in RESET_AT:
            _reset(model)
        outputs.append(np.asarray(model([inputs[step]])))
    return np.stack(outputs)


def export(name: str, build: Callable[[], keras.Model], outdir: Path) -> None:
    keras.backend.clear_session()  # layer names (and so variable names) start afresh
    keras.utils.set_random_seed(sum(map(ord, name)))
    model = build()
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    (outdir / f"{name}.tflite").write_bytes(converter.convert())
    rng = np.random.default_rng(len(name))
    in_shape = tuple(model.inputs[0].shape)
    inputs = rng.standard_normal((STEPS, *in_shape)).astype(np.float32)
    outputs = _keras_steps(model, inputs)
    states = {f"state/{v.path}#{i}": np.asarray(v) for i, v in enumerate(_state_variables(model))}
    np.savez(outdir / f"{name}_keras.npz", inputs=inputs, outputs=outputs,
             reset_at=np.asarray(RESET_AT), **states)


def tf_keras_lstm_sequence(outdir: Path) -> None:
    """tf_keras (Keras 2) non-stateful LSTM: the converter fuses it into
    UNIDIRECTIONAL_SEQUENCE_LSTM, whose state tensors are variable tensors that LiteRT keeps
    across calls. The goldens come from a stateful tf_keras twin with the same weights (the
    same semantics: state carried over, zeros after a reset)."""
    import tf_keras

    name = "tf_keras_lstm_sequence"
    tf_keras.utils.set_random_seed(5)
    inputs = tf_keras.layers.Input(shape=(5, 8), batch_size=1)
    model = tf_keras.Model(inputs, tf_keras.layers.LSTM(16, return_sequences=True)(inputs))
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    (outdir / f"{name}.tflite").write_bytes(converter.convert())
    twin_in = tf_keras.layers.Input(shape=(5, 8), batch_size=1)
    twin_lstm = tf_keras.layers.LSTM(16, return_sequences=True, stateful=True)
    twin = tf_keras.Model(twin_in, twin_lstm(twin_in))
    twin.set_weights(model.get_weights())
    rng = np.random.default_rng(len(name))
    inputs_np = rng.standard_normal((STEPS, 1, 5, 8)).astype(np.float32)
    outputs = []
    for step in range(STEPS):
        if step in RESET_AT:
            twin_lstm.reset_states()
        outputs.append(np.asarray(twin(inputs_np[step])))
    # The variable tensors have the converter's names ('arith.constant...'): any name ('*').
    states = {f"state/*#{i}": np.asarray(v) for i, v in enumerate(twin_lstm.states)}
    np.savez(outdir / f"{name}_keras.npz", inputs=inputs_np, outputs=np.stack(outputs),
             reset_at=np.asarray(RESET_AT), **states)


def hybrid_gru() -> keras.Model:
    """A stateful GRU large enough for the dynamic-range converter to quantize its kernels
    (it leaves tensors under 1024 elements in f32)."""
    inputs = keras.layers.Input(shape=(2, 16), batch_size=1)
    gru = keras.layers.GRU(32, stateful=True)(inputs)
    return keras.Model([inputs], [keras.layers.Dense(3)(gru)])


def seed_lstm_unrolled() -> keras.Model:
    """The seed's LSTM with `unroll=True`: TensorFlow's calibrator crashes on the WHILE form."""
    inputs = keras.layers.Input(shape=(1, 64), batch_size=1)
    lstm = keras.layers.LSTM(20, activation="relu", stateful=True, return_sequences=True,
                             unroll=True)(inputs)
    return keras.Model([inputs], [keras.layers.Dense(5)(lstm)])


def gru_unrolled() -> keras.Model:
    """A stateful GRU with `unroll=True` (full-integer conversion needs the unrolled form)."""
    inputs = keras.layers.Input(shape=(2, 8), batch_size=1)
    gru = keras.layers.GRU(12, stateful=True, unroll=True)(inputs)
    return keras.Model([inputs], [keras.layers.Dense(3)(gru)])


def int8_ops() -> keras.Model:
    """The other int8 operators: SUB, TANH, CONCATENATION, STRIDED_SLICE, a Dense with bias
    and fused RELU, MUL, ADD."""
    inputs = keras.layers.Input(shape=(6,), batch_size=2)
    a = keras.layers.Dense(8, activation="relu")(inputs)
    b = keras.layers.Dense(8, activation="tanh")(inputs)
    c = keras.layers.Subtract()([a, b])
    d = keras.layers.Multiply()([c, b])
    e = keras.layers.Concatenate()([d, a])
    f = keras.layers.Lambda(lambda t: t[:, 1:12:2])(e)
    g = keras.layers.Add()([f, keras.layers.Lambda(lambda t: t[:, :6])(inputs)])
    return keras.Model([inputs], [keras.layers.Activation("sigmoid")(g)])


def conv1d_streaming_wide() -> keras.Model:
    """The streaming Conv1D with enough weights (3 x 16 x 32) to be quantized."""
    inputs = keras.layers.Input(shape=(1, 16), batch_size=1)
    window = StreamingBuffer(3)(inputs)
    x = keras.layers.Conv1D(32, 3, activation="relu")(window)
    return keras.Model([inputs], [keras.layers.Dense(4)(x)])


# quantized/NAME.tflite: (model, form); "dynamic_range": int8 weights, float activations
# (`optimizations=[Optimize.DEFAULT]`, no dataset); "full_integer": a representative dataset,
# TFLITE_BUILTINS_INT8, int8 input and output. Their goldens are LiteRT's (run live by the
# tests); the npz holds the inputs, reset_at and Keras's float outputs for reference.
QUANTIZED: dict[str, tuple[Callable[[], keras.Model], str]] = {
    "seed_lstm_dynamic_range": (seed_lstm, "dynamic_range"),
    "gru_dynamic_range": (hybrid_gru, "dynamic_range"),
    "conv1d_streaming_dynamic_range": (conv1d_streaming_wide, "dynamic_range"),
    "seed_lstm_full_integer": (seed_lstm_unrolled, "full_integer"),
    "gru_full_integer": (gru_unrolled, "full_integer"),
    "int8_ops_full_integer": (int8_ops, "full_integer"),
}


def export_quantized(name: str, build: Callable[[], keras.Model], form: str,
                     outdir: Path) -> None:
    keras.backend.clear_session()
    keras.utils.set_random_seed(sum(map(ord, name)))
    model = build()
    in_shape = tuple(model.inputs[0].shape)
    rng = np.random.default_rng(len(name))
    calibration = rng.standard_normal((64, *in_shape)).astype(np.float32)
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    if form == "full_integer":
        def representative() -> object:
            for x in calibration:
                yield [x]

        converter.representative_dataset = representative
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    (outdir / f"{name}.tflite").write_bytes(converter.convert())
    inputs = rng.standard_normal((STEPS, *in_shape)).astype(np.float32)
    outputs = _keras_steps(model, inputs)
    np.savez(outdir / f"{name}_keras.npz", inputs=inputs, outputs=outputs,
             reset_at=np.asarray(RESET_AT))


def tf_keras_lstm_dynamic_range(outdir: Path) -> None:
    """A tf_keras LSTM(64) on 32 features (fused to UNIDIRECTIONAL_SEQUENCE_LSTM, each gate's
    weights large enough to be quantized) in dynamic-range form."""
    import tf_keras

    name = "tf_keras_lstm_dynamic_range"
    tf_keras.utils.set_random_seed(7)
    inputs = tf_keras.layers.Input(shape=(3, 32), batch_size=1)
    model = tf_keras.Model(inputs, tf_keras.layers.LSTM(64, return_sequences=True)(inputs))
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    (outdir / f"{name}.tflite").write_bytes(converter.convert())
    inputs_np = np.random.default_rng(len(name)).standard_normal((STEPS, 1, 3, 32))
    np.savez(outdir / f"{name}_keras.npz", inputs=inputs_np.astype(np.float32),
             outputs=np.stack([np.asarray(model(x[None].astype(np.float32)[0]))
                               for x in inputs_np]),
             reset_at=np.asarray(RESET_AT))


def main() -> None:
    outdir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    outdir.mkdir(parents=True, exist_ok=True)
    for name, build in MODELS.items():
        export(name, build, outdir)
        print(f"{name}: {(outdir / (name + '.tflite')).stat().st_size} bytes")
    tf_keras_lstm_sequence(outdir)
    (outdir / "quantized").mkdir(exist_ok=True)
    for name, (build, form) in QUANTIZED.items():
        export_quantized(name, build, form, outdir / "quantized")
        print(f"quantized/{name}: {(outdir / 'quantized' / (name + '.tflite')).stat().st_size} bytes")
    tf_keras_lstm_dynamic_range(outdir / "quantized")


if __name__ == "__main__":
    main()
