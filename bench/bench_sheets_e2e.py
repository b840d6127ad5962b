"""Sheets end to end (issue 24): `notechunk run` on one generated 100k-row sheet against a
hand-written loop making the same `Header: value` texts, and OUT's size against the sheet's.

    python bench/bench_sheets_e2e.py [ROWS] [RUNS] [--kind csv|xlsx|both] [--src DIR]

(DIR: another checkout's src/, to measure it the same way: before and after a change.)

A CSV of 5 filled columns (~4.2 MB at 100k rows) and an xlsx of the same rows are made in
a temporary folder. Each is run through `python -m notechunk run SRC --out OUT` (a fresh
OUT, defaults) and through its peer (`csv.DictReader`; openpyxl's read-only workbook),
each in a fresh interpreter, alternating, and the medians of RUNS are compared: the
target is notechunk within 3x its peer, and OUT (cache included) at most 3x the sheet.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import ROOT, write_result

HEADER = ("Name", "State", "Altitude", "Route", "Season")

# The peers: read every row, make "Header: value. Header: value." and write one a line.
CSV_PEER = """
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as fh, open(sys.argv[2], "w") as out:
    for row in csv.DictReader(fh):
        out.write(". ".join(f"{k}: {v}" for k, v in row.items() if v) + ".\\n")
"""
XLSX_PEER = """
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
with open(sys.argv[2], "w") as out:
    for ws in wb.worksheets:
        rows = ws.iter_rows(values_only=True)
        names = [str(v) for v in next(rows)]
        for row in rows:
            cells = [(k, v) for k, v in zip(names, row) if v is not None and v != ""]
            out.write(". ".join(f"{k}: {v}" for k, v in cells) + ".\\n")
wb.close()
"""


def row(i: int) -> tuple[str, str, str, str, str]:
    """Five filled one-word cells: 10 words as `Header: value` text (the `short` band)."""
    return (f"Pass{i:06d}", "Ladakh", f"{3000 + i % 900}m", "Silkroad", "summer")


def make_csv(path: Path, rows: int) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(HEADER) + "\n")
        fh.writelines(",".join(row(i)) + "\n" for i in range(rows))


def make_xlsx(path: Path, rows: int) -> None:
    import openpyxl

    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Passes")
    ws.append(list(HEADER))
    for i in range(rows):
        ws.append(list(row(i)))
    wb.save(path)


def tree_bytes(root: Path) -> int:
    return sum(p.lstat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


SRC = ROOT / "src"  # the notechunk measured (--src)


def timed_cmd(cmd: list[str]) -> float:
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    subprocess.run(cmd, check=True, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def bench(kind: str, rows: int, runs: int, tmp: Path) -> dict[str, float]:
    src = tmp / f"src-{kind}"
    src.mkdir()
    sheet = src / f"passes.{kind}"
    (make_csv if kind == "csv" else make_xlsx)(sheet, rows)
    out = tmp / f"out-{kind}"
    ours_cmd = [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
    peer = CSV_PEER if kind == "csv" else XLSX_PEER
    peer_cmd = [sys.executable, "-c", peer, str(sheet), str(tmp / "peer.txt")]
    ours, theirs = [], []
    for _ in range(runs):  # alternating, each in a fresh interpreter, a fresh OUT
        shutil.rmtree(out, ignore_errors=True)
        ours.append(timed_cmd(ours_cmd))
        theirs.append(timed_cmd(peer_cmd))
    size, out_size = sheet.stat().st_size, tree_bytes(out)
    med, peer_med = statistics.median(ours), statistics.median(theirs)
    ratio = med / peer_med
    peer_name = "csv.DictReader loop" if kind == "csv" else "openpyxl read-only loop"
    print(
        f"TARGET sheets end to end, {kind}, {rows:,} rows ({size / 1e6:.1f} MB): notechunk run "
        f"{med:.2f} s ({rows / med:,.0f} rows/s) vs {peer_name} {peer_med:.2f} s = {ratio:.1f}x "
        f"(target <= 3x: {'met' if ratio <= 3 else 'MISSED'}; medians of {runs})"
    )
    grow = out_size / size
    print(
        f"TARGET sheets OUT size, {kind}: {out_size / 1e6:.1f} MB for {size / 1e6:.1f} MB = "
        f"{grow:.1f}x (target <= 3x: {'met' if grow <= 3 else 'MISSED'})"
    )
    for path in sorted(out.rglob("*")):  # where the bytes go, largest first
        if path.is_file() and not path.is_symlink() and path.stat().st_size > size / 20:
            print(f"  {path.relative_to(out)}: {path.stat().st_size / 1e6:.1f} MB")
    return {"seconds": med, "peer_seconds": peer_med, "ratio": ratio, "out_ratio": grow}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", nargs="?", type=int, default=100_000)
    ap.add_argument("runs", nargs="?", type=int, default=3)
    ap.add_argument("--kind", choices=("csv", "xlsx", "both"), default="both")
    ap.add_argument("--src", type=Path, default=ROOT / "src")
    args = ap.parse_args()
    global SRC
    SRC = args.src.resolve()
    kinds = ("csv", "xlsx") if args.kind == "both" else (args.kind,)
    with tempfile.TemporaryDirectory() as tmp:
        results = {k: bench(k, args.rows, args.runs, Path(tmp)) for k in kinds}
    write_result("sheets_e2e", {"rows": args.rows, "runs": args.runs, **results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
