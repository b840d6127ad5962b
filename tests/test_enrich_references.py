"""Opening references resolved from the file (enrich.references, enrich.names)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunks import chunk_markdown, make_chunk
from conftest import PeriodSegmenter
from notechunk.chunk import Chunk
from notechunk.config import Config, EnrichConfig, MarkdownConfig
from notechunk.enrich.names import RuleNames
from notechunk.enrich.references import find_mentions, resolve_references

ON = EnrichConfig(references=True)  # off by default (see README, "Measured")
ONE_SENTENCE = replace(
    Config(), markdown=MarkdownConfig(window_sentences=1, overlap=0.0), enrich=ON
)

MENTIONS = {
    "the-act": ("The Act transferred power to the Crown.", [("The Act", "named")]),
    "this-act": ("This Act abolished the Board of Control.", [("This Act", "named")]),
    "said-scheme": ("Under the said scheme, farmers get aid.", [("the said scheme", "named")]),
    "above-policy": ("The above policy failed.", [("The above policy", "named")]),
    "court-and-order": (
        "The Court held that the said order was void.",
        [("The Court", "named"), ("the said order", "named")],
    ),
    "he": ("He was hanged in 1857.", [("He", "person")]),
    "bullet-they": ("- They were loyal.", [("They", "topic")]),
    "these-rights": ("These rights are justiciable.", [("These rights", "named")]),
    "this-led": ("This led to the revolt.", [("This", "topic")]),
    "a-name-is-no-reference": ("The Supreme Court of India is the apex court.", []),
    "named-by-year": ("The Revolt of 1857 was a challenge.", []),
    "singleton-state": ("Article 38 asks the State to act.", []),
    "second-sentence-ignored": ("Rain fell. The Act passed.", []),
    "it-later-is-not-first": ("Rain made it green.", []),
}


@pytest.mark.parametrize(("text", "expected"), MENTIONS.values(), ids=MENTIONS.keys())
def test_mentions(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(m.phrase, m.kind) for m in find_mentions(text)] == expected


NAMES = {
    "act-with-year": (
        "The Government of India Act, 1858 ended it.",
        "Government of India Act, 1858",
        "act",
    ),
    "of-year": (
        "Under the Regulating Act of 1773, a court was set up.",
        "Regulating Act of 1773",
        "act",
    ),
    "court-of": ("The High Court of Bombay ruled.", "High Court of Bombay", "court"),
    "part-of-the": ("It is in Part IV of the Constitution.", "Part IV of the Constitution", "part"),
}


@pytest.mark.parametrize(("text", "name", "head"), NAMES.values(), ids=NAMES.keys())
def test_rule_names(text: str, name: str, head: str) -> None:
    assert (name, head) in {(n.text, n.head) for n in RuleNames().names(text) if not n.person}


def test_part_of_the_constitution_is_not_a_constitution() -> None:
    heads = {n.head for n in RuleNames().names("Part IV of the Constitution") if not n.person}
    assert "constitution" not in heads


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("On 29 March, Mangal Pandey attacked his officers.", "Mangal Pandey"),
        ("Lord Canning, the Governor-General, became Viceroy.", "Lord Canning"),
        ("Queen Victoria's Proclamation promised peace.", "Queen Victoria"),
        ("V.D. Savarkar called it a war.", "V.D. Savarkar"),
    ],
)
def test_person_names(text: str, person: str) -> None:
    assert person in [n.text for n in RuleNames().names(text) if n.person]


@pytest.mark.parametrize(
    "text", ["The East India Company ruled.", "The Bengal Native Infantry marched."]
)
def test_institutions_are_not_people(text: str) -> None:
    assert not [n for n in RuleNames().names(text) if n.person]


HISTORY = """# Modern India

## After the revolt

The Government of India Act, 1858 ended Company rule. The Act transferred power to the Crown.

## Mangal Pandey

Mangal Pandey attacked his officers at Barrackpore. He was hanged in April 1857.
"""


def by_text(doc: str, cfg: Config = ONE_SENTENCE) -> dict[str, Chunk]:
    return {c.text: c for c in chunk_markdown(doc, "h.md", cfg, PeriodSegmenter())}


def test_the_act_resolves_from_an_earlier_chunk_of_the_section() -> None:
    c = by_text(HISTORY)["The Act transferred power to the Crown."]
    assert c.resolved == (("The Act", "Government of India Act, 1858"),)
    assert "The Act (Government of India Act, 1858) transferred" in c.embed_text
    assert c.text == "The Act transferred power to the Crown."  # text stays what the note says
    assert c.to_json()["resolved"] == {"The Act": "Government of India Act, 1858"}


def test_he_resolves_to_a_person() -> None:
    c = by_text(HISTORY)["He was hanged in April 1857."]
    assert c.resolved == (("He", "Mangal Pandey"),)


def test_heading_then_title_are_searched() -> None:
    doc = "# Right to Equality\nThese rights are justiciable.\n"
    (c,) = by_text(doc).values()
    assert c.resolved == (("These rights", "Right to Equality"),)
    assert c.embed_text.count("Right to Equality") == 1  # the context says it already
    titled = by_text("These acts were repealed.\n")
    assert "dangling:these acts" in next(iter(titled.values())).flags


def test_topic_pronoun_takes_a_named_heading_not_a_facet() -> None:
    doc = "# The Revolt of 1857\n## Causes\nIt had many causes.\n"
    (c,) = by_text(doc).values()
    assert c.resolved == (("It", "The Revolt of 1857"),)


def test_unresolved_is_flagged_dangling() -> None:
    doc = "# Notes\n\nThe Act was repealed in 1919.\n"
    (c,) = by_text(doc).values()
    assert c.resolved == ()
    assert "dangling:the act" in c.flags
    assert c.embed_text.endswith("The Act was repealed in 1919.")


def test_nearest_antecedent_wins() -> None:
    doc = (
        "# Acts\n\nThe Pitt's India Act, 1784 set up a Board. The Charter Act, 1813 opened"
        " trade. The Act also gave money for education.\n"
    )
    cfg = replace(Config(), markdown=MarkdownConfig(window_sentences=2, overlap=0.5), enrich=ON)
    got = [c for c in by_text(doc, cfg).values() if c.text.startswith("The Charter")]
    assert got and not got[0].resolved  # its first sentence leans on nothing
    (last,) = [c for c in by_text(doc, ONE_SENTENCE).values() if c.text.startswith("The Act")]
    assert last.resolved == (("The Act", "Charter Act, 1813"),)


def test_config_key_turns_it_off() -> None:
    assert not Config().enrich.references  # the default
    off = replace(ONE_SENTENCE, enrich=EnrichConfig(references=False))
    assert all(
        not c.resolved and not any("dangling" in f for f in c.flags)
        for c in by_text(HISTORY, off).values()
    )


def test_sheet_rows_are_left_alone() -> None:
    row = make_chunk(
        text="It is a pass.", source="s.csv", source_type="spreadsheet", embed_text="x"
    )
    assert resolve_references([row], RuleNames()) == (row,)


def test_an_honorific_before_a_law_is_no_person() -> None:
    names = RuleNames().names("The General Service Enlistment Act of 1856 upset sepoys.")
    assert not [n for n in names if n.person]
