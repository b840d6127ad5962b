import csv
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notechunk.config import Config, SheetsConfig, Template, config_from_dict
from notechunk.errors import InputError
from notechunk.perfile import process_sheet
from notechunk.sheets import process_sheet_file, suggest_templates
from notechunk.sheets.isolate import run_isolated
from notechunk.sheets.runner import SheetFileResult, sheet_file_parts
from sheets_helpers import abort_now, sleep_long, write_xlsx

CFG = Config()


def conserved(res: SheetFileResult) -> bool:
    read = [r for r in res.reports if r.status == "read"]
    return (
        all(r.data_rows == r.chunks + r.discarded for r in read)
        and sum(r.chunks for r in read) == len(res.pieces)
        and sum(r.discarded for r in read) == len(res.discarded)
    )


def one_error(res: SheetFileResult) -> str:
    assert not res.pieces and len(res.errors) == 1 and res.errors[0].stage == "read"
    assert "\n" not in res.errors[0].reason
    return res.errors[0].reason


# ---------------------------------------------------------------- bad input never raises


def test_corrupt_zip(tmp_path: Path) -> None:
    good = write_xlsx(tmp_path / "g.xlsx", [["a", "b"], ["c", "d"]])
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    assert "corrupt" in one_error(process_sheet_file(bad, "bad.xlsx", CFG))


def test_random_bytes(tmp_path: Path) -> None:
    p = tmp_path / "r.xlsx"
    p.write_bytes(bytes(range(256)) * 4)
    assert "not a workbook" in one_error(process_sheet_file(p, "r.xlsx", CFG))


def test_ole_named_xlsx_is_password_protected(tmp_path: Path) -> None:
    p = tmp_path / "locked.xlsx"
    p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 1024)
    assert "password-protected" in one_error(process_sheet_file(p, "locked.xlsx", CFG))


@pytest.mark.parametrize("name", ["page.xlsx", "page.xls"])
def test_html_named_workbook(tmp_path: Path, name: str) -> None:
    p = tmp_path / name
    p.write_text("<!DOCTYPE html><html><body><table><tr><td>x</td></tr></table></body></html>")
    assert one_error(process_sheet_file(p, name, CFG)) == "not a workbook (looks like HTML)"


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "e.xlsx"
    p.write_bytes(b"")
    assert "empty file" in one_error(process_sheet_file(p, "e.xlsx", CFG))


def test_empty_sheet(tmp_path: Path) -> None:
    p = write_xlsx(tmp_path / "e.xlsx", [])
    res = process_sheet_file(p, "e.xlsx", CFG)
    assert not res.errors and not res.pieces
    assert [(r.sheet, r.status) for r in res.reports] == [("Sheet1", "empty")]


