"""Which files a run reads, in which order: the only walker of the file system.

Sorted by POSIX relative path (so outputs do not depend on directory order); symlinks are
followed only while they stay inside SRC, and each directory is entered once (symlink
loops end); hidden files and folders (a leading dot) are skipped; unreadable folders are
reported, not fatal.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from notechunk.chunk import FileError

FileKind = Literal["markdown", "spreadsheet"]
MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdown", ".mkd"})
SHEET_EXTENSIONS = frozenset({".xlsx", ".xlsm", ".xls", ".ods", ".csv"})


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    path: Path
    rel: str
    kind: FileKind


@dataclass(frozen=True, slots=True, kw_only=True)
class Discovery:
    files: tuple[SourceFile, ...]
    errors: tuple[FileError, ...]


def kind_of(path: Path) -> FileKind | None:
    ext = path.suffix.lower()
    if ext in MARKDOWN_EXTENSIONS:
        return "markdown"
    if ext in SHEET_EXTENSIONS:
        return "spreadsheet"
    return None


def discover(src: Path) -> Discovery:
    """Every Markdown and spreadsheet file under `src` (or `src` itself if it is a file)."""
    root = src.resolve()
    if root.is_file():
        kind = kind_of(root)
        files = (SourceFile(path=root, rel=root.name, kind=kind),) if kind else ()
        return Discovery(files=files, errors=())
    found: list[SourceFile] = []
    errors: list[FileError] = []
    seen: set[tuple[int, int]] = set()
    stack: list[Path] = [root]
    while stack:
        folder = stack.pop()
        try:
            st = folder.stat()
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            errors.append(_error(folder, root, f"cannot list folder ({exc.strerror or exc})"))
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    target = path.resolve()
                    if not target.is_relative_to(root):
                        errors.append(_error(path, root, "symlink points outside the source"))
                        continue
                if entry.is_dir():
                    stack.append(path)
                    continue
                if not entry.is_file():
                    continue
            except OSError as exc:  # a loop or a dangling link
                errors.append(_error(path, root, f"cannot follow link ({exc.strerror or exc})"))
                continue
            kind = kind_of(path)
            if kind is not None:
                found.append(SourceFile(path=path, rel=_rel(path, root), kind=kind))
    found.sort(key=lambda f: f.rel)
    errors.sort(key=lambda e: e.source)
    return Discovery(files=tuple(found), errors=tuple(errors))


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def _error(path: Path, root: Path, reason: str) -> FileError:
    try:
        rel = _rel(path, root)
    except ValueError:
        rel = str(path)
    return FileError(source=rel, stage="discover", reason=reason)
