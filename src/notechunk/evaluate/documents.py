"""The peers' view of a corpus: the same files `run` reads, as plain documents.

Discovery is the product's own (`discover.discover`), so peers and notechunk see the same
files, and each file is read by `perfile.plain_places`: a Markdown file is one document,
decoded as `run` decodes it; a spreadsheet gives one document per non-blank row below its
header, as `header: value` lines (`sheets.plain`: what LangChain's `CSVLoader` yields for
a row). What could not be read is a note, as it is an error for `run`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from notechunk.config import Config
from notechunk.discover import discover
from notechunk.errors import InputError
from notechunk.perfile import plain_places

DocKind = Literal["markdown", "row"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """One peer document: a whole Markdown file, or one spreadsheet row (`kind="row"`)."""

    source: str
    text: str
    kind: DocKind = "markdown"


@dataclass(frozen=True, slots=True, kw_only=True)
class Documents:
    documents: tuple[Document, ...]
    notes: tuple[str, ...] = ()


def load_documents(src: Path, cfg: Config, exclude: Iterable[Path] = ()) -> Documents:
    """Every file `run` would read under `src`, as peer documents, in discovery order."""
    found = discover(src, exclude=exclude)
    docs: list[Document] = []
    notes = [f"{e.source}: {e.reason}" for e in found.errors]
    for f in found.files:
        try:
            for place in plain_places(f, cfg):
                kind: DocKind = "markdown" if f.kind == "markdown" else "row"
                docs.append(Document(source=place.source, text=place.text, kind=kind))
                if place.note:
                    notes.append(f"{place.source}: {place.note}")
        except InputError as exc:
            notes.append(f"{f.rel}: {exc.reason}")  # the line `run` gives: said once
        except OSError as exc:
            notes.append(f"{f.rel}: cannot read file ({exc.strerror or exc})")
    return Documents(documents=tuple(docs), notes=tuple(notes))
