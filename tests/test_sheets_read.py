import datetime as dt
from pathlib import Path

import openpyxl
import pytest
import python_calamine as pc

from notechunk.config import SheetsConfig
from notechunk.errors import InputError
from notechunk.sheets.read import check_container, display, read_workbook, sniff


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2023.0, "2023"),
        (-3.5, "-3.5"),
        (0.1 + 0.2, "0.3"),
        (dt.datetime(2024, 3, 1), "2024-03-01"),
        (dt.datetime(2024, 3, 1, 10, 30), "2024-03-01 10:30"),
        (dt.date(2024, 3, 1), "2024-03-01"),
        (True, "TRUE"),
        ("  x ", "x"),
    ],
    ids=str,
)
def test_display(value: object, shown: str) -> None:
    assert display(value) == shown


def _workbook(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws["B3"] = "Title across"
    ws.merge_cells("B3:D3")
    ws["B5"], ws["C5"], ws["D5"] = "Name", "Share", "When"
    ws["B6"], ws["C6"], ws["D6"] = "x", 0.42, dt.datetime(2024, 3, 1)
    ws["C6"].number_format = "0%"
    ws["B7"], ws["C7"], ws["D7"] = "merged", "=1+2", dt.datetime(2024, 3, 1, 10, 30)
    ws["B8"] = None
    ws.merge_cells("B7:B8")
    ws["C8"] = "=1/0"
    ws["D8"] = "later"
    hidden = wb.create_sheet("H")
    hidden.sheet_state = "hidden"
    hidden["A1"] = "secret"
    path = tmp_path / "w.xlsx"
    wb.save(path)
    return path


def test_real_row_numbers_percent_dates_merged_formulas(tmp_path: Path) -> None:
    path = _workbook(tmp_path)
    sheets = list(read_workbook(path, "w.xlsx", SheetsConfig()))
    assert [(s.name, s.visible) for s in sheets] == [("S", True), ("H", False)]
    rows = {r.number: r for r in sheets[0].rows if any(r.cells)}
    assert sorted(rows) == [3, 5, 6, 7, 8]  # leading empty rows keep their numbers
    assert rows[6].cells[1:] == ("42%", "2024-03-01")
    assert rows[7].cells[2] == "2024-03-01 10:30"
    assert "formula_without_value:C7" in rows[7].flags
    assert rows[8].cells[0] == "merged"  # vertical merge copied down


def test_calamine_iter_rows_pads_from_row_one(tmp_path: Path) -> None:
    # pins the python-calamine behaviour `_calamine_rows` relies on
    wb = openpyxl.Workbook()
    wb.active["C5"] = "a"
    wb.save(tmp_path / "p.xlsx")
    sheet = pc.CalamineWorkbook.from_path(str(tmp_path / "p.xlsx")).get_sheet_by_index(0)
    assert sheet.start == (4, 2)
    assert len(list(sheet.iter_rows())) == 5


def test_openpyxl_agrees_on_dates(tmp_path: Path) -> None:
    path = _workbook(tmp_path)
    ws = openpyxl.load_workbook(path)["S"]
    assert display(ws["D6"].value) == "2024-03-01"
    assert ws.merged_cells.ranges and "B7:B8" in {str(r) for r in ws.merged_cells.ranges}


@pytest.mark.parametrize(
    ("data", "sniffed"),
    [
        (b"", "empty"),
        (b"<html><body><table>", "html"),
        (b"<?xml version='1.0'?><Workbook>", "xml"),
        (b"a,b\n1,2\n", "text"),
        (b"PK\x03\x04rest", "zip"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "ole"),
    ],
    ids=str,
)
def test_sniff(tmp_path: Path, data: bytes, sniffed: str) -> None:
    p = tmp_path / "f.xlsx"
    p.write_bytes(data)
    assert sniff(p) == sniffed


def test_doctype_part_refused(tmp_path: Path) -> None:
    import zipfile

    p = tmp_path / "x.xlsx"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("xl/workbook.xml", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>')
    with pytest.raises(InputError, match="DOCTYPE"):
        check_container(p, "x.xlsx", SheetsConfig())


def test_member_count_limit(tmp_path: Path) -> None:
    import zipfile

    p = tmp_path / "many.xlsx"
    with zipfile.ZipFile(p, "w") as zf:
        for i in range(5):
            zf.writestr(f"m{i}.bin", b"x")
    with pytest.raises(InputError, match="members"):
        check_container(p, "many.xlsx", SheetsConfig(max_zip_members=3))
