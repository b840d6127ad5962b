"""The source view's cost: time and bytes of OUT/sources/ against the essential cost.

Per corpus, in one process: the essential cost (reading every file, markdown-it-pyrs
building its tree, the default segmenter over its text: one core, as `bench_run.py`
measures it), then the source view written from the run's chunks held in memory
(`job.collect`, so unscored: no retrieval figure on the cards) into a fresh folder (the
median of `--runs`), and once more as a re-run beside the first, reusing its texts
(`previous_texts`): what an edit-and-run pays. Targets: cold time <= 0.15x essential,
sources/ <= 0.3x the input's bytes (the issue's aim; 2x for the whole of OUT).

    python bench/bench_sources.py [--runs 3] [--corpus rfcs-md --corpus notes-md]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchlib import corpora_dir, write_result


def essential(src: Path) -> float:
    """Read + parse + segment every .md file, one core (bench_run's essential cost)."""
    from markdown_it_pyrs import MarkdownIt

    from notechunk.segment import get_segmenter

    files = sorted(p for p in src.rglob("*.md") if p.is_file())
    seg, md = get_segmenter("default"), MarkdownIt("zero").enable_many(["table"])
    start = time.perf_counter()
    texts = [p.read_bytes().decode("utf-8", "replace") for p in files]
    for text in texts:
        md.tree(text)
    for text in texts:
        seg.spans(text)
    return time.perf_counter() - start


def manifest_of(folder: Path) -> dict[str, tuple[int, str]]:
    """What a published run's manifest would say of `folder`'s files."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            out[p.relative_to(folder).as_posix()] = (len(data), hashlib.sha256(data).hexdigest())
    return out


def measure(name: str, runs: int) -> dict[str, float]:
    from notechunk.config import Config
    from notechunk.corpus import Corpus
    from notechunk.job import collect
    from notechunk.qa.contents import flag_reason, is_flagged
    from notechunk.qa.source_pages import write_source_pages
    from notechunk.qa.sources import file_reader

    src = corpora_dir() / name
    cfg = Config()
    got = collect(src, cfg)
    c = got.corpus
    extras = Corpus(discarded=c.discarded, reports=c.reports, errors=c.errors, accounts=c.accounts)
    read = file_reader(dict(got.paths))
    in_bytes = sum(p.stat().st_size for p in src.rglob("*.md"))

    def write(folder: Path, *reuse: object) -> float:
        start = time.perf_counter()
        write_source_pages(
            folder, c.chunks, extras, lambda x: flag_reason(x, cfg), is_flagged, read, {},
            *reuse,  # type: ignore[arg-type]
        )  # fmt: skip
        return time.perf_counter() - start

    ess = statistics.median(essential(src) for _ in range(runs))
    with tempfile.TemporaryDirectory() as tmp:
        cold = [write(Path(tmp) / f"cold{k}") for k in range(runs)]
        first = Path(tmp) / "cold0"
        size = sum(p.stat().st_size for p in (first / "sources").rglob("*") if p.is_file())
        again, linked = float("nan"), 0
        try:  # a checkout from before the texts were kept apart has no re-run to measure
            from notechunk.qa.source_pages import previous_texts
        except ImportError:
            pass
        else:
            again = write(Path(tmp) / "again", previous_texts(first, manifest_of(first)))
            linked = sum(
                1 for p in (Path(tmp) / "again" / "sources" / "text").iterdir()
                if os.stat(p).st_nlink > 1
            )  # fmt: skip
    t = statistics.median(cold)
    print(
        f"{name}: essential {ess:.2f} s; sources cold {t:.2f} s ({t / ess:.2f}x), re-run "
        f"{again:.2f} s ({linked} texts linked); sources/ {size / 1e6:.1f} MB for "
        f"{in_bytes / 1e6:.1f} MB of notes ({size / in_bytes:.2f}x)"
    )
    for label, value, limit in (
        ("source view time / essential", t / ess, 0.15),
        ("sources/ bytes / input bytes", size / in_bytes, 0.3),
    ):
        verdict = "met" if value <= limit else "MISSED"
        print(f"TARGET {label}, {name}: {value:.2f} (target <= {limit}: {verdict})", flush=True)
    return {"essential": ess, "cold": t, "again": again, "bytes": size, "in_bytes": in_bytes}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", action="append")
    args = ap.parse_args(argv)
    results = {}
    for name in args.corpus or ["rfcs-md", "notes-md"]:
        if not (corpora_dir() / name).is_dir():
            print(f"skip {name}: not present", file=sys.stderr)
            continue
        results[name] = measure(name, args.runs)
    write_result("sources", {"cpus": os.cpu_count(), "load": os.getloadavg(), "corpora": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
