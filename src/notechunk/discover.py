"""Which files a run reads, in which order: the only walker of the file system.

Sorted by POSIX relative path (so outputs do not depend on directory order); symlinks are
followed only while they stay inside SRC and out of the run's own folders (a link to a
file of OUT would read the run's outputs back as notes), and each directory is entered
once (symlink loops end); hidden files and folders (a leading dot) are skipped;
unreadable folders, broken links and non-regular files with a known extension (a FIFO
named x.md) are reported, never fatal and never opened.

A file's `source` is its path relative to SRC, spelled so that two files never share one
and the bytes of the name can be had back (`source_name`, `source_bytes`).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from notechunk.chunk import FileError, SourceType

MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdown", ".mkd"})
SHEET_EXTENSIONS = frozenset({".xlsx", ".xlsm", ".xls", ".ods", ".csv"})
"""The one table of what a run reads: a file's extension gives its kind (`kind_of`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    """A file to read. `refs`: the Logseq blocks of the corpus its text refers to, as
    (uuid, the block's first line), set by `corpus.blockrefs.link_block_refs`."""

    path: Path
    rel: str
    kind: SourceType
    refs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Discovery:
    files: tuple[SourceFile, ...]
    errors: tuple[FileError, ...]


def kind_of(path: Path) -> SourceType | None:
    ext = path.suffix.lower()
    if ext in MARKDOWN_EXTENSIONS:
        return "markdown"
    if ext in SHEET_EXTENSIONS:
        return "spreadsheet"
    return None


def discover(src: Path, exclude: Iterable[Path] = ()) -> Discovery:
    """Every Markdown and spreadsheet file under `src` (or `src` itself if it is a file).

    Folders in `exclude` are never entered: a run passes its own output folders,
    so an OUT inside SRC does not read back its CSV reports as inputs.
    """
    root = src.resolve()
    if root.is_file():
        kind = kind_of(root)
        files = (SourceFile(path=root, rel=root.name, kind=kind),) if kind else ()
        return Discovery(files=files, errors=())
    found: list[SourceFile] = []
    errors: list[FileError] = []
    seen: set[tuple[int, int]] = set()
    own: list[Path] = []  # the run's folders, resolved: no link may lead into them
    for folder in exclude:
        try:
            st = folder.stat()
            own.append(folder.resolve())
        except (OSError, RuntimeError):
            continue
        if stat.S_ISDIR(st.st_mode):
            seen.add((st.st_dev, st.st_ino))
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
            kind = kind_of(path)
            try:
                if entry.is_symlink():
                    # strict: a dangling link is an error here, not a file that vanishes
                    target = path.resolve(strict=True)
                    if not target.is_relative_to(root):
                        errors.append(_error(path, root, "symlink points outside the source"))
                        continue
                    if any(target.is_relative_to(o) for o in own):
                        if kind is not None or target.is_dir():
                            reason = "symlink into the output folder: skipped, never a note"
                            errors.append(_error(path, root, reason))
                        continue
                if entry.is_dir():
                    stack.append(path)
                    continue
                if not entry.is_file():
                    if kind is not None:  # a FIFO or device named x.md: never opened
                        errors.append(_error(path, root, "not a regular file"))
                    continue
            except FileNotFoundError:
                errors.append(_error(path, root, "broken symlink (its target does not exist)"))
                continue
            except (OSError, RuntimeError) as exc:  # RuntimeError: a loop, Python < 3.13
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "a loop"
                errors.append(_error(path, root, f"cannot follow symlink ({reason})"))
                continue
            if kind is not None:
                found.append(SourceFile(path=path, rel=_rel(path, root), kind=kind))
    found.sort(key=lambda f: f.rel)
    errors.sort(key=lambda e: e.source)
    return Discovery(files=tuple(found), errors=tuple(errors))


def _rel(path: Path, root: Path) -> str:
    return source_name(path.relative_to(root).as_posix())


def source_name(rel: str) -> str:
    """A relative POSIX path as a `source`: text that can be written as JSON, unique and
    reversible. Each backslash is doubled and each byte of the name that is not UTF-8
    (kept by the OS as a lone surrogate) is written `\\xNN`, so `a<0xff>.md` is `a\\xff.md`
    and a real `a\\xff.md` is `a\\\\xff.md`: never the same (`source_bytes` undoes it)."""
    if "\\" not in rel:
        try:
            rel.encode("utf-8")
            return rel
        except UnicodeEncodeError:
            pass
    raw = os.fsencode(rel).replace(b"\\", b"\\\\")
    return raw.decode("utf-8", "backslashreplace")


_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2})")


def source_bytes(source: str) -> bytes:
    """The name's bytes again (`source_name` undone): `os.fsdecode` of them is the path."""

    def undo(m: re.Match[str]) -> str:
        tail = m.group(1)
        return "\\" if tail == "\\" else os.fsdecode(bytes([int(tail[1:], 16)]))

    return os.fsencode(_ESCAPE.sub(undo, source))


def _error(path: Path, root: Path, reason: str) -> FileError:
    try:
        rel = _rel(path, root)
    except ValueError:
        rel = str(path)
    return FileError(source=rel, stage="discover", reason=reason)
