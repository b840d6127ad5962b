"""A per-file time limit for work that runs in this process (Markdown), like the sheet
worker's: past the limit the file becomes one `FileError`, the run goes on.

It uses SIGALRM, so it applies in the main thread on POSIX (where the pipeline and its
pool workers run files) and is a no-op elsewhere. Python checks signals between
bytecodes, so a single native call (one regex match) is not cut short: the parsers'
patterns are kept linear for that reason.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
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
