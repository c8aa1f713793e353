"""Fixtures of the server tests: real server processes on loopback, a real PostgreSQL.

PostgreSQL is a throwaway cluster made with ``initdb`` and ``pg_ctl`` in a temporary
directory on a free loopback port (as the ``postgres`` user when the tests run as root, since
PostgreSQL refuses to run as root). ``scripts/setup-system.sh`` installs the server package
when it is missing; if the cluster still cannot start, the tests that need it FAIL with the
reason, they are never skipped.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import Connection

from kartentisch.server import storage as storage_module
from kartentisch.server.run import READY_LINE
from kartentisch.server.storage import Storage
from kartentisch.testing.pgtemp import Cluster, ClusterError, start_cluster

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- PostgreSQL
@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server on a free loopback port for this test session (never skipped:
    if it cannot start, the tests that need it fail with the reason)."""
    try:
        cluster = start_cluster()
    except ClusterError as error:
        pytest.fail(str(error))
    try:
        yield cluster
    finally:
        cluster.stop()


# ---------------------------------------------------------------- server processes
@dataclass
class ServerProcess:
    """A ``kartentisch`` server process on loopback; its output goes to ``log``."""

    db: str
    command: list[str]
    log: Path
    process: subprocess.Popen[bytes] | None = None
    url: str = ""
    lines: list[str] = field(default_factory=list)

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    def start(self, timeout: float = 60) -> ServerProcess:
        self.lines = []
        out = self.log.open("ab")
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=out,
                                        cwd=ROOT)
        ready = threading.Event()

        def pump() -> None:  # copy stdout to the log, noting the address
            assert self.process is not None and self.process.stdout is not None
            for raw in self.process.stdout:
                out.write(raw)
                out.flush()
                line = raw.decode(errors="replace")
                self.lines.append(line)
                if line.startswith(READY_LINE):
                    self.url = line.split()[3]
                    ready.set()
            ready.set()

        threading.Thread(target=pump, daemon=True).start()
        if not ready.wait(timeout) or not self.url:
            self.stop()
            pytest.fail(f"the server did not start:\n{self.log.read_text(errors='replace')}")
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)

    def create(self, **request: Any) -> dict[str, Any]:
        """Create a table (``POST /api/tables``) and return the answer."""
        with self.http() as client:
            answer = client.post("/api/tables", json=request)
        assert answer.status_code == 201, answer.text
        result: dict[str, Any] = answer.json()
        return result


ServerFactory = Callable[..., ServerProcess]

ONE_ADDRESS_LIMITS = ("tables_burst=1000000,all_tables_burst=1000000,requests_burst=1000000,"
                      "address_messages_burst=1000000,connections_per_address=100000")
"""Every test client comes from 127.0.0.1: the per-address limits are raised for the shared
servers (the tests of the limits start servers with the defaults or their own)."""


@pytest.fixture(scope="session")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerFactory]:
    """Start server processes: ``launcher(db, cli=False, bot_workers=1, log=None, args=())``;
    every one still running stops when the session ends."""
    started: list[ServerProcess] = []
    logs = tmp_path_factory.mktemp("server-logs")

    def start(db: str, *, cli: bool = False, bot_workers: int = 1,
              log: Path | None = None, args: Sequence[str] = (),
              limits: str | None = ONE_ADDRESS_LIMITS) -> ServerProcess:
        if cli:
            command = [sys.executable, "-m", "kartentisch.cli", "serve"]
        else:
            command = [sys.executable, "-m", "kartentisch.server"]
        command += ["--host", "127.0.0.1", "--port", "0", "--db", db,
                    "--bot-workers", str(bot_workers), *args]
        if limits:
            command += ["--limit", limits]
        if "--secret-file" not in args:  # one secret for the session: every process on one
            command += ["--secret-file", str(logs / "server-secret")]  # database shares it
        server = ServerProcess(db, command, log or logs / f"server-{len(started)}.log")
        started.append(server)
        return server.start()

    yield start
    for server in started:
        with contextlib.suppress(Exception):
            server.stop()


@pytest.fixture
def start_server(launcher: ServerFactory, tmp_path: Path) -> Iterator[ServerFactory]:
    """Like ``launcher`` (the database defaults to a new SQLite file); the servers this test
    started stop when it ends."""
    mine: list[ServerProcess] = []

    def start(db: str | None = None, **kwargs: Any) -> ServerProcess:
        server = launcher(db or f"sqlite:///{tmp_path / 'tables.sqlite3'}", **kwargs)
        mine.append(server)
        return server

    yield start
    for server in mine:
        with contextlib.suppress(Exception):
            server.stop()


@pytest.fixture(scope="session")
def shared_servers(launcher: ServerFactory, tmp_path_factory: pytest.TempPathFactory
                   ) -> dict[str, ServerProcess]:
    """The session's shared servers by database kind (filled by :func:`sqlite_server` and
    :func:`db_server`): tests that need no process of their own share one, since starting
    a server (imports, migrations, a bot worker) is most of a short test's time. Sharing
    only adds load: each test checks its own tables, and a shared server's error count
    covers every test that used it."""
    return {}


def _shared(kind: str, request: pytest.FixtureRequest) -> ServerProcess:
    servers: dict[str, ServerProcess] = request.getfixturevalue("shared_servers")
    server = servers.get(kind)
    if server is None or server.process is None or server.process.poll() is not None:
        if kind == "sqlite":
            folder = request.getfixturevalue("tmp_path_factory").mktemp("shared")
            db = f"sqlite:///{folder / 'tables.sqlite3'}"
        else:
            cluster: Cluster = request.getfixturevalue("pg_cluster")
            db = cluster.database()
        server = servers[kind] = request.getfixturevalue("launcher")(db)
    return server


@pytest.fixture
def sqlite_server(request: pytest.FixtureRequest) -> ServerProcess:
    """The session's shared SQLite server (for tests that do not stop or kill it)."""
    return _shared("sqlite", request)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_server(request: pytest.FixtureRequest) -> ServerProcess:
    """The session's shared server on SQLite, then on PostgreSQL (not to be stopped)."""
    return _shared(str(request.param), request)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL: an SQLite file, or a database on the test cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.database()


@pytest.fixture
def storage(database: str) -> Iterator[Storage]:
    """A migrated, started :class:`Storage` on a fresh database (SQLite, then PostgreSQL)."""
    store = Storage(database)
    store.migrate()
    store.start()
    yield store
    store.close()


def migrate_to(store: Storage, revision: str) -> Connection:
    """Upgrade ``store``'s database to the migration ``revision`` only (to test later
    upgrades of an older schema); returns the open transaction's connection, which the
    caller closes (use it in a ``with``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location",
                           str(Path(storage_module.__file__).parent / "migrations"))
    conn = store.engine.connect()
    with conn.begin():
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    return conn

