"""The default rule segmenter: the 48 Golden Rules (pySBD's English set) and note cases."""

from __future__ import annotations

import json
from typing import Any

import pytest

# tests/ -> repo -> the repo's parent, which holds shared/ (not part of a fresh clone).
from conftest import SHARED
from notechunk.segment import get_segmenter, split
from notechunk.segment.rules import RuleSegmenter

GOLDEN = SHARED / "corpora" / "sbd" / "pysbd_en_golden_rules.json"

# Rule id -> why the default backend fails it. strict xfail: a fix shows up as XPASS.
KNOWN_FAILURES = {
    18: "'5 a.m. Mr. Smith' and '6 P.M. Mr. Smith' need opposite answers; we never break "
    "before a title after a.m./p.m.",
}


def _golden_rules() -> list[Any]:
    if not GOLDEN.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{GOLDEN} absent"), id="absent")]
    rules = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return [
        pytest.param(
            rule,
            id=f"{rule['id']:02d}-{rule['rule'][:40]}",
            marks=[pytest.mark.corpus]
            + (
                [pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[rule["id"]])]
                if rule["id"] in KNOWN_FAILURES
                else []
            ),
        )
        for rule in rules
    ]


@pytest.mark.parametrize("rule", _golden_rules())
def test_golden_rule(rule: dict[str, Any]) -> None:
    got = [s.strip() for s in split(RuleSegmenter(), rule["text"])]
    assert got == [s.strip() for s in rule["expected_sentences"]]


NOTE_CASES = {
    "initials-after-title": (
        "Dr. B.R. Ambedkar was the chairman. He chaired the drafting committee.",
        ["Dr. B.R. Ambedkar was the chairman.", "He chaired the drafting committee."],
    ),
    "article-number": (
        "Under Art. 226 the High Court issues writs. Art. 32 goes to the Supreme Court.",
        ["Under Art. 226 the High Court issues writs.", "Art. 32 goes to the Supreme Court."],
    ),
    "acronym-then-lowercase": (
        "Ties between the U.S.A. and India deepened in 2005.",
        ["Ties between the U.S.A. and India deepened in 2005."],
    ),
    "eg-ie": (
        "Landforms, e.g. rivers, shape settlement, i.e. where people live.",
        ["Landforms, e.g. rivers, shape settlement, i.e. where people live."],
    ),
    "number-abbreviation": (
        "Gate No. 5 is closed. Use gate 6 instead.",
        ["Gate No. 5 is closed.", "Use gate 6 instead."],
    ),
    "numbered-item-at-start": (
        "1. The Act was passed in 1935.",
        ["1. The Act was passed in 1935."],
    ),
    "numbered-lines": (
        "1. The Act was passed in 1935.\n2. It set up provincial autonomy.",
        ["1. The Act was passed in 1935.", "2. It set up provincial autonomy."],
    ),
    "bullets-each-a-sentence": (
        "Key features:\n- federal structure\n* bicameral legislature\n• independent judiciary",
        [
            "Key features:",
            "- federal structure",
            "* bicameral legislature",
            "• independent judiciary",
        ],
    ),
    "bullet-after-sentence-without-period": (
        "Rivers of the north\n- Ganga\n- Yamuna",
        ["Rivers of the north", "- Ganga", "- Yamuna"],
    ),
    "titles": (
        "Mr. Nehru met St. Xavier's staff. Prof. Sen spoke next.",
        ["Mr. Nehru met St. Xavier's staff.", "Prof. Sen spoke next."],
    ),
    "citation": (
        "Tribal rights expanded (Xaxa et al., 2014). Later work (Rao et al. 2019) agrees.",
        ["Tribal rights expanded (Xaxa et al., 2014).", "Later work (Rao et al. 2019) agrees."],
    ),
    "url-email-decimal-money": (
        "See https://example.org/a.b.html. Mail x.y@gov.in now. Pi is 3.14 and tea $2.50. Ok.",
        [
            "See https://example.org/a.b.html.",
            "Mail x.y@gov.in now.",
            "Pi is 3.14 and tea $2.50.",
            "Ok.",
        ],
    ),
    "multiple-punctuation-and-ellipsis": (
        "Really?! Yes. Wait... Then the monsoon failed… Famine followed.",
        ["Really?!", "Yes.", "Wait...", "Then the monsoon failed…", "Famine followed."],
    ),
    "am-pm-before-lowercase-and-opener": (
        "The session opens at 10 a.m. sharp. It closes at 5 p.m. The next day is free.",
        ["The session opens at 10 a.m. sharp.", "It closes at 5 p.m.", "The next day is free."],
    ),
    "paragraphs-and-soft-wraps": (
        "First paragraph.\n\nSecond paragraph wraps\nonto a new line. Done",
        ["First paragraph.", "Second paragraph wraps\nonto a new line.", "Done"],
    ),
    "inline-numbered-chain": (
        "Three organs: 1) the legislature 2) the executive 3) the judiciary",
        ["Three organs:", "1) the legislature", "2) the executive", "3) the judiciary"],
    ),
    "lowercase-sentence-start": (
        "the act failed. it was repealed in 1919. rivers, hills etc. and plains.",
        ["the act failed.", "it was repealed in 1919.", "rivers, hills etc. and plains."],
    ),
    "lowercase-numbered-items": (
        "1. the act was passed.\nOrgans: 1. the legislature 2. the executive",
        ["1. the act was passed.", "Organs:", "1. the legislature", "2. the executive"],
    ),
    "abbreviation-before-lowercase": (
        "Jane and co. arrived. See imp. points and approx. totals.",
        ["Jane and co. arrived.", "See imp. points and approx. totals."],
    ),
    "cjk-full-stops-without-spaces": (
        "光合作用需要阳光。植物吸收二氧化碳！为什么？「因为要生长。」最后",
        ["光合作用需要阳光。", "植物吸收二氧化碳！", "为什么？", "「因为要生长。」", "最后"],
    ),
    "japanese-and-latin-mixed": (
        "東京は日本の首都です。It is large. 人口は多い？はい。",
        ["東京は日本の首都です。", "It is large.", "人口は多い？", "はい。"],
    ),
}


@pytest.mark.parametrize(("text", "expected"), NOTE_CASES.values(), ids=NOTE_CASES.keys())
def test_note_cases(text: str, expected: list[str]) -> None:
    assert split(get_segmenter("default"), text) == expected


def test_spans_point_into_text() -> None:
    text = "  Dr. Rao left.\n\n  He came back.  "
    spans = RuleSegmenter().spans(text)
    assert spans == [(2, 15), (19, 32)]
    assert [text[s:e] for s, e in spans] == ["Dr. Rao left.", "He came back."]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"], ids=["empty", "spaces", "blank-lines"])
def test_no_sentences_in_whitespace(text: str) -> None:
    assert RuleSegmenter().spans(text) == []


@pytest.mark.corpus
def test_invariants_on_real_notes() -> None:
    """Every Markdown note of the shared corpus keeps the span invariants."""
    notes = SHARED / "corpora" / "notes-md"
    if not notes.is_dir():
        pytest.skip(f"{notes} absent")
    seg = RuleSegmenter()
    for path in sorted(notes.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        spans = seg.spans(text)
        assert all(s < e and text[s:e] == text[s:e].strip() for s, e in spans), path
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), path
        # Disjoint spans holding as many non-space characters as the text cover all of them.
        solid = sum(len("".join(text[s:e].split())) for s, e in spans)
        assert solid == len("".join(text.split())), path
