"""Run the sheet runner over a corpus folder of spreadsheets and print per-folder figures.

    python bench/corpus_sheets.py [ROOT ...] [--by-file]

ROOT defaults to ../shared/corpora/sheets and ../shared/corpora/sheets-study. Per folder
(the first path part under ROOT): files, sheets, data rows, chunks kept / omitted,
discarded rows by rule, chunks carrying a `group`, sheets whose figures are not conserved
(data_rows != chunks + discarded, or rows left unread) and file errors.
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from notechunk.config import Config
from notechunk.perfile import process_sheet

SUFFIXES = {".xlsx", ".xlsm", ".xls", ".ods", ".csv"}


def default_roots() -> list[Path]:
    here = Path(__file__).resolve()
    for p in here.parents[1:4]:
        if (p / "shared" / "corpora").is_dir():
            return [p / "shared" / "corpora" / "sheets", p / "shared" / "corpora" / "sheets-study"]
    return []


def run(root: Path, by_file: bool) -> None:
    cfg = Config()
    folders: dict[str, Counter[str]] = defaultdict(Counter)
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in SUFFIXES:
            continue
        rel = path.relative_to(root).as_posix()
        t0 = time.perf_counter()
        res = process_sheet(path, rel, cfg)
        dt = time.perf_counter() - t0
        c = folders[rel.split("/")[0]]
        c["files"] += 1
        c["sheets"] += len(res.reports)
        c["data_rows"] += sum(r.data_rows for r in res.reports)
        c["kept"] += sum(1 for x in res.chunks if not x.omit)
        c["omitted"] += sum(1 for x in res.chunks if x.omit)
        c["fragments_omitted"] += sum(1 for x in res.chunks if x.omit and x.quality == "fragment")
        c["with_group"] += sum(1 for x in res.chunks if getattr(x, "group", None))
        for d in res.discarded:
            c["disc:" + d.rule] += 1
        broken = [
            r
            for r in res.reports
            if r.data_rows != r.chunks + r.discarded
            or r.status in ("truncated", "failed")
            or getattr(r, "unread_rows", 0)
        ]
        c["not_conserved"] += len(broken)
        c["errors"] += len(res.errors)
        if by_file:
            print(
                f"  {rel}: rows={sum(r.data_rows for r in res.reports)} chunks={len(res.chunks)}"
                f" discarded={len(res.discarded)} errors={[e.reason for e in res.errors]}"
                f" {dt:.2f}s"
            )
    total: Counter[str] = Counter()
    print(f"== {root}")
    for folder, c in sorted(folders.items()):
        total.update(c)
        print(f"{folder}: {_fmt(c)}")
    print(f"TOTAL: {_fmt(total)}\n")


def _fmt(c: Counter[str]) -> str:
    rules = ", ".join(f"{k[5:]}={v}" for k, v in sorted(c.items()) if k.startswith("disc:"))
    return (
        f"files={c['files']} sheets={c['sheets']} data_rows={c['data_rows']} kept={c['kept']}"
        f" omitted={c['omitted']} (fragments {c['fragments_omitted']})"
        f" discarded={sum(v for k, v in c.items() if k.startswith('disc:'))} [{rules}]"
        f" with_group={c['with_group']} not_conserved={c['not_conserved']} errors={c['errors']}"
    )


def main(argv: list[str]) -> int:
    by_file = "--by-file" in argv
    roots = [Path(a) for a in argv if not a.startswith("--")] or default_roots()
    for root in roots:
        run(root, by_file)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
