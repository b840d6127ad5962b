"""Hand-built chunks and sheet records for the QA tests (the runners are built elsewhere)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notechunk.chunk import Chunk, DiscardedRow, FileError, Piece, Pieces, SheetReport
from notechunk.config import Config, config_from_dict
from notechunk.corpus import Corpus
from notechunk.corpus.dedupe import dedupe
from notechunk.finish import finish_file
from notechunk.qa.artifacts import stream_source_view, write_stream
from passes import measure

# the seed's spreadsheet rule, so the fixtures hold one omitted fragment to count
CFG = config_from_dict({"quality": {"spreadsheet": {"omit_fragments": True}}})


def finalize(
    out: Path,
    chunks: Sequence[Chunk],
    discarded: Sequence[DiscardedRow],
    reports: Sequence[SheetReport],
    errors: Sequence[FileError],
    cfg: Config,
) -> dict[str, Any]:
    """The corpus passes and every output file, as `run` does them after processing."""
    corpus = Corpus(
        chunks=tuple(dedupe(chunks, cfg.dedupe)),
        discarded=tuple(discarded),
        reports=tuple(reports),
        errors=tuple(errors),
    )
    corpus, metrics = measure(corpus, cfg)
    written = write_stream(
        out,
        corpus.chunks,
        surviving=sum(1 for c in corpus.chunks if not c.omit),
        discarded=corpus.discarded,
        reports=corpus.reports,
        errors=corpus.errors,
        cfg=cfg,
        glossary=corpus.glossary,
    )
    assert written == metrics  # counted as the chunks stream past == counted at once
    where = {c.id: c.source for c in corpus.chunks}
    stream_source_view(out, corpus.chunks, corpus, cfg, None, where)
    return metrics.to_json()


def md(
    text: str,
    source: str = "notes/polity.md",
    path: tuple[str, ...] = ("Polity",),
    lines: tuple[int, int] = (1, 3),
) -> Chunk:
    piece = Piece(text=text, section_path=path, lines=lines)
    (chunk,) = finish_file(Pieces(source=source, source_type="markdown", pieces=(piece,)), CFG)
    return chunk


def row(text: str, r: int, source: str = "sheets/passes.csv", sheet: str = "passes") -> Chunk:
    piece = Piece(text=text, sheet=sheet, row=r, template="passes")
    (chunk,) = finish_file(Pieces(source=source, source_type="spreadsheet", pieces=(piece,)), CFG)
    return chunk


LONG = " ".join(f"word{i}" for i in range(520))


def stage_chunks() -> list[Chunk]:
    return [
        md(
            "Fundamental Rights are the basic rights guaranteed by Part III of the Constitution "
            "of India to every citizen, enforceable in courts through writs.",
            path=("Polity", "Fundamental Rights"),
            lines=(3, 5),
        ),
        md(
            "The Constitution was adopted on 26 November 1949 and came into force on "
            "26 January 1950, which is celebrated as Republic Day across the country.",
            path=("Polity", "History"),
            lines=(7, 8),
        ),
        md(
            "- Right to Equality\n- Right to Freedom\n- Right against Exploitation\n"
            "- Cultural and Educational Rights",
            path=("Polity", "List"),
            lines=(10, 13),
        ),
        md(
            "Unlike the Directive Principles, Fundamental Rights are justiciable, whereas "
            "the principles are only guidelines for the state in making laws and policy.",
            path=("Polity", "DPSP"),
            lines=(15, 16),
        ),
        md(
            "See above for the list of writs and the courts that issue them in detail today.",
            lines=(18, 18),
        ),
        md("Article 32 is short.", lines=(20, 20)),
        md(
            '=HYPERLINK("http://x") the cell that looks like a formula but is a note, '
            "kept because it is long enough.",
            lines=(22, 22),
        ),
        md(LONG, source="notes/long.md", path=("Long",), lines=(1, 1)),
        md(
            "Fundamental Rights are the basic rights guaranteed by Part III of the Constitution "
            "of India to every citizen, enforceable in courts through writs.",
            source="copies/polity.md",  # same title and heading path: the same fact twice
            path=("Polity", "Fundamental Rights"),
            lines=(1, 2),
        ),
        md("```python\nprint('hello')\n```", source="notes/code.md", path=("Code",), lines=(1, 3)),
        row("The Zoji La pass is in Ladakh, connecting Srinagar and Leh, at 3528 m.", 2),
        row("The Nathu La pass is in Sikkim, connecting Sikkim and Tibet, at 4310 m.", 3),
        row("@SUM pass", 4),
    ]


def discarded() -> list[DiscardedRow]:
    return [
        DiscardedRow(
            source="sheets/passes.csv",
            sheet="passes",
            row=6,
            rule="mostly_numeric",
            cells=(("Pass", "12"), ("Altitude", "=1+2")),
            measured=1.0,
            threshold=0.8,
        ),
        DiscardedRow(
            source="sheets/passes.csv",
            sheet="passes",
            row=5,
            rule="structural",
            cells=(("Pass", "Total"),),
            measured="Total",
            threshold="structural text",
        ),
    ]


def sheet_reports() -> list[SheetReport]:
    return [
        SheetReport(
            source="sheets/passes.csv",
            sheet="passes",
            status="read",
            header_row=1,
            data_rows=5,
            blank_rows=1,
            chunks=3,
            discarded=2,
        )
    ]


def errors() -> list[FileError]:
    return [FileError(source="notes/bad.xlsx", stage="read", reason="not a workbook (BadZipFile)")]
