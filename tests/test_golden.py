"""Golden files: the whole output of `notechunk demo` on the bundled sample corpus.

Regenerate with `NOTECHUNK_REGEN_GOLDEN=1 pytest tests/test_golden.py` after an intended
change, and review the diff like code. CI refuses to run with the flag set.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from notechunk.cli import main

GOLDEN = Path(__file__).parent / "golden" / "sample"
REGEN = os.environ.get("NOTECHUNK_REGEN_GOLDEN") == "1"
FILES = (
    "chunks.jsonl",
    "stages/markdown_chunks.jsonl",
    "stages/excel_chunks.jsonl",
    "qa/errors.json",
    "qa/metrics.json",
    "qa/summary.md",
    "qa/flagged.json",
    "qa/flagged.csv",
    "qa/sample.jsonl",
    "qa/semantic_types.json",
    "qa/discarded_rows.json",
    "qa/discarded_rows.csv",
    "qa/enrichment.json",
    "qa/skipped_lines.json",
    "report.html",
    "sources/index.html",
    "sources/history-bhakti-movement.md-37ccf8eb.html",
    "sources/sheets-constitution_articles.csv-3242ad1c.html",
    "sources/viewer.js",
    "sources/viewer.css",
)


def test_regen_flag_is_off_in_ci() -> None:
    assert not (REGEN and os.environ.get("CI")), "NOTECHUNK_REGEN_GOLDEN is set in CI"


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    with gzip.open(out / "chunks.jsonl.gz", "rb") as fh:
        (out / "chunks.jsonl").write_bytes(fh.read())
    return out


@pytest.mark.parametrize("rel", FILES)
def test_sample_output_matches_golden(demo_out: Path, rel: str) -> None:
    got = (demo_out / rel).read_text(encoding="utf-8")
    golden = GOLDEN / rel
    if REGEN:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert golden.is_file(), f"{golden} missing: regenerate with NOTECHUNK_REGEN_GOLDEN=1"
    assert got == golden.read_text(encoding="utf-8"), f"{rel} differs from its golden file"
