"""Markdown chunking throughput, notechunk against its peers, in one process, same texts.

notechunk: chunk_markdown end to end (parse + segment + windows + label) with the default
segmenter (a plain regex stand-in where `notechunk.segment.get_segmenter` is missing) and
with the spaCy backend (`spacy:blank_en`: a blank pipeline + sentencizer). Peers: LangChain
MarkdownHeaderTextSplitter + RecursiveCharacterTextSplitter(1000, 200), Chonkie
RecursiveChunker and SentenceChunker, semchunk (1000 characters), semantic-text-splitter's
MarkdownSplitter(1000). A peer that is not installed is reported as such. Prints MB/s and
the ratio to notechunk; writes bench/results/markdown.json.

    python bench/bench_markdown.py [--runs 3] [--corpus rfcs-md --corpus notes-md]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import Any

from benchlib import ROOT, load_markdown, megabytes, timed, version, write_result

sys.path.insert(0, str(ROOT / "tests"))  # chunk_markdown: the per-file path, for tests and here
from chunks import chunk_markdown  # noqa: E402
from notechunk.config import Config  # noqa: E402
from notechunk.markdown.sections import make_block_parser, parse_markdown_sections  # noqa: E402
from notechunk.segment.base import Span, spans_from_cuts  # noqa: E402

CORPORA = ("rfcs-md", "notes-md")
Texts = list[tuple[str, str]]


class RegexSegmenter:
    """Stand-in default segmenter: cut after . ! ? before whitespace, and at newlines."""

    name = "regex"
    _cut = re.compile(r"[.!?](?=\s)|\n")

    def spans(self, text: str) -> list[Span]:
        return spans_from_cuts(text, [m.end() for m in self._cut.finditer(text)])


class SentencizerSegmenter:
    """spaCy blank English pipeline + sentencizer, as a notechunk segmenter."""

    name = "spacy:blank+sentencizer"

    def __init__(self) -> None:
        import spacy

        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("sentencizer")
        self.nlp.max_length = 10_000_000

    def spans(self, text: str) -> list[Span]:
        doc = self.nlp(text)
        cuts = [s.end_char for s in doc.sents]
        return spans_from_cuts(text, cuts)


def default_segmenter() -> tuple[Any, str]:
    try:
        from notechunk.segment import get_segmenter  # type: ignore[attr-defined]
    except ImportError:
        return RegexSegmenter(), "regex stand-in (get_segmenter not on main yet)"
    return get_segmenter("default"), "default"


def notechunk_runner(segmenter: Any) -> Callable[[Texts], int]:
    cfg = Config()
    parser = make_block_parser()

    def run(texts: Texts) -> int:
        return sum(len(chunk_markdown(t, rel, cfg, segmenter, parser)) for rel, t in texts)

    return run


def sections_runner() -> Callable[[Texts], int]:
    parser = make_block_parser()
    return lambda texts: sum(len(parse_markdown_sections(t, parser).sections) for _, t in texts)


def langchain_runner() -> Callable[[Texts], int]:
    from langchain_text_splitters import (
        MarkdownHeaderTextSplitter,
        RecursiveCharacterTextSplitter,
    )

    headers = [("#" * k, f"h{k}") for k in range(1, 7)]
    header = MarkdownHeaderTextSplitter(headers_to_split_on=headers)
    recursive = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)
    return lambda texts: sum(len(recursive.split_documents(header.split_text(t))) for _, t in texts)


def chonkie_recursive_runner() -> Callable[[Texts], int]:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer="character", chunk_size=1000)
    return lambda texts: sum(len(chunker.chunk(t)) for _, t in texts)


def chonkie_sentence_runner() -> Callable[[Texts], int]:
    from chonkie import SentenceChunker

    chunker = SentenceChunker(tokenizer="character", chunk_size=1000, chunk_overlap=200)
    return lambda texts: sum(len(chunker.chunk(t)) for _, t in texts)


def semchunk_runner() -> Callable[[Texts], int]:
    import semchunk

    chunker = semchunk.chunkerify(len, chunk_size=1000)
    return lambda texts: sum(len(chunker(t)) for _, t in texts)


def text_splitter_runner() -> Callable[[Texts], int]:
    from semantic_text_splitter import MarkdownSplitter

    splitter = MarkdownSplitter(1000)
    return lambda texts: sum(len(splitter.chunks(t)) for _, t in texts)


def spacy_runner() -> Callable[[Texts], int]:
    import spacy  # noqa: F401  (reported as not installed when missing)

    try:
        from notechunk.segment import get_segmenter  # type: ignore[attr-defined]
    except ImportError:
        return notechunk_runner(SentencizerSegmenter())
    return notechunk_runner(get_segmenter("spacy:blank_en"))


PEERS: list[tuple[str, str, Callable[[], Callable[[Texts], int]]]] = [
    ("langchain header+recursive", "langchain-text-splitters", langchain_runner),
    ("chonkie RecursiveChunker", "chonkie", chonkie_recursive_runner),
    ("chonkie SentenceChunker", "chonkie", chonkie_sentence_runner),
    ("semchunk", "semchunk", semchunk_runner),
    ("semantic-text-splitter MarkdownSplitter", "semantic-text-splitter", text_splitter_runner),
    ("notechunk + spaCy blank+sentencizer", "spacy", spacy_runner),
    ("notechunk sections only", "notechunk", sections_runner),
]


def bench_corpus(name: str, runs: int, seg: Any) -> dict[str, Any] | None:
    texts = load_markdown(name)
    if not texts:
        print(f"{name}: not present, skipped")
        return None
    mb = megabytes(texts)
    print(f"\n{name}: {len(texts)} files, {mb:.1f} MB, median of {runs} runs after a warm-up")
    rows: list[dict[str, Any]] = []
    base = 0.0  # notechunk's MB/s, measured first
    contenders = [("notechunk end-to-end", "notechunk", lambda: notechunk_runner(seg))]
    for label, dist, make in [*contenders, *PEERS]:
        try:
            fn = make()
        except ImportError as exc:
            print(f"  {label:42s} not installed ({exc.name})")
            rows.append({"name": label, "version": "not installed"})
            continue
        count = fn(texts)
        secs, times = timed(lambda fn=fn: fn(texts), runs)
        rate = mb / secs
        base = base or rate
        rows.append(
            {
                "name": label,
                "version": version(dist),
                "mb_per_s": round(rate, 3),
                "seconds": times,
                "chunks": count,
                "ratio_vs_notechunk": round(rate / base, 3),
            }
        )
        print(f"  {label:42s} {rate:7.2f} MB/s  x{rate / base:5.2f}  ({count} chunks)")
    return {"files": len(texts), "mb": round(mb, 3), "results": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", action="append", default=None)
    args = ap.parse_args()
    seg, seg_name = default_segmenter()
    print(f"notechunk segmenter: {seg_name}; markdown-it-pyrs {version('markdown-it-pyrs')}")
    out: dict[str, Any] = {
        "segmenter": seg_name,
        "markdown_it_pyrs": version("markdown-it-pyrs"),
        "markdown_it_py": version("markdown-it-py"),
        "corpora": {},
    }
    for name in args.corpus or CORPORA:
        res = bench_corpus(name, args.runs, seg)
        if res is not None:
            out["corpora"][name] = res
    print(f"\nwrote {write_result('markdown', out)}")


if __name__ == "__main__":
    main()
