import pytest

from notechunk.sheets.header import (
    build_header,
    column_names,
    find_header,
    given_header,
    is_unit,
    labels,
    widen,
)
from notechunk.sheets.model import SheetRow


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


# ---------------------------------------------------------------- v2: stacked headers


def names_of(*cells: tuple[str, ...], merged: dict[int, tuple[tuple[int, int], ...]] | None = None):
    rs = [
        SheetRow(number=i, cells=c, merged=(merged or {}).get(i, ()))
        for i, c in enumerate(cells, start=1)
    ]
    found = find_header(rs)
    head = build_header(rs, found, max(len(r.cells) for r in rs))
    return head


def test_rows_above_and_a_units_row_below_are_joined() -> None:
    """The Greenbook layout: FY 2016 over Park Base over FTE, a section row, figures."""
    head = names_of(
        ("PARK AND PROGRAM SUMMARY", "", "", "", "", ""),
        ("", "", "", "", "", ""),
        ("OPERATION OF THE", "FY 2016", "", "Fixed Costs", "", ""),
        ("ORGANIZATIONS", "Park Base", "FY 2017", "& Internal", "Program", "FY 2018"),
        ("", "FTE", "Baseline", "Transfers", "Changes", "Request"),
        ("Parks", "", "", "", "", ""),
        ("Acadia NP", "74", "8129", "119", "-564", "7684"),
        ("Adams NHP", "21", "2506", "32", "-174", "2364"),
    )
    assert head.row == 4 and head.rows == (3, 4, 5)
    assert head.names == (
        "OPERATION OF THE ORGANIZATIONS",
        "FY 2016 Park Base FTE",
        "FY 2017 Baseline",
        "Fixed Costs & Internal Transfers",
        "Program Changes",
        "FY 2018 Request",
    )


def test_units_row_goes_in_parentheses() -> None:
    head = names_of(
        ("Station", "latitude", "depth", "Chl1"),
        ("", "degrees_north", "m", "(mg/m3)"),
        ("HAB_SCW", "36.958", "", "5.27"),
        ("HAB_SCW", "36.958", "2", "3.52"),
    )
    assert head.rows == (1, 2)
    assert head.names == ("Station", "latitude (degrees_north)", "depth (m)", "Chl1 (mg/m3)")


def test_merged_header_cell_names_every_column_it_spans() -> None:
    """Census: "Geographic Area" merged down two rows, "Estimates" merged across years."""
    head = names_of(
        ("Table 1. Estimates", "", "", "", "", ""),
        ("Geographic Area", "Census", "Estimates", "", "", ""),
        ("Geographic Area", "Census", "2000", "2001", "2002", "2003"),
        ("Kerala", "318", "319", "320", "321", "322"),
        ("Goa", "13", "14", "15", "16", "17"),
        merged={1: ((0, 5),), 2: ((2, 5),)},
    )
    assert head.row == 3 and head.rows == (2, 3)
    assert head.names[:3] == ("Geographic Area", "Census", "Estimates 2000")
    assert head.names[-1] == "Estimates 2003"


def test_a_header_row_chosen_above_its_years_takes_them_in() -> None:
    """When the upper row qualifies as the header, the row of years under it is stacked."""
    head = names_of(
        ("Area", "Census", "Estimates", ""),
        ("Area", "Census", "2000", "2001"),
        ("Kerala", "318", "319", "320"),
        merged={1: ((2, 3),)},
    )
    assert head.rows == (1, 2)
    assert head.names == ("Area", "Census", "Estimates 2000", "Estimates 2001")


@pytest.mark.parametrize(
    "rows",
    [
        # an all-text table: the first data row is not a header part
        (("Word", "Meaning"), ("abate", "to lessen"), ("aberrant", "deviating")),
        # a first data row with a placeholder is data, not units
        (("State", "2011", "2012"), ("", "NA", "NA"), ("Kerala", "3.1", "3.3")),
        # a text row whose first column is filled is data
        (("Name", "Height"), ("Everest", "high"), ("K2", "8611")),
    ],
    ids=["all-text", "placeholder", "first-column-filled"],
)
def test_data_rows_are_not_stacked(rows: tuple[tuple[str, ...], ...]) -> None:
    head = names_of(*rows)
    assert head.rows == (1,)


def test_a_run_of_alike_rows_above_a_wide_header_is_not_stacked() -> None:
    rows = [("Term", "Meaning")] + [(f"t{i}", f"m{i}") for i in range(8)]
    rows += [("Name", "State", "River", "Length", "Basin")] * 2 + [("a", "b", "c", "1", "e")]
    head = names_of(*rows)
    assert head.row == 10 and head.rows == (10,)


def test_one_stray_wide_row_does_not_become_the_header() -> None:
    rows = [("Term", "Meaning")] + [(f"t{i}", f"m{i}") for i in range(8)]
    rows += [("a", "b", "c", "d", "e", "f")] + [(f"u{i}", f"n{i}") for i in range(4)]
    assert names_of(*rows).row == 1


def test_names_are_unique_even_against_existing_suffixes() -> None:
    header = SheetRow(number=1, cells=("Year", "Year (2)", "Year", "", "Column 4"))
    assert column_names(header, 5) == ["Year", "Year (2)", "Year (3)", "Column 4", "Column 4 (2)"]
    names, made_up = widen(("A", "Column 3"), frozenset(), 4)
    assert names == ("A", "Column 3", "Column 3 (2)", "Column 4")
    assert labels(names, made_up) == ("A", "Column 3", "", "")


def test_the_header_says_which_names_it_made_up() -> None:
    """A name the sheet wrote ("Column 2" included) labels its values; one made up for a
    blank header cell or a row wider than the header labels nothing."""
    head = [
        SheetRow(number=1, cells=("Term", "", "Column 2")),
        SheetRow(number=2, cells=("a", "b", "c")),
    ]
    header = build_header(head, head[0], 3)
    assert header.names == ("Term", "Column 2", "Column 2 (2)")
    assert labels(header.names, header.made_up) == ("Term", "", "Column 2 (2)")
    none = build_header(head, None, 2)
    assert labels(none.names, none.made_up) == ("", "")
    deck = given_header(("front", "back", "", "tags"))
    assert deck.names == ("front", "back", "Column 3", "tags")
    assert labels(deck.names, deck.made_up) == ("front", "back", "", "tags")


def test_pinned_header_is_not_stacked() -> None:
    rs = rows(("FY 2016", ""), ("Name", "Base"), ("", "FTE"), ("Acadia", "74"))
    head = build_header(rs, find_header(rs, pinned=2), 2, stack=False)
    assert head.rows == (2,) and head.names == ("Name", "Base")


@pytest.mark.parametrize(
    ("cell", "unit"),
    [
        ("(m)", True),
        ("mg/m3", True),
        ("degree_C", True),
        ("km", True),
        ("%", True),
        ("Crore", True),
        ("2001", False),
        ("2011-12", False),
        ("Baseline", False),
        ("Total FTE", False),
    ],
)
def test_is_unit(cell: str, unit: bool) -> None:
    assert is_unit(cell) is unit
