"""The spaCy antecedent backend behind the rule backend's interface (blank pipeline)."""

from __future__ import annotations

import builtins
import sys
from dataclasses import replace
from typing import Any

import pytest

from chunks import chunk_markdown
from conftest import PeriodSegmenter
from notechunk.config import Config, EnrichConfig, MarkdownConfig
from notechunk.enrich import get_finder
from notechunk.enrich.names import RuleNames
from notechunk.enrich.spacy_names import SpacyNames
from notechunk.errors import ConfigError

TEXT = "The Government of India Act, 1858 ended it. Lord Canning became Viceroy."


def test_backends_by_name() -> None:
    assert isinstance(get_finder("rules"), RuleNames)
    spacy_finder = get_finder("spacy:blank_en")
    assert isinstance(spacy_finder, SpacyNames)
    assert spacy_finder.name == "spacy:blank_en"
    with pytest.raises(ConfigError, match="unknown references backend"):
        get_finder("llm")


def test_naming_a_backend_loads_nothing() -> None:
    before = "spacy" in sys.modules
    get_finder("spacy:blank_en")
    assert ("spacy" in sys.modules) == before


def test_blank_pipeline_gives_the_rule_names() -> None:
    pytest.importorskip("spacy")
    assert SpacyNames("blank_en").names(TEXT) == RuleNames().names(TEXT)


def test_entities_add_names_the_rules_miss() -> None:
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns(
        [
            {"label": "PERSON", "pattern": "Ashoka"},
            {"label": "LAW", "pattern": "Rowlatt Act"},
            {"label": "DATE", "pattern": "1919"},
        ]
    )
    names = SpacyNames("custom", nlp=nlp).names("Ashoka met no one. The Rowlatt Act came in 1919.")
    assert [(n.text, n.person) for n in names if n.text == "Ashoka"] == [("Ashoka", True)]
    assert any(n.text == "Rowlatt Act" and n.head == "act" for n in names)
    assert not any(n.text == "1919" for n in names)  # a date is no antecedent


def test_missing_spacy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_spacy(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_spacy)
    with pytest.raises(ConfigError, match=r"pip install 'notechunk\[spacy\]'"):
        SpacyNames("blank_en").names(TEXT)


def test_missing_model_names_the_model() -> None:
    pytest.importorskip("spacy")
    with pytest.raises(ConfigError, match="'xx_no_such_model' is not installed"):
        SpacyNames("xx_no_such_model").names(TEXT)


def test_the_pipeline_resolves_through_the_config() -> None:
    pytest.importorskip("spacy")
    cfg = replace(
        Config(),
        markdown=MarkdownConfig(window_sentences=1, overlap=0.0),
        enrich=EnrichConfig(references=True, references_backend="spacy:blank_en"),
    )
    doc = "# Acts\n\nThe Rowlatt Act, 1919 allowed detention. The Act was hated.\n"
    got = chunk_markdown(doc, "a.md", cfg, PeriodSegmenter())
    assert got[1].resolved == (("The Act", "Rowlatt Act, 1919"),)


def test_config_rejects_an_unknown_backend() -> None:
    with pytest.raises(ConfigError, match="references_backend"):
        EnrichConfig(references_backend="neural")
