"""The error of a broken promise, shared by the conformance checks and the determinism
checks (its own module, so that neither imports the other for it)."""

from __future__ import annotations

from collections.abc import Mapping


class ConformanceError(AssertionError):
    """An invariant does not hold. The message names where: variant, seed, ply, invariant."""

    def __init__(self, invariant: str, detail: str, where: Mapping[str, object]) -> None:
        self.invariant = invariant
        self.detail = detail
        self.where = dict(where)
        place = ", ".join(f"{k}={v!r}" for k, v in self.where.items())
        super().__init__(f"[{invariant}] {detail} ({place})")
