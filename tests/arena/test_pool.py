"""Stopping a long run (SIGTERM, SIGKILL, Ctrl-C) ends its worker processes too (Linux: reads
/proc)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest


def _interruptible() -> None:
    """In the child: take SIGINT's default back (a shell's background job inherits it ignored,
    and Python then installs no KeyboardInterrupt handler), so the test's Ctrl-C reaches it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

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


def _catches_sigterm(pid: int) -> bool:
    """Whether ``pid`` has a handler for SIGTERM (its ``SigCgt`` mask in /proc).

    :func:`kartentisch.arena.pool.worker_pool` installs the handler right after the pool's
    worker processes have started, so this is the moment the run is ready to be stopped.
    """
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def _wait_for(condition: Callable[[], bool], seconds: float, proc: subprocess.Popen[bytes]
              ) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; fail early if ``proc`` ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        if proc.poll() is not None:
            error = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise AssertionError(f"the run ended on its own ({proc.returncode}): {error}")
        time.sleep(0.05)
    return condition()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
@pytest.mark.parametrize("command", [
    ["arena", "krass-kariert", "--bots", "random*4", "--games", "20000", "--workers", "2",
     "--no-progress"],
    ["simulate", "krass-kariert", "--bots", "random,random,random,random", "--games", "20000",
     "--workers", "2"],
])
def test_stopping_the_run_stops_the_workers(command: list[str], stop: signal.Signals,
                                            tmp_path: Path) -> None:
    """SIGTERM: the run stops its workers (exit status 143). SIGKILL gives the run no chance
    to: the workers notice by themselves (the forked workers of ``simulate`` once stayed
    behind for good). Waits on observable events (the handler installed, the workers in the
    process tree), never on fixed sleeps, with generous time limits for a busy machine."""
    assert Path("/proc/self/stat").exists(), "this test reads the process tree from /proc"
    proc = subprocess.Popen(
        preexec_fn=_interruptible, args=
        [sys.executable, "-m", "kartentisch.cli", *command],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100"},
    )
    workers: set[int] = set()
    try:
        assert _wait_for(lambda: _catches_sigterm(proc.pid), 120, proc), (
            "the run never set up its worker pool")
        assert _wait_for(lambda: len(_alive(_descendants(proc.pid))) >= 2, 60, proc), (
            "the pool's worker processes are not in the process tree")
        workers = _alive(_descendants(proc.pid))
        proc.send_signal(stop)
        assert proc.wait(timeout=120) == (128 + stop if stop == signal.SIGTERM else -stop)
        deadline = time.monotonic() + 60
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(workers), f"worker processes outlived the run stopped by {stop.name}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _alive(workers | _descendants(proc.pid)):
            os.kill(pid, signal.SIGKILL)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


@pytest.mark.parametrize(("stop", "code", "group"), [
    (signal.SIGTERM, 143, False), (signal.SIGINT, 130, True)])
def test_a_billion_games_start_at_once_in_bounded_memory(
        stop: signal.Signals, code: int, group: bool, tmp_path: Path) -> None:
    """10^9 games are scheduled lazily: the first finished game is on disk within seconds
    (waited for, generously for a busy machine), the memory stays small while games go on,
    and a signal keeps every finished game (each line a whole record), with no traceback.
    Ctrl-C goes to the whole process group, as a terminal sends it: no worker prints."""
    out = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        preexec_fn=_interruptible, args=
        [sys.executable, "-m", "kartentisch.cli", "arena", "krass-kariert", "--bots", "random",
         "--games", "1000000000", "--workers", "2", "--no-progress", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100", "LANG": "C"}, start_new_session=group,
    )
    try:
        started = time.monotonic()
        assert _wait_for(lambda: _lines(out) >= 1, 60, proc), "no game finished"
        first = time.monotonic() - started
        rss = [_rss_kib(proc.pid)]
        assert _wait_for(lambda: _lines(out) >= 200, 120, proc), "games stopped coming"
        rss.append(_rss_kib(proc.pid))
        workers = _alive(_descendants(proc.pid))
        if group:
            os.killpg(proc.pid, stop)
        else:
            proc.send_signal(stop)
        assert proc.wait(timeout=120) == code
        deadline = time.monotonic() + 60
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(workers), "worker processes outlived the stopped run"
        error = proc.stderr.read().decode() if proc.stderr else ""
        assert "Traceback" not in error, error
        assert "Stopped after" in error
        lines = out.read_text().splitlines()
        assert len(lines) >= 200
        indices = {json.loads(line)["index"] for line in lines}  # every line a whole record
        assert len(indices) == len(lines)
        assert max(rss) < 150_000, f"resident memory {rss} KiB"
        print(f"first game after {first:.1f} s, RSS {rss} KiB")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _alive(_descendants(proc.pid)):
            os.kill(pid, signal.SIGKILL)
