"""How a run's files reach OUT: one run at a time, staged whole, switched in by one rename.

A run writes every output into OUT/.staging, the manifest (each file's size and sha256)
last. Publishing renames the staging folder to a new generation, OUT/.runs/<n>, and then
switches the link OUT/.current to it with one `os.replace`: the only step that changes
what OUT holds. The names a person opens (OUT/chunks.jsonl.gz, OUT/qa, OUT/report.html,
...) are links through `.current` (`chunks.jsonl.gz -> .current/chunks.jsonl.gz`), made
once, so at every instant OUT is the previous run or the new one, never a mix; outputs a
run did not write (a chunks.parquet of an earlier config, the page of a deleted note) are
simply not in its generation. Earlier generations are removed after the switch.

OUT is ours alone (`io.outdir`): before a run touches anything, `check_entries` refuses
(exit 2, naming the path) a link at one of our names that is not ours, a FIFO, or a file
where a folder belongs, so nothing outside OUT is ever written, moved or deleted.

An OUT written before generations (real files at the top) is moved into a generation by
its next run; where the file system has no symbolic links, files are moved into place
one by one instead (two phases, the manifest removed first and written last), so a
killed run still never leaves a half-written file or a manifest that lies.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notechunk.chunk import SCHEMA_VERSION
from notechunk.errors import OutputError, UsageError
from notechunk.io.cache import CACHE_DIR
from notechunk.io.jsonio import atomic_write_bytes, dumps, temp_pattern
from notechunk.io.origin import ORIGIN
from notechunk.io.outdir import (
    check_dir,
    check_file,
    kind,
    link_is_ours,
    open_own,
    own_dir,
    read_own,
    refuse,
)

MANIFEST = "manifest.json"
STAGING = ".staging"
LOCK = ".lock"
MARKER = ".notechunk-out"
RUNS = ".runs"
CURRENT = ".current"
SEARCH_DIR = ".search"
_SWITCH = ".current.tmp"
_PENDING = ".publish"
OUTPUT_DIRS = ("stages", "qa", "sources")
OUTPUT_FILES = ("chunks.jsonl.gz", "chunks.parquet", "report.html", ORIGIN, MANIFEST)
"""The names a run publishes at the top of OUT (a run may add others: each top-level entry
of a generation gets its link)."""
OWN_FOLDERS = (STAGING, CACHE_DIR, SEARCH_DIR, RUNS, *OUTPUT_DIRS)
_GENERATION = re.compile(r"\d{6}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """The record of one published run: its files, its metrics (as JSON) and its inputs' key."""

    files: dict[str, tuple[int, str]] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    run_key: str | None = None
    schema: int = SCHEMA_VERSION  # of the chunk records (`chunk.SCHEMA_VERSION`)

    def to_json(self) -> dict[str, Any]:
        files = {rel: {"bytes": n, "sha256": h} for rel, (n, h) in self.files.items()}
        return {
            "files": files,
            "metrics": self.metrics,
            "run_key": self.run_key,
            "schema": self.schema,
        }

    @classmethod
    def from_json(cls, data: object) -> Manifest:
        """A manifest from parsed JSON; anything of a foreign shape gives an empty one."""
        if not isinstance(data, dict):
            return cls()
        files: dict[str, tuple[int, str]] = {}
        raw = data.get("files")
        if isinstance(raw, dict):
            for rel, info in raw.items():
                if isinstance(info, dict) and _safe_rel(str(rel)):
                    n, h = info.get("bytes"), info.get("sha256")
                    if isinstance(n, int) and isinstance(h, str):
                        files[str(rel)] = (n, h)
        metrics = data.get("metrics")
        key = data.get("run_key")
        schema = data.get("schema")
        return cls(
            files=files,
            metrics=metrics if isinstance(metrics, dict) else {},
            run_key=key if isinstance(key, str) else None,
            schema=schema if isinstance(schema, int) and not isinstance(schema, bool) else 0,
        )


def _safe_rel(rel: str) -> bool:
    """A manifest path names a file inside the run: relative, no `..`, no empty part."""
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def own_folders(out: Path) -> list[Path]:
    """OUT's own folders, which discovery must never read back as notes."""
    return [out / d for d in OWN_FOLDERS]


