"""Invariants over generated Markdown (hypothesis): every sentence of every section is in
some chunk (kept, or omitted and flagged), no chunk is empty, ids are unique. Config
round-trips are tested in test_config.py."""

from __future__ import annotations

import gzip
import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chunks import chunk_markdown
from conftest import PeriodSegmenter
from notechunk.chunk import Chunk
from notechunk.cli import main
from notechunk.config import Config, config_from_dict
from notechunk.finish import normalize_text
from notechunk.markdown import layout_markdown
from notechunk.markdown.sections import make_parser

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)


@st.composite
def sentence(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORDS, min_size=1, max_size=25))
    return " ".join(words).capitalize() + draw(st.sampled_from([".", "!", "?"]))


@st.composite
def document(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Markdown text and the sentences (or code lines) that must reach the chunks."""
    lines: list[str] = []
    expected: list[str] = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["heading", "para", "para", "bullets", "code"]))
        if kind == "heading":
            level = draw(st.integers(1, 6))
            lines += [f"{'#' * level} {' '.join(draw(st.lists(WORDS, min_size=1, max_size=4)))}"]
        elif kind == "para":
            sents = draw(st.lists(sentence(), min_size=1, max_size=8))
            lines.append(" ".join(sents))
            expected += sents
        elif kind == "bullets":
            items = draw(st.lists(sentence(), min_size=1, max_size=5))
            lines += [f"- {s}" for s in items]
            expected += items
        else:
            body = draw(st.lists(WORDS, min_size=1, max_size=4))
            lines += ["```", *body, "```"]
            expected += body
        lines.append("")
    return "\n".join(lines), expected


CONFIGS = st.builds(
    lambda w, o, cap, under: config_from_dict(
        {
            "markdown": {
                "window_sentences": w,
                "overlap": o,
                "window_max_words": cap,
                "bullet_merge_under_words": under,
            }
        }
    ),
    st.integers(1, 12),
    st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.9]),
    st.sampled_from([0, 5, 40]),
    st.sampled_from([0, 20, 60]),
)


@settings(max_examples=150, deadline=None)
@given(doc=document(), cfg=CONFIGS)
@example(
    doc=("A.\n\n# a\n\n- A.\n", ["A.", "A."]),
    cfg=config_from_dict({"markdown": {"window_sentences": 1, "bullet_merge_under_words": 20}}),
)  # a one-bullet tiny section merged into its sibling: "A.\na: A."
@example(
    doc=(
        "- A.\n- A a.\n- A a a a a a a a a.\n\n# a\n\n```\na\n```\n\n- A.\n- Aa.\n\n# a a\n\nA.\n",
        ["A.", "A a.", "A a a a a a a a a.", "a", "A.", "Aa.", "A."],
    ),
    cfg=config_from_dict({"markdown": {"window_sentences": 1, "bullet_merge_under_words": 20}}),
)  # bullets merged forward across "# a a": "a: Aa.\na a: A." (markers dropped inline)
def test_every_sentence_in_some_chunk(doc: tuple[str, list[str]], cfg: Config) -> None:
    text, expected = doc
    seg = PeriodSegmenter()
    parser = make_parser()
    lay = layout_markdown(text, cfg, seg, parser)
    chunks = chunk_markdown(text, "n.md", cfg, seg, parser)
    assert all(c.text.strip() and c.word_count > 0 for c in chunks)
    for k, sents in enumerate(lay.sentences):
        for s in sents:
            assert any(_holds(c, s.text) for c in chunks), (k, s.text)
    # a sentence past `window_max_words` is cut into pieces: its words stay, in order
    joined = " ".join(" ".join(c.text for c in chunks).split())
    for piece in expected:
        assert " ".join(piece.split()) in joined, piece


_MARKER = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+")


def _holds(c: Chunk, sentence: str) -> bool:
    """The sentence is in the chunk; where a chunk holds several sections (tiny ones
    merged, markdown.tiny, or bullets merged forward across a heading) a list item is
    inlined after its heading ("Treatment: Doxycycline"), its marker dropped."""
    if sentence in c.text:
        return True
    inlined = "merged_sections" in c.flags or len(c.section_paths) > 1
    return inlined and _MARKER.sub("", sentence) in c.text


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(docs=st.lists(document(), min_size=1, max_size=4))
def test_run_keeps_every_sentence_and_unique_ids(docs: list[tuple[str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        src.mkdir()
        for k, (text, _) in enumerate(docs):
            (src / f"n{k}.md").write_text(text, encoding="utf-8")
        assert main(["run", str(src), "--out", str(out)]) == 0
        with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
            kept = [json.loads(line) for line in fh]
        flagged = json.loads((out / "qa" / "flagged.json").read_text(encoding="utf-8"))
        stage_file = out / "stages" / "markdown_chunks.jsonl"
        stage = [json.loads(x) for x in stage_file.read_text(encoding="utf-8").splitlines()]
        # the stage file holds every chunk with its final id: the kept ones as shipped, and
        # every omitted one is also in flagged.json with a reason
        by_id = {c["id"]: c for c in stage}
        assert all(by_id.get(c["id"]) == c for c in kept)
        omitted = [c for c in stage if c["omit"]]
        assert {c["id"] for c in omitted} <= {f["id"] for f in flagged if f["reason"]}
        others = omitted
        ids = [c["id"] for c in kept]
        assert len(ids) == len(set(ids)) and all(ids)
        assert all(c["text"].strip() and c["word_count"] > 0 for c in [*kept, *others])
        by_source: dict[str, str] = {}
        for c in [*kept, *others]:
            by_source[c["source"]] = by_source.get(c["source"], "") + "\n" + c["text"]
        for k, (_, expected) in enumerate(docs):
            joined = by_source.get(f"n{k}.md", "")
            for piece in expected:
                assert normalize_text(piece) in joined, (k, piece)
