"""Incremental re-runs: a first run against re-runs on the unchanged corpus, then one file
touched. Target: the unchanged re-run is at least 10x faster than the first run, and a
touched file is the only one redone.

    python bench/bench_incremental.py [SRC] [--repeat 3] [--workers 1]

SRC defaults to ../shared/corpora/notes-md; it is read in place (never copied into the
repo). The touched-file step works on a scratch copy in a temporary folder, so SRC is
never modified. Each run is a fresh `python -m notechunk run` process, as a user runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SRC = ROOT.parent.parent / "shared" / "corpora" / "notes-md"
if not DEFAULT_SRC.exists():  # a checkout next to ../shared rather than a worktree
    DEFAULT_SRC = ROOT.parent / "shared" / "corpora" / "notes-md"


def timed_run(src: Path, out: Path, workers: int) -> float:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
    cmd += ["--workers", str(workers)]
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return elapsed


def cache_entries(out: Path) -> set[str]:
    return {p.name for p in (out / ".cache").rglob("*.msgpack.gz")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", nargs="?", type=Path, default=DEFAULT_SRC)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    if not args.src.exists():
        print(f"skip: {args.src} not present", file=sys.stderr)
        return 0
    files = sum(1 for p in args.src.rglob("*") if p.suffix.lower() in {".md", ".csv", ".xlsx"})
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        first = timed_run(args.src, out, args.workers)
        reruns = [timed_run(args.src, out, args.workers) for _ in range(args.repeat)]
        rerun = statistics.median(reruns)

        # one file touched, on a scratch copy: only its cache entry is new
        copy = Path(tmp) / "src"
        shutil.copytree(args.src, copy, symlinks=True)
        out2 = Path(tmp) / "out2"
        timed_run(copy, out2, args.workers)
        before = cache_entries(out2)
        victim = sorted(copy.rglob("*.md"))[len(before) // 2]
        with open(victim, "a", encoding="utf-8") as fh:
            fh.write("\n\nA sentence added by the incremental benchmark.\n")
        touched = timed_run(copy, out2, args.workers)
        redone = cache_entries(out2) - before

    result = {
        "src": str(args.src),
        "files": files,
        "first_run_s": round(first, 3),
        "rerun_median_s": round(rerun, 3),
        "reruns_s": [round(x, 3) for x in reruns],
        "speedup": round(first / rerun, 1),
        "touched_file": victim.relative_to(copy).as_posix(),
        "touched_run_s": round(touched, 3),
        "files_redone_after_touch": len(redone),
    }
    print(json.dumps(result, indent=2))
    ok = first / rerun >= 10 and len(redone) == 1
    print(
        f"TARGET incremental, {args.src.name}: first run {first:.2f} s, unchanged re-run "
        f"{rerun:.2f} s (median of {args.repeat}): {first / rerun:.1f}x; one file touched: "
        f"{len(redone)} file redone in {touched:.2f} s (target >= 10x and 1 file: "
        f"{'met' if ok else 'MISSED'})"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
