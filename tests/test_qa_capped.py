"""QA lists cut to `qa.max_file_bytes`: the most severe rows, a count of the rest, the full
list beside them; the report and its rebuild agree; `[output] stages = "gzip"`."""

from __future__ import annotations

import csv
import gzip
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import qa_fixtures as fx
from notechunk.chunk import DiscardedRow, SheetReport
from notechunk.cli import main
from notechunk.config import OutputConfig, QAConfig
from notechunk.data import SAMPLE_DIR
from notechunk.qa.contents import SEVERITY
from notechunk.qa.rebuild import build_report
from qa_fixtures import finalize

BUDGET = 10_000
WORDS = "the monsoon winds bring rain to the western ghats in june and july".split()


def notes() -> list[Any]:
    """Many flagged chunks of every label (short, fragment, too_long) and some fine ones."""
    out = []
    for k in range(60):
        n = (5, 20, 40, 520)[k % 4]  # fragment, short, ok, too_long (markdown bands)
        text = " ".join(f"{WORDS[(k + i) % len(WORDS)]}{k}" for i in range(n)) + "."
        out.append(fx.md(text, source=f"notes/n{k:02}.md", lines=(1, 2)))
    return out


def rows() -> list[DiscardedRow]:
    return [
        DiscardedRow(
            source="sheets/big.csv",
            sheet="big",
            row=k + 2,
            rule="too_few_fields",
            cells=tuple((f"C{i}", "v" if i <= k % 3 else "") for i in range(4)),
            measured=k % 3 + 1,
            threshold=2,
        )
        for k in range(200)
    ]


def reports() -> list[SheetReport]:
    return [
        SheetReport(
            source="sheets/big.csv",
            sheet="big",
            status="read",
            header_row=1,
            data_rows=200,
            blank_rows=0,
            chunks=0,
            discarded=200,
        )
    ]


def run(out: Path, budget: int) -> dict[str, Any]:
    cfg = replace(fx.CFG, qa=QAConfig(max_file_bytes=budget))
    return finalize(out, notes(), rows(), reports(), [], cfg)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def full(path: Path) -> list[Any]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_a_list_past_its_budget_is_cut_to_the_most_severe(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    metrics = run(whole, 10_000_000)
    assert run(cut, BUDGET) == metrics  # the counts never depend on the cut
    everything = load(whole / "qa" / "flagged.json")
    assert len(everything) == metrics["flagged"] and not (whole / "qa/flagged.jsonl.gz").exists()

    flagged_path = cut / "qa" / "flagged.json"
    assert flagged_path.stat().st_size <= BUDGET
    *listed, last = load(flagged_path)
    assert last["not_listed"] == metrics["flagged"] - len(listed) > 0
    assert last["full_list"] == "qa/flagged.jsonl.gz"
    severities = [SEVERITY[r["quality"]] for r in listed]
    assert severities == sorted(severities, reverse=True)  # the most severe first
    least_listed = min(severities)
    left_out = [r for r in everything if r["id"] not in {x["id"] for x in listed}]
    assert all(SEVERITY[r["quality"]] <= least_listed for r in left_out)
    assert full(cut / "qa" / "flagged.jsonl.gz") == everything  # the full list, in order

    table = list(csv.reader(io.StringIO((cut / "qa/flagged.csv").read_text("utf-8-sig"))))
    assert len(table) == 1 + len(listed) + 1  # header, the rows, the count of the rest
    assert table[-1][0].startswith(f"# {last['not_listed']} more rows")
    assert (cut / "qa/flagged.csv").stat().st_size <= BUDGET

    drows = cut / "qa" / "discarded_rows.json"
    assert drows.stat().st_size <= BUDGET
    *kept, tail = load(drows)
    assert len(kept) + tail["not_listed"] == 200
    filled = [sum(1 for v in r["cells"].values() if v) for r in kept]
    assert filled == sorted(filled, reverse=True)
    assert full(cut / "qa/discarded_rows.jsonl.gz") == load(whole / "qa/discarded_rows.json")
    assert (cut / "qa/discarded_rows.csv").stat().st_size <= BUDGET

    summary = (cut / "qa" / "summary.md").read_text(encoding="utf-8")
    assert "## Lists cut to size" in summary and "flagged.jsonl.gz" in summary
    assert "Lists cut" not in (whole / "qa" / "summary.md").read_text(encoding="utf-8")


def test_the_report_of_a_cut_list_is_rebuilt_alike(tmp_path: Path) -> None:
    run(tmp_path, BUDGET)
    first = (tmp_path / "report.html").read_bytes()
    (tmp_path / "report.html").unlink()
    build_report(tmp_path)
    assert (tmp_path / "report.html").read_bytes() == first


def test_cut_lists_are_byte_identical_run_to_run(tmp_path: Path) -> None:
    run(tmp_path / "a", BUDGET)
    run(tmp_path / "b", BUDGET)
    for name in ("flagged.json", "flagged.csv", "flagged.jsonl.gz", "discarded_rows.jsonl.gz"):
        assert (tmp_path / "a/qa" / name).read_bytes() == (tmp_path / "b/qa" / name).read_bytes()


def test_stages_gzip_holds_the_same_lines(tmp_path: Path) -> None:
    plain, lean = tmp_path / "plain", tmp_path / "lean"
    finalize(plain, fx.stage_chunks(), fx.discarded(), fx.sheet_reports(), fx.errors(), fx.CFG)
    cfg = replace(fx.CFG, output=OutputConfig(stages="gzip"))
    finalize(lean, fx.stage_chunks(), fx.discarded(), fx.sheet_reports(), fx.errors(), cfg)
    for name in ("markdown_chunks.jsonl", "excel_chunks.jsonl"):
        assert not (lean / "stages" / name).exists()
        packed = (lean / "stages" / f"{name}.gz").read_bytes()
        assert packed[4:8] == b"\0\0\0\0"  # no time in the gzip header: byte-stable
        assert gzip.decompress(packed) == (plain / "stages" / name).read_bytes()
    for name in ("chunks.jsonl.gz", "qa/flagged.json", "report.html"):
        assert (lean / name).read_bytes() == (plain / name).read_bytes()


def test_a_run_with_gzip_stages_rebuilds_its_report(tmp_path: Path) -> None:
    """The source view's links come from the stage files: compressed, they are still read."""
    cfg = tmp_path / "notechunk.toml"
    cfg.write_text('[output]\nstages = "gzip"\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(SAMPLE_DIR), "--out", str(out), "--config", str(cfg)]) in (0, 1)
    assert sorted(p.name for p in (out / "stages").iterdir()) == [
        "excel_chunks.jsonl.gz",
        "markdown_chunks.jsonl.gz",
    ]
    first = (out / "report.html").read_bytes()
    assert b"sources/" in first  # chunks linked to the source view
    assert main(["report", str(out)]) == 0
    assert (out / "report.html").read_bytes() == first
