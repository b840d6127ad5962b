"""Compare the calamine reader's display strings with openpyxl's values on real workbooks.

    python bench/crosscheck_openpyxl.py [FOLDER]

Counts cells where they differ (after the same display rules); prints a few examples.
"""

from __future__ import annotations

import sys
from pathlib import Path

import openpyxl

from notechunk.config import SheetsConfig
from notechunk.sheets.read import display, read_workbook


def main() -> int:
    here = Path(__file__).resolve()
    cands = [p / "shared" / "corpora" / "sheets" for p in here.parents[1:4]]
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else next(c for c in cands if c.is_dir())
    for path in sorted(root.rglob("*.xlsx")):
        wb = openpyxl.load_workbook(path, data_only=True)
        total = diff = 0
        examples: list[str] = []
        for sheet in read_workbook(path, path.name, SheetsConfig(include_hidden=True)):
            ws = wb[sheet.name]
            merged = {
                (r, c)
                for rng in ws.merged_cells.ranges
                for r in range(rng.min_row + 1, rng.max_row + 1)
                for c in range(rng.min_col, rng.min_col + 1)
            }
            for row in sheet.rows:
                for col, ours in enumerate(row.cells):
                    if not ours:
                        continue
                    c = (ws.min_column or 1) + col
                    cell = ws.cell(row=row.number, column=c)
                    theirs = display(cell.value)
                    if "%" in (cell.number_format or "") and isinstance(cell.value, float):
                        theirs = display(round(cell.value * 100, 10)) + "%"
                    total += 1
                    if (row.number, c) in merged and not theirs:
                        continue  # we copy merged values down on purpose
                    if ours != theirs:
                        diff += 1
                        if len(examples) < 3:
                            examples.append(
                                f"{sheet.name}!{cell.coordinate}: {ours!r} vs {theirs!r}"
                            )
        print(f"{path.name}: {total} cells, {diff} differ", *examples, sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
