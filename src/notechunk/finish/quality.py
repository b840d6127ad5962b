"""Quality labels and context-dead detection (SPEC §1.3), as data on the chunk.

Precedence when several labels apply: context_dead > too_long > too_long_tokens >
fragment > short > ok. `too_long_tokens` applies when a tokenizer and `max_tokens` (the
embedder's limit) are configured; its flag `too_long_tokens:<n>><limit>` is set whenever a
chunk is over the limit, whatever its label, so no truncation by the embedder goes unsaid.
Fragments are flagged and kept (a short row such as "prompt: Zambia. answer: Lusaka." is
a fact); `quality.<type>.omit_fragments = true` omits them. A sheet row whose every
column is filled (`full`) is a whole record and is not `short` whatever its word count
(`quality.spreadsheet.short_full_rows = true` restores the seed's word-count rule).

Context-dead (SPEC v3): a chunk that opens with a pointer ("For more, see here: [[X]]")
loses that sentence (`trim_context_dead`, flag `context_dead_trimmed:<phrase>`) and what
is left is labelled like any chunk; only a chunk that is nothing but pointers is labelled
`context_dead`, and omitted.
"""

from __future__ import annotations

import re

from notechunk.chunk import Quality, SourceType, count_words
from notechunk.config import Config, ContextDeadConfig, QualityBands

_LEADING_JUNK = re.compile(r"^[\s\W_]+", re.UNICODE)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:\S{1,3}|\S*\.\S*)$")  # "Dr", "Art", "B.R", "e.g"


def context_dead_phrase(text: str, cfg: ContextDeadConfig) -> str | None:
    """The context-dead phrase `text` starts with (after bullets and punctuation), if any.

    A phrase must end at a word boundary: "for more" matches "For more details", not
    "For moreover".
    """
    head = text[:200]
    junk = _LEADING_JUNK.match(head)
    head = (head[junk.end() :] if junk else head).lower()
    if not head.startswith(cfg.phrases):  # one C call for the common case: none
        return None
    for phrase in cfg.phrases:
        if head.startswith(phrase):
            rest = head[len(phrase) : len(phrase) + 1]
            if not rest or not (rest.isalnum() or rest == "_"):
                return phrase
    return None


def trim_context_dead(text: str, cfg: ContextDeadConfig) -> tuple[str, tuple[str, ...]]:
    """(the text without its opening pointer sentences, the phrases trimmed). A pointer
    ends at its line's end or its sentence's; when nothing but pointers is left, the text
    is returned whole with no phrase (the chunk is context-dead as a whole)."""
    rest = text
    phrases: list[str] = []
    while (phrase := context_dead_phrase(rest, cfg)) is not None:
        end = _pointer_end(rest)
        after = rest[end:].strip() if end is not None else ""
        if not after:
            return text, ()
        phrases.append(phrase)
        rest = after
    return rest, tuple(phrases)


def _pointer_end(text: str) -> int | None:
    """Where the opening sentence ends: a line break, or `.`, `!`, `?` before a space that
    does not close an abbreviation or an initial ("Dr.", "Art.", "B.R.")."""
    for m in _SENTENCE_END.finditer(text):
        if m.group() == "." and _ABBREVIATION.search(text, 0, m.start()):
            continue
        return m.end()
    return None


def classify(
    text: str,
    word_count: int,
    source_type: SourceType,
    cfg: Config,
    token_count: int | None = None,
    full: bool = False,
) -> tuple[Quality, bool, str | None]:
    """(label, omit, context-dead phrase) for one chunk's text."""
    phrase = context_dead_phrase(text, cfg.context_dead)
    if phrase is not None:
        return "context_dead", True, phrase
    bands: QualityBands = (
        cfg.quality.markdown if source_type == "markdown" else cfg.quality.spreadsheet
    )
    if word_count > bands.max_words:
        return "too_long", False, None
    if over_token_limit(token_count, cfg):
        return "too_long_tokens", False, None
    if word_count < bands.fragment_words:
        return "fragment", bands.omit_fragments, None
    if word_count < bands.short_words and not (
        full and source_type == "spreadsheet" and not bands.short_full_rows
    ):
        return "short", False, None
    return "ok", False, None


def over_token_limit(token_count: int | None, cfg: Config) -> bool:
    return token_count is not None and 0 < cfg.max_tokens < token_count


def token_flags(token_count: int | None, cfg: Config) -> tuple[str, ...]:
    """The `too_long_tokens:<n>><limit>` flag when `token_count` is over the limit."""
    if over_token_limit(token_count, cfg):
        return (f"too_long_tokens:{token_count}>{cfg.max_tokens}",)
    return ()


def assess(
    text: str,
    source_type: SourceType,
    cfg: Config,
    token_count: int | None = None,
    full: bool = False,
) -> tuple[int, Quality, bool, tuple[str, ...]]:
    """(word count, label, omit, flags to add) for a chunk's text: the one place a label
    and its `context_dead:<phrase>` and `too_long_tokens:<n>><limit>` flags are computed."""
    words = count_words(text)
    quality, omit, phrase = classify(text, words, source_type, cfg, token_count, full)
    flags: tuple[str, ...] = () if phrase is None else (f"context_dead:{phrase}",)
    return words, quality, omit, (*flags, *token_flags(token_count, cfg))
