from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunks import chunk_markdown
from conftest import PeriodSegmenter
from notechunk import chunk_markdown_text
from notechunk.config import Config, EnrichConfig, MarkdownConfig
from notechunk.markdown import layout_markdown
from notechunk.markdown.windows import cut_sentence, window_ranges


def cfg_md(**kw: object) -> MarkdownConfig:
    return MarkdownConfig(**kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "window", "overlap", "expected"),
    [
        (5, 3, 0.34, [(0, 3), (2, 5)]),
        (250, 100, 0.3, [(0, 100), (70, 170), (140, 240), (210, 250)]),
        (100, 100, 0.3, [(0, 100)]),
        (170, 100, 0.3, [(0, 100), (70, 170)]),
        (3, 1, 0.0, [(0, 1), (1, 2), (2, 3)]),
        (4, 2, 0.9, [(0, 2), (1, 3), (2, 4)]),
        (0, 3, 0.3, []),
    ],
)
def test_window_ranges_spec(
    n: int, window: int, overlap: float, expected: list[tuple[int, int]]
) -> None:
    cfg = cfg_md(window_sentences=window, overlap=overlap, window_max_words=0)
    assert window_ranges([5] * n, cfg) == expected


def test_word_cap_ends_window_before_passing_it() -> None:
    cfg = cfg_md(window_sentences=100, overlap=0.0, window_max_words=25)
    assert window_ranges([10, 10, 10, 10, 30, 5], cfg) == [(0, 2), (2, 4), (4, 5), (5, 6)]
    cfg = cfg_md(window_sentences=100, overlap=0.5, window_max_words=25)
    assert window_ranges([10, 10, 10, 10], cfg) == [(0, 2), (1, 3), (2, 4)]


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.integers(1, 60), max_size=120),
    window=st.integers(1, 30),
    overlap=st.floats(0, 0.95),
    cap=st.sampled_from([0, 20, 50, 200]),
    entries=st.none() | st.lists(st.integers(1, 6), max_size=40),
)
def test_windows_cover_every_sentence_in_order(
    words: list[int], window: int, overlap: float, cap: int, entries: list[int] | None
) -> None:
    """Any word counts, or any run of entries (`entries`: their sizes in sentences)."""
    heads = None
    if entries is not None:  # each sentence's entry's first sentence
        heads = [start for k, size in enumerate(entries) for start in [sum(entries[:k])] * size]
        words = (words or [1]) * len(heads)
        words = words[: len(heads)]
    cfg = cfg_md(window_sentences=window, overlap=overlap, window_max_words=cap)
    ranges = window_ranges(words, cfg, None, None, heads)
    assert {i for s, e in ranges for i in range(s, e)} == set(range(len(words)))
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(ranges, ranges[1:], strict=False))
    assert all(s < e and e - s <= window for s, e in ranges)
    if cap:
        assert all(e - s == 1 or sum(words[s:e]) <= cap for s, e in ranges)
    ends = [0] + [e for _, e in ranges]
    for (s, e), before in zip(ranges, ends, strict=False):
        if heads is not None and e < len(heads) and heads[e] < e:  # a cut entry: it
            assert heads[e] <= max(s, before)  # began by the start or ending before would nest


def test_bullet_merge_forward_records_both_paths() -> None:
    doc = (
        "# Rivers\n## Peninsular\n- Godavari\n- Krishna\n\n"
        "## Himalayan\nThe Ganga rises at Gangotri. It flows east to the Bay of Bengal.\n"
    )
    seed = replace(Config(), enrich=EnrichConfig(merge_sections=False))  # the seed's merge
    chunks = chunk_markdown(doc, "r.md", seed, PeriodSegmenter())
    assert len(chunks) == 1
    c = chunks[0]
    assert "merged_bullets" in c.flags
    # SPEC v3 (issue 22): the common parent's path, every merged heading inline, so the
    # Ganga is not indexed under "Peninsular"
    assert c.section_path == ("Rivers",)
    assert c.section_paths == (("Rivers", "Peninsular"), ("Rivers", "Himalayan"))
    assert c.text.startswith("Peninsular:\n- Godavari\n- Krishna\nHimalayan: The Ganga")
    assert c.embed_text.startswith("r > Rivers\nPeninsular:")
    assert c.lines == (2, 7)  # from the "## Peninsular" line: its heading is in the text


