"""What real token counts cost, and how many chunks an embedder would truncate.

Chunks a Markdown corpus in memory (read, segment, windows, finish: `process_markdown`
per file, one segmenter and parser for all) with the default config and no tokenizer,
then with `tokenizer = TOK` (one batch-encode call per file), then with
`markdown.window_max_tokens` as well (a second batch per file, over the sentences).
Prints wall seconds (median of --runs) and CPU seconds (all threads: the tokenizer runs
its batches on several), the tokenizer's extra time, and the share of
chunks over --limit tokens (all-MiniLM-L6-v2 reads 256 word pieces, [CLS] and [SEP]
included). Writes bench/results/tokens.json.

    python bench/bench_tokens.py [--corpus notes-md] [--tokenizer hf:minilm] [--limit 256]
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchlib import corpora_dir, timed, version, write_result

from notechunk.chunk import Chunk
from notechunk.config import Config
from notechunk.markdown.sections import make_block_parser
from notechunk.perfile import process_markdown
from notechunk.segment import get_segmenter
from notechunk.tokens import counter_for


def chunk_corpus(files: list[tuple[str, bytes]], cfg: Config) -> list[Chunk]:
    seg, parser = get_segmenter(cfg.segmenter), make_block_parser()
    tokens = counter_for(cfg.tokenizer)
    out: list[Chunk] = []
    for rel, data in files:
        out.extend(c for c in process_markdown(rel, data, cfg, seg, parser, tokens).chunks)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="notes-md")
    ap.add_argument("--tokenizer", default="hf:minilm")
    ap.add_argument("--limit", type=int, default=256)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    root = corpora_dir() / args.corpus
    paths = sorted(p for p in root.rglob("*.md") if p.is_file())
    if not paths:
        raise SystemExit(f"no corpus at {root}")
    files = [(p.relative_to(root).as_posix(), p.read_bytes()) for p in paths]
    mb = sum(len(d) for _, d in files) / 1e6

    plain = Config()
    counted = Config(tokenizer=args.tokenizer, max_tokens=args.limit)
    capped = counted.with_overrides(markdown={"window_max_tokens": args.limit - 32})
    results: dict[str, object] = {}
    for name, cfg in (("no tokenizer", plain), ("token_count", counted), ("+ window cap", capped)):
        cpu_start = time.process_time()
        seconds, _ = timed(lambda cfg=cfg: chunk_corpus(files, cfg), runs=args.runs, warmup=0)
        cpu = (time.process_time() - cpu_start) / args.runs  # every thread of the process
        chunks = [c for c in chunk_corpus(files, cfg) if not c.omit]
        row: dict[str, object] = {
            "seconds": round(seconds, 3),
            "cpu_seconds": round(cpu, 3),
            "chunks": len(chunks),
        }
        if cfg.tokenizer:
            counts = [c.token_count or 0 for c in chunks]
            over = sum(1 for n in counts if n > args.limit)
            row |= {
                "over_limit": over,
                "over_limit_share": round(over / len(chunks), 4),
                "median_tokens": statistics.median(counts),
                "max_tokens": max(counts),
                "tokens_per_word": round(sum(counts) / sum(c.word_count for c in chunks), 3),
            }
        results[name] = row
    base = float(results["no tokenizer"]["seconds"])  # type: ignore[index]
    print(f"{args.corpus}: {len(files)} files, {mb:.1f} MB; tokenizer {args.tokenizer}")
    for name, row in results.items():
        assert isinstance(row, dict)
        extra = f" (+{row['seconds'] / base - 1:.0%})" if name != "no tokenizer" else ""
        over = (
            f"; {row['over_limit']}/{row['chunks']} chunks over {args.limit} "
            f"({row['over_limit_share']:.1%}), median {row['median_tokens']}, "
            f"max {row['max_tokens']}, {row['tokens_per_word']} tokens/word"
            if "over_limit" in row
            else f"; {row['chunks']} chunks"
        )
        cpu = f", cpu {row['cpu_seconds']:.2f} s"
        print(f"  {name:14} {row['seconds']:.2f} s{extra}{cpu}{over}")
    write_result(
        "tokens",
        {
            "corpus": args.corpus,
            "files": len(files),
            "megabytes": round(mb, 2),
            "tokenizer": args.tokenizer,
            "limit": args.limit,
            "tokenizers": version("tokenizers"),
            "results": results,
        },
    )


if __name__ == "__main__":
    main()
