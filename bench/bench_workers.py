"""`notechunk run` end to end (discover, read, chunk, merge, write) with 1 and 2 worker
processes: wall time, MB/s, and a check that both give byte-identical output files.
The cache is off, so every run does the whole job.

    python bench/bench_workers.py [--runs 3] [--corpus notes-md] [--workers 1 --workers 2]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

from benchlib import corpora_dir, timed, version, write_result

import notechunk.segment


def ensure_segmenter() -> str:
    """The pipeline asks `notechunk.segment.get_segmenter`; until it lands on main, stand
    in the bench's regex splitter (workers are forked, so they inherit it)."""
    if hasattr(notechunk.segment, "get_segmenter"):
        return "default"
    from bench_markdown import RegexSegmenter

    notechunk.segment.get_segmenter = lambda name: RegexSegmenter()  # type: ignore[attr-defined]
    return "regex stand-in (get_segmenter not on main yet)"


def digest(out: Path) -> dict[str, str]:
    """sha256 of every output file except the cache, by relative path."""
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.relative_to(out).parts
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", action="append", default=None)
    ap.add_argument("--workers", type=int, action="append", default=None)
    args = ap.parse_args()
    seg = ensure_segmenter()
    from notechunk.config import Config
    from notechunk.discover import discover
    from notechunk.job import run

    cfg = Config()
    workers = args.workers or [1, 2]
    print(f"segmenter: {seg}; markdown-it-pyrs {version('markdown-it-pyrs')}")
    results: dict[str, Any] = {"segmenter": seg, "corpora": {}}
    for name in args.corpus or ["notes-md"]:
        src = corpora_dir() / name
        if not src.is_dir():
            print(f"{name}: not present, skipped")
            continue
        mb = sum(f.path.stat().st_size for f in discover(src).files) / 1e6
        rows: dict[str, Any] = {}
        digests: dict[int, dict[str, str]] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for n in workers:
                out = Path(tmp) / f"w{n}"

                def once(n: int = n, out: Path = out, src: Path = src) -> None:
                    shutil.rmtree(out, ignore_errors=True)
                    run(src, out, cfg, workers=n, use_cache=False)

                secs, times = timed(once, args.runs)
                digests[n] = digest(out)
                rows[str(n)] = {"seconds": times, "median": secs, "mb_per_s": mb / secs}
                print(f"{name} ({mb:.1f} MB), {n} worker(s): {secs:6.2f} s  {mb / secs:6.2f} MB/s")
        same = all(d == digests[workers[0]] for d in digests.values())
        files = len(digests[workers[0]])
        print(f"{name}: outputs byte-identical across {workers} workers: {same} ({files} files)")
        if len(workers) > 1:
            speedup = rows[str(workers[0])]["median"] / rows[str(workers[-1])]["median"]
            print(f"{name}: speed-up {workers[-1]} vs {workers[0]} workers: x{speedup:.2f}")
        results["corpora"][name] = {"mb": mb, "runs": rows, "identical": same}
        if not same:
            raise SystemExit(f"{name}: outputs differ between worker counts")
    print(f"wrote {write_result('workers', results)}")


if __name__ == "__main__":
    main()
