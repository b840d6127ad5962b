"""The committed sample sheets: regenerated identically and chunked as documented."""

import subprocess
import sys
from pathlib import Path

from notechunk.config import load_config
from notechunk.sheets import process_sheet_file

ROOT = Path(__file__).resolve().parents[1] / "examples" / "notes"


def test_make_sheets_is_deterministic(tmp_path: Path) -> None:
    before = {p.name: p.read_bytes() for p in (ROOT / "sheets").iterdir()}
    subprocess.run([sys.executable, str(ROOT.parent / "make_sheets.py")], check=True)
    after = {p.name: p.read_bytes() for p in (ROOT / "sheets").iterdir()}
    assert before == after


def test_examples_chunk_with_templates() -> None:
    cfg = load_config(ROOT / "notechunk.toml")
    passes = process_sheet_file(ROOT / "sheets" / "passes.xlsx", "sheets/passes.xlsx", cfg)
    texts = {c.row: c.text for c in passes.pieces}
    assert (
        texts[8]
        == "The Bomdi La pass is in Arunachal Pradesh, at 2600 m in the Eastern Himalaya range."
    )
    assert "#imp" not in texts[4] and "[PYQ" not in texts[5] and "★" not in texts[6]
    assert {c.group for c in passes.pieces} == {"Part A", "Part B"}  # the "Part" rows above
    rivers = process_sheet_file(ROOT / "sheets" / "rivers.xlsx", "sheets/rivers.xlsx", cfg)
    assert [r.status for r in rivers.reports] == ["read", "hidden_skipped"]
    assert "draining 9.8% of India's area" in rivers.pieces[0].text
    gdp = process_sheet_file(ROOT / "sheets" / "gdp.xlsx", "sheets/gdp.xlsx", cfg)
    assert gdp.reports[0].header_row == 3
    assert [d.rule for d in gdp.discarded] == ["above_header", "mostly_numeric", "structural"]
    assert "Growth: 13.5%" in gdp.pieces[0].text
