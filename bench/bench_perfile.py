"""Per-file CPU: `engines.process_with_inputs` over every file of a corpus, one process,
no cache (the map step of a run without its corpus passes). Prints `time.process_time`
seconds per corpus and run; `--profile N` prints the top N cProfile rows (cumulative and
own time) of one more run per corpus.

    PYTHONPATH=src python bench/bench_perfile.py [--runs 3] [--profile 25] [CORPUS ...]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from notechunk.config import Config
from notechunk.discover import discover
from notechunk.engines import process_with_inputs

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", type=int, default=0)
    ap.add_argument("corpora", nargs="*", default=["rfcs-md", "notes-md"])
    args = ap.parse_args(argv)
    cfg = Config()
    for name in args.corpora:
        src = Path(name) if Path(name).is_dir() else CORPORA / name
        files = list(discover(src).files)
        process_with_inputs(files[:5], cfg, None, "bench")  # imports and tools warm
        times = []
        for _ in range(args.runs):
            t0 = time.process_time()
            process_with_inputs(files, cfg, None, "bench")
            times.append(time.process_time() - t0)
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"{name}: {len(files)} files, per-file CPU {min(times):.2f} s (runs: {shown})")
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(process_with_inputs, files, cfg, None, "bench")
            stats = pstats.Stats(prof)
            stats.sort_stats("cumulative").print_stats(args.profile)
            stats.sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
