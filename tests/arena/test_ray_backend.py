"""The Ray backend plays the same games as the local backend (marked ``ray``).

Starting Ray takes some twenty seconds, a large share of the quick suite, so this test runs
with ``KARTENTISCH_SOAK=1`` (``make soak``) and when asked for by its marker
(``pytest -m ray``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kartentisch.arena import run_arena


def _interruptible() -> None:
    """In the child: take SIGINT's default back (a shell's background job inherits it ignored,
    and Python then installs no KeyboardInterrupt handler), so the test's Ctrl-C reaches it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

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


@pytest.mark.ray
@pytest.mark.parametrize(("stop", "code", "group"), [
    (signal.SIGTERM, 143, False), (signal.SIGINT, 130, True)])
def test_ray_run_stops_with_the_local_exit_codes(stop: signal.Signals, code: int, group: bool,
                                                 tmp_path: Path,
                                                 pytestconfig: pytest.Config) -> None:
    """SIGTERM gives 143 and Ctrl-C to the process group 130 on Ray as on the local backend
    (Ray's own SIGTERM handler would exit with 15), with every finished game kept and no
    traceback; 10^9 games are scheduled lazily here too."""
    if not _wanted(pytestconfig):
        pytest.skip("Ray start-up is slow: runs with KARTENTISCH_SOAK=1 or -m ray")
    pytest.importorskip("ray")
    out = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        preexec_fn=_interruptible, args=
        [sys.executable, "-m", "kartentisch.cli", "arena", "krass-kariert", "--bots", "random",
         "--games", "1000000000", "--workers", "2", "--backend", "ray", "--no-progress",
         "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "LANG": "C"}, start_new_session=group)
    try:
        deadline = time.monotonic() + 180
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.1)
        assert out.stat().st_size, "no game finished"
        if group:
            os.killpg(proc.pid, stop)
        else:
            proc.send_signal(stop)
        assert proc.wait(timeout=120) == code
        error = proc.stderr.read().decode() if proc.stderr else ""
        assert "Traceback" not in error and "Stopped after" in error
        lines = out.read_text().splitlines()
        assert lines and all(json.loads(line)["format"] for line in lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
