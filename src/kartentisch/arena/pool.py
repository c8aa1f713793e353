"""Worker process pools that stop with the program.

A long arena or simulation run is often ended with SIGTERM (a CI time limit, ``kill``, a
cluster scheduler). Python's default reaction ends the parent at once and leaves the pool's
workers computing games nobody will read. :func:`worker_pool` turns SIGTERM into a clean
exit: the workers are terminated first, then the program exits with status 143 (128 + 15),
as a shell reports a process ended by that signal.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool
from types import FrameType


@contextmanager
def worker_pool(workers: int, start_method: str | None = None) -> Iterator[Pool]:
    """A pool of ``workers`` processes, terminated when the block ends or SIGTERM arrives.

    The SIGTERM handler is installed only in the main thread (the only place Python allows
    it) and the previous handler is restored afterwards.
    """
    pool = multiprocessing.get_context(start_method).Pool(workers)

    def stop(signum: int, frame: FrameType | None) -> None:
        pool.terminate()
        raise SystemExit(128 + signum)

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop) if main else None
    try:
        yield pool
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        pool.terminate()
        pool.join()