def check_out(out: Path, src: Path) -> None:
    """Refuse (exit 2) an OUT that would overwrite or read back someone's files.

    OUT must be absent, an empty folder, or a notechunk output (its marker or manifest is
    there), and it must not hold SRC (OUT == SRC, or SRC inside OUT). An OUT inside SRC is
    fine: discovery never enters it.
    """
    if not str(out).strip():
        raise UsageError("--out is empty: name an output folder")
    try:
        target = out.resolve()
        source = src.resolve()
    except (OSError, RuntimeError) as exc:
        raise UsageError(f"{out}: cannot resolve the output folder ({exc})") from None
    if target == source or source.is_relative_to(target):
        raise UsageError(f"{out}: the output folder would hold the notes of {src}; choose another")
    if not target.exists():
        return
    if not target.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    try:
        entries = [e.name for e in os.scandir(target)]
    except OSError as exc:
        raise UsageError(f"{out}: cannot list the output folder ({exc.strerror})") from None
    if entries and MARKER not in entries and MANIFEST not in entries:
        raise UsageError(
            f"{out}: not empty and not a notechunk output folder (no {MARKER}); "
            "choose a new or empty folder"
        )


@contextmanager
def exclusive(out: Path) -> Iterator[None]:
    """Hold OUT/.lock for the run: a second run on the same OUT would delete this one's
    staging folder and race its publish, so it is refused instead (exit 2). The lock and
    the marker are opened without following a link."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd = open_own(out / LOCK, os.O_RDWR | os.O_CREAT | os.O_APPEND)
    except OSError as exc:
        raise UsageError(f"{out}: cannot use the output folder ({exc.strerror})") from None
    with os.fdopen(fd, "r+b") as fh:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError(f"{out}: another notechunk run is writing there") from None
        if not check_file(out / MARKER):
            try:
                marker = open_own(out / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
                with os.fdopen(marker, "wb") as mh:
                    mh.write(b"notechunk output folder: notechunk writes here\n")
            except OSError as exc:
                raise UsageError(
                    f"{out}: the output folder is not writable ({exc.strerror})"
                ) from None
        yield


def check_entries(out: Path) -> None:
    """Every name notechunk creates or touches in OUT holds what notechunk put there, or
    a `UsageError` names it (before anything is written): real folders for .staging,
    .cache (and its entry folders), .search and .runs, regular files for the lock and
    the marker, and at each published name our link through `.current` (or, in an OUT
    of an earlier version, a real file or folder of that name)."""
    check_file(out / MARKER)
    check_file(out / LOCK)
    check_dir(out / STAGING)
    for name in (CACHE_DIR, SEARCH_DIR):
        if check_dir(out / name):
            for entry in _scan(out / name):
                if kind(entry) not in ("dir", "file"):
                    raise refuse(entry, kind(entry), "an entry of its own")
    check_dir(out / RUNS)
    current_dir(out)
    published = {name: name in OUTPUT_DIRS for name in (*OUTPUT_DIRS, *OUTPUT_FILES)}
    for rel in read_manifest(out).files:
        top, sep, _ = rel.partition("/")
        published.setdefault(top, bool(sep))
    for name, is_dir in sorted(published.items()):
        _check_published(out, name, is_dir)


def _check_published(out: Path, name: str, is_dir: bool) -> None:
    path = out / name
    found = kind(path)
    if found == "absent" or link_is_ours(path, f"{CURRENT}/{name}"):
        return
    expected = "dir" if is_dir else "file"
    if found != expected:
        what = "its output folder" if expected == "dir" else "an output file"
        raise refuse(path, found, f"{what} (or a link to the current run)")


def _scan(folder: Path) -> list[Path]:
    try:
        return sorted(Path(e.path) for e in os.scandir(folder))
    except OSError:
        return []


def current_dir(out: Path) -> Path:
    """The real folder holding OUT's current run: its generation (what `.current` links
    to), or OUT itself when there is no link there (an OUT of an earlier version, one
    published where links cannot be made, or a copy made following links, whose real
    `.current` folder is a leftover the next run removes). A link at `.current` that is
    not ours is a `UsageError` naming it."""
    link = out / CURRENT
    found = kind(link)
    if found in ("absent", "dir", "file"):
        return out
    if found == "link":
        try:
            target = os.readlink(link)
        except OSError:
            target = ""
        head, _, name = target.partition("/")
        if head == RUNS and _GENERATION.fullmatch(name) and check_dir(out / RUNS):
            if kind(out / RUNS / name) == "dir":
                return out / RUNS / name
    raise refuse(link, found, f"a link to the current run ({RUNS}/<n>)")


def staging_dir(out: Path) -> Path:
    """A fresh staging folder (what a killed run left there is removed first)."""
    remove_leftovers(out)
    return own_dir(out / STAGING)


def remove_leftovers(out: Path) -> None:
    """What a killed or failed run leaves: its staging folder, a generation never switched
    in (or one switched out), a half-made switch link, and (from the one-by-one publish)
    files waiting beside their targets, a half-written manifest or origin. Nothing is
    followed: a link is removed as a link."""
    if check_dir(out / STAGING):
        shutil.rmtree(out / STAGING, ignore_errors=True)
    _remove_entry(out / _SWITCH)
    if kind(out / CURRENT) in ("dir", "file"):  # a copy that followed our links
        _remove_entry(out / CURRENT)
    current = current_dir(out)
    if check_dir(out / RUNS):
        for entry in _scan(out / RUNS):
            if entry != current:
                _remove_entry(entry)
    for folder in (out, *(out / d for d in OUTPUT_DIRS)):
        if kind(folder) != "dir":
            continue
        temps = (temp_pattern(name) for name in (MANIFEST, ORIGIN))
        for stale in (*folder.glob(f".*{_PENDING}"), *(p for t in temps for p in folder.glob(t))):
            _remove_entry(stale)


def _remove_entry(path: Path) -> None:
    """Remove what is at `path` without following it: a real folder with its content, a
    file, a link or a special file as itself."""
    found = kind(path)
    if found == "dir":
        shutil.rmtree(path, ignore_errors=True)
    elif found != "absent":
        try:
            path.unlink()
        except OSError:
            pass


def read_manifest(out: Path) -> Manifest:
    """The manifest of OUT's current run (empty when absent, unreadable or foreign)."""
    try:
        data = json.loads(read_own(current_dir(out) / MANIFEST).decode("utf-8"))
    except (OSError, ValueError, RecursionError, UsageError):
        return Manifest()
    return Manifest.from_json(data)


