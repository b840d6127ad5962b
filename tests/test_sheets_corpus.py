"""Every sheet of ../shared/corpora/sheets and sheets-study: conserved, no row lost, no
fragment omitted by default (SPEC §1.2, §1.3 v2). Skipped when the corpora are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus
from notechunk.config import Config
from notechunk.perfile import process_sheet
from notechunk.sheets.read import SHEET_SUFFIXES, read_any

CFG = Config()


def _files(name: str) -> list[tuple[Path, str]]:
    root = corpus(name)
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in SHEET_SUFFIXES)
    assert files
    return [(p, p.relative_to(root).as_posix()) for p in files]


def _nonblank_rows(path: Path, rel: str) -> dict[str, set[int]]:
    """Per visible sheet, the numbers of its non-blank rows, read here independently."""
    out: dict[str, set[int]] = {}
    for sheet in read_any(path, rel, CFG.sheets):
        if sheet.visible:
            out[sheet.name] = {r.number for r in sheet.rows if any(r.cells)}
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["sheets", "sheets-study"])
def test_every_row_is_a_chunk_or_a_discarded_row(name: str) -> None:
    for path, rel in _files(name):
        res = process_sheet(path, rel, CFG)  # finished chunks: labelled
        assert not res.errors, (rel, res.errors)
        assert not [c for c in res.chunks if c.omit and c.quality == "fragment"], rel
        expected = _nonblank_rows(path, rel)
        for rep in res.reports:
            if rep.status in ("hidden_skipped", "empty"):
                continue
            assert rep.status == "read" and rep.unread_rows == 0, (rel, rep)
            assert rep.data_rows == rep.chunks + rep.discarded, (rel, rep)
            rows = [c.row for c in res.chunks if c.sheet == rep.sheet]
            rows += [d.row for d in res.discarded if d.sheet == rep.sheet]
            assert len(rows) == len(set(rows)) == rep.data_rows, (rel, rep.sheet)
            # what is neither a chunk nor a discarded row is the header: a few rows around it
            header = expected[rep.sheet] - set(rows)
            assert not set(rows) - expected[rep.sheet], (rel, rep.sheet)
            if rep.header_row is None:
                assert not header, (rel, rep.sheet, sorted(header))
            else:
                assert rep.header_row in header and len(header) <= 6, (rel, rep.sheet, header)
                assert max(header) - min(header) < len(header) + 3, (rel, rep.sheet, header)