def test_zip_bomb_refused(tmp_path: Path) -> None:
    p = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(p, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/worksheets/sheet1.xml", b"<a>" + b"0" * 60_000_000 + b"</a>")
    assert p.stat().st_size < 200_000
    assert "zip bomb" in one_error(process_sheet_file(p, "bomb.xlsx", CFG))
    small = replace(CFG, sheets=SheetsConfig(max_unzipped_bytes=1000, max_zip_ratio=1e9))
    assert "max_unzipped_bytes" in one_error(process_sheet_file(p, "bomb.xlsx", small))


def test_formulas_without_cached_values_are_flagged(tmp_path: Path) -> None:
    p = write_xlsx(tmp_path / "f.xlsx", [["Item", "Price", "Note"], ["pen", "=2+3", "blue ink"]])
    res = process_sheet_file(p, "f.xlsx", CFG)
    (chunk,) = res.pieces
    assert chunk.flags == ("formula_without_value:B2",)
    assert chunk.text == "Item: pen. Note: blue ink."


def test_worker_death_is_reported() -> None:
    out = run_isolated(abort_now, (), CFG)
    assert isinstance(out, str) and "worker died (SIGABRT)" in out


def test_worker_timeout_is_reported() -> None:
    cfg = replace(CFG, sheets=SheetsConfig(worker_timeout_s=0.5))
    out = run_isolated(sleep_long, (), cfg)
    assert isinstance(out, str) and out.startswith("timeout")


# ---------------------------------------------------------------- sheets, rows, templates


def test_hidden_sheets_reported_and_optionally_read(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active.append(["Pass", "State"])
    wb.active.append(["Zoji La", "Ladakh"])
    h = wb.create_sheet("Hidden")
    h.sheet_state = "hidden"
    h.append(["Pass", "State"])
    h.append(["Khyber", "KPK"])
    p = tmp_path / "h.xlsx"
    wb.save(p)
    res = process_sheet_file(p, "h.xlsx", CFG)
    assert [r.status for r in res.reports] == ["read", "hidden_skipped"]
    assert len(res.pieces) == 1
    cfg = replace(CFG, sheets=SheetsConfig(include_hidden=True))
    assert len(process_sheet_file(p, "h.xlsx", cfg).pieces) == 2


def test_title_rows_real_row_numbers_and_discards(tmp_path: Path) -> None:
    rows: list[list[object]] = [
        [],
        ["Mountain passes of India"],
        [],
        ["Pass", "State", "Connects", "Altitude"],
        ["Khyber", "Khyber Pakhtunkhwa", "Pakistan and Afghanistan", "1070 m"],
        [],
        ["Chapter 1"],
        [1, 2, 3, 4],
        ["Zoji La", "Ladakh", "", "3528 m"],
        ["lonely"],
    ]
    p = write_xlsx(tmp_path / "passes.xlsx", rows)
    t = Template(
        name="passes",
        match="*passes*",
        text="The {Pass} pass is in {State}, connecting {Connects}, at {Altitude}.",
    )
    res = process_sheet_file(p, "geo/passes.xlsx", replace(CFG, templates=(t,)))
    (rep,) = res.reports
    assert (rep.header_row, rep.data_rows, rep.blank_rows) == (4, 6, 3)
    assert conserved(res)
    by_row = {c.row: c for c in res.pieces}
    assert by_row[5].template == "passes"
    assert by_row[5].text.startswith("The Khyber pass is in Khyber Pakhtunkhwa, connecting")
    assert by_row[9].template is None
    assert by_row[9].flags == ("template_fallback:passes:empty field Connects",)
    assert by_row[9].text == "Pass: Zoji La. State: Ladakh. Altitude: 3528 m."
    assert [(d.row, d.rule) for d in res.discarded] == [
        (2, "above_header"),
        (7, "structural"),
        (8, "mostly_numeric"),
        (10, "too_few_fields"),
    ]
    assert res.discarded[0].cells == (("Pass", "Mountain passes of India"),)
    assert res.discarded[2].cells[0] == ("Pass", "1")
    assert all(c.sheet == "Sheet1" for c in res.pieces)


def test_missing_column_fallback_flag(tmp_path: Path) -> None:
    p = write_xlsx(tmp_path / "passes.xlsx", [["Pass", "State"], ["Khyber", "KPK and more"]])
    t = Template(name="passes", match="*", text="{Pass} in {State} at {Altitude}.")
    (chunk,) = process_sheet_file(p, "passes.xlsx", replace(CFG, templates=(t,))).pieces
    assert chunk.flags == ("template_fallback:passes:missing column Altitude",)


def test_template_header_row_pins(tmp_path: Path) -> None:
    p = write_xlsx(tmp_path / "x.xlsx", [["A", "B"], ["Name", "Capital"], ["Kerala", "Tvm"]])
    t = Template(name="x", match="*", text="{Capital} is the capital of {Name}.", header_row=2)
    res = process_sheet_file(p, "x.xlsx", replace(CFG, templates=(t,)))
    assert res.reports[0].header_row == 2
    assert res.pieces[0].text == "Tvm is the capital of Kerala."


def test_headerless_csv(tmp_path: Path) -> None:
    p = tmp_path / "qa.csv"
    p.write_text(
        "What is the first criterion for a nutrient to be essential?,It must be indispensable\n"
        'Which three elements are primary macronutrients?,"Nitrogen, phosphorus, potassium"\n'
    )
    res = process_sheet_file(p, "qa.csv", CFG)
    assert res.reports[0].header_row is None and res.reports[0].data_rows == 2
    assert res.pieces[0].row == 1
    assert res.pieces[0].text == (
        "What is the first criterion for a nutrient to be essential? — It must be indispensable."
    )


def test_spreadsheet_fragments_kept_unless_configured(tmp_path: Path) -> None:
    p = write_xlsx(tmp_path / "f.xlsx", [["Pass", "State"], ["Khyber", "KPK"]])
    (chunk,) = process_sheet(p, "f.xlsx", CFG).chunks  # finished: labelled
    assert chunk.quality == "fragment" and not chunk.omit  # v2: a short row is a fact
    seed = config_from_dict({"quality": {"spreadsheet": {"omit_fragments": True}}})
    (chunk,) = process_sheet(p, "f.xlsx", seed).chunks
    assert chunk.quality == "fragment" and chunk.omit


def test_full_row_is_not_short_unless_configured(tmp_path: Path) -> None:
    """A row whose every column is filled is a whole record: not `short` by its word
    count (8-11 words); a row with a gap still is; `short_full_rows` restores the seed."""
    p = tmp_path / "people.csv"
    p.write_text(
        "Name,City,Job,Year,Team\n"
        "Ada Lovelace,London,analyst,1843,engines\n"
        "Alan Mathison Turing,Wilmslow Cheshire,mathematician,,\n"
    )
    full, gap = process_sheet(p, "people.csv", CFG).chunks
    assert 8 <= full.word_count < 12 and 8 <= gap.word_count < 12
    assert (full.quality, gap.quality) == ("ok", "short")
    seed = config_from_dict({"quality": {"spreadsheet": {"short_full_rows": True}}})
    assert [c.quality for c in process_sheet(p, "people.csv", seed).chunks] == ["short"] * 2


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_max_rows_truncation_is_an_error_and_not_conserved(tmp_path: Path, suffix: str) -> None:
    rows = [["Name", "Note"]] + [[f"n{i}", "x y"] for i in range(20)]
    if suffix == ".csv":
        p = tmp_path / "m.csv"
        p.write_text("".join(f"{a},{b}\n" for a, b in rows) + "\n")
    else:
        p = write_xlsx(tmp_path / "m.xlsx", rows)
    cfg = replace(CFG, sheets=SheetsConfig(max_rows=5))
    res = process_sheet_file(p, p.name, cfg)
    (rep,) = res.reports
    assert rep.status == "truncated" and "max_rows = 5" in rep.note
    assert (rep.chunks, rep.unread_rows, rep.data_rows) == (5, 15, 20)
    assert rep.data_rows != rep.chunks + rep.discarded  # so the QA says: not conserved
    (err,) = res.errors
    assert err.source == p.name and "\n" not in err.reason
    sheet = "Sheet1" if suffix == ".xlsx" else "m"
    assert f"sheet {sheet!r}" in err.reason and "from row 7" in err.reason
    assert "15 non-blank row(s)" in err.reason
    assert len(res.pieces) == 5


def test_xls_and_ods(tmp_path: Path) -> None:
    import xlwt
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    book = xlwt.Workbook()
    sh = book.add_sheet("Rivers")
    sh.write(2, 0, "River")
    sh.write(2, 1, "Length km")
    sh.write(3, 0, "Godavari")
    sh.write(3, 1, 1465)
    book.save(str(tmp_path / "r.xls"))
    res = process_sheet_file(tmp_path / "r.xls", "r.xls", CFG)
    assert [(c.row, c.text) for c in res.pieces] == [(4, "River: Godavari. Length km: 1465.")]

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Rivers")
    for values in (["River", "Mouth"], ["Narmada", "Gulf of Khambhat"]):
        tr = TableRow()
        for v in values:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=v))
            tr.addElement(cell)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    doc.save(str(tmp_path / "r.ods"))
    res = process_sheet_file(tmp_path / "r.ods", "r.ods", CFG)
    assert [(c.row, c.text) for c in res.pieces] == [
        (2, "River: Narmada. Mouth: Gulf of Khambhat.")
    ]


