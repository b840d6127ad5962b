"""Peak memory of `notechunk run` against corpus size: generated CSV rows and copies of notes-md.

Each run is a fresh `python -m notechunk run SRC --out FRESH` (default options, every core).
Peak RSS is sampled every 20 ms over the whole process tree (the run and its workers,
summed: what the machine must hold) from /proc; the largest single process is printed
too. Target: <= 500 MB for 1M rows, about the same for 5M.

CSV corpora: `--rows` rows in total (default 1M, 2M, 5M), in one file (`--files 1`, what
the issue measured) or spread over several files. A row: an id, a place name, a state, an
altitude, a date and a short note (distinct ids and notes, as real sheets have).

    python bench/bench_memory.py [--rows 1000000 --rows 2000000] [--copies 1 --copies 5]
                                 [--files 1] [--skip-notes] [--skip-csv]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import ROOT, corpora_dir, write_result

STATES = ("Ladakh", "Sikkim", "Kerala", "Assam", "Goa", "Punjab", "Bihar", "Odisha")


def make_csv(folder: Path, rows: int, files: int) -> None:
    folder.mkdir(parents=True)
    per = -(-rows // files)
    for f in range(files):
        with open(folder / f"places_{f:03d}.csv", "w", encoding="utf-8") as fh:
            fh.write("Id,Place,State,Altitude (m),Surveyed,Note\n")
            for i in range(f * per, min(rows, (f + 1) * per)):
                fh.write(
                    f"P{i},Place {i % 50000} of {STATES[i % 8]},{STATES[(i // 8) % 8]},"
                    f"{3000 + i % 900},2019-{1 + i % 12:02d}-{1 + i % 28:02d},"
                    f"pass number {i} on an old trade route near camp {i % 997}\n"
                )


def copies(src: Path, dest: Path, n: int) -> None:
    for k in range(n):
        shutil.copytree(src, dest / f"copy{k}")


def tree_rss(root: int) -> tuple[int, int]:
    """(sum, max) of VmRSS in bytes over `root` and its descendants."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/statm", "rb") as fh:
                pages = int(fh.read().split()[1])
        except OSError:
            continue
        parent[int(entry)] = int(stat[1])
        rss[int(entry)] = pages * os.sysconf("SC_PAGE_SIZE")
    mine = {root}
    grew = True
    while grew:
        grew = False
        for pid, pp in parent.items():
            if pp in mine and pid not in mine:
                mine.add(pid)
                grew = True
    sizes = [rss.get(p, 0) for p in mine]
    return sum(sizes), max(sizes)


def measure(src: Path, out: Path) -> tuple[float, int, int]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_sum = peak_one = 0
    while proc.poll() is None:
        s, m = tree_rss(proc.pid)
        peak_sum, peak_one = max(peak_sum, s), max(peak_one, m)
        time.sleep(0.02)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        err = proc.stderr.read().decode() if proc.stderr else ""
        sys.exit(f"run failed ({proc.returncode}): {err.strip()[-400:]}")
    return elapsed, peak_sum, peak_one


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, action="append")
    ap.add_argument("--files", type=int, default=1)
    ap.add_argument("--copies", type=int, action="append")
    ap.add_argument("--skip-csv", action="store_true")
    ap.add_argument("--skip-notes", action="store_true")
    args = ap.parse_args(argv)
    table: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        cases: list[tuple[str, Path]] = []
        if not args.skip_csv:
            for k, rows in enumerate(args.rows or [1_000_000, 2_000_000, 5_000_000]):
                folder = Path(tmp) / f"csv{rows}-{k}"  # a size given twice: measured twice
                make_csv(folder, rows, args.files)
                cases.append((f"{rows:,} CSV rows in {args.files} file(s)", folder))
        notes = corpora_dir() / "notes-md"
        if not args.skip_notes and notes.is_dir():
            for n in args.copies or [1, 5, 20]:
                folder = Path(tmp) / f"notes{n}"
                copies(notes, folder, n)
                cases.append((f"notes-md x{n}", folder))
        print("| corpus | MB | wall s | peak RSS, all processes | largest process |")
        print("| --- | --- | --- | --- | --- |")
        for label, folder in cases:
            mb = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6
            wall, total, one = measure(folder, Path(tmp) / "out" / folder.name)
            shutil.rmtree(Path(tmp) / "out" / folder.name, ignore_errors=True)
            shutil.rmtree(folder, ignore_errors=True)
            print(
                f"| {label} | {mb:.0f} | {wall:.1f} | {total / 1e6:.0f} MB | {one / 1e6:.0f} MB |"
            )
            sys.stdout.flush()
            table.append(
                {"corpus": label, "mb": round(mb, 1), "wall_s": round(wall, 1),
                 "peak_rss_mb": round(total / 1e6), "largest_process_mb": round(one / 1e6)}
            )  # fmt: skip
    write_result("memory", {"cpus": os.cpu_count(), "runs": table})
    rows = [r for r in table if "CSV rows" in str(r["corpus"])]
    for r in rows:
        mb = int(str(r["peak_rss_mb"]))
        print(
            f"TARGET peak RSS, {r['corpus']}: {mb} MB, all processes "
            f"(target <= 500 MB: {'met' if mb <= 500 else 'MISSED'})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
