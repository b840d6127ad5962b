from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notechunk.config import (
    DEFAULT_CONTEXT_DEAD_PHRASES,
    Config,
    config_from_dict,
    load_config,
    resolve_config,
    to_toml,
)
from notechunk.errors import ConfigError


def test_defaults_match_spec() -> None:
    cfg = Config()
    assert cfg.segmenter == "default"
    md = cfg.markdown
    assert (md.window_sentences, md.overlap, md.bullet_merge_under_words) == (100, 0.3, 20)
    assert md.bullet_merge_cap_words == 150
    assert md.step == 70
    assert md.window_max_words == 120  # set from the COVID-QA eval (README, "Measured")
    q = cfg.quality
    assert (q.markdown.fragment_words, q.markdown.short_words, q.markdown.max_words) == (
        15,
        30,
        500,
    )
    assert (q.spreadsheet.fragment_words, q.spreadsheet.short_words) == (8, 12)
    assert q.spreadsheet.max_words == 200
    assert len(DEFAULT_CONTEXT_DEAD_PHRASES) == 20


@pytest.mark.parametrize(
    ("window", "overlap", "step"), [(100, 0.3, 70), (3, 0.34, 2), (1, 0.9, 1), (10, 0.0, 10)]
)
def test_step(window: int, overlap: float, step: int) -> None:
    cfg = config_from_dict({"markdown": {"window_sentences": window, "overlap": overlap}})
    assert cfg.markdown.step == step


@pytest.mark.parametrize(
    "data",
    [
        {"markdown": {"overlap": 1.0}},
        {"markdown": {"overlap": -0.1}},
        {"markdown": {"window_sentences": 0}},
        {"markdown": {"window": 3}},
        {"markdown": {"window_sentences": "3"}},
        {"bogus": 1},
        {"segmenter": 3},
        {"quality": {"markdown": {"fragment_words": 40}}},
        {"templates": [{"name": "a", "match": "*"}]},
        {"templates": [{"name": "a", "match": "*", "text": "{A}", "colour": 1}]},
        {"context_dead": {"phrases": "see above"}},
        {"sheets": {"include_hidden": 1}},
    ],
    ids=lambda d: str(d)[:40],
)
def test_invalid_config_is_config_error(data: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        config_from_dict(data)


def test_context_dead_replaces_list() -> None:
    cfg = config_from_dict({"context_dead": {"phrases": ["Click Here"]}})
    assert cfg.context_dead.phrases == ("click here",)


def test_load_config_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[markdown\n")
    with pytest.raises(ConfigError, match="bad.toml"):
        load_config(bad)
    with pytest.raises(ConfigError, match="missing.toml"):
        load_config(tmp_path / "missing.toml")


def test_resolve_prefers_explicit_then_src(tmp_path: Path) -> None:
    (tmp_path / "notechunk.toml").write_text("[markdown]\nwindow_sentences = 7\n")
    other = tmp_path / "other.toml"
    other.write_text("[markdown]\nwindow_sentences = 9\n")
    assert resolve_config(tmp_path, None)[0].markdown.window_sentences == 7
    assert resolve_config(tmp_path, other)[0].markdown.window_sentences == 9
    assert resolve_config(tmp_path / "nowhere", None)[0] == Config()


@given(
    window=st.integers(1, 500),
    overlap=st.floats(0, 0.99),
    cap=st.integers(0, 5000),
    phrases=st.lists(st.text("abc xyz", min_size=1).filter(str.strip), max_size=3),
)
def test_config_round_trips_through_toml(
    window: int, overlap: float, cap: int, phrases: list[str]
) -> None:
    data = {
        "markdown": {"window_sentences": window, "overlap": overlap, "window_max_words": cap},
        "templates": [{"name": "t", "match": "*p*", "text": 'The "{A}" is {B}.'}],
    }
    if phrases:
        data["context_dead"] = {"phrases": [p.lower() for p in phrases]}
    cfg = config_from_dict(data)
    assert config_from_dict(tomllib.loads(to_toml(cfg))) == cfg


# ---------------------------------------------------------------- every key, one validator


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"quality": {"spreadsheet": {"fragment_words": True}}}, "fragment_words"),
        ({"quality": {"spreadsheet": {"max_words": float("inf")}}}, "max_words"),
        ({"quality": {"markdown": {"max_words": 2.5}}}, "max_words"),
        ({"quality": {"spreadsheet": {"omit_fragments": 1}}}, "omit_fragments"),
        ({"sheets": {"worker_memory_mb": 2**63 - 1}}, "sheets.worker_memory_mb"),
        ({"sheets": {"worker_timeout_s": float("inf")}}, "sheets.worker_timeout_s"),
        ({"sheets": {"worker_timeout_s": 1e300}}, "sheets.worker_timeout_s"),
        ({"sheets": {"worker_timeout_s": float("nan")}}, "sheets.worker_timeout_s"),
        ({"sheets": {"worker_timeout_s": 0}}, "sheets.worker_timeout_s"),
        ({"sheets": {"max_rows": True}}, "sheets.max_rows"),
        ({"sheets": {"max_rows": 10.0}}, "sheets.max_rows"),
        ({"sheets": {"mostly_numeric_share": 0}}, "sheets.mostly_numeric_share"),
        ({"sheets": {"include_hidden": "yes"}}, "sheets.include_hidden"),
        ({"skip": {"mostly_numeric": "share"}}, "skip.mostly_numeric"),
        ({"skip": {"mostly_numeric": 1}}, "skip.mostly_numeric"),
        ({"skip": {"other": 1}}, "skip"),
        ({"qa": {"seed": -1}}, "qa.seed"),
        ({"markdown": {"window_sentences": True}}, "markdown.window_sentences"),
        (
            {"templates": [{"name": "t", "match": "*", "text": "{A}", "header_row": True}]},
            "header_row",
        ),
        (
            {"templates": [{"name": "t", "match": "*", "text": "{A}", "header_row": 0}]},
            "header_row",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else str(v)[:60],
)
def test_types_and_ranges_are_checked_naming_the_key(data: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(key)):
        config_from_dict(data)


