"""Shared fixtures of the command-line tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kartentisch.locale import set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts in English and leaves the process in English."""
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def data_directory(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    """Games saved without --save go to a fresh data directory, never the user's."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("KARTENTISCH_DATA_DIR", str(folder))
    return folder
