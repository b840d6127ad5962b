"""Spreadsheet runner: .xlsx/.xlsm/.xls/.ods/.csv rows -> skip rules -> template | fallback.

The names below load on first use, so `notechunk.config.syntax` (which the config imports
to check template text) does not pull in the readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from notechunk.sheets.runner import SheetFileResult, process_sheet_file
    from notechunk.sheets.suggest import suggest_templates

__all__ = ["SheetFileResult", "process_sheet_file", "suggest_templates"]


def __getattr__(name: str) -> object:
    if name in ("SheetFileResult", "process_sheet_file"):
        from notechunk.sheets import runner

        return getattr(runner, name)
    if name == "suggest_templates":
        from notechunk.sheets import suggest

        return suggest.suggest_templates
    raise AttributeError(f"module 'notechunk.sheets' has no attribute {name!r}")
