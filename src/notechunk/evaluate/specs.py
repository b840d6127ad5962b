"""`--strategies`: a comma list of groups and single strategies, checked before any work.

Groups: `notechunk` (the config and a sweep around it), `nc` (the config alone),
`baselines` (fixed characters and words), `peers` (LangChain, Chonkie, sized after the
notechunk rows). Single entries: `nc:WINDOW/OVERLAP/CAP`, `cfg:FILE.toml` (notechunk with
another config file: enrichment on/off, say), `chars:SIZE/OVERLAP`, `words:SIZE/OVERLAP`,
`langchain:SIZE/OVERLAP`, `langchain-headers:SIZE/OVERLAP`, `chonkie-recursive:SIZE`,
`chonkie-sentence:SIZE/OVERLAP`. Counts are whole numbers written in digits (no `1e3`,
`nan`, `inf`, sign or 5000-digit number), an overlap is below its size, and a notechunk
overlap is a fraction in [0, 1): every violation is one `UsageError` line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from notechunk.config import Config, load_config
from notechunk.errors import UsageError
from notechunk.evaluate import peers
from notechunk.evaluate.strategies import (
    Strategy,
    baseline_strategies,
    fixed_chars,
    fixed_words,
    notechunk_strategy,
    notechunk_sweep,
    with_markdown,
)

GROUPS = ("notechunk", "baselines", "peers")
MAX_COUNT = 10**9
_COUNT = re.compile(r"[0-9]{1,10}")
_FRACTION = re.compile(r"[0-9]{0,3}(?:\.[0-9]{1,12})?")
_PEER_MODULES = {
    "langchain": "langchain_text_splitters",
    "langchain-headers": "langchain_text_splitters",
    "chonkie-recursive": "chonkie",
    "chonkie-sentence": "chonkie",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """The strategies to run, notes on what was skipped, and whether peers come after."""

    strategies: tuple[Strategy, ...]
    notes: tuple[str, ...]
    want_peers: bool


def _show(spec: str) -> str:
    """An entry as quoted in a message: at most 40 characters of it."""
    return repr(spec if len(spec) <= 40 else spec[:40] + "...")


def _parts(spec: str, body: str, n: int) -> list[str]:
    parts = body.split("/")
    if len(parts) != n or not all(parts):
        raise UsageError(f"--strategies: {_show(spec)} needs {n} number(s) separated by /")
    return parts


def count(spec: str, text: str, what: str, minimum: int) -> int:
    """A whole number in digits, `minimum` <= value < MAX_COUNT."""
    value = int(text) if _COUNT.fullmatch(text) else None
    if value is None or not minimum <= value < MAX_COUNT:
        raise UsageError(
            f"--strategies: {_show(spec)}: {what} must be a whole number from {minimum} "
            f"to {MAX_COUNT - 1}, got {text[:20]!r}"
        )
    return value


def fraction(spec: str, text: str, what: str) -> float:
    """A decimal fraction in [0, 1), written in digits."""
    value = float(text) if text and text != "." and _FRACTION.fullmatch(text) else None
    if value is None or not 0.0 <= value < 1.0:
        raise UsageError(
            f"--strategies: {_show(spec)}: {what} must be a fraction in [0, 1), got {text[:20]!r}"
        )
    return value


def _size_overlap(spec: str, body: str) -> tuple[int, int]:
    size_text, overlap_text = _parts(spec, body, 2)
    size = count(spec, size_text, "the size", 1)
    overlap = count(spec, overlap_text, "the overlap", 0)
    if overlap >= size:
        raise UsageError(f"--strategies: {_show(spec)}: the overlap must be smaller than the size")
    return size, overlap


def _notechunk(spec: str, body: str, cfg: Config) -> Strategy:
    w, ov, cap = _parts(spec, body, 3)
    window = count(spec, w, "the window (sentences)", 1)
    overlap = fraction(spec, ov, "the overlap")
    max_words = count(spec, cap, "the cap (words, 0 = none)", 0)
    c = with_markdown(cfg, window_sentences=window, overlap=overlap, window_max_words=max_words)
    return notechunk_strategy(f"notechunk {window}/{overlap}/{max_words}w", c)


def _from_file(spec: str, body: str, cfg: Config) -> Strategy:
    if not body:
        raise UsageError(f"--strategies: {_show(spec)} needs a config file path")
    loaded = load_config(Path(body)).with_segmenter(cfg.segmenter)
    return notechunk_strategy(f"notechunk cfg {Path(body).stem}", loaded)


def _peer(kind: str, spec: str, body: str) -> Strategy | str:
    """The peer strategy, or a note when its library is not installed (numbers checked
    first, so a bad spec fails whether or not the library is there)."""
    if kind == "chonkie-recursive":
        (size_text,) = _parts(spec, body, 1)
        size, overlap = count(spec, size_text, "the size", 1), 0
    else:
        size, overlap = _size_overlap(spec, body)
    module = _PEER_MODULES[kind]
    if not peers.installed(module):
        return f"{spec[:60]} skipped: {module} is not installed"
    if kind == "langchain":
        return peers.langchain_recursive(size, overlap)
    if kind == "langchain-headers":
        return peers.langchain_headers(size, overlap)
    if kind == "chonkie-recursive":
        return peers.chonkie_recursive(size)
    return peers.chonkie_sentence(size, overlap)


def parse_strategies(specs: str, cfg: Config) -> Plan:
    """Strategies named by `--strategies`, in order; a bad entry is a UsageError."""
    out: list[Strategy] = []
    notes: list[str] = []
    want_peers = False
    for raw in (s.strip() for s in specs.split(",")):
        if not raw:
            continue
        kind, _, body = raw.partition(":")
        if raw == "notechunk":
            out += notechunk_sweep(cfg)
        elif raw == "nc":
            out.append(notechunk_strategy("notechunk (config)", cfg))
        elif raw == "baselines":
            out += baseline_strategies()
        elif raw == "peers":
            want_peers = True
        elif kind == "nc":
            out.append(_notechunk(raw, body, cfg))
        elif kind == "cfg":
            out.append(_from_file(raw, body, cfg))
        elif kind == "chars":
            out.append(fixed_chars(*_size_overlap(raw, body)))
        elif kind == "words":
            out.append(fixed_words(*_size_overlap(raw, body)))
        elif kind in _PEER_MODULES:
            got = _peer(kind, raw, body)
            if isinstance(got, str):
                notes.append(got)
            else:
                out.append(got)
        else:
            raise UsageError(f"--strategies: unknown entry {_show(raw)}")
    if not out and not want_peers:
        why = f" ({notes[0]})" if notes else ""
        raise UsageError(f"--strategies: no strategy to run{why}")
    return Plan(strategies=tuple(out), notes=tuple(notes), want_peers=want_peers)
