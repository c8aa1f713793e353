"""The Ray backend plays the same games as the local backend (marked ``ray``).

Starting Ray takes some twenty seconds, a large share of the quick suite, so this test runs
with ``KARTENTISCH_SOAK=1`` (``make soak``) and when asked for by its marker
(``pytest -m ray``).
"""

from __future__ import annotations

import os

import pytest

from kartentisch.arena import run_arena


def _wanted(config: pytest.Config) -> bool:
    return os.environ.get("KARTENTISCH_SOAK") == "1" or "ray" in str(
        config.getoption("markexpr", default=""))


@pytest.mark.ray
def test_ray_backend_equals_local_backend(pytestconfig: pytest.Config) -> None:
    if not _wanted(pytestconfig):
        pytest.skip("Ray start-up is slow: runs with KARTENTISCH_SOAK=1 or -m ray")
    pytest.importorskip("ray")
    lineup = "heuristic,random,ismcts:iterations=3:rollout=random"
    local = run_arena("krass-kariert", lineup, 6, seed=12, workers=2)
    remote = run_arena("krass-kariert", lineup, 6, seed=12, workers=2, backend="ray")
    assert remote.records == local.records
    assert remote.summary(timings=False) == local.summary(timings=False)
