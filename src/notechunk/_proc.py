"""Processes and their limits: the package's one multiprocessing context, and a per-file
time limit for work that runs in this process.

`mp_context` is used by the local engine's pool and the sheet reader's isolated workers:
fresh processes (forkserver, or spawn), which re-import the program's `__main__`. Where
that cannot be done (a script read from stdin, `python - <<EOF`: its `__main__` names a
file `<stdin>` that does not exist) a plain fork is used, which re-imports nothing; where
there is no fork either, the error says to run from a script file. `quiet_worker` is what
every worker runs first: Ctrl-C reaches the whole process group, and only the parent
answers it (one line, exit 130), never each worker with its traceback.
`release_freed_memory` hands the C heap's freed pages back to the system after a large
pass (glibc keeps them otherwise: the score pass's statistics left the parent 190 MB
above what it still held at a million rows).
`time_limit` bounds the Markdown work of one file, like the sheet worker's limit: past it
the file becomes one `FileError` and the run goes on.

It uses SIGALRM, so it applies in the main thread on POSIX (where a run and its
pool workers run files) and is a no-op elsewhere. Python checks signals between
bytecodes, so a single native call (one regex match) is not cut short: the parsers'
patterns are kept linear for that reason.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
from types import FrameType

from notechunk.errors import UsageError


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


def mp_context() -> ForkServerContext | SpawnContext | ForkContext:
    """Fresh processes, not a plain fork of this one where the program can be re-imported:
    a forked worker inherits the parent's multiprocessing state (a forkserver the sheet
    reader started earlier in the same process makes its next isolated read fail with
    ChildProcessError), and whatever locks other threads held. A program that cannot be
    re-imported (`main_reimportable`) forks, the same way for its whole life."""
    if not main_reimportable():
        if "fork" in mp.get_all_start_methods():
            return mp.get_context("fork")
        raise UsageError(
            "worker processes cannot start from a program read from stdin here: "
            "save it as a .py file and run that"
        )
    if sys.platform.startswith("linux"):
        return mp.get_context("forkserver")
    return mp.get_context("spawn")


def main_reimportable() -> bool:
    """Whether a spawned or forkserver child can import this program's `__main__` again:
    it is a module (`python -m`), has no file (`python -c`, a notebook), or its file is
    there (`python script.py`); not a program read from stdin (`<stdin>`)."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def quiet_worker() -> None:
    """A worker's first step: Ctrl-C (SIGINT, sent to the whole process group) is the
    parent's to answer; the worker ends when the parent stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def release_freed_memory() -> None:
    """Return the C heap's free pages to the system (glibc's `malloc_trim`), where there
    is one; elsewhere nothing. glibc raises its mmap threshold as large arrays are freed,
    so later arrays of up to 32 MB come from a heap that does not shrink by itself."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return
    trim(0)
