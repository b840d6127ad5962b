"""`notechunk run` as a user runs it against LangChain's split of the same files, side by side.

notechunk: `python -m notechunk run SRC --out FRESH` (default options: every core, QA and
report, a fresh OUT each time, so no cache). LangChain: a script that reads every .md file
of SRC and splits it with MarkdownHeaderTextSplitter (h1-h3) then
RecursiveCharacterTextSplitter(1000, 200), what a LangChain user writes. Both are fresh
processes timed by wall clock, start-up and imports included, run alternately (ABAB...) so
both see the same machine load; figures are medians. Target: ratio notechunk / LangChain
<= 1.0 on each corpus.

    python bench/bench_run.py [--runs 5] [--corpus rfcs-md --corpus notes-md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import ROOT, corpora_dir, version, write_result

LANGCHAIN = """
import sys
from pathlib import Path
from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter
headers = MarkdownHeaderTextSplitter([("#", "h1"), ("##", "h2"), ("###", "h3")])
rec = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)
n = 0
for path in sorted(Path(sys.argv[1]).rglob("*.md")):
    text = path.read_text(encoding="utf-8", errors="replace")
    n += len(rec.split_documents(headers.split_text(text)))
print(n)
"""


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), e.get("PYTHONPATH")]))
    return e


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env(), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{cmd[:4]} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--corpus", action="append")
    args = ap.parse_args(argv)
    results = {}
    missed = False
    for name in args.corpus or ["rfcs-md", "notes-md"]:
        src = corpora_dir() / name
        if not src.is_dir():
            print(f"skip {name}: {src} not present")
            continue
        mb = sum(p.stat().st_size for p in src.rglob("*.md")) / 1e6
        nc: list[float] = []
        lc: list[float] = []
        with tempfile.TemporaryDirectory() as tmp:
            for k in range(args.runs + 1):  # the first pair warms the page cache, untimed
                out = Path(tmp) / f"out{k}"
                t_nc = timed(
                    [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
                )
                t_lc = timed([sys.executable, "-c", LANGCHAIN, str(src)])
                if k:
                    nc.append(t_nc)
                    lc.append(t_lc)
        a, b = statistics.median(nc), statistics.median(lc)
        ratio = a / b
        missed |= ratio > 1.0
        results[name] = {
            "mb": round(mb, 2),
            "notechunk_s": [round(x, 3) for x in nc],
            "langchain_s": [round(x, 3) for x in lc],
            "ratio": round(ratio, 2),
        }
        verdict = "met" if ratio <= 1.0 else "MISSED"
        print(
            f"TARGET run vs LangChain, {name} ({mb:.1f} MB): notechunk {a:.2f} s, "
            f"LangChain header+recursive {b:.2f} s, ratio {ratio:.2f} (target <= 1.0: {verdict})",
            flush=True,
        )
    write_result(
        "run",
        {
            "cpus": os.cpu_count(),
            "load": os.getloadavg(),
            "versions": {"langchain-text-splitters": version("langchain-text-splitters")},
            "corpora": results,
        },
    )
    return 0 if not missed else 1


if __name__ == "__main__":
    raise SystemExit(main())
