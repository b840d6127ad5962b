"""How a run's files reach OUT: one run at a time, staged, moved, then a manifest.

Outputs are written into OUT/.staging and moved into place one complete file at a time;
`manifest.json` (each output's size and sha256) is removed just before the moves and
written after them. So OUT holds one complete, consistent run exactly when the manifest
is there and every file matches its hash, and a run killed midway never leaves a
half-written file.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
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
from notechunk.io.jsonio import atomic_write_bytes, dumps
from notechunk.io.origin import ORIGIN

MANIFEST = "manifest.json"
STAGING = ".staging"
LOCK = ".lock"
MARKER = ".notechunk-out"
OWN_FOLDERS = ("stages", "qa", STAGING, CACHE_DIR)
_PENDING = ".publish"
# folders of pages named after the sources: a page the new run did not write is stale
REPLACED_PAGES = ("sources",)


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
                if isinstance(info, dict):
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
    staging folder and race its publish, so it is refused instead (exit 2)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        fh = open(out / LOCK, "a+b")  # noqa: SIM115 - held for the whole run
    except OSError as exc:
        raise UsageError(f"{out}: cannot use the output folder ({exc.strerror})") from None
    with fh:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError(f"{out}: another notechunk run is writing there") from None
        if not (out / MARKER).exists():
            try:
                (out / MARKER).write_text("notechunk output folder: notechunk writes here\n")
            except OSError as exc:
                raise UsageError(
                    f"{out}: the output folder is not writable ({exc.strerror})"
                ) from None
        yield


def staging_dir(out: Path) -> Path:
    """A fresh staging folder (what a killed run left there is removed first)."""
    remove_leftovers(out)
    return out / STAGING


def remove_leftovers(out: Path) -> None:
    """What a killed or failed run leaves: its staging folder, files waiting beside their
    targets, a half-written manifest or origin."""
    if (out / STAGING).exists():
        shutil.rmtree(out / STAGING, ignore_errors=True)
    for folder in (out, *(out / d for d in ("stages", "qa"))):
        temps = (f".{name}.tmp*" for name in (MANIFEST, ORIGIN))
        for stale in (*folder.glob(f".*{_PENDING}"), *(p for t in temps for p in folder.glob(t))):
            stale.unlink(missing_ok=True)


def read_manifest(out: Path) -> Manifest:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return Manifest()
    return Manifest.from_json(data)


def outputs_intact(out: Path, manifest: Manifest) -> bool:
    """Every file the manifest lists is in OUT with its recorded size and sha256."""
    if not {"chunks.jsonl.gz", "chunks.parquet"} & set(manifest.files):
        return False
    for rel, (size, digest) in manifest.files.items():
        try:
            if (out / rel).stat().st_size != size or _sha256(out / rel) != digest:
                return False
        except OSError:
            return False
    return True


def publish(
    staging: Path,
    out: Path,
    metrics: dict[str, Any],
    run_key: str | None,
    beside: Mapping[str, bytes] | None = None,
) -> Manifest:
    """Move every staged file into OUT, then write the manifest.

    `beside` names files written into OUT just before the manifest but not listed in it
    (`origin.json`: where SRC is, which no output depends on).

    Two phases, so a full disk or a folder of OUT on another file system fails before
    OUT changes: first every file is put beside its target (a rename, or a copy where the
    target is on another device); only then is the old manifest removed and each file
    renamed over its target (same folder: atomic, cannot fail for space), and the new
    manifest written. A failure in the first phase leaves the previous run intact and is
    one `OutputError` line.
    """
    staged = sorted(p for p in staging.rglob("*") if p.is_file())
    files = {p.relative_to(staging).as_posix(): _describe(p) for p in staged}
    pending: list[tuple[Path, Path]] = []
    try:
        for path in staged:
            target = out / path.relative_to(staging)
            target.parent.mkdir(parents=True, exist_ok=True)
            waiting = target.with_name(f".{target.name}{_PENDING}")
            _move_beside(path, waiting)
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
    for name in REPLACED_PAGES:  # e.g. the page of a note that was deleted since
        for page in (out / name).glob("*.html"):
            if f"{name}/{page.name}" not in files:
                page.unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)
    manifest = Manifest(files=files, metrics=metrics, run_key=run_key)
    try:
        for name, data in (beside or {}).items():
            atomic_write_bytes(out / name, data)
        atomic_write_bytes(out / MANIFEST, (dumps(manifest.to_json()) + "\n").encode(), True)
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


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def _describe(path: Path) -> tuple[int, str]:
    return path.stat().st_size, _sha256(path)


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
