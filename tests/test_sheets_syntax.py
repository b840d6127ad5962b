"""The template grammar: what parses, and each way a text is refused (with its column)."""

import pytest

from notechunk.config.syntax import (
    Segment,
    TemplateSyntaxError,
    fields_of,
    parse_template,
    template_problem,
)


def test_segments_fields_and_literals() -> None:
    segs = parse_template("The {Pass} pass[, at {Altitude}] {{x}} [[y]].")
    assert segs == (
        Segment(False, (("lit", "The "), ("field", "Pass"), ("lit", " pass"))),
        Segment(True, (("lit", ", at "), ("field", "Altitude"))),
        Segment(
            False,
            (("lit", " "), ("lit", "{"), ("lit", "x"), ("lit", "}"), ("lit", " "))
            + (("lit", "["), ("lit", "y"), ("lit", "]"), ("lit", ".")),
        ),
    )
    assert fields_of(segs) == ["Pass", "Altitude"]


def test_field_names_are_stripped_and_may_hold_brackets() -> None:
    assert fields_of(parse_template("{ Area [km2] } and [{B}]")) == ["Area [km2]", "B"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{{Pass}} literal", "no {Column} field"),
        ("plain text", "no {Column} field"),
        ("{}", "empty field {} at column 1"),
        ("x { }", "empty field {} at column 3"),
        ("The {Pass pass is in {State}.", "unbalanced '{' at column 5"),
        ("The {Pass", "unbalanced '{' at column 5"),
        ("{A}}", "unbalanced '}' at column 4"),
        ("{A} ]", "unbalanced ']' at column 5"),
        ("{A}[, {B}", "unclosed '[' at column 4"),
        ("{A}[ [{B}] ]", "optional segments do not nest ('[' at column 6)"),
        ("[{A}]", "every field is optional"),
        ("[{A}][ - {B}].", "every field is optional"),
    ],
)
def test_refused_with_the_problem(text: str, problem: str) -> None:
    with pytest.raises(TemplateSyntaxError) as err:
        parse_template(text)
    assert problem in str(err.value)
    assert template_problem(text) == str(err.value)


@pytest.mark.parametrize("text", ["Note: [{A}]", "{A}", "[{A}] {B}", "{A} {{literal}}"])
def test_accepted(text: str) -> None:
    assert template_problem(text) is None
