"""The OpenVINO oracle of the differential tests: `tosa_state.validation`'s session, and the
largest differences seen, for the summary at the end of the test session."""

from __future__ import annotations

from tosa_state.validation.openvino_session import DeclaredVariable, OpenVINOSession

MAX_ERRORS: dict[str, float] = {}
"""Largest absolute difference from OpenVINO seen per compared model (reported at the end
of the session by `conftest.pytest_terminal_summary`)."""

__all__ = ["MAX_ERRORS", "DeclaredVariable", "OpenVINOSession"]
