"""Stopping a long run with SIGTERM ends its worker processes too (Linux: reads /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> set[int]:
    tree = _children()
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":  # a zombie has finished; only its parent's bookkeeping is left
            alive.add(pid)
    return alive


@pytest.mark.parametrize("command", [
    ["arena", "krass-kariert", "--bots", "random*4", "--games", "1000000", "--workers", "2",
     "--no-progress"],
    ["simulate", "krass-kariert", "--bots", "random,random,random,random", "--games", "1000000",
     "--workers", "2"],
])
def test_sigterm_stops_the_workers(command: list[str], tmp_path: Path) -> None:
    assert Path("/proc/self/stat").exists(), "this test reads the process tree from /proc"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kartentisch.cli", *command],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100"},
    )
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _descendants(proc.pid)
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert len(workers) >= 2, "the run never started its worker processes"
        time.sleep(1.0)  # let the workers take up games
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 10
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(workers), "worker processes outlived the stopped run"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _alive(_descendants(proc.pid)):
            os.kill(pid, signal.SIGKILL)
