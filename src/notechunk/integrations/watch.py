"""`notechunk watch NOTES --out OUT`: run once, then again after every change.

Each run is an ordinary `pipeline.run` with the per-file cache, so only changed files
are chunked again (the corpus passes and the outputs are redone, as any run does).
Changes are collected by watchfiles and debounced: a burst of saves is one run. After a
run publishes, the BM25 index of `notechunk search` is built into OUT/.search, and the
LanceDB table is merged by id when `--index` is given or OUT already has one.

Three promises:
- A file that had chunks and now fails (a workbook caught half-saved, a note made
  unreadable) does not publish: it is reported, the previous good OUT stays, and the
  next save runs again. A file that never read cleanly does not hold the others back.
- Ctrl-C before a run writes anything stops at once (nothing of it reaches OUT); once it
  writes, the run finishes publishing first (a second Ctrl-C stops anyway), so OUT is
  always one whole run.
- OUT's own folder, hidden files and files notechunk does not read never start a run.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from notechunk.chunk import FileError
from notechunk.config import Config
from notechunk.discover import kind_of
from notechunk.errors import MissingExtra, NotechunkError
from notechunk.io.origin import read_origin

Say = Callable[[str], None]
DEBOUNCE_MS = 300


class HeldRun(NotechunkError):
    """A run that would drop the chunks of files that read cleanly before."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WatchPlan:
    """What to watch and how to run: `config()` is resolved again before every run, so
    an edited notechunk.toml applies to the next one."""

    src: Path
    out: Path
    config: Callable[[], Config]
    workers: int = 1
    index: bool = False
    debounce_ms: int = DEBOUNCE_MS


def require_watchfiles() -> None:
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        raise MissingExtra("notechunk watch", "watchfiles", "mcp") from None


def watch(
    plan: WatchPlan,
    *,
    say: Say,
    stop: threading.Event | None = None,
    after: Callable[[bool], None] | None = None,
    before: Callable[[list[tuple[str, Path]], Config], None] | None = None,
    started: Callable[[Config], None] | None = None,
) -> int:
    """Run once, then after every change until `stop` is set or Ctrl-C. Returns the exit
    status of the last run (0, or 1 when files failed). `after(published)` is called
    after each run (the MCP server loads a newly published run then). Changes are
    collected in a thread while runs go; `before(changed, cfg)` is called with each batch
    at once (relative name and path under NOTES, and the last run's config), so the
    server can search them before the run that publishes them; `started(cfg)` as each
    run starts."""
    require_watchfiles()
    last: list[Config] = []

    def starting(cfg: Config) -> None:
        last[:] = [cfg]
        if started is not None:
            started(cfg)

    model = _Once()
    code = run_once(plan, say=say, after=after, started=starting, embedder=model)
    dirty = threading.Event()
    done = threading.Event()

    def listen() -> None:
        """Collect changes while runs go; each batch is taken in by `before` at once."""
        import watchfiles

        for changes in watchfiles.watch(
            plan.src,
            watch_filter=notes_filter(plan.src, plan.out),
            debounce=plan.debounce_ms,
            step=50,
            stop_event=done,
            rust_timeout=1000,
        ):
            say(f"{len(changes)} change(s): {_names(changes, plan.src)}")
            changed = changed_paths(changes, plan.src)
            if before is not None and changed and last:
                try:
                    before(changed, last[-1])
                except NotechunkError as exc:
                    say(f"changes not taken in before the run: {exc}")
            dirty.set()

    listener = threading.Thread(target=listen, name="notechunk-watch", daemon=True)
    listener.start()
    say(f"watching {plan.src} (Ctrl-C to stop)")
    try:
        while not (stop is not None and stop.is_set()) and listener.is_alive():
            if dirty.wait(0.2):
                dirty.clear()
                code = run_once(plan, say=say, after=after, started=starting, embedder=model)
    finally:
        done.set()
        listener.join(timeout=5)
    return code


def changed_paths(changes: set[tuple[Any, str]], src: Path) -> list[tuple[str, Path]]:
    """Each changed path under `src` as (POSIX name relative to SRC, absolute path)."""
    given, root = Path(os.path.abspath(src)), src.resolve()
    out: dict[str, Path] = {}
    for _, raw in changes:
        path = Path(os.path.abspath(raw))
        for base in (given, root):
            if path.is_relative_to(base):
                out[path.relative_to(base).as_posix()] = path
                break
    return sorted(out.items())


def run_once(
    plan: WatchPlan,
    *,
    say: Say,
    after: Callable[[bool], None] | None = None,
    started: Callable[[Config], None] | None = None,
    embedder: Callable[[], Any] | None = None,
) -> int:
    """One run; a failure is reported in one line and leaves OUT as it was. `started(cfg)`
    is called with the run's config just before it starts."""
    from notechunk.job import run

    t0 = time.perf_counter()
    guard = _Guard(say)
    previous = read_manifest_bytes(plan.out)
    try:
        with guard.installed():
            cfg = plan.config()
            if started is not None:
                started(cfg)
            result = run(
                plan.src,
                plan.out,
                cfg,
                workers=plan.workers,
                check=hold_regressions(plan.out, guard, plan.src),
            )
    except HeldRun as exc:
        say(f"{exc}; OUT keeps the previous run, the next save runs again")
        return _after(after, False, 1)
    except NotechunkError as exc:
        say(f"{exc}; OUT keeps the previous run")
        return _after(after, False, 1)
    for err in result.errors:
        say(err.message())
    changed = read_manifest_bytes(plan.out) != previous
    if changed:
        update_indexes(plan, say, embedder)
    took = time.perf_counter() - t0
    state = "published" if changed else "unchanged"
    say(f"{state}: {result.metrics.surviving} chunks from {result.files} files ({took:.1f} s)")
    return _after(after, changed, result.exit_code)


