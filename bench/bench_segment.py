"""Sentence segmenters side by side: MB/s on rfcs-md and the Golden Rules score.

    /work/venv/bin/python bench/bench_segment.py [--runs 5] [--slow-mb 1.0] [--shared DIR]

Speed is the median of `--runs` timed passes (time.perf_counter) after one warm-up pass.
Backends slower than ~2 MB/s (pysbd, spaCy) are timed on the first `--slow-mb` MB of the
corpus so a run takes minutes, not hours; the MB column says how much each one read.
Not collected by pytest (testpaths is tests/). Missing optional libraries are skipped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

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


def golden_score(run: Splitter, rules: list[dict[str, object]]) -> int:
    ok = 0
    for rule in rules:
        got = [s.strip() for s in run(str(rule["text"])) if s.strip()]
        expected = [str(s).strip() for s in rule["expected_sentences"]]  # type: ignore[attr-defined]
        ok += got == expected
    return ok


def speed(run: Splitter, texts: list[str], runs: int) -> float:
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    for text in texts:  # warm-up: lazy loading, caches
        run(text)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for text in texts:
            run(text)
        times.append(time.perf_counter() - start)
    return megabytes / statistics.median(times)


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
    rules = json.loads((corpus / "sbd" / "pysbd_en_golden_rules.json").read_text("utf-8"))
    names = args.only.split(",") if args.only else list(BACKENDS)
    print(f"{'backend':<16} {'golden':>7} {'MB':>6} {'MB/s':>8}")
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
        score = golden_score(run, rules)
        mbps = speed(run, sample, args.runs)
        print(f"{name:<16} {score:>4}/{len(rules)} {megabytes:>6.1f} {mbps:>8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
