"""Suite-wide test settings: which tests ``make soak`` runs.

A test file that reads ``KARTENTISCH_SOAK`` runs its properties with a quick count in
``make test`` and with the long count when the variable is ``1``. Every test of such a file
gets the ``soak`` marker, so ``make soak`` (``KARTENTISCH_SOAK=1 pytest -m soak tests``) runs
all of them without a list to keep up to date: a new soak switch is picked up by itself.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

SOAK_SWITCH = "KARTENTISCH_SOAK"
TESTS = Path(__file__).resolve().parent


@functools.cache
def reads_soak_switch(path: Path) -> bool:
    """Whether the test file at ``path`` mentions the soak switch."""
    try:
        return SOAK_SWITCH in path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of a file with a soak switch ``soak`` (files under ``tests/`` only:
    the doctests of ``src`` have no long counts)."""
    for item in items:
        if (item.path.suffix == ".py" and item.path.is_relative_to(TESTS)
                and reads_soak_switch(item.path)):
            item.add_marker(pytest.mark.soak)
