"""The ST Edge AI document's Keras stateful LSTM, exported to TFLite by TensorFlow.

    pip install tensorflow-cpu==2.21.0   # not a tosa-state dependency (see docs/tflite.md)
    python examples/keras_stateful_lstm.py

writes `keras_stateful_lstm.tflite` (the state is two TFLite resource variables,
`lstm/rnn_state` and `lstm/rnn_state_1`) and `keras_stateful_lstm_inputs.npz` (24 steps of
input under the signature's input name). Then:

    tosa-state-run examples/keras_stateful_lstm.tflite \\
        --inputs examples/keras_stateful_lstm_inputs.npz --reset-at 21 --print
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

HERE = Path(__file__).resolve().parent


def seed_lstm() -> tf.keras.Model:
    """Exactly the document's example: LSTM(20, relu, stateful, return_sequences) -> Dense(5)."""
    inputs = tf.keras.layers.Input(shape=(1, 64), batch_size=1)
    lstm = tf.keras.layers.LSTM(20, activation="relu", stateful=True,
                                return_sequences=True)(inputs)
    dense = tf.keras.layers.Dense(5)(lstm)
    return tf.keras.Model([inputs], [dense])


def main() -> None:
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(2)
    model = seed_lstm()
    tflite = tf.lite.TFLiteConverter.from_keras_model(model).convert()
    (HERE / "keras_stateful_lstm.tflite").write_bytes(tflite)
    interpreter = tf.lite.Interpreter(model_content=tflite)
    (name,) = interpreter.get_signature_runner().get_input_details()
    xs = np.random.default_rng(3).standard_normal((24, 1, 1, 64)).astype(np.float32)
    np.savez(HERE / "keras_stateful_lstm_inputs.npz", **{name: xs})


if __name__ == "__main__":
    main()