def test_bullet_merge_respects_cap_and_threshold() -> None:
    seed = replace(
        Config(),
        enrich=EnrichConfig(merge_sections=False),
        markdown=cfg_md(window_max_words=0),  # one window of 160 words: past the merge cap
    )
    long = " ".join(["word"] * 160) + "."
    doc = f"# A\n- x\n- y\n\n# B\n{long}\n"
    chunks = chunk_markdown(doc, "a.md", seed, PeriodSegmenter())
    assert [c.section_path for c in chunks] == [("A",), ("B",)]
    no_bullet = "# A\nShort line.\n\n# B\nAnother short line.\n"
    assert len(chunk_markdown(no_bullet, "a.md", seed, PeriodSegmenter())) == 2
    off = replace(seed, markdown=cfg_md(bullet_merge_under_words=0))
    assert len(chunk_markdown("# A\n- x\n\n# B\n- y\n", "a.md", off, PeriodSegmenter())) == 2


def test_code_block_is_one_sentence() -> None:
    doc = "# Code\n```python\nrivers = ['Ganga']. print(1). x = 2.\n```\n"
    lay = layout_markdown(doc, Config(), PeriodSegmenter())
    assert len(lay.sentences[0]) == 1
    assert lay.sentences[0][0].text.startswith("```python\n")


