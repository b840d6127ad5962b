"""`notechunk run` as a user runs it against LangChain's split of the same files, side by side.

notechunk: `python -m notechunk run SRC --out FRESH` (default options: every core, QA and
report, a fresh OUT each time, so no cache). LangChain: a script that reads every .md file
of SRC and splits it with MarkdownHeaderTextSplitter (h1-h3) then
RecursiveCharacterTextSplitter(1000, 200), what a LangChain user writes. Both are fresh
processes timed by wall clock, start-up and imports included, run alternately (ABAB...) so
both see the same machine load; figures are medians. Target: ratio notechunk / LangChain
<= 1.0 on each corpus.

Then, per corpus, where the time goes (one worker, in this process, after the timed
pairs): the essential cost measured in the same run (reading every file, markdown-it-pyrs
building its tree, the default segmenter over its text: one core) against each stage of a
run (per-file work, the corpus passes after it, scores, outputs, source view, publish),
from the run's own progress events. Targets: per-file work <= 2x essential, everything
after it <= 0.5x essential; OUT (cache included) <= 2x the input's bytes.

    python bench/bench_run.py [--runs 5] [--corpus rfcs-md --corpus notes-md]
"""

from __future__ import annotations

import argparse
import json
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


STAGES = """
import json, sys, time
from pathlib import Path
from markdown_it_pyrs import MarkdownIt
from notechunk import api
from notechunk.segment import get_segmenter
src, out = Path(sys.argv[1]), Path(sys.argv[2])
files = sorted(p for p in src.rglob("*.md") if p.is_file())
seg, md = get_segmenter("default"), MarkdownIt("zero").enable_many(["table"])
t0 = time.perf_counter()
texts = [p.read_bytes().decode("utf-8", "replace") for p in files]
t1 = time.perf_counter()
for text in texts:
    md.tree(text)
t2 = time.perf_counter()
for text in texts:
    seg.spans(text)
t3 = time.perf_counter()
marks = []
start = time.perf_counter()
api.run(src, out, progress=lambda s, done, total: marks.append((s, done, time.perf_counter())))
end = time.perf_counter()
chunked = max((t for s, _, t in marks if s == "chunk"), default=start)
qa = {d: t for s, d, t in marks if s == "qa"}
stages = {
    "per_file": chunked - start,
    "passes": qa[0] - chunked,
    "scores": qa[1] - qa[0],
    "outputs": qa[2] - qa[1],
    "sources": qa[3] - qa[2],
    "publish": end - qa[3],
}
entries = {}  # bytes per top-level entry of OUT, each real file once (links followed)
for entry in sorted(out.iterdir()):
    if entry.name in (".runs", ".current"):
        continue
    real = entry.resolve()
    parts = real.rglob("*") if real.is_dir() else [real]
    entries[entry.name] = sum(p.stat().st_size for p in parts if p.is_file() and not p.is_symlink())
print(json.dumps({"read": t1 - t0, "parse": t2 - t1, "segment": t3 - t2, "stages": stages,
                  "out_bytes": sum(entries.values()), "out_entries": entries,
                  "in_bytes": sum(p.stat().st_size for p in files)}))
"""


def stage_table(name: str, src: Path) -> tuple[dict[str, object], bool]:
    """Where a one-worker run's time goes against the essential cost, and OUT's size."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [sys.executable, "-c", STAGES, str(src), str(Path(tmp) / "out")],
            env=env(),
            capture_output=True,
            text=True,
        )
    if done.returncode != 0:
        sys.exit(f"stage breakdown failed: {done.stderr.strip()[-400:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    essential = got["read"] + got["parse"] + got["segment"]
    stages = got["stages"]
    after = sum(v for k, v in stages.items() if k != "per_file")
    print(
        f"{name}: essential {essential:.2f} s (read {got['read']:.2f}, parse "
        f"{got['parse']:.2f}, segment {got['segment']:.2f}); "
        + ", ".join(f"{k} {v:.2f} s ({v / essential:.1f}x)" for k, v in stages.items())
    )
    ratio_file, ratio_after = stages["per_file"] / essential, after / essential
    size = got["out_bytes"] / got["in_bytes"]
    print(
        f"{name}: OUT {got['out_bytes'] / 1e6:.1f} MB for {got['in_bytes'] / 1e6:.1f} MB in: "
        + ", ".join(
            f"{k} {v / 1e6:.1f} MB" for k, v in sorted(got["out_entries"].items()) if v >= 10_000
        )
    )
    missed = ratio_file > 2.0 or ratio_after > 0.5 or size > 2.0
    for label, value, limit in (
        ("per-file work / essential", ratio_file, 2.0),
        ("after per-file work / essential", ratio_after, 0.5),
        ("OUT bytes / input bytes", size, 2.0),
    ):
        verdict = "met" if value <= limit else "MISSED"
        print(f"TARGET {label}, {name}: {value:.2f} (target <= {limit}: {verdict})", flush=True)
    return {**got, "essential": essential}, missed


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
        table, over = stage_table(name, src)
        results[name]["stages"] = table
        missed |= over
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
