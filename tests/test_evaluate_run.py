"""End to end: a 3-document corpus with 4 questions whose metrics are known exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notechunk.evaluate.corpora import Question
from notechunk.evaluate.retrieve import BM25Retriever
from notechunk.evaluate.run import evaluate_units, main
from notechunk.evaluate.strategies import fixed_words

SHARED = Path(__file__).resolve().parents[2] / "shared"

DOCS = {
    "a.md": "The Ganga rises at Gangotri in the Himalaya and flows east.\n",
    "b.md": "The Rowlatt Act was passed in 1919. It allowed detention without trial.\n",
    "c.md": "Mandamus means we command. The court orders an official to act.\n",
}
QUESTIONS = [
    {"question": "Where does the Ganga rise?", "answers": ["Gangotri"]},
    {"question": "When was the Rowlatt Act passed?", "answers": ["1919"]},
    {"question": "Which writ means we command?", "answers": ["mandamus"]},
    # the words point at b.md, the answer is in a.md: rank 2 (a.md wins the zero-score tie)
    {"question": "Which law allowed detention without trial?", "answers": ["Gangotri"]},
]


def _write(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    qpath = tmp_path / "q.jsonl"
    qpath.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return corpus, qpath


def test_bm25_numbers_exact() -> None:
    from notechunk.evaluate.corpora import Document

    docs = [Document(source=k, text=v) for k, v in DOCS.items()]
    units = fixed_words(1000, 0).run(docs)
    qs = [Question(question=q["question"], answers=tuple(q["answers"])) for q in QUESTIONS]
    row = evaluate_units(units, qs, BM25Retriever(), ks=(1, 3), budget=1000)
    assert row["n_chunks"] == 3
    assert row["recall@1"] == 0.75
    assert row["recall@3"] == 1.0
    assert row["mrr"] == (1 + 1 + 1 + 0.5) / 4
    assert row["recall@budget"] == 1.0
    # a budget of 12 words reads b.md (12 words) only for the last question: a miss
    tight = evaluate_units(units, qs, BM25Retriever(), ks=(1,), budget=12)
    assert tight["recall@budget"] == 0.75


def _run(tmp_path: Path, out: str) -> Path:
    corpus, qpath = tmp_path / "corpus", tmp_path / "q.jsonl"
    if not corpus.exists():
        _write(tmp_path)
    code = main(
        [
            "eval",
            str(corpus),
            "--questions",
            str(qpath),
            "--out",
            str(tmp_path / out),
            "--k",
            "1,3",
            "--strategies",
            "nc:100/0.3/120,words:1000/0,chars:1000/0",
        ]
    )
    assert code == 0
    return tmp_path / out


def test_outputs_and_determinism(tmp_path: Path) -> None:
    first = _run(tmp_path, "o1")
    rows = json.loads((first / "results.json").read_text("utf-8"))
    assert [r["strategy"] for r in rows] == [
        "notechunk 100/0.3/120w",
        "fixed-words 1000/0",
        "fixed-chars 1000/0",
    ]
    for r in rows:
        assert {
            "strategy",
            "params",
            "n_chunks",
            "mean_words",
            "recall@1",
            "recall@3",
            "mrr",
        } <= set(r)
        assert r["recall@1"] == 0.75 and r["recall@budget"] == 1.0
    html = (first / "results.html").read_text("utf-8")
    assert "<svg" in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "| notechunk 100/0.3/120w |" in (first / "results.md").read_text("utf-8")
    second = _run(tmp_path, "o2")
    for name in ("results.json", "results.md", "results.html"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus, qpath = _write(tmp_path)
    args = ["eval", str(corpus), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--k", "0"]) == 2
    assert main([*args, "--strategies", "bogus"]) == 2
    assert "notechunk:" in capsys.readouterr().err


def test_convert_cli(tmp_path: Path) -> None:
    src = tmp_path / "s.json"
    data = {
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "Alpha beta.",
                        "qas": [{"id": "1", "question": "Which?", "answers": [{"text": "beta"}]}],
                    }
                ],
            }
        ]
    }
    src.write_text(json.dumps(data), encoding="utf-8")
    assert main(["eval-convert", "squad", str(src), "--out", str(tmp_path / "c")]) == 0
    assert (tmp_path / "c" / "corpus" / "T.md").read_text("utf-8") == "# T\n\nAlpha beta.\n"
    assert (tmp_path / "c" / "questions.jsonl").read_text("utf-8").count("\n") == 1


COVID = SHARED / "corpora" / "qa" / "covid-qa-200423.json"


@pytest.mark.corpus
@pytest.mark.skipif(not COVID.is_file(), reason="needs ../shared/corpora/qa")
def test_covid_fixed_chars_matches_the_anchor(tmp_path: Path) -> None:
    assert main(["eval-convert", "squad", str(COVID), "--out", str(tmp_path / "c")]) == 0
    qs = (tmp_path / "c" / "questions.jsonl").read_text("utf-8").splitlines()
    assert len(qs) == 1380
    assert len(list((tmp_path / "c" / "corpus").glob("*.md"))) == 98
    out = tmp_path / "o"
    args = ["eval", str(tmp_path / "c" / "corpus"), "--questions"]
    args += [str(tmp_path / "c" / "questions.jsonl"), "--out", str(out)]
    assert main([*args, "--strategies", "chars:1000/300"]) == 0
    (row,) = json.loads((out / "results.json").read_text("utf-8"))
    assert row["n_chunks"] == 3300
    assert abs(row["recall@5"] - 0.733) < 0.01
    assert abs(row["recall@budget"] - 0.756) < 0.01