def outputs_intact(out: Path, manifest: Manifest) -> bool:
    """Every file the manifest lists is in OUT's current run with its size and sha256."""
    if not {"chunks.jsonl.gz", "chunks.parquet"} & set(manifest.files):
        return False
    try:
        base = current_dir(out)
    except UsageError:
        return False
    for rel, (size, digest) in manifest.files.items():
        try:
            if (base / rel).stat().st_size != size or file_sha256(base / rel) != digest:
                return False
        except (OSError, UsageError):
            return False
    return True


def publish(
    staging: Path,
    out: Path,
    metrics: dict[str, Any],
    run_key: str | None,
    beside: Mapping[str, bytes] | None = None,
) -> Manifest:
    """Make the staged run OUT's current run: the manifest written (durably, the run's
    commit record) into the staging folder, the folder renamed to a new generation,
    `.current` switched to it by one rename, the older generations removed. Where links
    cannot be made, `_publish_in_place`.

    `beside` names files published with the run but not listed in its manifest
    (`origin.json`: where SRC is, which no output depends on).

    A failure before the switch leaves the previous run intact and is one `OutputError`
    line."""
    staged = sorted(p for p in staging.rglob("*") if p.is_file())
    files = {p.relative_to(staging).as_posix(): _describe(p) for p in staged}
    manifest = Manifest(files=files, metrics=metrics, run_key=run_key)
    data = (dumps(manifest.to_json()) + "\n").encode()
    try:
        for name, extra in (beside or {}).items():
            atomic_write_bytes(staging / name, extra)
        atomic_write_bytes(staging / MANIFEST, data, durable=True)
        switch = _switch_link(out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(
            f"{out}: cannot write the outputs ({_why(exc)}); earlier outputs kept"
        ) from None
    if switch is None:
        (staging / MANIFEST).unlink()
        return _publish_in_place(staging, out, manifest, data, beside or {})
    previous = read_manifest(out)
    try:
        runs = own_dir(out / RUNS)
        gen = runs / _next_generation(runs)
        os.rename(staging, gen)
        fsync_dir(runs)
        names = sorted(e.name for e in os.scandir(gen))
        _retire_flat(out, runs, names, previous)
        for name in names:
            link_output(out, name)
        os.symlink(f"{RUNS}/{gen.name}", switch)
    except OSError as exc:
        _remove_entry(switch)
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(
            f"{out}: cannot write the outputs ({_why(exc)}); earlier outputs kept"
        ) from None
    os.replace(switch, out / CURRENT)  # the switch: OUT is now the new run
    fsync_dir(out)
    for entry in _scan(out):
        if entry.name not in names and link_is_ours(entry, f"{CURRENT}/{entry.name}"):
            entry.unlink(missing_ok=True)  # an output this run did not write
    for entry in _scan(runs):
        if entry != gen:
            _remove_entry(entry)
    return manifest


def _switch_link(out: Path) -> Path | None:
    """The path of the link that will become `.current`, its place cleared; None where
    this file system cannot hold links (then files are published one by one)."""
    switch = out / _SWITCH
    _remove_entry(switch)
    try:
        os.symlink(f"{RUNS}/probe", switch)
    except (NotImplementedError, AttributeError):
        return None
    except OSError as exc:
        if exc.errno in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            return None
        raise
    switch.unlink()
    return switch


def _next_generation(runs: Path) -> str:
    numbers = [int(e.name) for e in _scan(runs) if _GENERATION.fullmatch(e.name)]
    return f"{max(numbers, default=0) + 1:06d}"


def _retire_flat(out: Path, runs: Path, names: list[str], previous: Manifest) -> None:
    """An OUT of an earlier version holds its outputs as real files at the top: they are
    moved into a retired folder under .runs (removed with the old generations), the
    manifest first, so the old run is never taken for the new one."""
    tops = {rel.split("/", 1)[0] for rel in previous.files}
    flat = [
        out / n
        for n in sorted({*names, *OUTPUT_DIRS, *OUTPUT_FILES, *tops})
        if kind(out / n) in ("dir", "file") and n not in (MANIFEST,)
    ]
    if kind(out / MANIFEST) == "file":
        (out / MANIFEST).unlink()
        fsync_dir(out)
    if not flat:
        return
    retired = own_dir(runs / f"retired-{_next_generation(runs)}")
    for path in flat:
        os.rename(path, retired / path.name)
    fsync_dir(out)


def link_output(out: Path, name: str) -> None:
    """OUT/<name> as our link through `.current` (made once, kept across runs)."""
    path = out / name
    target = f"{CURRENT}/{name}"
    if link_is_ours(path, target):
        return
    found = kind(path)
    if found != "absent":
        raise refuse(path, found, "a link to the current run's output")
    os.symlink(target, path)


def _publish_in_place(
    staging: Path, out: Path, manifest: Manifest, data: bytes, beside: Mapping[str, bytes]
) -> Manifest:
    """Move every staged file into OUT itself, then write the manifest (no links here).

    Two phases, so a full disk or a folder of OUT on another file system fails before
    OUT changes: first every file is put beside its target (a rename, or a copy across
    devices); only then is the old manifest removed, each file renamed over its target
    (same folder: atomic), every output of OUT this run did not write removed, and the new
    manifest written. A failure in the first phase leaves the previous run intact.
    """
    previous = read_manifest(out)
    for name in (CURRENT, *OUTPUT_DIRS, *OUTPUT_FILES):
        if kind(out / name) == "link":  # our links of a generation: OUT becomes flat
            (out / name).unlink()
    for name in OUTPUT_DIRS:
        own_dir(out / name)
    files = manifest.files
    pending: list[tuple[Path, Path]] = []
    try:
        for rel in files:
            source, target = staging / rel, out / rel
            for parent in reversed(Path(rel).parents[:-1]):
                own_dir(out / parent)
            waiting = target.with_name(f".{target.name}{_PENDING}")
            _move_beside(source, waiting)
            pending.append((waiting, target))
    except OSError as exc:
        for waiting, _ in pending:
            waiting.unlink(missing_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(
            f"{out}: cannot write the outputs ({_why(exc)}); earlier outputs kept"
        ) from None
    (out / MANIFEST).unlink(missing_ok=True)
    fsync_dir(out)
    for waiting, target in pending:
        os.replace(waiting, target)
    for folder in sorted({out, *((out / rel).parent for rel in files)}):
        fsync_dir(folder)
    stale = {rel for rel in previous.files if rel not in files}
    for name in OUTPUT_DIRS:  # e.g. the page of a note that was deleted since
        if kind(out / name) == "dir":
            stale |= {p.relative_to(out).as_posix() for p in (out / name).rglob("*") if p.is_file()}
    for rel in sorted(stale - set(files)):
        if kind(out / rel) == "file":
            (out / rel).unlink()
    for name in OUTPUT_FILES:
        if name not in files and name != MANIFEST and kind(out / name) == "file":
            (out / name).unlink()
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for name, extra in beside.items():
            atomic_write_bytes(out / name, extra)
        atomic_write_bytes(out / MANIFEST, data, durable=True)
    except OSError as exc:
        raise OutputError(f"{out}: outputs written but not the manifest ({_why(exc)})") from None
    fsync_dir(out)
    return manifest


def _move_beside(path: Path, waiting: Path) -> None:
    """Rename `path` to `waiting`; across devices, copy it there durably instead."""
    try:
        os.replace(path, waiting)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        try:
            with open(path, "rb") as src, open(waiting, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
                dst.flush()
                os.fsync(dst.fileno())
        except OSError:
            waiting.unlink(missing_ok=True)
            raise


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def file_sha256(path: Path) -> str:
    """sha256 of a file of OUT, read without following a link."""
    h = hashlib.sha256()
    fd = open_own(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def _describe(path: Path) -> tuple[int, str]:
    return path.stat().st_size, file_sha256(path)


def fsync_dir(folder: Path) -> None:
    """Make renames into `folder` durable (skipped where a folder cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
