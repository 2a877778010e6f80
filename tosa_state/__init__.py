"""tosa-state: a compiler and runtime for stateful ML models, built on xDSL."""

from tosa_state.context import make_context

__all__ = ["make_context"]
