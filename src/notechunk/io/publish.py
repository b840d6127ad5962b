"""How a run's files reach OUT: one run at a time, staged, moved, then a manifest.

Outputs are written into OUT/.staging and moved into place one complete file at a time;
`manifest.json` (each output's size and sha256) is removed just before the moves and
written after them. So OUT holds one complete, consistent run exactly when the manifest
is there and every file matches its hash, and a run killed midway never leaves a
half-written file.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notechunk.errors import UsageError
from notechunk.io.cache import CACHE_DIR
from notechunk.io.jsonio import atomic_write_bytes, dumps

MANIFEST = "manifest.json"
STAGING = ".staging"
LOCK = ".lock"
OWN_FOLDERS = ("stages", "qa", STAGING, CACHE_DIR)
# folders of pages named after the sources: a page the new run did not write is stale
REPLACED_PAGES = ("sources",)


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """The record of one published run: its files, its metrics (as JSON) and its inputs' key."""

    files: dict[str, tuple[int, str]] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    run_key: str | None = None

    def to_json(self) -> dict[str, Any]:
        files = {rel: {"bytes": n, "sha256": h} for rel, (n, h) in self.files.items()}
        return {"files": files, "metrics": self.metrics, "run_key": self.run_key}

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
        return cls(
            files=files,
            metrics=metrics if isinstance(metrics, dict) else {},
            run_key=key if isinstance(key, str) else None,
        )


def own_folders(out: Path) -> list[Path]:
    """OUT's own folders, which discovery must never read back as notes."""
    return [out / d for d in OWN_FOLDERS]


@contextmanager
def exclusive(out: Path) -> Iterator[None]:
    """Hold OUT/.lock for the run: a second run on the same OUT would delete this one's
    staging folder and race its publish, so it is refused instead (exit 2)."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / LOCK, "a+b") as fh:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError(f"{out}: another notechunk run is writing there") from None
        yield


def staging_dir(out: Path) -> Path:
    """A fresh staging folder (what a killed run left there is removed first)."""
    remove_leftovers(out)
    return out / STAGING


def remove_leftovers(out: Path) -> None:
    """What a killed run leaves: its staging folder and a half-written manifest."""
    if (out / STAGING).exists():
        shutil.rmtree(out / STAGING)
    for stale in out.glob(f".{MANIFEST}.tmp*"):
        stale.unlink(missing_ok=True)


def read_manifest(out: Path) -> Manifest:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return Manifest()
    return Manifest.from_json(data)


def outputs_intact(out: Path, manifest: Manifest) -> bool:
    """Every file the manifest lists is in OUT with its recorded size and sha256."""
    if "chunks.jsonl.gz" not in manifest.files:
        return False
    for rel, (size, digest) in manifest.files.items():
        try:
            if (out / rel).stat().st_size != size or _sha256(out / rel) != digest:
                return False
        except OSError:
            return False
    return True


def publish(staging: Path, out: Path, metrics: dict[str, Any], run_key: str | None) -> Manifest:
    """Move every staged file into OUT (each move atomic), then write the manifest.

    The old manifest goes first, only once every new file is complete: until the new one
    is written OUT may mix complete files of two runs, and the missing manifest says so.
    """
    staged = sorted(p for p in staging.rglob("*") if p.is_file())
    files = {p.relative_to(staging).as_posix(): _describe(p) for p in staged}
    (out / MANIFEST).unlink(missing_ok=True)
    fsync_dir(out)
    for path in staged:
        target = out / path.relative_to(staging)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    for folder in sorted({out, *((out / rel).parent for rel in files)}):
        fsync_dir(folder)
    for name in REPLACED_PAGES:  # e.g. the page of a note that was deleted since
        for page in (out / name).glob("*.html"):
            if f"{name}/{page.name}" not in files:
                page.unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)
    manifest = Manifest(files=files, metrics=metrics, run_key=run_key)
    atomic_write_bytes(out / MANIFEST, (dumps(manifest.to_json()) + "\n").encode())
    fsync_dir(out)
    return manifest


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
