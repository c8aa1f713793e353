"""Fixtures of the browser tests: a real server process and Debian's headless Chromium.

The server runs as ``python -m kartentisch.server`` on a free loopback port with its own
SQLite file; bots think inline (``--bot-workers 0``) so the tests need no worker processes.
Chromium is the system's (``/usr/bin/chromium``, installed by ``scripts/setup-system.sh``),
driven by Playwright's Python package; Playwright's own browser download is never used. A
missing Chromium makes the tests FAIL with the reason, never skip.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from kartentisch.server.run import READY_LINE

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic", "--disable-dev-shm-usage"]
README_SHOTS = ROOT / "docs" / "screenshots"


def chromium_path() -> str:
    """The system's Chromium, or a test failure saying how to install it."""
    for candidate in (os.environ.get("KARTENTISCH_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.fail("Chromium is not installed: run scripts/setup-system.sh (as root) or "
                "`apt-get install chromium`; the browser tests need /usr/bin/chromium")


@dataclass
class Server:
    """A running server: its base URL and its SQLite file."""

    url: str
    db: Path

    def create(self, game: str, seats: list[dict[str, Any]], *, players: int | None = None,
               options: dict[str, Any] | None = None, hints: bool = True,
               clock: float | None = None) -> dict[str, Any]:
        """A new table through the page's own route; returns the answer with the links
        (``clock``: seconds per move)."""
        table: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}}
        if players is not None:
            table["players"] = players
        if clock is not None:
            table["clock"] = clock
        response = httpx.post(f"{self.url}/api/web/tables",
                              json={"table": table, "hints": hints}, timeout=10)
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def stored(self, table_id: str) -> tuple[str, int, dict[str, Any], int, list[int]]:
        """What the database holds of a table: game, players, options, seed, action ids."""
        import json

        with sqlite3.connect(self.db) as conn:
            game, players, options, seed = conn.execute(
                "SELECT game, players, options, seed FROM kt_tables WHERE id = ?",
                (table_id,)).fetchone()
            moves = [row[0] for row in conn.execute(
                "SELECT action FROM kt_moves WHERE table_id = ? ORDER BY move_no", (table_id,))]
        return game, players, json.loads(options), seed, moves


class ServerProcess:
    """``python -m kartentisch.server`` on a free loopback port with the SQLite file ``db``
    (bots inline); :meth:`start` again after :meth:`stop` or :meth:`kill` restarts it on
    the same database."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db = folder / "tables.sqlite3"
        self.process: subprocess.Popen[str] | None = None

    def start(self, port: int = 0) -> Server:
        """Start the process (``port`` 0: a free one; else that port, as a restarted
        server on the same address that the open pages reconnect to)."""
        with (self.folder / "server.log").open("a") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "kartentisch.server", "--port", str(port),
                 "--db", str(self.db),
                 "--bot-workers", "0", "--no-access-log", "--log-level", "warning",
                 # every page of the suite comes from 127.0.0.1: no per-address limits
                 "--limit", "tables_burst=1000000,requests_burst=1000000,"
                 "address_messages_burst=1000000,connections_per_address=100000"],
                stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT)
        self.process = process
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            if line.startswith(READY_LINE):
                return Server(line.split()[3], self.db)
        process.kill()
        pytest.fail("the server did not start: " + (self.folder / "server.log").read_text())

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to write anything more."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture(scope="session")
def server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The session's server process (a test may restart it: see :func:`restart`)."""
    process = ServerProcess(tmp_path_factory.mktemp("server"))
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="session")
def server(server_process: ServerProcess) -> Server:
    """One server for the session (each test makes its own tables)."""
    return server_process.start()


def restart(server_process: ServerProcess, server: Server, *, same_port: bool = False) -> None:
    """SIGKILL the session's server and start a new process on the same database; ``server``
    then names the new address (every table made so far lives on, as after any crash).
    ``same_port``: the new process listens where the old one did, so open pages reconnect."""
    server_process.kill()
    port = int(server.url.rsplit(":", 1)[1]) if same_port else 0
    server.url = server_process.start(port).url


INSTANT_PACE = ("try { if (localStorage.getItem('kartentisch.pace') === null)"
                " localStorage.setItem('kartentisch.pace', '0'); } catch (e) {}")
"""The tests' pages show the other players' moves at once (the page's pace setting, which a
person chooses; the pacing test chooses a pace of its own)."""


class InstantBrowser:
    """The launched browser, whose new contexts and pages start with the instant pace."""

    def __init__(self, browser: Any) -> None:
        self.raw = browser

    def new_context(self, **options: Any) -> Any:
        context = self.raw.new_context(**options)
        context.add_init_script(INSTANT_PACE)
        return context

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium from the system, driven by Playwright.

    Module-scoped: Playwright's sync API keeps an asyncio loop running in this thread while
    it is open, so it must be closed before tests of other modules that call asyncio.run in
    the same worker (``make test`` distributes by file: ``--dist loadfile``)."""
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright's Python package is missing: pip install -e '.[dev]'")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield InstantBrowser(launched)
        finally:
            launched.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save their screenshots (the README's come from
    ``KARTENTISCH_README_SHOTS=1``, which also writes them to docs/screenshots/)."""
    return tmp_path_factory.mktemp("screenshots")


def save_shot(page: Any, shots: Path, name: str, *, readme: bool = False) -> Path:
    """A screenshot of the whole page under ``shots`` (and for the README when asked)."""
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if readme and os.environ.get("KARTENTISCH_README_SHOTS") == "1":
        README_SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")  # the first screen, as a player opens it
        page.screenshot(path=str(README_SHOTS / f"{name}.png"), full_page=False)
    return path