section_text = st.lists(
    st.sampled_from(
        [
            "The Act was passed in 1935.",
            "It created provinces.",
            "- a bullet point",
            "* star item",
            "Short.",
            "A longer sentence with several words in it for counting purposes.",
        ]
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=80, deadline=None)
@given(
    sections=st.lists(section_text, min_size=1, max_size=6),
    window=st.integers(1, 6),
    overlap=st.sampled_from([0.0, 0.3, 0.5]),
)
def test_chunks_cover_sections_and_cross_only_by_a_merge(
    sections: list[list[str]], window: int, overlap: float
) -> None:
    doc = "".join(f"# S{i}\n\n" + "\n\n".join(body) + "\n\n" for i, body in enumerate(sections))
    cfg = replace(Config(), markdown=cfg_md(window_sentences=window, overlap=overlap))
    lay = layout_markdown(doc, cfg, PeriodSegmenter())
    seen = {(sec, i) for w in lay.windows for sec, s, e in w.parts for i in range(s, e)}
    every = {(k, i) for k, sents in enumerate(lay.sentences) for i in range(len(sents))}
    assert seen == every
    for w in lay.windows:
        if len({sec for sec, _, _ in w.parts}) > 1:
            assert w.merged or w.inline
    chunks = chunk_markdown(doc, "p.md", cfg, PeriodSegmenter())
    assert all(c.text.strip() for c in chunks)
    merges = {"merged_bullets", "merged_sections"}
    for c in chunks:
        assert (len(c.section_paths) > 1) == bool(merges & set(c.flags) and c.section_paths)


def test_long_code_block_is_split_at_line_boundaries() -> None:
    """SPEC §1.1 v2: a code block longer than `window_max_words` is split like any unit."""
    body = "\n".join(f"x{i} = compute({i}, 'alpha beta gamma')" for i in range(60))
    doc = f"# Code\n\n```python\n{body}\n```\n"
    chunks = chunk_markdown(doc, "c.md", Config(), PeriodSegmenter())
    assert len(chunks) > 1
    assert all(c.word_count <= Config().markdown.window_max_words for c in chunks)
    assert all(c.text.startswith("```python\n") and c.text.endswith("\n```") for c in chunks)
    lines = [line for c in chunks for line in c.text.split("\n")[1:-1]]
    assert lines == body.split("\n")  # every line once, in order
    # the block's fence lines are in its first and last pieces' `lines` (issue 22)
    assert chunks[0].lines[0] == 3 and chunks[-1].lines[1] == 64


def test_long_row_is_split_between_cells() -> None:
    cells = " | ".join(f"v{i} " + "word " * 12 for i in range(12))
    heads = " | ".join(f"H{i}" for i in range(12))
    doc = f"| {heads} |\n|{'---|' * 12}\n| {cells} |\n"
    chunks = chunk_markdown(doc, "t.md", Config(), PeriodSegmenter())
    assert len(chunks) > 1 and all(c.word_count <= 120 for c in chunks)
    assert "; ".join(c.text for c in chunks).count("H11: v11") == 1
    assert all(c.lines == (3, 3) for c in chunks)


def test_run_on_sentence_is_cut_within_the_cap_at_clause_ends() -> None:
    """A paragraph with no full stop (a pasted list, OCR text) is not one window of any
    length: it is cut into even pieces within `window_max_words`, after a `;` (else a `,`)
    where the second half of a piece has one, every word once and in order."""
    items = [f"item{i} alpha beta gamma delta" for i in range(80)]
    line = ", ".join(items[:40]) + "; " + " ".join(items[40:])
    doc = f"# List\n\nfirst line\n{line}\n"
    chunks = chunk_markdown(doc, "l.md", Config(), PeriodSegmenter())
    cap = Config().markdown.window_max_words
    assert len(chunks) > 1 and all(c.word_count <= cap for c in chunks)
    assert " ".join(c.text for c in chunks).split() == f"first line {line}".split()
    # even pieces, so the line before the run-on one shares its first window
    assert chunks[0].text.startswith("first line item0") and chunks[0].lines == (3, 4)
    assert chunks[0].text.endswith(",") and chunks[1].text.endswith("delta;")
    assert chunks[-1].lines == (4, 4)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "bb,", "c;", "-", "d:", "e\n", "·", "f—"]), max_size=400),
    st.integers(1, 130),
)
def test_cut_pieces_cover_the_sentence_within_the_cap(words: list[str], cap: int) -> None:
    text = "  " + " ".join(words) + " "
    start, end = 2, len(text) - 1
    pieces = cut_sentence(text, start, end, cap)
    assert " ".join(text[s:e] for s, e in pieces).split() == " ".join(words).split()
    assert all(len(text[s:e].split()) <= cap for s, e in pieces)
    assert pieces[0][0] == start and pieces[-1][1] <= end
    assert all(a[1] <= b[0] for a, b in zip(pieces, pieces[1:], strict=False))
    least = max(1, -(-cap // 2) // 2)  # a clause end is sought in a piece's second half
    assert all(len(text[s:e].split()) >= least for s, e in pieces[:-1])


def test_run_on_chinese_is_cut_at_its_commas_within_the_cap() -> None:
    """Chinese has no spaces: its words are counted by characters (two to a word) and a
    paragraph with no 。 is cut after a ， or 、 within the cap, every character kept."""
    from notechunk.segment import get_segmenter

    clauses = [f"第{i}条规定了公民的基本权利和义务" for i in range(120)]
    text = "，".join(clauses)
    chunks = chunk_markdown(f"# 宪法\n\n{text}\n", "zh.md", Config(), get_segmenter("default"))
    cap = Config().markdown.window_max_words
    assert len(chunks) > 1 and all(c.word_count <= cap for c in chunks)
    assert all(c.text.endswith("，") for c in chunks[:-1])
    assert "".join(c.text for c in chunks) == text


def test_a_cut_never_parts_a_label_from_its_value() -> None:
    text = "Bagor: meso tools, cattle Bhimbetka: shelters caves art Inamgaon: houses"
    pieces = [text[s:e] for s, e in cut_sentence(text, 0, len(text), 6)]
    assert pieces[0] == "Bagor: meso tools,"  # after the comma, not after "Bhimbetka:"
    assert " ".join(pieces) == text


def test_a_one_word_cap_still_cuts_a_bullet() -> None:
    cfg = replace(Config(), markdown=cfg_md(window_max_words=1))
    chunks = chunk_markdown("- a b c d\n", "b.md", cfg, PeriodSegmenter())
    assert " ".join(c.text for c in chunks).split() == ["-", "a", "b", "c", "d"]


def test_run_on_bullet_keeps_its_marker_within_the_cap() -> None:
    doc = "- " + " ".join(f"w{i}" for i in range(500)) + "\n"
    chunks = chunk_markdown(doc, "b.md", Config(), PeriodSegmenter())
    assert chunks[0].text.startswith("- w0 ")
    assert all(c.word_count <= Config().markdown.window_max_words for c in chunks)
    assert " ".join(c.text for c in chunks).split()[1:] == [f"w{i}" for i in range(500)]


def test_uncapped_config_keeps_code_whole() -> None:
    body = "\n".join(f"line {i} with some words in it" for i in range(60))
    doc = f"```\n{body}\n```\n"
    cfg = replace(Config(), markdown=cfg_md(window_max_words=0))
    assert len(chunk_markdown(doc, "c.md", cfg, PeriodSegmenter())) == 1


def test_chinese_sentences_join_without_a_space() -> None:
    """Sentences of one paragraph join with a space, except where the writing has none."""
    text = "# 光\n\n光速很快。为什么？「因为光子没有质量。」It is fast. Yes.\n"
    from notechunk.segment import get_segmenter

    (chunk,) = chunk_markdown(text, "zh.md", Config(), get_segmenter("default"))
    assert chunk.text == "光速很快。为什么？「因为光子没有质量。」 It is fast. Yes."


def test_lines_hold_the_text_when_clean_up_removes_a_line_break() -> None:
    """Issue 22: a pandoc attribute over two lines is removed from the text, so the text
    has fewer line breaks than the source; each window's `lines` still hold its words."""
    doc = (
        "# Rectum\n\n"
        '[check this]{.comment-start id="96"\n'
        'author="A B" date="2025-08-12"} The rectum is surrounded by the pelvic floor.\n'
        "The levator ani forms a sling around it. The puborectalis\n"
        "muscle makes the anorectal angle. It matters for continence.\n"
    )
    cfg = replace(Config(), markdown=cfg_md(window_sentences=1, overlap=0.0))
    chunks = chunk_markdown(doc, "r.md", cfg, PeriodSegmenter())
    source = doc.split("\n")
    assert len(chunks) >= 4
    for c in chunks:
        assert c.lines is not None
        held = " ".join(source[c.lines[0] - 1 : c.lines[1]])
        for word in c.text.replace(".", " ").split():
            assert word in held, (word, c.lines, c.text)


def test_windows_keep_entries_whole_when_they_fit() -> None:
    """`heads` (each sentence's entry's first sentence): a window ends before an entry
    it would cut and the next starts at an entry; an entry longer than the cap is cut."""
    cfg = cfg_md(window_sentences=100, overlap=0.3, window_max_words=40)
    three = [0, 0, 0, 3, 3, 3, 6, 6, 6]
    assert window_ranges([10] * 9, cfg) == [(0, 4), (3, 7), (6, 9)]
    assert window_ranges([10] * 9, cfg, None, None, three) == [(0, 3), (3, 6), (6, 9)]
    long_first = [0, 0, 0, 0, 0, 0, 6, 6, 6]
    assert window_ranges([10] * 9, cfg, None, None, long_first) == [(0, 4), (3, 6), (6, 9)]


def test_a_reference_list_is_windowed_at_its_entries() -> None:
    """Numbered references of several sentences each (a pandoc export writes `12\\.`):
    every chunk starts at a reference's number; `whole_entries = false` cuts anywhere."""
    refs = "\n\n".join(
        f"{k}\\. Author{k} A. Title of paper {k} on a topic. Journal {k}. 2011;{k}(2):1-9. "
        f"Available at: site {k}."
        for k in range(1, 13)
    )
    doc = "# References\n\n" + refs + "\n"
    md = {"window_max_words": 40, "overlap": 0.3}
    chunks = chunk_markdown_text(doc, config=Config().with_overrides(markdown=md))
    assert len(chunks) > 2
    assert all(c.text.split(". ", 1)[0].isdigit() for c in chunks)
    off = Config().with_overrides(markdown={**md, "whole_entries": False})
    cut = chunk_markdown_text(doc, config=off)
    assert not all(c.text.split(". ", 1)[0].isdigit() for c in cut)
