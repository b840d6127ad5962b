"""Eval questions: a JSONL file, one object a line, read with the project's one decoder.

Each line: `question` (str), `answers` (non-empty list of strings a correct chunk
contains), optional `source` (the document's POSIX path in the corpus) and `id`. The file
may be UTF-8, UTF-16/32 with a BOM, or cp1252 (`textio.decode_text`; the fallback is
reported). Anything malformed is a `UsageError` naming the file and line: never a
traceback, whatever the JSON holds (a 100k-deep nesting, a 5000-digit number).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from notechunk.errors import InputError, UsageError
from notechunk.textio import decode_text

JsonValue = object


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """One eval question; a chunk is correct when its text contains one of `answers`."""

    question: str
    answers: tuple[str, ...]
    source: str | None = None
    id: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"question": self.question, "answers": list(self.answers)}
        if self.source is not None:
            out["source"] = self.source
        if self.id:
            out["id"] = self.id
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestionFile:
    """The questions of one file and what a person should know about reading it."""

    questions: tuple[Question, ...]
    notes: tuple[str, ...] = ()


def loads(text: str, where: str) -> JsonValue:
    """`json.loads` whose every failure is one `UsageError` line.

    Beyond malformed JSON, Python's parser raises `RecursionError` on deep nesting and
    `ValueError` on an integer of more than 4300 digits; both are bad input here.
    """
    try:
        value: JsonValue = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise UsageError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. "Exceeds the limit (4300 digits) for integer string"
        raise UsageError(f"{where}: unusable JSON value ({str(exc).split(';')[0]})") from None
    return value


def read_text_arg(path: Path, what: str) -> tuple[str, tuple[str, ...]]:
    """A text file named on the command line, decoded like every input; notes say if it fell
    back to cp1252. Unreadable or binary: a `UsageError` (a bad argument, exit 2)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
    try:
        decoded = decode_text(data, str(path))
    except InputError as exc:
        raise UsageError(f"{path}: cannot read {what} ({exc.reason})") from None
    notes = (f"{path}: {what} decoded as cp1252 (not UTF-8)",) if decoded.fell_back else ()
    return decoded.text, notes


def parse_questions(lines: Iterable[str], where: str = "questions") -> list[Question]:
    """Parse question JSONL; blank lines are skipped, anything malformed is a UsageError."""
    out: list[Question] = []
    for n, line in enumerate(lines, start=1):
        if line.strip():
            out.append(_question(loads(line, f"{where}:{n}"), f"{where}:{n}"))
    return out


def _question(obj: JsonValue, where: str) -> Question:
    if not isinstance(obj, dict):
        raise UsageError(f"{where}: expected a JSON object")
    question, answers, source = obj.get("question"), obj.get("answers"), obj.get("source")
    if not isinstance(question, str) or not question.strip():
        raise UsageError(f"{where}: `question` must be a non-empty string")
    if (
        not isinstance(answers, list)
        or not answers
        or not all(isinstance(a, str) and a.strip() for a in answers)
    ):
        raise UsageError(f"{where}: `answers` must be a non-empty list of strings")
    if source is not None and not isinstance(source, str):
        raise UsageError(f"{where}: `source` must be a string")
    qid = obj.get("id")
    if qid is not None and not isinstance(qid, str | int):
        raise UsageError(f"{where}: `id` must be a string or an integer")
    return Question(
        question=question,
        answers=tuple(answers),
        source=source,
        id="" if qid is None else str(qid),
    )


def load_questions(path: Path) -> QuestionFile:
    """Read a question JSONL file (see `parse_questions`); an empty file is a UsageError."""
    text, notes = read_text_arg(path, "questions")
    questions = parse_questions(text.splitlines(), where=str(path))
    if not questions:
        raise UsageError(f"{path}: no questions")
    return QuestionFile(questions=tuple(questions), notes=notes)
