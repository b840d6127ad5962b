from notechunk.sheets.header import column_names, find_header
from notechunk.sheets.read import SheetRow


def rows(*cells: tuple[str, ...]) -> list[SheetRow]:
    return [SheetRow(number=i, cells=c) for i, c in enumerate(cells, start=1)]


def test_skips_title_and_blank_rows() -> None:
    rs = rows(
        ("GDP of states (₹ lakh crore)", "", ""),
        ("", "", ""),
        ("State", "2011-12", "Notes"),
        ("Bihar", "3.2", "fast"),
    )
    header = find_header(rs)
    assert header is not None and header.number == 3


def test_pinned_header_row() -> None:
    rs = rows(("a", "b"), ("c", "d"), ("e", "f"))
    header = find_header(rs, pinned=2)
    assert header is not None and header.number == 2


def test_headerless_question_answer() -> None:
    rs = rows(
        ("What is the first criterion of essentiality?", "It must be indispensable"),
        ("Which are macronutrients?", "N, P and K"),
    )
    assert find_header(rs) is None
    assert column_names(None, 2) == ["Column 1", "Column 2"]


def test_column_names_blank_and_duplicates() -> None:
    header = SheetRow(number=1, cells=("Name", "", "name"))
    assert column_names(header, 4) == ["Name", "Column 2", "name (2)", "Column 4"]


def test_numeric_header_rejected_for_text_row() -> None:
    rs = rows(
        ("1", "2", "3"), ("State", "Capital", "Area"), ("Kerala", "Thiruvananthapuram", "38863")
    )
    header = find_header(rs)
    assert header is not None and header.number == 2


def test_year_columns_make_a_header() -> None:
    rs = rows(
        ("Table 1. Estimates of the resident population", "", "", ""),
        ("Area", "April 1, 2000", "2001", "2002"),
        ("Kerala", "318", "319", "320"),
    )
    header = find_header(rs)
    assert header is not None and header.number == 2
