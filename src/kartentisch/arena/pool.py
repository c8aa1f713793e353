"""Worker process pools and signals: a stopped run stops its workers, quietly.

A long arena or simulation run is often ended with SIGTERM (a CI time limit, ``kill``, a
cluster scheduler) or Ctrl-C. :func:`stop_on_sigterm` turns SIGTERM into ``SystemExit(143)``
(128 + 15, as a shell reports a process ended by that signal) raised in the main thread, so
``finally`` blocks run: the workers are terminated and every finished game is written.
The pool's workers ignore SIGINT: Ctrl-C reaches the whole process group, and only the main
process should react (with one clean message instead of a traceback per worker).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from types import FrameType
from typing import Any

SIGTERM_EXIT = 128 + signal.SIGTERM
"""Exit status of a run stopped by SIGTERM (143)."""
SIGINT_EXIT = 128 + signal.SIGINT
"""Exit status of a run stopped by Ctrl-C (130)."""


def ignore_sigint() -> None:
    """Worker initializer: leave Ctrl-C to the main process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM raises ``SystemExit(143)`` in the main thread.

    Installed only in the main thread (the only place Python allows it); the previous
    handler is restored afterwards.
    """

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop) if main else None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


PARENT_POLL_SECONDS = 0.5
"""How often a worker looks whether the process that started it is still there."""


def exit_with_parent() -> None:
    """In a worker: end this process soon after its parent is gone, even mid-job.

    A killed main process (SIGKILL) runs no clean-up, and a worker need not notice through its
    pipe: a forked sibling inherits the main process's end of that pipe and keeps it open, and
    a worker in a long job reads nothing until the job ends. A daemon thread watches the
    parent's pid instead (an orphan is adopted by another process)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="kartentisch-parent-watch", daemon=True).start()


def _serve(conn: Connection, function: Callable[[Any], Any]) -> None:
    """A worker's loop: run ``function`` on each job received, send back the result (or the
    exception), until ``None`` arrives or the main process is gone."""
    ignore_sigint()
    exit_with_parent()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):  # the main process ended
            return
        if job is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", function(job))
        except Exception as error:
            reply = ("error", error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:
            conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))


class WorkerPool:
    """``workers`` processes, each with its own pipe, running one job at a time.

    Unlike :class:`multiprocessing.pool.Pool` there is no shared queue and no lock a worker
    could hold while it is stopped, so stopping the pool never hangs: every worker is
    terminated and joined. Workers ignore SIGINT (the main process handles Ctrl-C).
    """

    def __init__(self, workers: int, function: Callable[[Any], Any],
                 start_method: str | None = None, preload: Sequence[str] = ()):
        context = multiprocessing.get_context(start_method)
        if context.get_start_method() == "forkserver" and preload:
            # Imported once by the fork server, not once by every worker: fast start-up.
            context.set_forkserver_preload(list(preload))
        self.processes: list[Any] = []
        self.idle: list[Connection] = []
        self.busy: set[Connection] = set()
        try:
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(  # type: ignore[attr-defined]
                    target=_serve, args=(theirs, function), daemon=True)
                process.start()
                theirs.close()
                self.processes.append(process)
                self.idle.append(mine)
        except BaseException:
            self.close()
            raise

    def submit(self, job: Any) -> None:
        """Give ``job`` to an idle worker (there must be one: see :attr:`has_idle`)."""
        conn = self.idle.pop()
        conn.send(job)
        self.busy.add(conn)

    @property
    def has_idle(self) -> bool:
        """Whether a worker waits for a job."""
        return bool(self.idle)

    def collect(self) -> Any:
        """The next finished job's result (blocks); re-raises a worker's exception."""
        while True:
            # A timeout keeps the main thread responsive to signals.
            ready = wait(list(self.busy), timeout=0.5)
            for conn in ready:
                assert isinstance(conn, Connection)
                self.busy.discard(conn)
                try:
                    status, value = conn.recv()
                except (EOFError, OSError):
                    raise RuntimeError("a worker process ended unexpectedly") from None
                self.idle.append(conn)
                if status == "error":
                    raise value
                return value

    def close(self) -> None:
        """Stop every worker now (terminate, then join; kill what does not end)."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
        for conn in [*self.idle, *self.busy]:
            conn.close()
        self.idle, self.busy = [], set()


@contextmanager
def worker_pool(workers: int, function: Callable[[Any], Any], start_method: str | None = None,
                preload: Sequence[str] = ()) -> Iterator[WorkerPool]:
    """A :class:`WorkerPool`, stopped when the block ends or SIGTERM arrives (then
    ``SystemExit(143)`` is raised)."""
    pool = WorkerPool(workers, function, start_method, preload)
    try:
        with stop_on_sigterm():
            yield pool
    finally:
        pool.close()
