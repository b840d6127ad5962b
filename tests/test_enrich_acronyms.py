"""Acronym definitions, uses and false friends (enrich.acronyms)."""

from __future__ import annotations

import pytest

from notechunk.enrich.acronyms import ambiguous, definitions, long_form, uses

DEFINITIONS = {
    "long-then-short": (
        "The Reserve Bank of India (RBI) was set up in 1935.",
        [("RBI", "Reserve Bank of India")],
    ),
    "short-then-long": (
        "RBI (Reserve Bank of India) regulates banks.",
        [("RBI", "Reserve Bank of India")],
    ),
    "dash-line": ("- RBI - Reserve Bank of India", [("RBI", "Reserve Bank of India")]),
    "colon-line": (
        "SEBI: Securities and Exchange Board of India",
        [("SEBI", "Securities and Exchange Board of India")],
    ),
    "en-dash-line": (
        "NABARD – National Bank for Agriculture and Rural Development",
        [("NABARD", "National Bank for Agriculture and Rural Development")],
    ),
    "sheet-row": ("Term: RBI. Meaning: Reserve Bank of India.", [("RBI", "Reserve Bank of India")]),
    "table-row": (
        "Abbreviation: NITI; Full form: National Institution for Transforming India",
        [("NITI", "National Institution for Transforming India")],
    ),
    "hyphenated": (
        "Middle East respiratory syndrome coronavirus (MERS-CoV) spreads.",
        [("MERS-CoV", "Middle East respiratory syndrome coronavirus")],
    ),
    "digits": (
        "It binds angiotensin-converting enzyme 2 (ACE2).",
        [("ACE2", "angiotensin-converting enzyme 2")],
    ),
    "plural": (
        "Public Interest Litigations (PILs) were filed.",
        [("PIL", "Public Interest Litigations")],
    ),
    "letters-must-match": ("He studied at the institute (IIT) in 1990.", []),
    "era-in-parens": ("Ashoka ruled (268-232 BC).", []),
    "note-line-is-no-definition": ("NOTE: read this before the exam", []),
    "a-sentence-is-no-long-form": ("India won (WC) the cup.", []),
}


@pytest.mark.parametrize(("text", "expected"), DEFINITIONS.values(), ids=DEFINITIONS.keys())
def test_definitions(text: str, expected: list[tuple[str, str]]) -> None:
    assert definitions(text) == expected


def test_long_form_is_the_shortest_that_spells_it() -> None:
    assert long_form("RBI", "the governor of the Reserve Bank of India") == "Reserve Bank of India"
    assert long_form("XYZ", "nothing matches here") is None


FALSE_FRIENDS = {
    "roman-after-numbering-word": ("Part III and Article XIV apply.", []),
    "roman-after-a-name": ("Henry VIII broke with Rome.", []),
    "roman-list-marker": ("IV. The fourth point", []),
    "roman-may-be-an-acronym": ("The patient was given IV fluids.", ["IV"]),
    "shouting-line": ("LET US KNOW NOW", []),
    "shouting-it": ("IT IS the RBI that decides.", ["RBI"]),
    "thank-us": ("THANK US later.", []),
    "it-sector": ("The IT sector grew fast.", ["IT"]),
    "us-country": ("US troops left Kabul.", ["US"]),
    "era-after-number": ("In 321 BC and 78 AD.", []),
    "unit-after-number": ("A 50 MW plant and 10 KM of road.", []),
    "grade-word": ("She got grade AA and rating BBB.", []),
    "chemicals": ("CO2 and NaCl and H2O", ["CO2", "NaCl", "H2O"]),
    "plural-and-mixed-case": ("The MoU on PILs", ["MoU", "PIL"]),
    "words-in-title-case": ("The Reserve Bank", []),
}


@pytest.mark.parametrize(("text", "expected"), FALSE_FRIENDS.values(), ids=FALSE_FRIENDS.keys())
def test_uses_and_false_friends(text: str, expected: list[str]) -> None:
    assert uses(text) == expected


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("XIV", "roman numeral"),
        ("CM", "roman numeral"),
        ("IT", "English word"),
        ("US", "English word"),
        ("CO2", "chemical formula"),
        ("NaCl", "chemical formula"),
        ("G20", "has digits"),
        ("AAA", "grade"),
        ("RBI", None),
        ("SEBI", None),
    ],
)
def test_ambiguous_shapes_are_never_listed_undefined(token: str, why: str | None) -> None:
    assert ambiguous(token) == why
