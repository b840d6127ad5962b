"""Tiny sibling sections merged under their parent (markdown.tiny)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunks import chunk_markdown
from conftest import PeriodSegmenter
from notechunk.config import Config, EnrichConfig, MarkdownConfig
from notechunk.markdown.tiny import common_parent

DISEASES = """# Scrub typhus

## Treatment

Doxycycline

## Diagnosis

Weil-Felix test

# Leptospirosis

## Treatment

Penicillin

## Diagnosis

Microscopic agglutination test
"""


def chunks(
    doc: str, cfg: Config | None = None
) -> list[tuple[tuple[str, ...], str, tuple[str, ...]]]:
    got = chunk_markdown(doc, "d.md", cfg or Config(), PeriodSegmenter())
    return [(c.section_path, c.text, c.flags) for c in got]


def test_siblings_merge_under_parent_with_headings_inline() -> None:
    got = chunk_markdown(DISEASES, "d.md", Config(), PeriodSegmenter())
    assert [c.text for c in got] == [
        "Treatment: Doxycycline\nDiagnosis: Weil-Felix test",
        "Treatment: Penicillin\nDiagnosis: Microscopic agglutination test",
    ]
    first = got[0]
    assert first.section_path == ("Scrub typhus",)
    assert first.section_paths == (("Scrub typhus", "Treatment"), ("Scrub typhus", "Diagnosis"))
    assert "merged_sections" in first.flags
    assert first.embed_text.startswith("d > Scrub typhus\n")  # the disease is in the context


def test_config_key_turns_it_off() -> None:
    off = replace(Config(), enrich=EnrichConfig(merge_sections=False))
    got = chunk_markdown(DISEASES, "d.md", off, PeriodSegmenter())
    assert [c.text for c in got] == [
        "Doxycycline",
        "Weil-Felix test",
        "Penicillin",
        "Microscopic agglutination test",
    ]
    assert not any("merged_sections" in c.flags for c in got)


def test_parent_body_leads_its_tiny_children() -> None:
    doc = "# Dengue\nA viral fever.\n## Vector\nAedes aegypti\n## Treatment\nFluids\n"
    got = chunk_markdown(doc, "d.md", Config(), PeriodSegmenter())
    assert len(got) == 1
    assert got[0].text == "A viral fever.\nVector: Aedes aegypti\nTreatment: Fluids"
    assert got[0].section_path == ("Dengue",)


def test_bullet_bodies_keep_their_lines() -> None:
    doc = "# Malaria\n## Drugs\n- Chloroquine\n- Artemisinin\n## Vector\n- Anopheles\n"
    (c,) = chunk_markdown(doc, "d.md", Config(), PeriodSegmenter())
    assert c.text == "Drugs:\n- Chloroquine\n- Artemisinin\nVector: Anopheles"


CASES = {
    "one-tiny-section-stays": ("# A\n## B\nShort.\n## C\n" + "word " * 30 + "end.\n", 2),
    "cousins-do-not-merge": ("# A\n## B\nOne.\n# C\n## D\nTwo.\n", 2),
    "big-sibling-breaks-the-run": ("# A\n## B\nOne.\n## C\n" + "w " * 25 + "x.\n## D\nTwo.\n", 3),
}


@pytest.mark.parametrize(("doc", "n"), CASES.values(), ids=CASES.keys())
def test_what_does_not_merge(doc: str, n: int) -> None:
    got = chunk_markdown(doc, "d.md", Config(), PeriodSegmenter())
    assert len(got) == n
    assert not any("merged_sections" in c.flags for c in got)


def test_the_cap_splits_a_long_run() -> None:
    body = "one two three four five six seven eight nine ten eleven twelve."
    doc = "# P\n" + "".join(f"## S{k}\n{body}\n" for k in range(6))
    cfg = replace(
        Config(), markdown=MarkdownConfig(window_max_words=30, bullet_merge_under_words=20)
    )
    got = chunk_markdown(doc, "d.md", cfg, PeriodSegmenter())
    assert [len(c.section_paths) for c in got] == [2, 2, 2]  # 2 x (12 + 1 heading) <= 30
    assert all(c.word_count <= 30 for c in got)


def test_every_sentence_survives_the_merge() -> None:
    got = chunk_markdown(DISEASES, "d.md", Config(), PeriodSegmenter())
    text = "\n".join(c.text for c in got)
    for word in ("Doxycycline", "Weil-Felix", "Penicillin", "agglutination"):
        assert text.count(word) == 1


def test_common_parent() -> None:
    assert common_parent([("A", "B"), ("A", "C")]) == ("A",)
    assert common_parent([("A",), ("A", "C")]) == ("A",)
    assert common_parent([("A",), ("B",)]) == ()
    assert common_parent([]) == ()


def test_a_repeated_section_is_left_to_dedupe() -> None:
    got = chunk_markdown(
        "# A\n\nSame fact.\n\n# A\n\nSame fact.\n", "d.md", Config(), PeriodSegmenter()
    )
    assert [c.text for c in got] == ["Same fact.", "Same fact."]


CHAIN = """\
# Electron transport chain

## Complex II

### Result
- FADH2 gives its electrons to ubiquinone

## Complex III
- Cytochrome bc1 passes them to cytochrome c

## Complex IV

### Result
Oxygen is reduced to water.

## Surface Anatomy
- tympanic membrane

## Otoscope
The otoscope shows the drum; pull the pinna up and back in adults before looking in.
"""


@pytest.mark.parametrize("merge_sections", [True, False])
def test_every_merged_heading_is_inline_and_in_section_paths(merge_sections: bool) -> None:
    """SPEC v3 (issue 22): whatever merged them (tiny sections, bullets forward), each
    section in a chunk has its path in `section_paths` and its headings below the chunk's
    own path inline in `embed_text`: "Complex III" is never found under "Complex II"."""
    cfg = replace(Config(), enrich=EnrichConfig(merge_sections=merge_sections))
    out = chunk_markdown(CHAIN, "etc.md", cfg, PeriodSegmenter())
    merged = [c for c in out if c.section_paths]
    assert merged
    for c in merged:
        for path in c.section_paths:
            assert path[: len(c.section_path)] == c.section_path
            for heading in path[len(c.section_path) :]:
                assert heading in c.embed_text, (heading, c.embed_text)
    where = {line: c for c in out for line in c.text.split("\n")}
    iii = next(c for line, c in where.items() if "Cytochrome bc1" in line)
    assert "Complex III" in iii.embed_text
    drum = next(c for line, c in where.items() if "tympanic" in line)
    assert "Surface Anatomy" in drum.embed_text
