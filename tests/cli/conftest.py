"""Shared fixtures of the command-line tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kartentisch.locale import set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts in English and leaves the process in English."""
    set_language("en")
    yield
    set_language("en")
