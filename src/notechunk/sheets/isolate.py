"""Isolation for native parsers: one helper runs work in a limited worker process.

`isolated(body, args, rel, cfg)` starts a fresh process (the package's one
multiprocessing context), which sets RLIMIT_AS = `sheets.worker_memory_mb`, sends its
stderr to a log (a native abort's message must not reach the terminal) and runs `body`,
which talks to the parent through `send`. The parent's `receive` waits at most until
`worker_timeout_s` after the start. Every failure becomes one `InputError` line: the
worker's own reason (corrupt, password-protected, zip bomb, ...), "timeout: ...", or
"worker died (SIGABRT) ..." when the process ends without a word (a Rust allocation abort
is named from the log). Two uses: `read_isolated` streams a workbook's rows in batches
(the pipe's back-pressure bounds the worker; every row is sent, so the parent can count
the rows past `max_rows` it does not chunk, and the reader's own limits, `limits.Budget`,
bound what a workbook may expand to; rows read before a limit stops a sheet are sent
before the error), and `run_isolated` calls one function for one answer.
"""

from __future__ import annotations

import os
import signal
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from notechunk._proc import mp_context, quiet_worker
from notechunk.config import Config
from notechunk.errors import InputError
from notechunk.sheets.model import RawSheet, SheetRow
from notechunk.sheets.read import check_container, read_workbook

T = TypeVar("T")
Send = Callable[[tuple[Any, ...]], None]
Receive = Callable[[], tuple[Any, ...]]
_BATCH = 2000
# a row on the pipe: number, cells, flags, merged spans (`SheetRow` fields, as a tuple)
_WireRow = tuple[int, tuple[str, ...], tuple[str, ...], tuple[tuple[int, int], ...]]


def _limit_self(memory_mb: int, log: str) -> None:
    import resource

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


def _child(conn: Any, body: Callable[..., None], args: tuple[Any, ...], mb: int, log: str) -> None:
    """The worker's whole life: limits, the body, and any failure as one `error` message."""
    quiet_worker()
    _limit_self(mb, log)
    try:
        body(conn.send, *args)
    except InputError as exc:
        conn.send(("error", exc.reason))
    except MemoryError:
        conn.send(("error", f"out of memory (worker limit {mb} MB)"))
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


@contextmanager
def isolated(
    body: Callable[..., None], args: tuple[Any, ...], rel: str, cfg: Config
) -> Iterator[Receive]:
    """Run `body(send, *args)` in a limited worker; yields `receive()` for its messages."""
    mb = cfg.sheets.worker_memory_mb
    timeout = cfg.sheets.worker_timeout_s
    with tempfile.TemporaryDirectory(prefix="notechunk-worker-") as tmp:
        log = Path(tmp) / "stderr.txt"
        log.touch()
        ctx = mp_context()
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, body, args, mb, str(log)))
        proc.start()
        child.close()
        deadline = time.monotonic() + timeout

        def receive() -> tuple[Any, ...]:
            if not parent.poll(max(0.0, deadline - time.monotonic())):
                proc.kill()
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

        try:
            yield receive
        finally:
            parent.close()
            if proc.is_alive():
                proc.kill()
            proc.join()


def _call_body(send: Send, func: Callable[..., Any], *args: Any) -> None:
    send(("result", func(*args)))


def run_isolated(func: Callable[..., T], args: tuple[Any, ...], cfg: Config) -> T | str:
    """`func(*args)` in a limited worker; a string return is a one-line failure reason."""
    with isolated(_call_body, (func, *args), "", cfg) as receive:
        try:
            result: T = receive()[1]
        except InputError as exc:
            return exc.reason
    return result


def _read_body(send: Send, path: Path, rel: str, cfg: Config) -> None:
    check_container(path, rel, cfg.sheets)
    for sheet in read_workbook(path, rel, cfg.sheets):
        send(("sheet", sheet.name, sheet.visible))
        batch: list[_WireRow] = []
        try:
            for row in sheet.rows:
                batch.append((row.number, row.cells, row.flags, row.merged))
                if len(batch) >= _BATCH:
                    send(("rows", batch))
                    batch = []
        except InputError:  # rows read before a limit stopped the sheet still count
            if batch:
                send(("rows", batch))
            raise
        if batch:
            send(("rows", batch))
        send(("end",))
    send(("done",))


def read_isolated(path: Path, rel: str, cfg: Config) -> Generator[RawSheet, None, None]:
    """`read_workbook` run in a limited worker; sheets and rows stream lazily.

    Consume each sheet's rows before asking for the next sheet (unread rows are skipped).
    Raises `InputError` for any failure, after the sheets already delivered.
    """
    with isolated(_read_body, (path, rel, cfg), rel, cfg) as receive:
        state = {"open": False}

        def rows() -> Iterator[SheetRow]:
            while True:
                msg = receive()
                if msg[0] == "end":
                    state["open"] = False
                    return
                for number, cells, flags, merged in msg[1]:
                    yield SheetRow(number=number, cells=cells, flags=flags, merged=merged)

        while True:
            if state["open"]:
                for _ in rows():  # drain what the consumer left unread
                    pass
            msg = receive()
            if msg[0] == "done":
                break
            state["open"] = True
            yield RawSheet(name=str(msg[1]), visible=bool(msg[2]), rows=rows())
