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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from notechunk.chunk import FileError, SourceType
from notechunk.config.toml import CONFIG_FILENAME

MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdown", ".mkd"})
SHEET_EXTENSIONS = frozenset({".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv"})
TEXT_EXTENSIONS = frozenset({".txt"})
"""The one table of what a run reads: a file's extension gives its kind (`kind_of`); a
`.txt` is a note (read as Markdown: paragraphs and lists) unless its lines are flash cards
(`deck_separator`), then a sheet of cards."""

ANKI_HEADER = re.compile(
    r"#(separator|html|columns|notetype|deck|tags|guid column|"
    r"notetype column|deck column|tags column|if matches):(.*)$"
)
"""An Anki text-export header line (`#separator:tab`, `#html:true`, `#columns:a;b`)."""
CARD_SEPARATORS = ("\t", "|", ";")
"""Card separators, in the order a tie is decided: Quizlet and Anki plain-text exports."""
_SNIFF_BYTES = 65536
_CARD_SHARE = 0.9


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    """A file a run reads. `hierarchy`: its folder is a vault that writes each note's
    place in its file name (Dendron: `economics.MIT.Microeconomics.md`, `hierarchy_vault`).
    `refs`: the Logseq blocks of the corpus its text refers to, as (uuid, the block's first
    line), set by `corpus.blockrefs.link_block_refs`."""

    path: Path
    rel: str
    kind: SourceType
    hierarchy: bool
    refs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Discovery:
    """The files a run reads, the errors met walking, and every other regular file found
    (`skipped`: its kind is none the run reads, e.g. a PDF), so none is silently absent."""

    files: tuple[SourceFile, ...]
    errors: tuple[FileError, ...]
    skipped: tuple[str, ...]


DENDRON_CONFIG = "dendron.yml"
_VAULT_MIN_NOTES = 3


def hierarchy_vault(names: Sequence[str]) -> bool:
    """Whether a folder holding the files `names` writes its hierarchy in file names:
    Dendron's `root.md` beside a dotted note, or most of its notes (3 at least) with 2+
    dots in their stem (`a.b.c.md`). A lone `v1.2 notes.md` is no vault. (A `dendron.yml`
    in the folder or above it makes every folder below a vault: see `discover`.)"""
    stems = [n.rsplit(".", 1)[0] for n in names if _kind_by_name(Path(n)) == "markdown"]
    dotted = [s for s in stems if "." in s]
    if "root" in stems and dotted:
        return True
    deep = sum(1 for s in dotted if s.count(".") >= 2)
    return len(stems) >= _VAULT_MIN_NOTES and deep * 2 > len(stems)


def hierarchy_of(path: Path, rel: str) -> bool:
    """`SourceFile.hierarchy` of one file found apart from a walk (`rel`: its source
    below SRC): what `discover` would say of it. Unreadable folders say no."""
    folder = path.parent
    depth = max(rel.count("/"), 0)
    try:
        if hierarchy_vault(os.listdir(folder)):
            return True
        return any((p / DENDRON_CONFIG).is_file() for p in [folder, *folder.parents][: depth + 1])
    except OSError:
        return False


def kind_of(path: Path) -> SourceType | None:
    """A file's kind by its extension; a `.txt` by its first lines too (a card deck is a
    sheet, anything else a note; a file that cannot be read is left to its reader)."""
    kind = _kind_by_name(path)
    if kind is not None and path.suffix.lower() in TEXT_EXTENSIONS:
        return _text_kind(path)
    return kind


def _kind_by_name(path: Path) -> SourceType | None:
    ext = path.suffix.lower()
    if ext in MARKDOWN_EXTENSIONS or ext in TEXT_EXTENSIONS:
        return "markdown"
    if ext in SHEET_EXTENSIONS:
        return "spreadsheet"
    return None


def _text_kind(path: Path) -> SourceType:
    """A `.txt`: a sheet when its first lines are cards, else a note (a FIFO or a file that
    cannot be read is never opened or waited on here: its reader reports it)."""
    try:
        if not path.is_file():
            return "markdown"
        with path.open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return "markdown"
    text = head.decode("utf-8", "replace").removeprefix("\ufeff")
    return "spreadsheet" if deck_separator(text) is not None else "markdown"


def deck_separator(text: str) -> str | None:
    """The separator of a flash-card export, or None when `text` is no card deck.

    Anki's `#separator:` header names it (Tab, Comma, Semicolon, Pipe, Space, Colon or the
    character itself); else it is the first of `CARD_SEPARATORS` that splits at least 90%
    of the non-blank, non-header lines in two, a non-empty front and back (two lines at
    least; a table with more columns is no deck).
    """
    lines = [line.strip("\r") for line in text.split("\n")[:2000]]
    if len(text) >= _SNIFF_BYTES and len(lines) > 1:
        lines.pop()  # cut mid-line by the sample's end
    body = []
    for line in lines:
        m = ANKI_HEADER.match(line)
        if m is None:
            if line.strip():
                body.append(line)
            continue
        if m.group(1) == "separator":
            return _SEPARATOR_NAMES.get(
                m.group(2).strip().casefold(), m.group(2).strip()[:1] or None
            )
    if len(body) < 2:
        return None
    for sep in CARD_SEPARATORS:
        split = sum(1 for line in body if _two_sided(line, sep))
        if split >= _CARD_SHARE * len(body):
            return sep
    return None


_SEPARATOR_NAMES = {
    "tab": "\t",
    "comma": ",",
    "semicolon": ";",
    "pipe": "|",
    "space": " ",
    "colon": ":",
}


def _two_sided(line: str, sep: str) -> bool:
    """`line` is split in two by `sep`: once, with a front and a back."""
    front, found, back = line.partition(sep)
    return bool(found) and sep not in back and bool(front.strip()) and bool(back.strip())


def discover(src: Path, exclude: Iterable[Path] = ()) -> Discovery:
    """Every Markdown, text and spreadsheet file under `src` (or `src` itself if it is a
    file); every other non-hidden regular file is listed in `skipped`.

    Folders in `exclude` are never entered: a run passes its own output folders,
    so an OUT inside SRC does not read back its CSV reports as inputs.
    """
    root = src.resolve()
    if root.is_file():
        kind = kind_of(root)
        files = (SourceFile(path=root, rel=root.name, kind=kind, hierarchy=False),) if kind else ()
        return Discovery(files=files, errors=(), skipped=() if kind else (root.name,))
    found: list[SourceFile] = []
    errors: list[FileError] = []
    skipped: list[str] = []
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
    stack: list[tuple[Path, bool]] = [(root, False)]  # a folder, and a dendron.yml above it
    while stack:
        folder, workspace = stack.pop()
        try:
            st = folder.stat()
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            errors.append(_error(folder, root, f"cannot list folder ({exc.strerror or exc})"))
            continue
        names = [e.name for e in entries]
        workspace = workspace or DENDRON_CONFIG in names
        vault = workspace or hierarchy_vault(names)
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            kind = _kind_by_name(path)
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
                    stack.append((path, workspace))
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
            if kind is None:
                if not (folder == root and entry.name == CONFIG_FILENAME):  # the run's config
                    skipped.append(_rel(path, root))
                continue
            if path.suffix.lower() in TEXT_EXTENSIONS:
                kind = _text_kind(path)
            found.append(SourceFile(path=path, rel=_rel(path, root), kind=kind, hierarchy=vault))
    found.sort(key=lambda f: f.rel)
    errors.sort(key=lambda e: e.source)
    return Discovery(files=tuple(found), errors=tuple(errors), skipped=tuple(sorted(skipped)))


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
