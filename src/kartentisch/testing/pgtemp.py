"""A throwaway PostgreSQL cluster on loopback, for the tests and the load benchmark.

:func:`start_cluster` runs ``initdb`` and ``pg_ctl`` from the system's PostgreSQL server
package (``scripts/setup-system.sh`` installs it) in a temporary directory, on a free port,
trusting local connections; as root it runs them as the ``postgres`` user (PostgreSQL
refuses to run as root). :meth:`Cluster.database` makes a fresh empty database.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ClusterError(RuntimeError):
    """PostgreSQL could not be started (the message says why)."""


def server_bindir() -> Path:
    """The directory of ``pg_ctl`` and ``initdb``; raises :class:`ClusterError` if absent."""
    for candidate in (shutil.which("pg_ctl"),
                      *sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)):
        if candidate:
            return Path(candidate).resolve().parent
    raise ClusterError("PostgreSQL's server programs (initdb, pg_ctl) are not installed: run "
                       "scripts/setup-system.sh as root, or install PostgreSQL's server package")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unprivileged() -> tuple[dict[str, Any], int | None]:
    """``subprocess`` arguments that drop root to the ``postgres`` (or ``nobody``) user."""
    if os.geteuid() != 0:
        return {}, None
    try:
        entry = pwd.getpwnam("postgres")
    except KeyError:
        entry = pwd.getpwnam("nobody")

    def demote() -> None:
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)

    preexec: Callable[[], None] = demote
    return {"preexec_fn": preexec}, entry.pw_uid


@dataclass
class Cluster:
    """A running cluster; :meth:`stop` removes it."""

    port: int
    top: Path
    bindir: Path
    user: str = "kt"

    @property
    def base(self) -> str:
        """``postgresql://user@127.0.0.1:port`` (append ``/database``)."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}"

    def database(self) -> str:
        """The URL of a new, empty database of its own."""
        import psycopg

        name = "kt_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.base + "/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"{self.base}/{name}"

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        demote, _uid = _unprivileged()
        subprocess.run([str(self.bindir / "pg_ctl"), "-D", str(self.top / "data"), "-m",
                        "immediate", "stop"], capture_output=True, check=False, **demote)
        shutil.rmtree(self.top, ignore_errors=True)


def start_cluster(*, max_connections: int = 200, settings: tuple[str, ...] = ()) -> Cluster:
    """Make and start a cluster on a free loopback port; raises :class:`ClusterError`."""
    bindir = server_bindir()
    demote, uid = _unprivileged()
    top = Path(tempfile.mkdtemp(prefix="kt-pg-"))
    sockets = top / "run"
    sockets.mkdir()
    os.chmod(top, 0o755)
    if uid is not None:
        for path in (top, sockets):
            os.chown(path, uid, -1)
    port = free_port()
    env = {**os.environ, "LC_ALL": "C"}
    options = " ".join([f"-p {port}", f"-k {sockets}", "-c listen_addresses=127.0.0.1",
                        f"-c max_connections={max_connections}",
                        *(f"-c {s}" for s in settings)])
    try:
        subprocess.run([str(bindir / "initdb"), "-D", str(top / "data"), "-A", "trust", "-U",
                        "kt", "-E", "UTF8", "--no-sync"], check=True, capture_output=True,
                       env=env, **demote)
        subprocess.run([str(bindir / "pg_ctl"), "-D", str(top / "data"), "-w", "-t", "60",
                        "-l", str(top / "log"), "-o", options, "start"],
                       check=True, capture_output=True, env=env, **demote)
    except (subprocess.CalledProcessError, OSError) as exc:
        log = (top / "log").read_text(errors="replace") if (top / "log").exists() else ""
        detail = exc.stderr.decode(errors="replace") if isinstance(
            exc, subprocess.CalledProcessError) else str(exc)
        shutil.rmtree(top, ignore_errors=True)
        raise ClusterError(f"PostgreSQL did not start: {detail}\n{log}") from None
    return Cluster(port, top, bindir)
