import pytest

from notechunk.config import Config
from notechunk.sheets.skip import is_numeric, skip_reason

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
