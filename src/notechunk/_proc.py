"""Processes and their limits: the package's one multiprocessing context, and a per-file
time limit for work that runs in this process.

`mp_context` is used by the local engine's pool and the sheet reader's isolated workers.
`time_limit` bounds the Markdown work of one file, like the sheet worker's limit: past it
the file becomes one `FileError` and the run goes on.

It uses SIGALRM, so it applies in the main thread on POSIX (where a run and its
pool workers run files) and is a no-op elsewhere. Python checks signals between
bytecodes, so a single native call (one regex match) is not cut short: the parsers'
patterns are kept linear for that reason.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.context import ForkServerContext, SpawnContext
from types import FrameType


class TimeLimitExceeded(Exception):
    """Raised inside the limited block when its time is up."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise `TimeLimitExceeded` in the block after `seconds` (0 = no limit)."""
    usable = (
        seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def mp_context() -> ForkServerContext | SpawnContext:
    """Fresh processes, never a plain fork of this one: a forked worker inherits the
    parent's multiprocessing state (a forkserver the sheet reader started earlier in the
    same process makes its next isolated read fail with ChildProcessError), and whatever
    locks other threads held."""
    if sys.platform.startswith("linux"):
        return mp.get_context("forkserver")
    return mp.get_context("spawn")
