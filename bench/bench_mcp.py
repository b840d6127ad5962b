"""`notechunk mcp`: a warm search_notes through the SDK's stdio client, and edit-to-
searchable with `notechunk mcp OUT --watch NOTES`, on notes-md.

    python bench/bench_mcp.py [--calls 200] [--edits 5] [--workers N] [--debounce-ms 300]

1. Warm search: `notechunk mcp OUT` started once (OUT: a fresh run of a copy of
   notes-md), three questions to warm it, then `--calls` search_notes calls (BM25, k=8)
   cycling over a list of questions; each call timed at the client, round trip included.
   Target: p95 <= 50 ms.
2. Edit-to-searchable: `notechunk mcp OUT --watch NOTES` on the copy; after its first
   run, `--edits` times: a sentence with a new word is appended to one note (a different
   note each time), and search_notes for that word is asked every 50 ms until the note
   is the top hit. The time from the write to that answer (the change is served before
   its run publishes: integrations/notes_overlay.py). Target: <= 3 s. Then, for the
   last edit, the time until the run that publishes it is served.
The copy is made in a temporary folder (the corpus itself is never written). Results:
bench/results/mcp.json (gitignored).
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
from typing import Any

from benchlib import ROOT, corpora_dir, version, write_result

QUESTIONS = [
    "Which article of the constitution abolishes untouchability?",
    "causes of the revolt of 1857",
    "monsoon onset over Kerala",
    "fundamental duties of citizens",
    "functions of the Reserve Bank of India",
    "Mughal administration mansabdari system",
    "biosphere reserves in India",
    "Preamble of the Indian constitution",
    "difference between weather and climate",
    "Harappan civilisation town planning",
]


def params(*args: str) -> Any:
    from mcp import StdioServerParameters

    env = {"PYTHONPATH": str(ROOT / "src")}
    return StdioServerParameters(command=sys.executable, args=["-m", "notechunk", *args], env=env)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def warm_search(out: Path, calls: int) -> dict[str, Any]:
    import anyio
    from mcp import Client

    times: list[float] = []
    started: list[float] = []

    async def body() -> None:
        t0 = time.perf_counter()
        async with Client(params("mcp", str(out)), cache=None) as client:
            started.append(time.perf_counter() - t0)
            for q in QUESTIONS[:3]:
                await client.call_tool("search_notes", {"query": q})
            for n in range(calls):
                q = QUESTIONS[n % len(QUESTIONS)]
                t = time.perf_counter()
                res = await client.call_tool("search_notes", {"query": q, "k": 8})
                times.append(time.perf_counter() - t)
                assert not res.is_error, res.content

    anyio.run(body)
    ms = [t * 1000 for t in times]
    return {
        "calls": calls,
        "start_s": round(started[0], 2),
        "p50_ms": round(statistics.median(ms), 2),
        "p95_ms": round(pct(ms, 0.95), 2),
        "max_ms": round(max(ms), 2),
    }


def edit_to_searchable(src: Path, out: Path, edits: int, workers: int, debounce: int) -> Any:
    import anyio
    from mcp import Client
    from mcp.client.stdio import stdio_client

    notes = sorted(p for p in src.rglob("*.md") if p.stat().st_size > 2000)
    picks = [notes[(k * 97) % len(notes)] for k in range(edits)]
    waits: list[float] = []
    published: list[float] = []
    log = out.parent / "watch.log"
    args = ["mcp", str(out), "--watch", str(src), "--workers", str(workers)]
    args += ["--debounce-ms", str(debounce)]

    async def top_source(client: Client, word: str, published: bool = False) -> str | None:
        res = await client.call_tool("search_notes", {"query": word, "k": 1})
        got = res.structured_content or {}
        hits = got.get("hits") or []
        if published and "provisional" in got:
            return None
        return str(hits[0]["source"]) if hits else None

    async def body(fh: Any) -> None:
        async with Client(stdio_client(params(*args), errlog=fh), cache=None) as client:
            await client.call_tool("search_notes", {"query": "monsoon"})  # the first run
            for k, note in enumerate(picks):
                word = f"zqbench{k}edit"
                rel = note.relative_to(src).as_posix()
                await anyio.sleep(1.0)
                t = time.perf_counter()
                with open(note, "a", encoding="utf-8") as fh2:
                    fh2.write(f"\n\nThe {word} sentence was added for the benchmark.\n")
                while await top_source(client, word) != rel:
                    assert time.perf_counter() - t < 120, f"{rel} never searchable"
                    await anyio.sleep(0.05)
                waits.append(time.perf_counter() - t)
            while await top_source(client, word, published=True) != rel:
                assert time.perf_counter() - t < 600, f"{rel} never published"
                await anyio.sleep(0.2)
            published.append(time.perf_counter() - t)

    with open(log, "w") as fh:
        anyio.run(body, fh)
    runs = [
        float(line.rsplit("(", 1)[1].split(" s)")[0])
        for line in log.read_text().splitlines()
        if "published:" in line
    ]
    return {
        "edits": edits,
        "workers": workers,
        "debounce_ms": debounce,
        "seconds": [round(w, 2) for w in waits],
        "median_s": round(statistics.median(waits), 2),
        "max_s": round(max(waits), 2),
        "last_edit_published_s": round(published[0], 2),
        "run_seconds_after_first": runs[1:],
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--debounce-ms", type=int, default=300)
    args = ap.parse_args()
    corpus = corpora_dir() / "notes-md"
    if not corpus.is_dir():
        print(f"skipped: {corpus} is not here")
        return 0
    with tempfile.TemporaryDirectory(prefix="notechunk-bench-mcp-") as tmp:
        src = Path(tmp) / "notes"
        shutil.copytree(corpus, src)
        out = Path(tmp) / "out"
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
        first_run = time.perf_counter() - t
        search = warm_search(out, args.calls)
        print(f"warm search_notes (BM25, stdio, {args.calls} calls): {search}")
        edit = edit_to_searchable(src, out, args.edits, args.workers, args.debounce_ms)
        print(f"edit-to-searchable: {edit}")
    load = os.getloadavg()
    result = {
        "corpus": "notes-md",
        "first_run_s": round(first_run, 1),
        "search": search,
        "edit": edit,
        "load_average": [round(x, 1) for x in load],
        "versions": {"mcp": version("mcp"), "watchfiles": version("watchfiles")},
    }
    write_result("mcp", result)
    p95, worst = search["p95_ms"], edit["max_s"]
    print(f"TARGET warm search_notes p95 <= 50 ms (BM25): {p95} ms: " + _met(p95 <= 50))
    print(
        f"TARGET edit-to-searchable <= 3 s: median {edit['median_s']} s, max {worst} s: "
        + _met(worst <= 3)
    )
    return 0


def _met(ok: bool) -> str:
    return "met" if ok else "missed"


if __name__ == "__main__":
    raise SystemExit(main())
