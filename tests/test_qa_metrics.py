"""compute_metrics: invariants over hand-built chunks."""

from __future__ import annotations

import qa_fixtures as fx
from chunks import make_chunk
from notechunk.chunk import SheetReport
from notechunk.config import DedupeConfig
from notechunk.corpus.dedupe import dedupe
from notechunk.qa.metrics import Metrics, location
from notechunk.qa.tally import MetricsTally, compute_metrics


def test_totals_and_labels() -> None:
    chunks = dedupe(fx.stage_chunks(), DedupeConfig())
    typed = compute_metrics(chunks, fx.discarded(), fx.sheet_reports(), fx.errors())
    m = typed.to_json()
    assert Metrics.from_json(m) == typed
    assert m["total"] == m["surviving"] + m["omitted"] == 13
    assert m["duplicates"] == 1
    assert m["omitted_by_reason"] == {"context_dead": 1, "duplicate": 1, "fragment": 1}
    assert m["quality"]["too_long"] == 1 and m["quality"]["context_dead"] == 1
    assert m["source_type"]["spreadsheet"] == {"total": 3, "surviving": 2, "omitted": 1}
    assert m["discarded_by_rule"] == {"mostly_numeric": 1, "structural": 1}
    assert m["errors"] == 1
    surviving = [c for c in chunks if not c.omit]
    avg = sum(c.word_count for c in surviving) / len(surviving)
    assert m["avg_words_surviving"] == round(avg, 4)
    assert sum(s["total"] for s in m["sources"].values()) == m["total"]
    assert m["retrieval_score_mean"] is None  # not scored yet: no scores to average


def test_histograms() -> None:
    tally = MetricsTally(5)
    for words, score in zip(
        [0, 7, 8, 14, 15, 29, 30, 499, 500, 10_000], [0.0, 0.05, 0.1, 0.99, 1.0] * 2, strict=True
    ):
        tally.add(make_chunk(text="x", word_count=words, retrieval_score=score))
    m = tally.result((), (), (), None)
    wh = m.word_count_histogram
    # bins 0-7, 8-11, 12-14, 15-29, 30-49, 50-99, 100-199, 200-299, 300-499, 500+
    assert [b.count for b in wh] == [2, 1, 1, 2, 1, 0, 0, 0, 1, 2]
    assert (wh[0].bin, wh[0].lo, wh[0].hi, wh[0].count) == ("0-7", 0, 8, 2)
    assert (wh[-1].bin, wh[-1].lo, wh[-1].hi, wh[-1].count) == ("500+", 500, None, 2)
    sh = m.retrieval_score_histogram
    assert [b.count for b in sh] == [4, 2, 0, 0, 0, 0, 0, 0, 0, 4]
    assert sh[-1].bin == "0.9-1.0"


def test_sheet_conservation_detects_loss() -> None:
    good = SheetReport(
        source="a.csv",
        sheet="s",
        status="read",
        header_row=1,
        data_rows=3,
        blank_rows=0,
        chunks=2,
        discarded=1,
    )
    bad = SheetReport(
        source="b.csv",
        sheet="s",
        status="read",
        header_row=1,
        data_rows=4,
        blank_rows=0,
        chunks=2,
        discarded=1,
    )
    hidden = SheetReport(
        source="c.xlsx",
        sheet="h",
        status="hidden_skipped",
        header_row=None,
        data_rows=9,
        blank_rows=0,
        chunks=0,
        discarded=0,
        note="hidden",
    )
    sheets = compute_metrics([], sheet_reports=[good, bad, hidden]).sheets
    assert sheets.conserved is False
    assert [b.source for b in sheets.not_conserved] == ["b.csv"]
    assert sheets.by_status == {"hidden_skipped": 1, "read": 2}
    assert sheets.data_rows == 7


def test_metrics_from_json_refuses_a_wrong_shape() -> None:
    import pytest

    with pytest.raises(ValueError, match="metrics.json"):
        Metrics.from_json([1, 2])
    with pytest.raises(ValueError, match="metrics.json"):
        Metrics.from_json({"total": "many"})


def test_location() -> None:
    assert location(fx.md("x", lines=(3, 9))) == "notes/polity.md:3-9"
    assert location(fx.row("x", 4)) == "sheets/passes.csv [passes] row 4"
