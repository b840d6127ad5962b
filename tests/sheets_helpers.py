"""Shared helpers for the sheet tests: tiny workbook writers and the shared-corpus path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl


def shared_dir() -> Path | None:
    """../shared from the main checkout, ../../shared from a worktree; None when absent."""
    here = Path(__file__).resolve()
    for parent in here.parents[1:4]:
        if (parent / "shared" / "corpora").is_dir():
            return parent / "shared"
    return None


def write_xlsx(path: Path, rows: list[list[Any]], title: str = "Sheet1") -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append(row)
    wb.save(path)
    return path


def abort_now() -> None:
    """A worker body that dies like calamine on a hostile workbook (SIGABRT)."""
    import os

    os.abort()


def sleep_long() -> None:
    import time

    time.sleep(30)
