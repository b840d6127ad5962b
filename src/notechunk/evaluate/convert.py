"""`eval-convert`: SQuAD-shaped JSON (SQuAD, COVID-QA) to a Markdown corpus + questions.

The converter is pure (`object -> ConvertedCorpus`) and checks the shape as it walks, so
a file that is JSON but not SQuAD (`{"data": [1]}`, `"paragraphs": "abc"`) is one
`UsageError` line naming where it went wrong; `write_converted` is the only writer.
Converted Markdown keeps the context text: lines that Markdown would read as headings,
thematic breaks or block quotes are escaped with a backslash, which the Markdown clean-up
removes again, so every answer string still occurs in the chunked text.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from notechunk.errors import UsageError
from notechunk.evaluate.questions import JsonValue, Question
from notechunk.io.jsonio import atomic_write_bytes, dumps
from notechunk.io.outdir import check_dir, check_file

SquadKind = Literal["covid", "squad"]
SquadLayout = Literal["paragraphs", "sections"]

# A line Markdown would not keep as plain paragraph text: ATX heading, setext underline or
# thematic break, block quote, or a fence opener.
_RISKY_LINE = re.compile(r"^( {0,3})(#|=+\s*$|-[-\s]*$|\*[*\s]*$|_[_\s]*$|>|```|~~~)")


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownDoc:
    """One converted document: `source` is its POSIX path in the written corpus."""

    source: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ConvertedCorpus:
    """What a converter produces: Markdown documents and the questions over them."""

    documents: tuple[MarkdownDoc, ...]
    questions: tuple[Question, ...]


def escape_markdown_lines(text: str) -> str:
    """Backslash-escape lines Markdown would turn into structure, so text stays text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(_RISKY_LINE.sub(r"\1\\\2", line) for line in lines)


def _slug(value: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", value).strip("._")
    return slug[:120] or "doc"


def _obj(value: JsonValue, where: str) -> dict[str, JsonValue]:
    if not isinstance(value, dict):
        raise UsageError(f"SQuAD JSON: {where} must be an object")
    return value


def _list(value: JsonValue, where: str) -> list[JsonValue]:
    if not isinstance(value, list):
        raise UsageError(f"SQuAD JSON: {where} must be a list")
    return value


def _scalar(value: JsonValue) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _answers(qa: dict[str, JsonValue], where: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for j, a in enumerate(_list(qa.get("answers", []), f"{where}.answers")):
        text = _obj(a, f"{where}.answers[{j}]").get("text", "")
        if isinstance(text, str) and text.strip():
            seen.setdefault(text.strip(), None)
    return tuple(seen)


def detect_kind(data: JsonValue) -> SquadKind:
    """`covid` when the first article has no title and its paragraphs carry document ids."""
    articles = _list(_obj(data, "the top level").get("data"), "`data`")
    if not articles:
        return "squad"
    first = _obj(articles[0], "data[0]")
    paragraphs = _list(first.get("paragraphs", []), "data[0].paragraphs")
    head = _obj(paragraphs[0], "data[0].paragraphs[0]") if paragraphs else {}
    return "covid" if "document_id" in head and "title" not in first else "squad"


def convert_squad(
    data: JsonValue, kind: SquadKind, layout: SquadLayout = "paragraphs"
) -> ConvertedCorpus:
    """Turn SQuAD-shaped JSON (`data[].paragraphs[].{context, qas}`) into Markdown + questions.

    `covid`: one file per article named by `document_id`, no heading (the articles have no
    titles), so each article is one section. `squad`: one file per article titled by its
    `title`; `layout="paragraphs"` writes its contexts as paragraphs of one section,
    `"sections"` gives each context its own `## <title> (<n>)` section. Questions without a
    non-empty answer (unanswerable) are dropped. Output order follows the input.
    """
    articles = _list(_obj(data, "the top level").get("data"), "`data`")
    docs: list[MarkdownDoc] = []
    questions: list[Question] = []
    used: set[str] = set()
    for i, raw in enumerate(articles):
        article = _obj(raw, f"data[{i}]")
        paragraphs = [
            _obj(p, f"data[{i}].paragraphs[{j}]")
            for j, p in enumerate(_list(article.get("paragraphs", []), f"data[{i}].paragraphs"))
        ]
        title: str | None = None
        if kind == "covid":
            ids = {_scalar(p.get("document_id")) for p in paragraphs} - {""}
            base = _slug(sorted(ids)[0]) if ids else f"doc{i:04d}"
        else:
            title = _scalar(article.get("title")) or f"article {i}"
            base = _slug(title)
        name, n = base, 2
        while name in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name)
        source = f"{name}.md"
        parts = [] if title is None else [f"# {title.replace('_', ' ')}"]
        for j, para in enumerate(paragraphs, start=1):
            where = f"data[{i}].paragraphs[{j - 1}]"
            if title is not None and layout == "sections":
                parts.append(f"## {title.replace('_', ' ')} ({j})")
            parts.append(escape_markdown_lines(_scalar(para.get("context")).strip()))
            for k, raw_qa in enumerate(_list(para.get("qas", []), f"{where}.qas")):
                qa = _obj(raw_qa, f"{where}.qas[{k}]")
                answers = _answers(qa, f"{where}.qas[{k}]")
                question = _scalar(qa.get("question")).strip()
                if not answers or not question or qa.get("is_impossible", False):
                    continue
                qid = _scalar(qa.get("id"))
                questions.append(
                    Question(question=question, answers=answers, source=source, id=qid)
                )
        docs.append(MarkdownDoc(source=source, text="\n\n".join(parts) + "\n"))
    return ConvertedCorpus(documents=tuple(docs), questions=tuple(questions))


def write_converted(corpus: ConvertedCorpus, out: Path) -> tuple[Path, Path]:
    """Write `out/corpus/<doc>.md` and `out/questions.jsonl`; returns both paths.

    The corpus folder is written whole beside the old one and swapped in, so a folder
    used before holds exactly these documents afterwards (never the old ones beside
    them); the questions file is written atomically. A link or a special file at either
    name is refused (`io.outdir`): nothing outside OUT is written or removed.
    """
    corpus_dir = out / "corpus"
    qpath = out / "questions.jsonl"
    had = check_dir(corpus_dir)
    check_file(qpath)
    fresh = out / f".corpus.new-{os.getpid()}"
    old = out / f".corpus.old-{os.getpid()}"
    for leftover in (fresh, old):
        if check_dir(leftover):
            shutil.rmtree(leftover)
    fresh.mkdir()
    for doc in corpus.documents:
        target = fresh / doc.source
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(doc.text, encoding="utf-8", newline="\n")
    if had:
        os.rename(corpus_dir, old)
    os.rename(fresh, corpus_dir)
    if had:
        shutil.rmtree(old, ignore_errors=True)
    atomic_write_bytes(
        qpath, b"".join((dumps(q.to_json()) + "\n").encode() for q in corpus.questions)
    )
    return corpus_dir, qpath
