"""finalize: the files of SPEC §2 agree with each other and are byte-identical run to run."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

import qa_fixtures as fx
from notechunk.config import Config, QAConfig
from notechunk.qa.contents import neutralise_cell
from notechunk.qa.rebuild import build_report
from qa_fixtures import finalize

FILES = (
    "chunks.jsonl.gz",
    "report.html",
    "qa/metrics.json",
    "qa/summary.md",
    "qa/sample.jsonl",
    "qa/flagged.json",
    "qa/flagged.csv",
    "qa/semantic_types.json",
    "qa/discarded_rows.json",
    "qa/discarded_rows.csv",
    "qa/errors.json",
)


def run(out: Path, cfg: Config = fx.CFG) -> dict[str, Any]:
    return finalize(out, fx.stage_chunks(), fx.discarded(), fx.sheet_reports(), fx.errors(), cfg)


def hashes(out: Path) -> dict[str, str]:
    return {f: hashlib.sha256((out / f).read_bytes()).hexdigest() for f in FILES}


def load(out: Path, name: str) -> Any:
    return json.loads((out / "qa" / name).read_text(encoding="utf-8"))


def csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_every_file_is_written(tmp_path: Path) -> None:
    run(tmp_path)
    for f in FILES:
        assert (tmp_path / f).is_file(), f


def test_two_runs_are_byte_identical(tmp_path: Path) -> None:
    run(tmp_path / "a")
    run(tmp_path / "b")
    run(tmp_path / "a")  # rerun over existing output
    assert hashes(tmp_path / "a") == hashes(tmp_path / "b")


def test_counts_agree_across_files(tmp_path: Path) -> None:
    metrics = run(tmp_path)
    assert metrics == load(tmp_path, "metrics.json")
    lines = gzip.decompress((tmp_path / "chunks.jsonl.gz").read_bytes()).decode().splitlines()
    kept = [json.loads(line) for line in lines]
    assert metrics["total"] == len(kept) + metrics["omitted"] == len(fx.stage_chunks())
    assert metrics["surviving"] == len(kept)
    assert not any(c["omit"] for c in kept)
    flagged = load(tmp_path, "flagged.json")
    every = [*kept, *(f for f in flagged if f["omit"])]
    assert len(every) == metrics["total"]
    non_ok = [c for c in every if c["quality"] != "ok" or c["omit"]]
    assert len(flagged) == len(non_ok) == metrics["flagged"]
    assert sum(metrics["quality"].values()) == metrics["total"]
    assert len(csv_rows(tmp_path / "qa/flagged.csv")) == len(flagged)
    assert sum(b["count"] for b in metrics["word_count_histogram"]) == len(kept)
    assert sum(b["count"] for b in metrics["retrieval_score_histogram"]) == len(kept)
    discarded = load(tmp_path, "discarded_rows.json")
    assert len(discarded) == metrics["discarded_rows"] == len(fx.discarded())
    assert len(csv_rows(tmp_path / "qa/discarded_rows.csv")) == len(discarded)
    assert load(tmp_path, "errors.json") == [e.to_json() for e in fx.errors()]
    assert metrics["errors"] == 1
    assert metrics["sheets"]["conserved"] is True
    sem = load(tmp_path, "semantic_types.json")
    assert sum(sem["counts"].values()) == len(kept)


def test_chunk_fields_are_complete(tmp_path: Path) -> None:
    run(tmp_path)
    for line in gzip.decompress((tmp_path / "chunks.jsonl.gz").read_bytes()).splitlines():
        c = json.loads(line)
        assert c["id"] and c["semantic_type"]
        assert 0.0 <= c["retrieval_score"] <= 1.0


def test_flagged_has_reasons(tmp_path: Path) -> None:
    run(tmp_path)
    by_quality = {f["quality"]: f for f in load(tmp_path, "flagged.json")}
    assert by_quality["context_dead"]["reason"] == "context_dead: starts with 'see above': omitted"
    assert by_quality["too_long"]["reason"] == "too_long: 520 words > 500: kept"
    dup = next(f for f in load(tmp_path, "flagged.json") if f["duplicate_of"])
    assert dup["reason"].startswith("duplicate of ") and dup["omit"]


def test_gzip_header_has_no_time_or_name(tmp_path: Path) -> None:
    run(tmp_path)
    raw = (tmp_path / "chunks.jsonl.gz").read_bytes()
    assert raw[:2] == b"\x1f\x8b"
    assert raw[4:8] == b"\x00\x00\x00\x00"  # MTIME
    assert raw[3] & 0x08 == 0  # FNAME flag unset


def test_no_absolute_paths_or_clock(tmp_path: Path) -> None:
    run(tmp_path)
    for f in FILES[1:]:
        assert str(tmp_path) not in (tmp_path / f).read_text(encoding="utf-8-sig"), f


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("=1+2", "'=1+2"),
        ("+cmd", "'+cmd"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("\0x", "'\0x"),
        ("plain", "plain"),
        ("a=b", "a=b"),
        ("", ""),
        (None, ""),
        (3, "3"),
    ],
    ids=["eq", "plus", "minus", "at", "tab", "cr", "nul", "plain", "inner", "empty", "none", "int"],
)
def test_neutralise_cell(cell: object, expected: str) -> None:
    assert neutralise_cell(cell) == expected


def test_csv_files_are_neutralised(tmp_path: Path) -> None:
    run(tmp_path)
    for name in ("flagged.csv", "discarded_rows.csv"):
        rows = csv_rows(tmp_path / "qa" / name)
        for r in rows:
            for v in r.values():
                assert not v.startswith(("=", "+", "-", "@", "\t", "\r", "\0")), (name, v)
    texts = [r["text"] for r in csv_rows(tmp_path / "qa/flagged.csv")]
    assert "'@SUM pass" in texts
    cells = [r["cells"] for r in csv_rows(tmp_path / "qa/discarded_rows.csv")]
    assert "Pass: 12; Altitude: =1+2" in cells  # inner '=' is harmless


def test_discarded_rows_explain_themselves(tmp_path: Path) -> None:
    run(tmp_path)
    rows = load(tmp_path, "discarded_rows.json")
    assert [r["row"] for r in rows] == [5, 6]  # sorted by source, sheet, row
    numeric = rows[1]
    assert numeric["rule"] == "mostly_numeric"
    assert numeric["cells"] == {"Pass": "12", "Altitude": "=1+2"}
    assert numeric["columns"] == ["Pass", "Altitude"]
    assert (numeric["measured"], numeric["threshold"]) == (1.0, 0.8)


def test_sample_is_seeded(tmp_path: Path) -> None:
    small = Config(qa=QAConfig(sample_size=4, seed=7))
    run(tmp_path / "a", small)
    run(tmp_path / "b", small)
    a = (tmp_path / "a/qa/sample.jsonl").read_bytes()
    assert a == (tmp_path / "b/qa/sample.jsonl").read_bytes()
    assert len(a.splitlines()) == 4
    run(tmp_path / "c", Config(qa=QAConfig(sample_size=4, seed=8)))
    assert len((tmp_path / "c/qa/sample.jsonl").read_bytes().splitlines()) == 4
    run(tmp_path / "d", Config(qa=QAConfig(sample_size=1000)))
    assert len((tmp_path / "d/qa/sample.jsonl").read_bytes().splitlines()) == 10


def test_lowest_scores_listed(tmp_path: Path) -> None:
    metrics = run(tmp_path, Config(qa=QAConfig(lowest_scores_listed=3)))
    low = metrics["lowest_retrieval_scores"]
    assert len(low) == 3
    assert [r["retrieval_score"] for r in low] == sorted(r["retrieval_score"] for r in low)
    summary = (tmp_path / "qa/summary.md").read_text(encoding="utf-8")
    assert "## Lowest retrieval scores (3)" in summary
    assert all(r["id"] in summary for r in low)


def test_build_report_from_artifacts_alone(tmp_path: Path) -> None:
    run(tmp_path)
    first = (tmp_path / "report.html").read_bytes()
    (tmp_path / "report.html").unlink()
    assert build_report(tmp_path) == tmp_path / "report.html"
    assert (tmp_path / "report.html").read_bytes() == first
    html = first.decode()
    for remote in ('src="http', "src='http", 'href="http', "url(http", "@import", "<link"):
        assert remote not in html, remote
    assert "<svg" in html and 'id="flagged"' in html and 'id="discarded"' in html


def test_empty_run(tmp_path: Path) -> None:
    metrics = finalize(tmp_path, [], [], [], [], fx.CFG)
    assert metrics["total"] == 0 and metrics["retrieval_score_mean"] is None
    assert gzip.decompress((tmp_path / "chunks.jsonl.gz").read_bytes()) == b""
    assert load(tmp_path, "flagged.json") == []
