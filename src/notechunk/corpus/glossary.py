"""The glossary pass: the corpus glossary from every file's statistics, then (with
`enrich.acronyms`) each part of a file expanded with it.

Every engine runs it the same way: the files' `GlossaryStats` (counted where each file was
processed) merged in any grouping, `corpus_glossary` once, then `expand_part` over each
stored part of a file (a spill record, a Ray row), which also remakes what the later
passes read of a changed part (its token block and dedupe key hashes), so dedupe and the
scores see the final `embed_text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.chunk import Chunk, FileResult
from notechunk.config import Config
from notechunk.corpus.dedupe import Hashes, key_hashes
from notechunk.corpus.scores.termblock import TermBlock, reindexed, term_block
from notechunk.enrich.glossary import (
    Glossary,
    GlossaryStats,
    build_glossary,
    expand_acronyms,
    file_definitions,
    glossary_stats,
    merge_all,
    parse_glossary,
)
from notechunk.errors import ConfigError, InputError
from notechunk.finish import recount
from notechunk.textio import decode_text, read_regular
from notechunk.tokens import TokenCounter, counter_for

GLOSSARY_MAX_BYTES = 4 << 20
"""A glossary file is a list of acronyms: a larger one (or /dev/zero) is refused unread."""


def user_glossary(cfg: Config) -> tuple[tuple[str, str], ...]:
    """The `enrich.glossary` file's entries (none when unset); ConfigError when it is not a
    regular text file of at most `GLOSSARY_MAX_BYTES` (a FIFO is refused, never waited
    on). No error quotes the file's text."""
    path = cfg.enrich.glossary
    if not path:
        return ()
    try:
        text = decode_text(read_regular(Path(path), path, GLOSSARY_MAX_BYTES), path).text
    except InputError as exc:
        raise ConfigError(f"{path}: cannot read the glossary: {exc.reason}") from None
    return parse_glossary(text, path)


def corpus_glossary(
    stats: Iterable[GlossaryStats], user: Sequence[tuple[str, str]] = ()
) -> Glossary:
    """The glossary of the whole corpus: every slice's statistics merged (any grouping
    and order gives the same result), the user's entries first."""
    return build_glossary(merge_all(stats), user)


@dataclass(frozen=True, slots=True)
class Expanded:
    """A part of a file after expansion, with what the later passes read of it."""

    chunks: tuple[Chunk, ...]
    block: TermBlock
    hashes: Hashes


def expand_part(
    chunks: Sequence[Chunk],
    glossary: Glossary,
    own: Mapping[str, str],
    cfg: Config,
    tokens: TokenCounter | None = None,
    block: TermBlock | None = None,
) -> Expanded | None:
    """`chunks` (part of one file whose definitions are `own`) with acronyms expanded
    (`enrich.glossary.expand_acronyms`), their tokens counted again with `tokens` (the
    run's counter, loaded once per pass), their token block (`block`, the stored one,
    patched where a chunk changed; else made whole) and key hashes made again; None when
    no chunk changed (the stored part stands as it is)."""
    out = tuple(expand_acronyms(chunks, glossary, own))
    changed = [i for i, (a, b) in enumerate(zip(out, chunks, strict=True)) if a is not b]
    if not changed:
        return None
    if tokens is not None:
        out = tuple(recount(new, old, tokens, cfg) for new, old in zip(out, chunks, strict=True))
    terms = term_block(out) if block is None else reindexed(block, out, changed)
    return Expanded(out, terms, key_hashes(out, cfg.dedupe))


def expand_in_memory(results: Sequence[FileResult], cfg: Config) -> list[FileResult]:
    """The glossary pass over results held in memory (`api.iter_chunks`, `api.chunk_file`):
    the same glossary and expansions a run makes of these files, so a loader over notes
    yields what a run ships. The results unchanged when `enrich.acronyms` is off."""
    if not cfg.enrich.acronyms:
        return list(results)
    glossary = corpus_glossary((glossary_stats(r.chunks) for r in results), user_glossary(cfg))
    if not glossary.entries:
        return list(results)
    tokens = counter_for(cfg.tokenizer)
    out: list[FileResult] = []
    for r in results:
        got = expand_part(r.chunks, glossary, file_definitions(r.chunks), cfg, tokens)
        out.append(r if got is None else replace(r, chunks=got.chunks))
    return out
