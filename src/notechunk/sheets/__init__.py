"""Spreadsheet runner: .xlsx/.xlsm/.xls/.ods/.csv rows -> skip rules -> template | fallback."""

from notechunk.sheets.runner import SheetFileResult, process_sheet_file, suggest_templates

__all__ = ["SheetFileResult", "process_sheet_file", "suggest_templates"]