def test_direct_construction_is_checked_too() -> None:
    from notechunk.config import QualityBands, SheetsConfig

    with pytest.raises(ConfigError, match="sheets.worker_timeout_s"):
        SheetsConfig(worker_timeout_s=float("inf"))
    with pytest.raises(ConfigError, match="fragment_words"):
        QualityBands(fragment_words=True, short_words=3, max_words=4)


def test_every_numeric_key_declares_its_range() -> None:
    """The bounds live on the fields (one validator reads them), not in per-key checks."""
    from dataclasses import fields

    from notechunk.config import parts as c

    parts = (c.MarkdownConfig, c.QualityBands, c.SheetsConfig, c.QAConfig, c.Template)
    for part in parts:
        for f in fields(part):
            if str(f.type).startswith(("int", "float")):
                assert "range" in f.metadata, f"{part.__name__}.{f.name}"


def test_skip_and_omit_fragments_round_trip_and_show() -> None:
    data = {
        "skip": {"mostly_numeric": "ratio"},
        "quality": {"spreadsheet": {"omit_fragments": True}},
        "sheets": {"max_cell_chars": 1000, "max_expansion": 50},
    }
    cfg = config_from_dict(data)
    assert cfg.skip.mostly_numeric == "ratio" and cfg.quality.spreadsheet.omit_fragments
    assert cfg.sheets.max_expansion == 50.0 and isinstance(cfg.sheets.max_expansion, float)
    text = to_toml(cfg)
    assert '[skip]\nmostly_numeric = "ratio"' in text and "omit_fragments = true" in text
    assert config_from_dict(tomllib.loads(text)) == cfg
    assert Config().skip.mostly_numeric == "label"  # v2 default: loses nothing
    assert not Config().quality.spreadsheet.omit_fragments


@pytest.mark.parametrize(
    "text",
    ["{{Pass}} literal", "{}", "The {Pass pass", "{A}}", "[{A}]", "{A}[x", "{A}]", "[a[{B}]]"],
)
def test_template_text_checked_at_load(text: str) -> None:
    with pytest.raises(ConfigError, match="template 't'"):
        config_from_dict({"templates": [{"name": "t", "match": "*", "text": text}]})


def test_enrich_keys_load_validate_and_round_trip(tmp_path: Path) -> None:
    data = {
        "enrich": {
            "merge_sections": False,
            "references": True,
            "acronyms": False,
            "references_backend": "spacy:en_core_web_sm",
        }
    }
    cfg = config_from_dict(data)
    assert not cfg.enrich.merge_sections and not cfg.enrich.acronyms
    assert config_from_dict(tomllib.loads(to_toml(cfg))) == cfg
    with pytest.raises(ConfigError, match=r"enrich\.references must be true or false"):
        config_from_dict({"enrich": {"references": "yes"}})
    with pytest.raises(ConfigError, match="unknown key"):
        config_from_dict({"enrich": {"expand": True}})


def test_glossary_path_is_relative_to_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "notechunk.toml").write_text('[enrich]\nglossary = "terms.txt"\n')
    cfg = load_config(tmp_path / "notechunk.toml")
    assert Path(cfg.enrich.glossary) == tmp_path / "terms.txt"
