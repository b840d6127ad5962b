"""Question files and the SQuAD / COVID-QA converters, on tiny hand-made inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from notechunk.errors import UsageError
from notechunk.evaluate.corpora import (
    convert_squad,
    escape_markdown_lines,
    load_corpus,
    load_questions,
    parse_questions,
    write_converted,
)

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


def test_written_questions_round_trip(tmp_path: Path) -> None:
    corpus_dir, qpath = write_converted(convert_squad(SQUAD, "squad"), tmp_path)
    docs = load_corpus(corpus_dir)
    assert [d.source for d in docs] == ["Indus_Valley.md"]
    qs = load_questions(qpath)
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


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        json.dumps({"question": "q"}),
        json.dumps({"question": "q", "answers": []}),
        json.dumps({"question": "", "answers": ["a"]}),
        json.dumps({"question": "q", "answers": ["a"], "source": 3}),
        json.dumps(["q"]),
    ],
    ids=["not-json", "no-answers", "empty-answers", "empty-question", "bad-source", "list"],
)
def test_bad_question_lines(line: str) -> None:
    with pytest.raises(UsageError):
        parse_questions([line])


def test_missing_corpus_is_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        load_corpus(tmp_path / "absent")
    with pytest.raises(UsageError):
        load_corpus(tmp_path)
