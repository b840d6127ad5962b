"""Where a run's notes were: OUT/origin.json, beside the outputs and not among them.

Every chunk names its `source` relative to SRC, and the outputs never depend on where
SRC or OUT is (the same notes give the same bytes anywhere), so SRC's location is not in
any output or in the manifest. A reader that needs the notes themselves (the MCP
server's `read_source`) finds them here: the absolute folder the sources are relative to
(SRC, or the folder of a one-file SRC) and the files the run read. Written by the run
before its manifest; an OUT made before this file existed simply has none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ORIGIN = "origin.json"
FORMAT = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Origin:
    """The folder every `source` is relative to, and the sources the run read."""

    root: Path
    files: tuple[str, ...]

    def to_bytes(self) -> bytes:
        """Sorted keys; ASCII escapes, so a folder name that is not UTF-8 (lone surrogates
        from the OS) survives the round trip."""
        data = {"format": FORMAT, "root": str(self.root), "files": list(self.files)}
        return (json.dumps(data, sort_keys=True, ensure_ascii=True) + "\n").encode("ascii")


def origin_of(src: Path, files: Iterable[str]) -> Origin:
    """The origin of a run over `src` (a folder, or one file: then its folder)."""
    root = src.resolve()
    if root.is_file():
        root = root.parent
    return Origin(root=root, files=tuple(sorted(set(files))))


def read_origin(out: Path) -> Origin | None:
    """OUT's origin, or None when the run recorded none (or the file is not ours)."""
    try:
        data = json.loads((out / ORIGIN).read_text(encoding="ascii"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    root, files = data.get("root"), data.get("files")
    if not isinstance(root, str) or not root or not isinstance(files, list):
        return None
    return Origin(root=Path(root), files=tuple(str(f) for f in files if isinstance(f, str)))
