"""The Ray backend plays the same games as the local backend (marked ``ray``)."""

from __future__ import annotations

import pytest

from kartentisch.arena import run_arena


@pytest.mark.ray
def test_ray_backend_equals_local_backend() -> None:
    lineup = "heuristic,random,ismcts:iterations=3:rollout=random"
    local = run_arena("krass-kariert", lineup, 6, seed=12, workers=2)
    remote = run_arena("krass-kariert", lineup, 6, seed=12, workers=2, backend="ray")
    assert remote.records == local.records
    assert remote.summary(timings=False) == local.summary(timings=False)
