"""Isolation for native parsers: workbooks are read in a worker process with limits.

The worker (forkserver on Linux, else spawn) sets RLIMIT_AS = `sheets.worker_memory_mb`,
checks the container (`check_container`), then streams each sheet's rows to the parent in
batches over a pipe; the parent chunks them as they come, so neither side holds more
than a batch of raw rows. The pipe's back-pressure bounds the worker; every row is sent
(the parent counts the rows past `max_rows` it does not chunk), and the reader's own
limits (`limits.Budget`) bound what a workbook may expand to.

Failures become `InputError` in the parent, one line each: the worker's own reason
(corrupt, password-protected, zip bomb, ...), "timeout: ..." past `worker_timeout_s`
(whole file), or "worker died (SIGABRT) ..." when the process ends without a word (a Rust
allocation abort is named from the worker's stderr, which never reaches the terminal).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from notechunk.config import Config
from notechunk.errors import InputError
from notechunk.sheets.read import RawSheet, SheetRow, check_container, read_workbook

T = TypeVar("T")
_BATCH = 2000
# a row on the pipe: number, cells, flags, merged spans (`SheetRow` fields, as a tuple)
_WireRow = tuple[int, tuple[str, ...], tuple[str, ...], tuple[tuple[int, int], ...]]


def _context() -> Any:
    method = "forkserver" if sys.platform.startswith("linux") else "spawn"
    return mp.get_context(method)


def _limit_self(memory_mb: int, log: str) -> None:
    import resource

    # a native abort (calamine panics) writes to fd 2: keep it out of the user's terminal;
    # the parent reads it for the failure reason
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(fd, 2)
    os.close(fd)
    os.environ["RUST_BACKTRACE"] = "0"
    limit = memory_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]


def _call_worker(
    conn: Any, func: Callable[..., Any], args: tuple[Any, ...], mb: int, log: str
) -> None:
    _limit_self(mb, log)
    try:
        result: Any = func(*args)
    except MemoryError:
        result = f"out of memory (worker limit {mb} MB)"
    except Exception as exc:  # noqa: BLE001 - the process edge: report, never a traceback
        result = f"unexpected reader failure ({type(exc).__name__}: {_first_line(exc)})"
    conn.send(result)
    conn.close()


def _read_worker(conn: Any, path: Path, rel: str, cfg: Config, log: str) -> None:
    _limit_self(cfg.sheets.worker_memory_mb, log)
    try:
        check_container(path, rel, cfg.sheets)
        for sheet in read_workbook(path, rel, cfg.sheets):
            conn.send(("sheet", sheet.name, sheet.visible))
            batch: list[_WireRow] = []
            try:
                for row in sheet.rows:
                    batch.append((row.number, row.cells, row.flags, row.merged))
                    if len(batch) >= _BATCH:
                        conn.send(("rows", batch))
                        batch = []
            except InputError:  # rows read before a limit stopped the sheet still count
                if batch:
                    conn.send(("rows", batch))
                raise
            if batch:
                conn.send(("rows", batch))
            conn.send(("end",))
        conn.send(("done",))
    except InputError as exc:
        conn.send(("error", exc.reason))
    except MemoryError:
        conn.send(("error", f"out of memory (worker limit {cfg.sheets.worker_memory_mb} MB)"))
    except OSError as exc:
        conn.send(("error", f"cannot read file ({exc.strerror or exc})"))
    except Exception as exc:  # noqa: BLE001 - the process edge: report, never a traceback
        conn.send(
            ("error", f"unexpected reader failure ({type(exc).__name__}: {_first_line(exc)})")
        )
    conn.close()


def _death_reason(code: int | None, memory_mb: int, log: Path) -> str:
    said = ""
    try:
        with log.open(encoding="utf-8", errors="replace") as fh:
            lines = [ln.strip() for ln in islice(fh, 200)]
        said = next((ln for ln in lines if "memory allocation" in ln), "")
    except OSError:
        pass
    detail = f"; {said[:160]}" if said else ""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return (
            f"worker died ({name}) while parsing: likely a hostile or huge workbook "
            f"(memory limit {memory_mb} MB{detail})"
        )
    return f"worker died (exit code {code}) while parsing{detail}"


def run_isolated(func: Callable[..., T], args: tuple[Any, ...], cfg: Config) -> T | str:
    """`func(*args)` in a limited worker; a string return is a one-line failure reason."""
    with tempfile.TemporaryDirectory(prefix="notechunk-worker-") as tmp:
        log = Path(tmp) / "stderr.txt"
        log.touch()
        ctx = _context()
        parent, child = ctx.Pipe(duplex=False)
        mb = cfg.sheets.worker_memory_mb
        proc = ctx.Process(target=_call_worker, args=(child, func, args, mb, str(log)))
        proc.start()
        child.close()
        timeout = cfg.sheets.worker_timeout_s
        try:
            if not parent.poll(timeout):
                proc.kill()
                proc.join()
                return f"timeout: reading took longer than worker_timeout_s = {timeout:g} s"
            try:
                result: T | str = parent.recv()
            except (EOFError, OSError):
                proc.join()
                return _death_reason(proc.exitcode, mb, log)
        finally:
            parent.close()
        proc.join()
        return result


def read_isolated(path: Path, rel: str, cfg: Config) -> Generator[RawSheet, None, None]:
    """`read_workbook` run in a limited worker; sheets and rows stream lazily.

    Consume each sheet's rows before asking for the next sheet (unread rows are skipped).
    Raises `InputError` for any failure, after the sheets already delivered.
    """
    with tempfile.TemporaryDirectory(prefix="notechunk-worker-") as tmp:
        log = Path(tmp) / "stderr.txt"
        log.touch()
        ctx = _context()
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_read_worker, args=(child, path, rel, cfg, str(log)))
        proc.start()
        child.close()
        deadline = time.monotonic() + cfg.sheets.worker_timeout_s
        mb = cfg.sheets.worker_memory_mb

        def receive() -> tuple[Any, ...]:
            if not parent.poll(max(0.0, deadline - time.monotonic())):
                proc.kill()
                timeout = cfg.sheets.worker_timeout_s
                raise InputError(
                    rel, f"timeout: reading took longer than worker_timeout_s = {timeout:g} s"
                )
            try:
                msg: tuple[Any, ...] = parent.recv()
            except (EOFError, OSError):
                proc.join()
                raise InputError(rel, _death_reason(proc.exitcode, mb, log)) from None
            if msg[0] == "error":
                raise InputError(rel, str(msg[1]))
            return msg

        state = {"open": False}

        def rows() -> Iterator[SheetRow]:
            while True:
                msg = receive()
                if msg[0] == "end":
                    state["open"] = False
                    return
                for number, cells, flags, merged in msg[1]:
                    yield SheetRow(number=number, cells=cells, flags=flags, merged=merged)

        try:
            while True:
                if state["open"]:
                    for _ in rows():  # drain what the consumer left unread
                        pass
                msg = receive()
                if msg[0] == "done":
                    break
                state["open"] = True
                yield RawSheet(name=str(msg[1]), visible=bool(msg[2]), rows=rows())
        finally:
            parent.close()
            if proc.is_alive():
                proc.kill()
            proc.join()