def _after(after: Callable[[bool], None] | None, published: bool, code: int) -> int:
    if after is not None:
        after(published)
    return code


def read_manifest_bytes(out: Path) -> bytes | None:
    from notechunk.io.publish import MANIFEST

    try:
        return (out / MANIFEST).read_bytes()
    except OSError:
        return None


def hold_regressions(
    out: Path, guard: _Guard, src: Path
) -> Callable[[tuple[FileError, ...]], None]:
    """The run's check: refuse to publish when a file that read cleanly in OUT's current
    run now fails (not one deleted while the run read: its chunks are meant to go); past
    it, the run writes (Ctrl-C then waits for the publish)."""
    good = previously_good(out)
    root = src.resolve()

    def check(errors: tuple[FileError, ...]) -> None:
        broken = (e for e in errors if e.source in good and (root / e.source).exists())
        lost = sorted({e.source: e for e in broken}.values(), key=_source)
        if lost:
            first = lost[0]
            more = f" and {len(lost) - 1} more" if len(lost) > 1 else ""
            raise HeldRun(f"{first.message()}{more}: it had chunks in the previous run")
        guard.writing = True

    return check


def _source(e: FileError) -> str:
    return e.source


def previously_good(out: Path) -> frozenset[str]:
    """The files OUT's current run read without an error (none for a new OUT)."""
    origin = read_origin(out)
    if origin is None:
        return frozenset()
    try:
        raw = json.loads((out / "qa" / "errors.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raw = []
    rows = raw if isinstance(raw, list) else []
    failed = {e.get("source") for e in rows if isinstance(e, dict)}
    return frozenset(f for f in origin.files if f not in failed)


def update_indexes(plan: WatchPlan, say: Say, embedder: Callable[[], Any] | None = None) -> None:
    """The new run's BM25 index into OUT/.search, and its vectors when the previous run
    had some (only changed chunks are embedded); its LanceDB table merged by id when
    asked for or already there. A failure here is reported: OUT itself is published."""
    from notechunk.search import bm25, dense
    from notechunk.search.lance import DEFAULT_DB, META, build_index
    from notechunk.search.runview import chunk_lines, embed_texts, open_run

    make = embedder or dense.make_embedder
    try:
        run = open_run(plan.out)
        texts = embed_texts(chunk_lines(run))
        had_vectors = any(run.cache_dir.glob("dense-*.npy"))
        bm25.load_or_build(run, lambda: texts)
        if had_vectors:
            dense.load_or_embed(run, lambda: texts, make())
    except NotechunkError as exc:
        say(f"search index not updated: {exc}")
    db = plan.out / DEFAULT_DB
    if plan.index or (db / META).is_file():
        try:
            rep = build_index(plan.out, db, embedder=make)
            say(f"LanceDB: {rep.inserted} added, {rep.updated} updated, {rep.deleted} deleted")
        except NotechunkError as exc:
            say(f"LanceDB index not updated: {exc}")


def notes_filter(src: Path, out: Path) -> Callable[[Any, str], bool]:
    """Changes that can alter a run: notes (by extension), folders (a rename or delete
    of one moves its notes), TOML (the config, a glossary); never OUT or hidden files."""
    root = src.resolve()
    outs = out.resolve()

    def keep(change: Any, path: str) -> bool:
        p = Path(path)
        try:
            rel = p.resolve().relative_to(root) if p.exists() else p.relative_to(root)
        except ValueError:
            rel = p
        if p == outs or outs in p.parents or any(part.startswith(".") for part in rel.parts):
            return False
        return kind_of(p) is not None or p.suffix.lower() in ("", ".toml", ".txt")

    return keep


def _names(changes: set[tuple[Any, str]], src: Path) -> str:
    root = src.resolve()
    names = []
    for _, path in sorted(changes, key=lambda c: c[1])[:3]:
        p = Path(path)
        names.append(p.relative_to(root).as_posix() if p.is_relative_to(root) else p.name)
    more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
    return ", ".join(names) + more


_STOPS = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C, and a client ending its server


class _Once:
    """The embedder, made on first use and kept for the watch: its model loads once."""

    def __init__(self) -> None:
        self._made: Any = None

    def __call__(self) -> Any:
        if self._made is None:
            from notechunk.search.dense import make_embedder

            self._made = make_embedder()
        return self._made


class _Guard:
    """SIGINT or SIGTERM while a run works: at once before it writes, after its publish
    once it writes (a second one stops anyway). Only in the main thread (where signals
    are delivered); elsewhere the default stays."""

    def __init__(self, say: Say) -> None:
        self.say = say
        self.writing = False
        self.deferred = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.writing and not self.deferred:
            self.deferred = True
            self.say("interrupted: finishing the publish so OUT stays whole (Ctrl-C again: now)")
            return
        raise KeyboardInterrupt

    @contextmanager
    def installed(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle) for sig in _STOPS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if self.deferred:
            raise KeyboardInterrupt
