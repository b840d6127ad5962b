"""`notechunk eval` end to end: exact numbers on a tiny corpus, sheets counted and
answerable, deterministic reports, paired comparisons, and the COVID-QA anchor."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from conftest import SHARED
from notechunk.cli import main

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
TIMINGS = ("chunk_s", "retrieve_s", "wall_s")


def write_corpus(
    tmp_path: Path, questions: list[dict[str, object]] = QUESTIONS
) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    for name, text in DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    qpath = tmp_path / "q.jsonl"
    qpath.write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    return corpus, qpath


def run_eval(tmp_path: Path, out: str, *extra: str) -> dict[str, object]:
    corpus, qpath = tmp_path / "corpus", tmp_path / "q.jsonl"
    args = ["eval", str(corpus), "--questions", str(qpath), "--out", str(tmp_path / out)]
    assert main([*args, "--k", "1,3", *extra]) == 0
    results: dict[str, object] = json.loads((tmp_path / out / "results.json").read_text("utf-8"))
    return results


def rows_of(results: dict[str, object]) -> list[dict[str, object]]:
    rows = results["rows"]
    assert isinstance(rows, list)
    return rows


def test_exact_numbers_and_deterministic_outputs(tmp_path: Path) -> None:
    write_corpus(tmp_path)
    spec = "nc:100/0.3/120,words:1000/0,chars:1000/0"
    first = run_eval(tmp_path, "o1", "--strategies", spec)
    rows = rows_of(first)
    assert [(r["strategy"], r["retriever"]) for r in rows] == [
        ("notechunk 100/0.3/120w", "bm25"),
        ("fixed-words 1000/0", "bm25"),
        ("fixed-chars 1000/0", "bm25"),
    ]
    for r in rows:
        assert r["n_chunks"] == 3
        assert (r["recall@1"], r["recall@3"], r["recall@budget"]) == (0.75, 1.0, 1.0)
        assert r["mrr"] == (1 + 1 + 1 + 0.5) / 4
        assert all(isinstance(r[t], float) for t in TIMINGS)
    out = tmp_path / "o1"
    html = (out / "results.html").read_text("utf-8")
    assert "<svg" in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "| 1 | notechunk 100/0.3/120w | bm25 |" in (out / "results.md").read_text("utf-8")
    lines = (out / "per_question.jsonl").read_text("utf-8").splitlines()
    assert json.loads(lines[0])["first_hit"] == [1, 1, 1, 2]
    second = run_eval(tmp_path, "o2", "--strategies", spec)
    for a, b in zip(rows, rows_of(second), strict=True):
        assert {k: v for k, v in a.items() if k not in TIMINGS} == {
            k: v for k, v in b.items() if k not in TIMINGS
        }
    assert (out / "per_question.jsonl").read_bytes() == (
        tmp_path / "o2" / "per_question.jsonl"
    ).read_bytes()


def test_a_tight_budget_counts_words_of_the_text(tmp_path: Path) -> None:
    write_corpus(tmp_path)
    (row,) = rows_of(run_eval(tmp_path, "o", "--strategies", "words:1000/0", "--budget", "12"))
    # b.md (12 words) fills the budget for the last question: its answer is in a.md
    assert row["recall@budget"] == 0.75


def test_sheet_rows_are_chunks_and_answerable(tmp_path: Path) -> None:
    sheet_q = {"question": "At what altitude is the Shipki La pass?", "answers": ["5669 m"]}
    corpus, _ = write_corpus(tmp_path, [*QUESTIONS, sheet_q])
    with open(corpus / "passes.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["Pass", "State", "Altitude"])
        w.writerow(["Zoji La", "Ladakh", "3528 m"])
        w.writerow(["Shipki La", "Himachal Pradesh", "5669 m"])
    results = run_eval(tmp_path, "o", "--strategies", "nc,words:1000/0,langchain-headers:1000/200")
    meta = results["meta"]
    assert isinstance(meta, dict) and (meta["files"], meta["documents"], meta["rows"]) == (4, 5, 2)
    for r in rows_of(results):
        assert r["n_chunks"] == 5  # three notes + two rows
        assert r["recall@budget"] == 1.0
    per_q = [
        json.loads(x) for x in (tmp_path / "o" / "per_question.jsonl").read_text().splitlines()
    ]
    assert all(p["first_hit"][-1] == 1 for p in per_q)


def test_compare_two_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_corpus(tmp_path)
    spec = "nc,words:5/0"
    results = run_eval(tmp_path, "o", "--strategies", spec, "--compare", "1,fixed-words 5/0@bm25")
    comps = results["comparisons"]
    assert isinstance(comps, list) and [c["metric"] for c in comps] == ["recall@budget", "mrr"]
    assert comps[0]["a"] == "notechunk (config)@bm25" and comps[0]["n"] == 4
    md = (tmp_path / "o" / "results.md").read_text("utf-8")
    assert "## Paired comparisons (same questions)" in md and "sign test p" in md
    assert "sign test p" in capsys.readouterr().out


def test_compare_naming_no_row_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus, qpath = write_corpus(tmp_path)
    args = ["eval", str(corpus), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--strategies", "nc", "--compare", "1,nothing"]) == 2
    err = capsys.readouterr().err
    assert "--compare: 'nothing' names no row" in err and "Traceback" not in err


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
    (row,) = json.loads((out / "results.json").read_text("utf-8"))["rows"]
    assert row["n_chunks"] == 3300
    assert abs(row["recall@5"] - 0.733) < 0.01
    assert abs(row["recall@budget"] - 0.756) < 0.01


def test_bundled_sample_counts_its_sheet_rows(tmp_path: Path) -> None:
    from notechunk.config import resolve_config
    from notechunk.data import SAMPLE_DIR
    from notechunk.job import collect

    assert main(["eval", "--out", str(tmp_path / "o"), "--strategies", "nc,words:200/0"]) == 0
    results = json.loads((tmp_path / "o" / "results.json").read_text("utf-8"))
    chunks = collect(SAMPLE_DIR, resolve_config(SAMPLE_DIR, None)[0]).corpus.chunks
    sheet_rows = sum(c.source_type == "spreadsheet" and not c.omit for c in chunks)
    assert sheet_rows >= 20
    nc, words = results["rows"]
    assert nc["n_chunks"] == sum(not c.omit for c in chunks)
    assert results["meta"]["rows"] >= sheet_rows  # peers read every non-blank row
    assert nc["recall@budget"] == 1.0 and words["recall@budget"] > 0.9
