"""`notechunk._proc`: handing freed heap pages back to the system."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest

from notechunk import _proc


class _Libc:
    def __init__(self, calls: list[int]) -> None:
        self.calls = calls

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(pad)
        return 1


def test_freed_memory_is_trimmed_where_the_c_library_can(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(ctypes, "CDLL", lambda name: _Libc(calls))
    _proc.release_freed_memory()
    assert calls == [0]


@pytest.mark.parametrize("error", [AttributeError, OSError])
def test_without_malloc_trim_nothing_is_done(
    monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    def cdll(name: object) -> object:
        raise error("no such library")

    monkeypatch.setattr(ctypes, "CDLL", cdll)
    _proc.release_freed_memory()  # no error: a platform without it keeps its pages


_HEAP = """
import numpy as np
from notechunk import _proc

def rss_kb():
    with open("/proc/self/status", encoding="ascii") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS"))

start = rss_kb()
big = np.ones(24 << 20, dtype=np.uint8)
del big
arrays, pins = [], []
for _ in range(160):
    arrays.append(np.ones(1 << 20, dtype=np.uint8))
    pins.append(np.ones(4096, dtype=np.uint8))
del arrays
kept = rss_kb() - start
_proc.release_freed_memory()
print(kept, rss_kb() - start)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc: Linux")
def test_the_heap_left_by_freed_arrays_goes_back() -> None:
    """glibc's pattern the score pass hit, in a fresh interpreter: a large array freed
    raises the mmap threshold, so arrays after it come from the heap, which stays when
    they are freed (small ones held between them stop glibc trimming it by itself)."""
    try:
        has_trim = hasattr(ctypes.CDLL(None), "malloc_trim")
    except OSError:
        has_trim = False
    if not has_trim:
        pytest.skip("no malloc_trim in this C library")
    got = subprocess.run(
        [sys.executable, "-c", _HEAP], capture_output=True, text=True, check=True, timeout=120
    )
    kept, after = (int(x) for x in got.stdout.split())
    assert kept > 128 * 1024  # the 160 MB were still held when freed
    assert after < 32 * 1024  # and handed back (the pins hold 0.6 MB)