def test_suggest_templates_names_real_columns(tmp_path: Path) -> None:
    p = write_xlsx(tmp_path / "passes.xlsx", [["Passes"], ["Pass", "State"], ["Khyber", "KPK"]])
    out = suggest_templates(p, "geo/passes.xlsx", CFG)
    assert 'name = "passes"' in out and 'match = "*passes.xlsx"' in out
    assert "{Pass}" in out and "{State}" in out and "header_row = 2" in out
    import tomllib

    doc = tomllib.loads(out)
    from notechunk.config import config_from_dict

    cfg = config_from_dict(doc)
    res = process_sheet_file(p, "geo/passes.xlsx", cfg)
    assert res.pieces[0].template == "passes" and res.pieces[0].text == "Pass: Khyber. State: KPK."
    bad = tmp_path / "bad.xlsx"
    bad.write_text("<html>")
    with pytest.raises(InputError, match="not a workbook"):
        suggest_templates(bad, "bad.xlsx", CFG)


# ---------------------------------------------------------------- conservation property

cell = st.one_of(
    st.just(""),
    st.integers(-10_000, 10_000),
    st.sampled_from(["Chapter 1", "Total", "Khyber pass", "Ladakh", "#imp", "Unit II", "42%"]),
    st.text(alphabet="abc xyz", min_size=1, max_size=12),
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(cell, min_size=0, max_size=5), min_size=0, max_size=25))
def test_conservation_property(rows: list[list[object]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_xlsx(Path(tmp) / "g.xlsx", rows)
        res = process_sheet_file(path, "g.xlsx", CFG)
        assert not res.errors
        assert conserved(res)


@pytest.mark.slow
def test_100k_rows(tmp_path: Path) -> None:
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Big")
    ws.append(["Name", "State", "Note"])
    for i in range(100_000):
        ws.append([f"Place {i}", "Ladakh", f"note number {i} about a pass"])
    wb.save(tmp_path / "big.xlsx")
    res = process_sheet_file(tmp_path / "big.xlsx", "big.xlsx", CFG)
    assert res.reports[0].data_rows == 100_000 and len(res.pieces) == 100_000
    assert res.pieces[-1].row == 100_001


def test_cell_at_xfd1048576_kills_only_the_worker(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["XFD1048576"] = "a", "b", "x"
    wb.save(tmp_path / "xfd.xlsx")
    res = process_sheet_file(tmp_path / "xfd.xlsx", "xfd.xlsx", CFG)
    reason = one_error(res)
    assert reason.startswith("worker died") and "memory" in reason
    assert "panicked" not in capfd.readouterr().err


# ---------------------------------------------------------------- v2 and issue 13


def test_rows_above_the_header_are_discarded_with_a_reason(tmp_path: Path) -> None:
    p = write_xlsx(
        tmp_path / "t.xlsx",
        [["Passes of India"], ["compiled from NCERT, class 11"], [], ["Pass", "State"]]
        + [["Zoji La", "Ladakh"]],
    )
    res = process_sheet_file(p, "t.xlsx", CFG)
    (rep,) = res.reports
    assert (rep.header_row, rep.data_rows, rep.blank_rows, rep.chunks) == (4, 3, 1, 1)
    assert "2 row(s) above the header" in rep.note and conserved(res)
    assert [(d.row, d.rule, d.cells) for d in res.discarded] == [
        (1, "above_header", (("Pass", "Passes of India"),)),
        (2, "above_header", (("Pass", "compiled from NCERT, class 11"),)),
    ]


def test_the_sheet_title_row_joins_every_rows_context(tmp_path: Path) -> None:
    """SPEC v3: a one-cell row above the header is discarded as `above_header` and is the
    sheet's title in every row's context (file title > sheet > sheet title > group)."""
    p = write_xlsx(
        tmp_path / "passes.xlsx",
        [["Important Mountain Passes of India"], ["compiled from NCERT"], [], ["Pass", "State"]]
        + [["Zoji La", "Ladakh"], ["Nathu La", "Sikkim"]],
    )
    res = process_sheet(p, "passes.xlsx", CFG)
    assert [d.rule for d in res.discarded] == ["above_header", "above_header"]
    assert [c.section_path for c in res.chunks] == [("Important Mountain Passes of India",)] * 2
    first = res.chunks[0]
    assert first.embed_text.startswith("passes > Sheet1 > Important Mountain Passes of India\n")
    untitled = write_xlsx(tmp_path / "plain.xlsx", [["Pass", "State"], ["Zoji La", "Ladakh"]])
    assert [c.section_path for c in process_sheet(untitled, "plain.xlsx", CFG).chunks] == [()]


def test_sheet_title_is_the_first_one_cell_row_a_merged_cell_counted_once() -> None:
    from notechunk.sheets.model import SheetRow
    from notechunk.sheets.runner import sheet_title

    note = SheetRow(number=1, cells=("Source", "NCERT"))
    merged = SheetRow(number=2, cells=("Passes  of India", "Passes  of India", ""))
    assert sheet_title([note, merged]) == "Passes of India"
    census = SheetRow(number=1, cells=("table with row headers in column A",))
    title = SheetRow(number=2, cells=("Table 1. Resident Population",))
    assert sheet_title([census, title]) == "Table 1. Resident Population"
    assert sheet_title([note]) is None and sheet_title([]) is None


def test_a_repeated_page_header_is_discarded(tmp_path: Path) -> None:
    rows: list[list[object]] = [["REPORT"], ["Name", "Acres"], ["Acadia", 49075], ["Adams", 23]]
    rows += [["REPORT"], ["Name", "Acres"], ["Arches", 76679]]
    res = process_sheet_file(write_xlsx(tmp_path / "r.xlsx", rows), "r.xlsx", CFG)
    assert [(d.row, d.rule) for d in res.discarded] == [
        (1, "above_header"),
        (5, "repeated_header"),
        (6, "repeated_header"),
    ]
    assert [c.row for c in res.pieces] == [3, 4, 7] and conserved(res)


def test_merged_header_cells_cross_the_worker(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Area", "Estimates", None, None])
    ws.append(["Area", 2000, 2001, 2002])
    ws.append(["Kerala", 318, 319, 320])
    ws.append(["Goa", 13, 14, 15])
    ws.merge_cells("A1:A2")
    ws.merge_cells("B1:D1")
    wb.save(tmp_path / "m.xlsx")
    res = process_sheet_file(tmp_path / "m.xlsx", "m.xlsx", CFG)
    assert res.pieces[0].text == (
        "Area: Kerala. Estimates 2000: 318. Estimates 2001: 319. Estimates 2002: 320."
    )
    assert res.reports[0].note == "header rows 1-2 joined" and conserved(res)


def test_labelled_numeric_rows_are_kept_as_header_value_pairs(tmp_path: Path) -> None:
    rows = [
        ["State", "2011-12", "2012-13", "2013-14", "2014-15"],
        ["Kerala", 3.6, 4.1, 4.6, 5.2],
        ["", 1.1, 1.2, 1.3, 1.4],
    ]
    p = write_xlsx(tmp_path / "gdp.xlsx", rows)
    res = process_sheet_file(p, "gdp.xlsx", CFG)
    assert [c.text for c in res.pieces] == [
        "State: Kerala. 2011-12: 3.6. 2012-13: 4.1. 2013-14: 4.6. 2014-15: 5.2."
    ]
    assert [d.rule for d in res.discarded] == ["mostly_numeric"]
    seed = config_from_dict({"skip": {"mostly_numeric": "ratio"}})
    assert not process_sheet_file(p, "gdp.xlsx", seed).pieces


def test_long_cells_are_cut_and_flagged(tmp_path: Path) -> None:
    long = "word " * 40
    p = write_xlsx(tmp_path / "c.xlsx", [["Term", "Note"], ["lapse", long], [long]])
    cfg = replace(CFG, sheets=SheetsConfig(max_cell_chars=50))
    res = process_sheet_file(p, "c.xlsx", cfg)
    (chunk,) = res.pieces
    assert chunk.flags == ("cell_cut:B2:199",) and len(chunk.text) < 80
    (row,) = res.discarded
    assert row.explanation.endswith("(cell_cut:A3:199)")


def test_rows_before_a_workbook_limit_are_kept(tmp_path: Path) -> None:
    rows = [["Term", "Meaning"]] + [[f"t{i}", f"meaning {i}"] for i in range(50)]
    p = write_xlsx(tmp_path / "l.xlsx", rows)
    cfg = replace(CFG, sheets=SheetsConfig(max_cells=41))
    res = process_sheet_file(p, "l.xlsx", cfg)
    (err,) = res.errors
    assert "row 21: more than sheets.max_cells = 41" in err.reason
    assert [c.row for c in res.pieces] == list(range(2, 21))
    assert res.reports[0].status == "failed"


def test_group_survives_the_stage_file_round_trip(tmp_path: Path) -> None:
    from notechunk.chunk import Chunk

    p = tmp_path / "g.csv"
    p.write_text("River,Dam\nJhelum,\nUri,JK\n")
    (chunk,) = process_sheet(p, "g.csv", CFG).chunks  # finished
    assert chunk.group == "Jhelum" and chunk.embed_text.startswith("g > Jhelum\n")
    data = chunk.to_json()
    assert list(data).index("group") == list(data).index("row") + 1
    assert Chunk.from_json(data) == chunk


def test_a_row_of_only_mnemonics_and_tags_is_discarded_not_emptied(tmp_path: Path) -> None:
    p = tmp_path / "m.csv"
    p.write_text("Pass,Tip\nMnemonic: KBZ,#imp ★\nZoji La,Ladakh\n", encoding="utf-8")
    res = process_sheet(p, "m.csv", CFG)
    assert [c.row for c in res.chunks] == [3]
    (row,) = res.discarded
    assert row.rule == "empty_after_cleaning" and row.row == 2
    assert res.reports[0].data_rows == len(res.chunks) + len(res.discarded)


# ---------------------------------------------------------------- a sheet in parts


def write_csv(path: Path, rows: list[list[object]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.lists(cell, min_size=0, max_size=4), min_size=0, max_size=40),
    st.integers(1, 5),
)
def test_a_sheet_in_parts_is_the_sheet_whole(rows: list[list[object]], every: int) -> None:
    """Parts of about `every` row pieces, joined, are the whole result (a group header
    taken back at the end still reaches the pieces it had been given: they wait), and the
    discarded rows and reports come last."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_csv(Path(tmp) / "g.csv", [["Name", "Value", "Note"], *rows])
        whole = process_sheet_file(path, "g.csv", CFG)
        parts = list(sheet_file_parts(path, "g.csv", CFG, every))
    assert [p for part in parts for p in part.pieces] == whole.pieces
    assert parts[-1].discarded == whole.discarded and parts[-1].reports == whole.reports
    assert not any(part.discarded or part.reports or part.errors for part in parts[:-1])
    assert all(part.pieces for part in parts[:-1])


def test_a_long_sheet_leaves_in_blocks_and_a_doubtful_group_waits(tmp_path: Path) -> None:
    facts = [[f"Dam {k}", f"{k} m", f"built on river {k}"] for k in range(10)]
    rows = [["Dam", "Height", "Note"], *facts[:4], ["Jhelum River"], *facts[4:]]
    parts = list(sheet_file_parts(write_csv(tmp_path / "d.csv", rows), "d.csv", CFG, 2))
    # one group header in mid-sheet stays doubtful to the end: its rows wait, then lose it
    assert [len(p.pieces) for p in parts] == [2, 2, 6, 0]
    assert all(p.group is None for p in parts[2].pieces)
    rows = [["Dam", "Height", "Note"], ["Indus"], *facts[:4], ["Jhelum River"], *facts[4:]]
    parts = list(sheet_file_parts(write_csv(tmp_path / "e.csv", rows), "e.csv", CFG, 2))
    # a group first below the header is confirmed at once: its rows leave as they come
    assert [len(p.pieces) for p in parts] == [2, 2, 2, 2, 2, 0]
    assert [p.group for p in parts[2].pieces] == ["Jhelum River"] * 2
