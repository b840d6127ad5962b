"""Sentence segmenters side by side: MB/s on rfcs-md and scores on three gold sets.

    /work/venv/bin/python bench/bench_segment.py [--runs 5] [--slow-mb 1.0] [--shared DIR]

A score counts texts whose stripped sentences equal the expected ones exactly.
Speed is the median of `--runs` timed passes (time.perf_counter) after one warm-up pass.
Backends slower than ~2 MB/s (pysbd, spaCy) are timed on the first `--slow-mb` MB of the
corpus so a run takes minutes, not hours; the MB column says how much each one read.
Not collected by pytest (testpaths is tests/). Missing optional libraries are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from notechunk.segment import get_segmenter, split

Splitter = Callable[[str], list[str]]
SHARED = Path(__file__).resolve().parents[2] / "shared"


def _ours(name: str) -> Splitter:
    seg = get_segmenter(name)
    return lambda text: split(seg, text)


def _sentencex() -> Splitter:
    import sentencex

    return lambda text: list(sentencex.segment("en", text))


def _blingfire() -> Splitter:
    import blingfire

    def run(text: str) -> list[str]:
        out = blingfire.text_to_sentences(text)
        return out.split("\n") if out else []

    return run


BACKENDS: dict[str, tuple[Callable[[], Splitter], bool]] = {  # name -> (factory, slow)
    "default": (lambda: _ours("default"), False),
    "fast": (lambda: _ours("fast"), False),
    "pysbd": (lambda: _ours("pysbd"), True),
    "sentencex": (_sentencex, False),
    "blingfire": (_blingfire, False),
    "spacy:blank_en": (lambda: _ours("spacy:blank_en"), True),
}


# Gold sets under corpora/sbd: the Golden Rules, the Pragmatic Segmenter spec, UD EWT test.
GOLD_SETS = {
    "golden": "pysbd_en_golden_rules.json",
    "pragmatic": "pragmatic_segmenter_en_spec.json",
    "ud-ewt": "ud_en_ewt_test_paragraphs.json",
}


def golden_score(run: Splitter, cases: list[dict[str, Any]]) -> int:
    ok = 0
    for case in cases:
        got = [s.strip() for s in run(case["text"]) if s.strip()]
        expected = [s.strip() for s in case["expected_sentences"] if s.strip()]
        ok += got == expected
    return ok


def speed(run: Splitter, texts: list[str], runs: int) -> tuple[float, float]:
    """Median MB/s by wall clock (perf_counter) and by this process's CPU time.

    The CPU figure is the one to compare on a shared, busy machine (check the load).
    """
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    for text in texts:  # warm-up: lazy loading, caches
        run(text)
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        for text in texts:
            run(text)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return megabytes / statistics.median(wall), megabytes / statistics.median(cpu)


def _prefix(texts: list[str], megabytes: float) -> list[str]:
    out, total = [], 0
    for text in texts:
        if total >= megabytes * 1e6:
            break
        out.append(text)
        total += len(text.encode("utf-8"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--slow-mb", type=float, default=1.0)
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--only", help="comma-separated backend names")
    args = parser.parse_args(argv)
    corpus = args.shared / "corpora"
    files = sorted((corpus / "rfcs-md" / "text").glob("*.md"))
    if not files:
        print(f"no rfcs-md corpus under {corpus}", file=sys.stderr)
        return 1
    texts = [f.read_text(encoding="utf-8") for f in files]
    gold = {
        label: json.loads((corpus / "sbd" / name).read_text("utf-8"))
        for label, name in GOLD_SETS.items()
    }
    names = args.only.split(",") if args.only else list(BACKENDS)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    head = " ".join(f"{label:>9}" for label in gold)
    print(f"{'backend':<16} {head} {'MB':>6} {'MB/s':>8} {'CPU MB/s':>9}")
    for name in names:
        factory, slow = BACKENDS[name]
        try:
            run = factory()
            run("Warm up. Now.")
        except ImportError as err:
            print(f"{name:<16} skipped ({err})")
            continue
        sample = _prefix(texts, args.slow_mb) if slow else texts
        megabytes = sum(len(t.encode("utf-8")) for t in sample) / 1e6
        scores = " ".join(
            f"{f'{golden_score(run, cases)}/{len(cases)}':>9}" for cases in gold.values()
        )
        wall, cpu = speed(run, sample, args.runs)
        row = f"{name:<16} {scores} {megabytes:>6.1f} {wall:>8.2f} {cpu:>9.2f}"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
