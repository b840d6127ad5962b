"""The SQuAD / COVID-QA converter on tiny hand-made inputs, and JSON that is not SQuAD."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from notechunk.errors import UsageError
from notechunk.evaluate.convert import (
    convert_squad,
    detect_kind,
    escape_markdown_lines,
    write_converted,
)
from notechunk.evaluate.questions import load_questions

SQUAD: dict[str, Any] = {
    "version": "1.1",
    "data": [
        {
            "title": "Indus_Valley",
            "paragraphs": [
                {
                    "context": "Harappa was found in 1921.",
                    "qas": [
                        {
                            "id": "q1",
                            "question": "When was Harappa found?",
                            "answers": [{"text": "1921"}, {"text": "1921"}, {"text": "in 1921"}],
                        }
                    ],
                },
                {
                    "context": "# Not a heading\nMohenjo-daro is in Sindh.",
                    "qas": [
                        {"id": "q2", "question": "Where?", "answers": [{"text": "Sindh"}]},
                        {"id": "q3", "question": "Unanswerable?", "answers": []},
                    ],
                },
            ],
        }
    ],
}

COVID: dict[str, Any] = {
    "data": [
        {
            "paragraphs": [
                {
                    "document_id": 630,
                    "context": "Title line\n\nAbstract: MTCT is the main cause.",
                    "qas": [
                        {
                            "id": 262,
                            "question": "Main cause?",
                            "answers": [{"text": "MTCT is the main cause. ", "answer_start": 3}],
                            "is_impossible": False,
                        }
                    ],
                }
            ]
        }
    ]
}


def test_squad_paragraphs_layout() -> None:
    c = convert_squad(SQUAD, "squad")
    assert [d.source for d in c.documents] == ["Indus_Valley.md"]
    text = c.documents[0].text
    assert text.startswith("# Indus Valley\n\nHarappa was found in 1921.\n\n\\# Not a heading")
    assert [q.id for q in c.questions] == ["q1", "q2"]
    assert c.questions[0].answers == ("1921", "in 1921")
    assert all(q.source == "Indus_Valley.md" for q in c.questions)


def test_squad_sections_layout() -> None:
    text = convert_squad(SQUAD, "squad", "sections").documents[0].text
    assert "## Indus Valley (1)\n\nHarappa" in text
    assert "## Indus Valley (2)\n\n\\# Not a heading" in text


def test_covid_named_by_document_id_without_heading() -> None:
    c = convert_squad(COVID, "covid")
    assert c.documents[0].source == "630.md"
    assert c.documents[0].text == "Title line\n\nAbstract: MTCT is the main cause.\n"
    (q,) = c.questions
    assert q.answers == ("MTCT is the main cause.",) and q.id == "262"


def test_detect_kind() -> None:
    assert detect_kind(COVID) == "covid"
    assert detect_kind(SQUAD) == "squad"
    assert detect_kind({"data": []}) == "squad"


def test_written_questions_round_trip(tmp_path: Path) -> None:
    corpus_dir, qpath = write_converted(convert_squad(SQUAD, "squad"), tmp_path)
    assert sorted(p.name for p in corpus_dir.iterdir()) == ["Indus_Valley.md"]
    qs = load_questions(qpath).questions
    assert [(q.question, q.answers, q.source) for q in qs] == [
        ("When was Harappa found?", ("1921", "in 1921"), "Indus_Valley.md"),
        ("Where?", ("Sindh",), "Indus_Valley.md"),
    ]


@pytest.mark.parametrize(
    ("line", "escaped"),
    [
        ("# x", "\\# x"),
        ("---", "\\---"),
        ("===", "\\==="),
        ("> quote", "\\> quote"),
        ("```py", "\\```py"),
        ("plain # text", "plain # text"),
    ],
    ids=["atx", "setext-or-rule", "setext", "quote", "fence", "plain"],
)
def test_escape_markdown_lines(line: str, escaped: str) -> None:
    assert escape_markdown_lines(line) == escaped


def _broken(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    data = copy.deepcopy(SQUAD)
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ([1], "the top level"),
        ({"version": 1}, "`data`"),
        ({"data": [1]}, "data[0]"),
        (_broken(("data", 0, "paragraphs"), "abc"), "data[0].paragraphs"),
        (_broken(("data", 0, "paragraphs", 1), 5), "data[0].paragraphs[1]"),
        (_broken(("data", 0, "paragraphs", 0, "qas"), {"id": 1}), "data[0].paragraphs[0].qas"),
        (_broken(("data", 0, "paragraphs", 0, "qas", 0), "q"), "qas[0]"),
        (_broken(("data", 0, "paragraphs", 0, "qas", 0, "answers"), "x"), "answers"),
        (_broken(("data", 0, "paragraphs", 0, "qas", 0, "answers", 0), 7), "answers[0]"),
    ],
    ids=[
        "top-list",
        "no-data",
        "data-of-ints",
        "paragraphs-string",
        "paragraph-int",
        "qas-object",
        "qa-string",
        "answers-string",
        "answer-int",
    ],
)
def test_not_squad_is_one_usage_error(data: object, where: str) -> None:
    with pytest.raises(UsageError) as err:
        convert_squad(data, "squad")
    assert where in str(err.value) and "\n" not in str(err.value)
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        with pytest.raises(UsageError):
            convert_squad(data, "covid")
