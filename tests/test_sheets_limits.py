"""Expansion limits: a cell cut at max_cell_chars, a workbook stopped past its budget."""

import pytest

from notechunk.config import SheetsConfig
from notechunk.errors import InputError
from notechunk.sheets.limits import EXPANSION_FLOOR, Budget, col_letters, cut_cells


@pytest.mark.parametrize(
    ("i", "ref"), [(0, "A"), (25, "Z"), (26, "AA"), (701, "ZZ"), (16383, "XFD")]
)
def test_col_letters(i: int, ref: str) -> None:
    assert col_letters(i) == ref


def test_cut_cells_flags_each_cut_with_its_reference() -> None:
    cells = ("short", "x" * 50, "", "y" * 20)
    out, flags = cut_cells(cells, 7, 20)
    assert out == ("short", "x" * 20, "", "y" * 20)
    assert flags == ("cell_cut:B7:50",)
    same, none = cut_cells(("a", "b"), 1, 20)
    assert same == ("a", "b") and none == ()


def test_budget_counts_cells_and_characters() -> None:
    cells = Budget("f.xlsx", SheetsConfig(max_cells=5), file_size=10)
    cells.take(("a", "", "b"), "S", 1)
    with pytest.raises(InputError, match="sheet 'S' row 2: more than sheets.max_cells = 5"):
        cells.take(("c", "d", "e", "f"), "S", 2)
    chars = Budget("f.ods", SheetsConfig(max_expansion=10), file_size=840)
    chars.take(("x" * (EXPANSION_FLOOR - 1),), "T", 1)
    with pytest.raises(InputError, match=r"sheet 'T' row 2: .*sheets.max_expansion") as err:
        chars.take(("xx",), "T", 2)
    assert "840 bytes" in err.value.reason and "\n" not in err.value.reason


def test_budget_grows_with_the_file() -> None:
    big = Budget("f.xlsx", SheetsConfig(max_expansion=1000), file_size=10_000)
    big.take(("x" * 9_000_000,), "S", 1)  # 900x a 10 KB file: a workbook may be that dense
