"""Read speed of the sheet runner on a generated 100k-row workbook: median rows/s of N runs.

python bench/bench_sheets.py [ROWS] [RUNS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

from notechunk.config import Config
from notechunk.sheets import process_sheet_file
from notechunk.sheets.isolate import read_isolated


def make(path: Path, rows: int) -> None:
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Places")
    ws.append(["Place", "State", "Altitude (m)", "Note"])
    for i in range(rows):
        ws.append(
            [f"Place {i}", "Ladakh", 3000 + i % 900, f"pass number {i} on an old trade route"]
        )
    wb.save(path)


def main() -> int:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    cfg = Config()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.xlsx"
        make(path, rows)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            res = process_sheet_file(path, "bench.xlsx", cfg)
            times.append(time.perf_counter() - t0)
            assert len(res.pieces) == rows, res.errors
        rtimes = []
        for _ in range(runs):
            t0 = time.perf_counter()
            n = sum(1 for sheet in read_isolated(path, "bench.xlsx", cfg) for _row in sheet.rows)
            rtimes.append(time.perf_counter() - t0)
            assert n == rows + 1
        csv_path = Path(tmp) / "bench.csv"
        with csv_path.open("w", encoding="utf-8") as fh:
            fh.write("Place,State,Altitude (m),Note\n")
            for i in range(rows):
                fh.write(
                    f"Place {i},Ladakh,{3000 + i % 900},pass number {i} on an old trade route\n"
                )
        ctimes = []
        for _ in range(runs):
            t0 = time.perf_counter()
            process_sheet_file(csv_path, "bench.csv", cfg)
            ctimes.append(time.perf_counter() - t0)
    med, cmed = statistics.median(times), statistics.median(ctimes)
    rmed = statistics.median(rtimes)
    print(f"xlsx read only (worker, no chunking): median {rmed:.2f}s = {rows / rmed:,.0f} rows/s")
    for kind, m in (("xlsx", med), ("csv", cmed)):
        rate = rows / m
        verdict = "met" if rate >= 200_000 else "MISSED"
        print(
            f"TARGET sheets read and chunk, {kind}, {rows:,} rows: median {m:.2f} s over {runs} "
            f"runs = {rate:,.0f} rows/s (target >= 200,000: {verdict})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
