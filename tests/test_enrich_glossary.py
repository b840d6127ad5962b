"""The corpus glossary: statistics per slice, merged in any grouping, then a map."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunks import make_chunk
from notechunk.chunk import Chunk
from notechunk.enrich.compose import annotate, body_start
from notechunk.enrich.glossary import (
    GlossaryStats,
    build_glossary,
    expand_acronyms,
    glossary_stats,
    merge_all,
    merge_stats,
    parse_glossary,
)
from notechunk.errors import ConfigError


def chunk(text: str, source: str = "a.md", context: str = "a", omit: bool = False) -> Chunk:
    return make_chunk(
        text=text,
        source=source,
        source_type="markdown",
        embed_text=f"{context}\n{text}",
        omit=omit,
        id=f"{source}:{text[:10]}",
    )


CORPUS = [
    chunk("The Reserve Bank of India (RBI) sets the repo rate.", "banking.md"),
    chunk("The RBI cut rates. SEBI regulates markets.", "economy.md"),
    chunk(
        "Abbreviation: NITI. Full form: National Institution for Transforming India.", "terms.csv"
    ),
    chunk("NITI Aayog replaced the Planning Commission. The RBI agreed.", "plans.md"),
    chunk("RBI (Reserve Bank of India) issues notes.", "notes.md"),
    chunk("RBI (Reserve Bank Of India) again.", "zz.md"),
]


def test_glossary_from_the_corpus_and_undefined_with_counts() -> None:
    g = build_glossary(glossary_stats(CORPUS))
    assert g.lookup() == {
        "NITI": "National Institution for Transforming India",
        "RBI": "Reserve Bank of India",
    }
    rbi = next(e for e in g.entries if e.acronym == "RBI")
    assert rbi.origin == "banking.md"  # first source in sort order
    assert rbi.uses == 5
    assert g.undefined == (("SEBI", 1),)


def test_each_chunk_gets_each_expansion_once() -> None:
    g = build_glossary(glossary_stats(CORPUS))
    out = expand_acronyms(CORPUS, g)
    assert out[0] == CORPUS[0]  # the definition says it already
    assert (
        out[1].embed_text == "a\nThe RBI (Reserve Bank of India) cut rates. SEBI regulates markets."
    )
    assert out[1].acronyms == (("RBI", "Reserve Bank of India"),)
    assert out[3].acronyms == (
        ("NITI", "National Institution for Transforming India"),
        ("RBI", "Reserve Bank of India"),
    )
    assert all(a.text == b.text for a, b in zip(out, CORPUS, strict=True))


def test_acronym_in_the_context_only_is_expanded_there() -> None:
    g = build_glossary(glossary_stats(CORPUS))
    (c,) = expand_acronyms([chunk("It sets rates.", context="money > RBI")], g)
    assert c.embed_text == "money > RBI (Reserve Bank of India)\nIt sets rates."


def test_user_glossary_wins() -> None:
    user = parse_glossary("# mine\nRBI: Reserve Bank (India)\nSEBI = Securities Board\n\n", "g.txt")
    g = build_glossary(glossary_stats(CORPUS), user)
    assert g.lookup()["RBI"] == "Reserve Bank (India)"
    assert g.lookup()["SEBI"] == "Securities Board"
    assert g.undefined == ()
    assert next(e for e in g.entries if e.acronym == "SEBI").origin == "glossary file"


@pytest.mark.parametrize("line", ["just words", "rbi: lower case is no acronym"])
def test_bad_user_glossary_line_is_a_config_error(line: str) -> None:
    with pytest.raises(ConfigError, match=r"g\.txt:2"):
        parse_glossary(f"RBI: Reserve Bank of India\n{line}\n", "g.txt")


def test_omitted_chunks_define_but_do_not_use() -> None:
    stats = glossary_stats([chunk("Reserve Bank of India (RBI)", omit=True)])
    assert "RBI" in stats.defined and stats.used == {}


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(len(CORPUS))), st.integers(1, len(CORPUS)))
def test_merging_slices_in_any_order_gives_the_same_glossary(order: list[int], cut: int) -> None:
    whole = build_glossary(glossary_stats(CORPUS))
    shuffled = [CORPUS[i] for i in order]
    blocks = [glossary_stats(shuffled[:cut]), glossary_stats(shuffled[cut:])]
    assert build_glossary(merge_all(blocks)) == whole
    assert build_glossary(merge_stats(blocks[1], blocks[0])) == whole
    singles = [glossary_stats([c]) for c in shuffled]
    assert build_glossary(merge_all(singles)) == whole


def test_merge_is_associative() -> None:
    parts = [glossary_stats([c]) for c in CORPUS[:3]]
    for a, b, c in itertools.permutations(parts):
        left = merge_stats(merge_stats(a, b), c)
        right = merge_stats(a, merge_stats(b, c))
        assert build_glossary(left) == build_glossary(right)
    assert merge_all([]) == GlossaryStats()


def test_annotate() -> None:
    assert annotate("ctx\nThe Act passed.", "The Act", "Rowlatt Act") == (
        "ctx\nThe Act (Rowlatt Act) passed."
    )
    said = "ctx\nThe Rowlatt Act. The Act passed."
    assert annotate(said, "The Act", "Rowlatt Act") == said  # already said
    assert annotate("x\nit is", "IT", "Information Technology") == (
        "x\nit is\n(IT: Information Technology)"
    )  # "it" is not "IT": noted at the end
    embed, text = "The Act > x\nThe Act passed.", "The Act passed."
    start = body_start(embed, text)
    assert annotate(embed, "The Act", "Rowlatt Act", start) == (
        "The Act > x\nThe Act (Rowlatt Act) passed."
    )


def test_a_file_that_defines_an_acronym_is_not_expanded_again() -> None:
    same = [CORPUS[0], chunk("Later the RBI raised rates.", "banking.md")]
    g = build_glossary(glossary_stats(CORPUS))
    assert expand_acronyms(same, g) == same
    other = chunk("Later the RBI raised rates.", "other.md")
    assert expand_acronyms([other], g)[0].acronyms == (("RBI", "Reserve Bank of India"),)
