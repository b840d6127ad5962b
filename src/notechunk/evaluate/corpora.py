"""Eval inputs: a Markdown corpus folder, a question file, and SQuAD-format converters.

A question file is JSONL, one object a line: `question` (str), `answers` (list of strings a
correct chunk contains) and an optional `source` (the document's POSIX path in the corpus).
The converters are pure (`dict -> ConvertedCorpus`); `write_converted` is the only writer.
Converted Markdown keeps the context text: lines that Markdown would read as headings,
thematic breaks or block quotes are escaped with a backslash, which the Markdown clean-up
removes again, so every answer string still occurs in the chunked text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from notechunk.errors import UsageError

SquadKind = Literal["covid", "squad"]
SquadLayout = Literal["paragraphs", "sections"]

# A line Markdown would not keep as plain paragraph text: ATX heading, setext underline or
# thematic break, block quote, or a fence opener.
_RISKY_LINE = re.compile(r"^( {0,3})(#|=+\s*$|-[-\s]*$|\*[*\s]*$|_[_\s]*$|>|```|~~~)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """One eval question; a chunk is correct when its text contains one of `answers`."""

    question: str
    answers: tuple[str, ...]
    source: str | None = None
    id: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question, "answers": list(self.answers)}
        if self.source is not None:
            out["source"] = self.source
        if self.id:
            out["id"] = self.id
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """One corpus file: `source` is its POSIX path relative to the corpus root."""

    source: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ConvertedCorpus:
    """What a converter produces: Markdown documents and the questions over them."""

    documents: tuple[Document, ...]
    questions: tuple[Question, ...]


def load_corpus(root: Path) -> list[Document]:
    """Every `*.md` under `root` (recursively), sorted by relative path, read as UTF-8."""
    if not root.is_dir():
        raise UsageError(f"{root}: corpus folder not found")
    docs = [
        Document(source=p.relative_to(root).as_posix(), text=p.read_text("utf-8-sig"))
        for p in sorted(root.rglob("*.md"), key=lambda p: p.relative_to(root).as_posix())
        if p.is_file()
    ]
    if not docs:
        raise UsageError(f"{root}: no .md files in the corpus folder")
    return docs


def parse_questions(lines: Iterable[str], where: str = "questions") -> list[Question]:
    """Parse question JSONL; blank lines are skipped, anything malformed is a UsageError."""
    out: list[Question] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise UsageError(f"{where}:{n}: expected a JSON object")
        question, answers, source = obj.get("question"), obj.get("answers"), obj.get("source")
        if not isinstance(question, str) or not question.strip():
            raise UsageError(f"{where}:{n}: `question` must be a non-empty string")
        if (
            not isinstance(answers, list)
            or not answers
            or not all(isinstance(a, str) and a.strip() for a in answers)
        ):
            raise UsageError(f"{where}:{n}: `answers` must be a non-empty list of strings")
        if source is not None and not isinstance(source, str):
            raise UsageError(f"{where}:{n}: `source` must be a string")
        qid = obj.get("id", "")
        out.append(
            Question(
                question=question,
                answers=tuple(answers),
                source=source,
                id=str(qid) if qid is not None else "",
            )
        )
    return out


def load_questions(path: Path) -> list[Question]:
    """Read a question JSONL file (see `parse_questions`)."""
    try:
        text = path.read_text("utf-8-sig")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read questions ({exc.strerror or exc})") from None
    questions = parse_questions(text.splitlines(), where=str(path))
    if not questions:
        raise UsageError(f"{path}: no questions")
    return questions


def escape_markdown_lines(text: str) -> str:
    """Backslash-escape lines Markdown would turn into structure, so text stays text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(_RISKY_LINE.sub(r"\1\\\2", line) for line in lines)


def _slug(value: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", value).strip("._")
    return slug or "doc"


def _answers(qa: dict[str, Any]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for a in qa.get("answers", []):
        text = a.get("text", "") if isinstance(a, dict) else ""
        if isinstance(text, str) and text.strip():
            seen.setdefault(text.strip(), None)
    return tuple(seen)


def convert_squad(
    data: dict[str, Any], kind: SquadKind, layout: SquadLayout = "paragraphs"
) -> ConvertedCorpus:
    """Turn SQuAD-shaped JSON (`data[].paragraphs[].{context, qas}`) into Markdown + questions.

    `covid`: one file per article named by `document_id`, no heading (the articles have no
    titles), so each article is one section. `squad`: one file per article titled by its
    `title`; `layout="paragraphs"` writes its contexts as paragraphs of one section,
    `"sections"` gives each context its own `## <title> (<n>)` section. Questions without a
    non-empty answer (unanswerable) are dropped. Output order follows the input.
    """
    articles = data.get("data")
    if not isinstance(articles, list):
        raise UsageError("SQuAD JSON needs a top-level `data` list")
    docs: list[Document] = []
    questions: list[Question] = []
    used: set[str] = set()
    for i, article in enumerate(articles):
        paragraphs = article.get("paragraphs", [])
        if kind == "covid":
            ids = {str(p.get("document_id", "")) for p in paragraphs} - {""}
            base = _slug(sorted(ids)[0]) if ids else f"doc{i:04d}"
            title = None
        else:
            title = str(article.get("title", "")) or f"article {i}"
            base = _slug(title)
        name = base
        n = 2
        while name in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name)
        source = f"{name}.md"
        parts: list[str] = []
        if title is not None:
            parts.append(f"# {title.replace('_', ' ')}")
        for j, para in enumerate(paragraphs, start=1):
            context = escape_markdown_lines(str(para.get("context", "")).strip())
            if title is not None and layout == "sections":
                parts.append(f"## {title.replace('_', ' ')} ({j})")
            parts.append(context)
            for qa in para.get("qas", []):
                answers = _answers(qa)
                if not answers or qa.get("is_impossible", False):
                    continue
                questions.append(
                    Question(
                        question=str(qa.get("question", "")).strip(),
                        answers=answers,
                        source=source,
                        id=str(qa.get("id", "")),
                    )
                )
        docs.append(Document(source=source, text="\n\n".join(parts) + "\n"))
    return ConvertedCorpus(documents=tuple(docs), questions=tuple(questions))


def write_converted(corpus: ConvertedCorpus, out: Path) -> tuple[Path, Path]:
    """Write `out/corpus/<doc>.md` and `out/questions.jsonl`; returns both paths."""
    corpus_dir = out / "corpus"
    corpus_dir.mkdir(parents=True, exist_ok=True)
    for doc in corpus.documents:
        target = corpus_dir / doc.source
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(doc.text, encoding="utf-8", newline="\n")
    qpath = out / "questions.jsonl"
    with qpath.open("w", encoding="utf-8", newline="\n") as fh:
        for q in corpus.questions:
            fh.write(json.dumps(q.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
    return corpus_dir, qpath
