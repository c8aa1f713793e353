"""The Ray backend plays the same games as the local backend, and a stopped Ray run ends as a
local one does: SIGTERM with 143, Ctrl-C to the process group with 130, every finished game
kept, no traceback (the issue's "exit codes the same on the local and the Ray backend").

Ray's start-up is slow (a GCS, a raylet and agent processes: some 6-12 s of wall time on two
loaded cores), so every case runs in this one test, at the same time: two ``arena --backend
ray`` processes, each starting its own local Ray as a user's command does, one stopped with
SIGTERM and one with Ctrl-C to its process group, and a local-backend run of the first's
lineup and seed to compare their records with. The runs schedule 10^9 games, lazily.

``make test`` starts this test (marked ``ray``) in the background before ruff and mypy and
runs the rest of the suite beside it (``-m "not ray"``), so that Ray's start-up overlaps the
other work instead of adding to it (xdist would schedule a one-test file last).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

pytestmark = pytest.mark.ray

LINEUP = "heuristic,random,ismcts:iterations=3:rollout=random"
"""A search bot, a heuristic and a random bot: records that show any difference in seeding."""
DEADLINE = 240.0
"""Seconds a run may take to finish its first games (Ray's start on a busy machine)."""


def _interruptible() -> None:
    """In the child: take SIGINT's default back (a shell's background job inherits it ignored,
    and Python then installs no KeyboardInterrupt handler), so the test's Ctrl-C reaches it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _arena(out: Path, *extra: str, group: bool = False,
           stderr: int | IO[bytes] = subprocess.PIPE) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "kartentisch.cli", "arena", "krass-kariert", "--bots", LINEUP,
         "--seed", "12", "--no-progress", "--out", str(out), *extra],
        preexec_fn=_interruptible, stdout=subprocess.DEVNULL, stderr=stderr, cwd=out.parent,
        env={**os.environ, "LANG": "C", "RAY_USAGE_STATS_ENABLED": "0"},
        start_new_session=group)


def _lines(path: Path) -> list[str]:
    """The complete lines of ``path`` (a line being written is left out)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return []
    return text.splitlines()[: text.count("\n")]


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _descendants(pid: int) -> set[tuple[int, str]]:
    """Every process below ``pid`` (from /proc), with its start time: Ray's GCS, raylet,
    agents and workers. The start time tells a process from a later one with its number."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields:
                tree.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[tuple[int, str]] = set()
    todo = [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            fields = _stat(child)
            if fields and (child, fields[19]) not in found:
                found.add((child, fields[19]))
                todo.append(child)
    return found


def _alive(processes: set[tuple[int, str]]) -> set[tuple[int, str]]:
    """The processes still running (a zombie has ended; a new process with the same number
    is another process)."""
    alive = set()
    for pid, started in processes:
        fields = _stat(pid)
        if fields and fields[0] != "Z" and fields[19] == started:
            alive.add((pid, started))
    return alive


def _kill(processes: set[tuple[int, str]]) -> None:
    for pid, _started in _alive(processes):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="needs Ray")
def test_ray_runs_equal_local_runs_and_stop_with_the_local_exit_codes(tmp_path: Path) -> None:
    term_out, int_out, local_out = (tmp_path / name for name in
                                    ("term.jsonl", "int.jsonl", "local.jsonl"))
    ray_args = ("--games", "1000000000", "--workers", "1", "--backend", "ray")
    runs = {
        "term": (_arena(term_out, *ray_args), signal.SIGTERM, 143, 3),
        "int": (_arena(int_out, *ray_args, group=True), signal.SIGINT, 130, 1),
    }
    local = _arena(local_out, "--games", "9", "--workers", "1", stderr=subprocess.DEVNULL)
    below: set[tuple[int, str]] = set()
    try:
        assert local.wait(timeout=DEADLINE) == 0
        waiting = dict(runs)
        deadline = time.monotonic() + DEADLINE
        while waiting and time.monotonic() < deadline:
            for name, (proc, stop, _code, games) in list(waiting.items()):
                assert proc.poll() is None, (name, proc.stderr.read() if proc.stderr else "")
                if len(_lines(tmp_path / f"{name}.jsonl")) >= games:
                    below |= _descendants(proc.pid)
                    if stop == signal.SIGINT:
                        os.killpg(proc.pid, stop)  # Ctrl-C reaches the terminal's group
                    else:
                        proc.send_signal(stop)
                    del waiting[name]
            time.sleep(0.1)
        assert not waiting, f"no game finished on Ray in {DEADLINE:.0f} s: {sorted(waiting)}"
        for name, (proc, _stop, code, _games) in runs.items():
            status = proc.wait(timeout=120)
            error = proc.stderr.read().decode() if proc.stderr else ""
            assert status == code, (name, status, error)
            assert "Traceback" not in error and "Stopped after" in error, (name, error)
            records = [json.loads(line) for line in _lines(tmp_path / f"{name}.jsonl")]
            assert records and all(r["format"] == "kartentisch-record/3" for r in records)
        # The games the SIGTERM run finished are the local backend's first games, exactly.
        remote, expected = _lines(term_out), _lines(local_out)
        shared = min(len(remote), len(expected))
        assert shared >= 3 and remote[:shared] == expected[:shared]
        # Ray's processes end with the run (none is left behind for the rest of the suite).
        stop_by = time.monotonic() + 30
        while _alive(below) and time.monotonic() < stop_by:
            time.sleep(0.2)
        assert not _alive(below), "Ray processes outlived the run"
    finally:
        for proc in [local, *(run[0] for run in runs.values())]:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        _kill(below)
