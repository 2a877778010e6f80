"""The OpenVINO oracle of the differential tests: `tosa_state.validation`'s session, refused on
the models OpenVINO itself cannot be trusted on, and the largest differences seen, for the
summary at the end of the test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tosa_state.validation.openvino_session import DeclaredVariable, OpenVINOSession

MAX_ERRORS: dict[str, float] = {}
"""Largest absolute difference from OpenVINO seen per compared model (reported at the end
of the session by `conftest.pytest_terminal_summary`)."""


def trusted_session(xml: str | Path) -> OpenVINOSession:
    """An `OpenVINOSession` of `xml`; fails the test when its `caveats` say OpenVINO computes
    the model wrongly (an Assign fed by a Parameter, u8/i8/i64 arithmetic): no oracle then."""
    session = OpenVINOSession(xml)
    if session.caveats:
        pytest.fail(f"{Path(xml).name}: OpenVINO cannot be trusted on this model, not compared: "
                    + "; ".join(session.caveats), pytrace=False)
    return session


__all__ = ["MAX_ERRORS", "DeclaredVariable", "OpenVINOSession", "trusted_session"]
