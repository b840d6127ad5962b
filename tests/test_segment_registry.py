"""The segmenter registry, and the span invariants every backend keeps (hypothesis)."""

from __future__ import annotations

import functools
import importlib.util

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notechunk.errors import ConfigError
from notechunk.segment import Segmenter, available_segmenters, get_segmenter, split
from notechunk.segment.base import Span


def _backends() -> list[object]:
    optional = {"pysbd": "pysbd", "spacy:blank_en": "spacy"}
    out: list[object] = ["default", "fast"]
    for name, module in optional.items():
        missing = importlib.util.find_spec(module) is None
        out.append(pytest.param(name, marks=pytest.mark.skipif(missing, reason=f"no {module}")))
    return out


def test_available_names() -> None:
    assert available_segmenters() == ["default", "fast", "pysbd", "spacy:<model>"]


@pytest.mark.parametrize("name", ["default", "fast", "pysbd", "spacy:en_core_web_trf"])
def test_get_segmenter_names_itself(name: str) -> None:
    seg = get_segmenter(name)
    assert isinstance(seg, Segmenter)
    assert seg.name == name


@pytest.mark.parametrize("name", ["", "Default", "nltk", "spacy", "blingfire"])
def test_unknown_name_is_a_config_error(name: str) -> None:
    with pytest.raises(ConfigError) as err:
        get_segmenter(name)
    assert str(err.value) == (
        f"unknown segmenter {name!r} (choose from default, fast, pysbd, spacy:<model>)"
    )


def test_spacy_prefix_without_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="needs a pipeline name"):
        get_segmenter("spacy:")


def test_getting_a_backend_imports_nothing_optional() -> None:
    """Constructing spaCy/pySBD backends must not import them (they load on first use)."""
    import sys

    before = {"spacy", "pysbd"} & set(sys.modules)
    get_segmenter("spacy:blank_en")
    get_segmenter("pysbd")
    assert {"spacy", "pysbd"} & set(sys.modules) == before


def check_invariants(text: str, spans: list[Span]) -> None:
    """Sorted, disjoint, trimmed, non-empty, and every non-whitespace char in one span."""
    covered = [False] * len(text)
    last_end = 0
    for start, end in spans:
        assert last_end <= start < end <= len(text)
        piece = text[start:end]
        assert piece == piece.strip() and piece
        for i in range(start, end):
            covered[i] = True
        last_end = end
    assert all(covered[i] or ch.isspace() for i, ch in enumerate(text))


_PIECES = st.sampled_from(
    [
        "Dr.", "B.R.", "U.S.A.", "e.g.", "No.", "5", "1.", "2)", "a.", "Art.", "?!", "...",
        ". . .", "…", "\n", "\n\n", "\n- ", "\n* ", "•", "⁃", " ", "  ", "\t", "(", ")",
        '"', "”", "’", "Ünïcödé", "ß", "日本語。", "The", "it", "I.", "3.14", "$2.50",
        "x@y.z", "http://a.b/c.d", "\u00a0", "\u2028", "\r\n", "Word.", "word",
    ]
)  # fmt: skip
TEXTS = st.one_of(
    st.lists(_PIECES, max_size=40).map(" ".join),
    st.lists(_PIECES, max_size=40).map("".join),
    st.text(max_size=200),
)


@functools.cache
def _cached(name: str) -> Segmenter:
    return get_segmenter(name)  # spaCy and pySBD load once, not per example


@pytest.mark.parametrize("name", _backends())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS)
def test_span_invariants(name: str, text: str) -> None:
    check_invariants(text, _cached(name).spans(text))


@pytest.mark.parametrize("name", _backends())
def test_split_matches_spans(name: str) -> None:
    seg = get_segmenter(name)
    text = "Hello World. My name is Jonas.\n\n- a bullet"
    assert split(seg, text) == [text[s:e] for s, e in seg.spans(text)]
