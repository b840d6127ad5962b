"""Run the sheet runner over ../shared/corpora/sheets: rows, chunks, discarded per folder."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from notechunk.config import Config
from notechunk.process import process_sheet


def main() -> int:
    # ../shared from the main checkout; ../../shared from a worktree under /work/wt
    here = Path(__file__).resolve()
    cands = [p / "shared" / "corpora" / "sheets" for p in here.parents[1:4]]
    root = next((c for c in cands if c.is_dir()), cands[1])
    if len(sys.argv) > 1:
        root = Path(sys.argv[1])
    cfg = Config()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    bad = 0
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in {".xlsx", ".xlsm", ".xls", ".ods", ".csv"}:
            continue
        rel = path.relative_to(root).as_posix()
        t0 = time.perf_counter()
        res = process_sheet(path, rel, cfg)
        dt = time.perf_counter() - t0
        rows = sum(r.data_rows for r in res.reports)
        ok = all(r.data_rows == r.chunks + r.discarded for r in res.reports)
        bad += not ok
        kept = sum(1 for c in res.chunks if not c.omit)
        t = totals[rel.split("/")[0]]
        for i, v in enumerate(
            (1, rows, len(res.chunks), kept, len(res.discarded), len(res.errors))
        ):
            t[i] += v
        print(
            f"{rel}: rows={rows} chunks={len(res.chunks)} kept={kept} "
            f"discarded={len(res.discarded)} errors={[e.reason for e in res.errors]} "
            f"conserved={ok} {dt:.2f}s"
        )
    print("\nfolder files rows chunks kept discarded errors")
    grand = [0] * 6
    for folder, t in sorted(totals.items()):
        print(folder, *t)
        grand = [a + b for a, b in zip(grand, t, strict=True)]
    print("TOTAL", *grand, "conservation violations:", bad)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
