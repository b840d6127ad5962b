"""OUT's own entries: what notechunk may find at the names it creates or touches in OUT.

OUT is ours alone, so every path a command writes, moves or deletes in it is first
checked with `lstat` (a symbolic link is never followed): a folder we keep there must be a
real folder, a file a regular file, and a link one we made (`link_is_ours`). Anything
else (a link planted to another folder, a FIFO, a file where a folder belongs) is a
`UsageError` (exit 2) naming the path, and nothing is written. Files of OUT are opened
with `O_NOFOLLOW | O_NONBLOCK` (`open_own`), so a link or a FIFO swapped in after the
check fails the open instead of redirecting or blocking it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

from notechunk.errors import UsageError

Kind = Literal["absent", "dir", "file", "link", "other"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def kind(path: Path) -> Kind:
    """What is at `path`, the path itself (a link is `link`, whatever it points to)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "absent"
    except NotADirectoryError:  # a parent is a file: nothing can be here
        return "absent"
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    return "other"


_WHAT = {
    "dir": "a folder",
    "file": "a file",
    "link": "a symbolic link",
    "other": "a special file (FIFO, socket or device)",
}


def refuse(path: Path, found: Kind, expected: str) -> UsageError:
    """The one-line refusal for an entry of OUT that is not what notechunk keeps there."""
    return UsageError(
        f"{path}: {_WHAT.get(found, found)} where notechunk keeps {expected}; notechunk "
        "writes only what it made inside the output folder: remove it and run again"
    )


def check_dir(path: Path) -> bool:
    """True when `path` is a real folder, False when absent; anything else is refused."""
    found = kind(path)
    if found == "dir":
        return True
    if found == "absent":
        return False
    raise refuse(path, found, "a folder of its own")


def check_file(path: Path) -> bool:
    """True when `path` is a regular file, False when absent; anything else is refused."""
    found = kind(path)
    if found == "file":
        return True
    if found == "absent":
        return False
    raise refuse(path, found, "a file of its own")


def own_dir(path: Path) -> Path:
    """`path` as a real folder: made when absent (its parent must be a checked folder)."""
    if not check_dir(path):
        try:
            path.mkdir()
        except FileExistsError:  # made meanwhile: check what it is
            if not check_dir(path):
                raise refuse(path, kind(path), "a folder of its own") from None
    return path


def link_is_ours(path: Path, target: str) -> bool:
    """True when `path` is a symbolic link whose text is exactly `target`."""
    try:
        return os.readlink(path) == target
    except OSError:
        return False


def open_own(path: Path, flags: int, mode: int = 0o644) -> int:
    """`os.open` of a file of OUT that never follows a link and never blocks on a FIFO;
    the descriptor of a regular file, else the `UsageError` naming the path (an `OSError`
    other than a link or a special file passes through)."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode)
    except OSError:
        found = kind(path)
        if found in ("link", "other", "dir"):
            raise refuse(path, found, "a file of its own") from None
        raise
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise refuse(path, "other", "a file of its own")
    return fd


def read_own(path: Path) -> bytes:
    """The bytes of a file of OUT (`open_own`: no link followed, no FIFO waited on)."""
    fd = open_own(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()
