"""Question files: the JSONL shape, every encoding `run` reads, and hostile JSON lines."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from notechunk.errors import UsageError
from notechunk.evaluate.questions import load_questions, loads, parse_questions

LINE = {"question": "Where does the Ganga rise?", "answers": ["Gangotri"], "source": "a.md"}


def test_parses_fields_and_skips_blank_lines() -> None:
    lines = [json.dumps(LINE), "", "  ", json.dumps({**LINE, "id": 7, "source": None})]
    qs = parse_questions(lines)
    assert [(q.question, q.answers, q.source, q.id) for q in qs] == [
        ("Where does the Ganga rise?", ("Gangotri",), "a.md", ""),
        ("Where does the Ganga rise?", ("Gangotri",), None, "7"),
    ]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("not json", "not JSON"),
        (json.dumps({"question": "q"}), "`answers`"),
        (json.dumps({"question": "q", "answers": []}), "`answers`"),
        (json.dumps({"question": "q", "answers": [3]}), "`answers`"),
        (json.dumps({"question": "", "answers": ["a"]}), "`question`"),
        (json.dumps({"question": "q", "answers": ["a"], "source": 3}), "`source`"),
        (json.dumps({"question": "q", "answers": ["a"], "id": [1]}), "`id`"),
        (json.dumps(["q"]), "JSON object"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"question": "q", "answers": ["a"], "n": ' + "9" * 5000 + "}", "unusable JSON"),
    ],
    ids=[
        "not-json",
        "no-answers",
        "empty-answers",
        "number-answer",
        "empty-question",
        "bad-source",
        "bad-id",
        "list",
        "100k-nested",
        "5000-digit-number",
    ],
)
def test_bad_lines_are_one_usage_error(line: str, says: str) -> None:
    with pytest.raises(UsageError) as err:
        parse_questions(["", line], where="q.jsonl")
    message = str(err.value)
    assert message.startswith("q.jsonl:2: ") and says in message and "\n" not in message


def test_loads_names_the_place() -> None:
    with pytest.raises(UsageError, match="^here: not JSON"):
        loads("{", "here")


@pytest.mark.parametrize(
    ("encode", "fell_back"),
    [
        (lambda s: s.encode("utf-8"), False),
        (lambda s: codecs.BOM_UTF8 + s.encode("utf-8"), False),
        (lambda s: s.encode("utf-16"), False),  # with its BOM
        (lambda s: s.encode("cp1252"), True),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16", "cp1252"],
)
def test_question_file_encodings(tmp_path: Path, encode: object, fell_back: bool) -> None:
    text = json.dumps(
        {"question": "Qu’est-ce que la café?", "answers": ["café"]}, ensure_ascii=False
    )
    path = tmp_path / "q.jsonl"
    assert callable(encode)
    path.write_bytes(encode(text + "\n"))
    got = load_questions(path)
    assert got.questions[0].answers == ("café",)
    assert bool(got.notes) is fell_back
    if fell_back:
        assert "cp1252" in got.notes[0]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "no questions"),
        (json.dumps(LINE).encode("utf-16-le"), "binary"),  # UTF-16 without a BOM: NULs
    ],
    ids=["empty", "utf-16-no-bom"],
)
def test_unusable_question_files(tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "q.jsonl"
    path.write_bytes(data)
    with pytest.raises(UsageError, match=says):
        load_questions(path)


def test_missing_question_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read questions"):
        load_questions(tmp_path / "absent.jsonl")
