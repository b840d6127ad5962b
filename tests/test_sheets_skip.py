import pytest

from notechunk.config import Config, config_from_dict
from notechunk.sheets.skip import group_label, is_label, is_numeric, skip_reason

CFG = Config()


@pytest.mark.parametrize(
    ("cells", "rule"),
    [
        (("Chapter 1", ""), "structural"),
        (("Unit II",), "structural"),
        (("Part A", "12"), "structural"),
        (("Total", "1200", "300"), "structural"),
        (("S.No.", ""), "structural"),
        (("1200", "34%", "₹ 5,000", "2024-03-01", "x"), "mostly_numeric"),
        (("12", "13"), "mostly_numeric"),
        (("Jhelum River", ""), "too_few_fields"),
        (("Khyber", "Pakistan"), None),
        (("Chapter 1", "The Indus valley"), None),
        (("Kerala", "12", "13", "14"), None),  # 75% < 80%
    ],
    ids=lambda v: repr(v),
)
def test_rules_and_precedence(cells: tuple[str, ...], rule: str | None) -> None:
    got = skip_reason(cells, CFG)
    assert (got.rule if got else None) == rule


def test_measured_and_threshold() -> None:
    got = skip_reason(("1", "2", "3", "4", "x"), CFG)
    assert got is not None and got.measured == 0.8 and got.threshold == 0.8
    one = skip_reason(("alone",), CFG)
    assert one is not None and one.measured == 1 and one.threshold == 2


@pytest.mark.parametrize("v", ["-3.5", "42%", "1,234", "$12", "₹ 5,000", "2011-12", "1.2e5"])
def test_numeric(v: str) -> None:
    assert is_numeric(v)


@pytest.mark.parametrize("v", ["Khyber", "NH 44", "", "K2 peak"])
def test_not_numeric(v: str) -> None:
    assert not is_numeric(v)


# ---------------------------------------------------------------- v2: labelled numeric rows

RATIO = config_from_dict({"skip": {"mostly_numeric": "ratio"}})


@pytest.mark.parametrize(
    ("cells", "label_mode", "ratio_mode"),
    [
        (("Andhra Pradesh", "3.79", "4.11", "4.64", "5.25"), None, "mostly_numeric"),
        (
            (".Under 5 years", "19176154", "19178293", "19298217", "19429192"),
            None,
            "mostly_numeric",
        ),
        (
            ("WW100511SC", "36.958", "-122.017", "2011-10-05T13:00:00Z", "15.1"),
            None,
            "mostly_numeric",
        ),
        (("1", "2", "3", "4"), "mostly_numeric", "mostly_numeric"),
        (("NA", "12", "13", "14", "15"), "mostly_numeric", "mostly_numeric"),
        (("-", "12", "13", "14", "15"), "mostly_numeric", "mostly_numeric"),
        (("Total", "12", "13"), "structural", "structural"),
    ],
    ids=lambda v: repr(v)[:40],
)
def test_numeric_row_with_a_label_is_kept(
    cells: tuple[str, ...], label_mode: str | None, ratio_mode: str
) -> None:
    got = skip_reason(cells, CFG)
    assert (got.rule if got else None) == label_mode
    seed = skip_reason(cells, RATIO)
    assert seed is not None and seed.rule == ratio_mode


def test_labelled_numeric_row_without_a_header_is_discarded() -> None:
    got = skip_reason(("Kerala", "12", "13", "14", "15"), CFG, has_header=False)
    assert got is not None and got.rule == "mostly_numeric"
    assert "no header row" in got.explanation
    unlabelled = skip_reason(("12", "13"), CFG)
    assert unlabelled is not None and "none is a text label" in unlabelled.explanation


@pytest.mark.parametrize(
    ("v", "label"),
    [
        ("Kerala", True),
        ("HAB_SCW", True),
        ("NA", False),
        ("n/a", False),
        ("-", False),
        ("12", False),
    ],
)
def test_is_label(v: str, label: bool) -> None:
    assert is_label(v) is label


@pytest.mark.parametrize(
    ("cells", "label"),
    [
        (("Jhelum River", "", ""), "Jhelum River"),
        (("JK",), "JK"),
        (("Unit II", ""), "Unit II"),
        (("Total", ""), None),  # structural, not a section
        (("", "Jhelum River"), None),  # not in the first column
        (("2019", ""), None),  # a number
        (("State Governments declare an area a National Park under the Act.", ""), None),
        (("one two three four five six seven eight nine ten eleven", ""), None),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_group_label(cells: tuple[str, ...], label: str | None) -> None:
    skip = skip_reason(cells, CFG)
    assert skip is not None
    assert group_label(cells, skip, 0) == label
