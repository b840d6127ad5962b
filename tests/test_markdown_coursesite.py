"""Course-site admonitions (MkDocs-Material, Docusaurus, MyST) and icon shortcodes, from
each tool's documented syntax: the title (or type) is a label unit, the body Markdown."""

from __future__ import annotations

import pytest

from notechunk.markdown.clean import clean_inline
from notechunk.markdown.coursesite import colon_fences, mkdocs_admonitions, myst_directive
from notechunk.markdown.sections import parse_markdown_sections


def units(doc: str) -> list[tuple[tuple[str, ...], str, str]]:
    return [
        (s.path, u.kind, u.text) for s in parse_markdown_sections(doc).sections for u in s.units
    ]


MKDOCS = {
    "titled": (
        '!!! note "Phase rule"\n    The body is *Markdown*.\n',
        ["Phase rule", "The body is Markdown."],
    ),
    "type-only-collapsible": ("??? example\n    Worked case.\n", ["Example", "Worked case."]),
    "open-collapsible": ('???+ tip "Open"\n    Shown.\n', ["Open", "Shown."]),
    "empty-title-has-no-label": ('!!! warning ""\n    Only body.\n', ["Only body."]),
    "extra-classes": ('!!! info inline end "Side"\n    Aside.\n', ["Side", "Aside."]),
    "blank-line-body-is-not-code": (
        "!!! Abstract\n\n    First paragraph.\n\n    Second paragraph.\n",
        ["Abstract", "First paragraph.", "Second paragraph."],
    ),
}


@pytest.mark.parametrize(("doc", "expected"), MKDOCS.values(), ids=MKDOCS.keys())
def test_mkdocs_admonitions(doc: str, expected: list[str]) -> None:
    got = units("# Topic\n\n" + doc + "\nAfter.\n")
    assert [text for _, _, text in got] == [*expected, "After."]
    assert all(kind == "prose" for _, kind, _ in got)


def test_mkdocs_nested_and_fenced_code_in_body() -> None:
    doc = (
        "# T\n\n!!! example\n    Outer.\n\n    ```python\n    x = 1\n    ```\n\n"
        "    !!! tip\n        Inner.\n\nOut.\n"
    )
    assert units(doc) == [
        (("T",), "prose", "Example"),
        (("T",), "prose", "Outer."),
        (("T",), "code", "```python\nx = 1\n```"),
        (("T",), "prose", "Tip"),
        (("T",), "prose", "Inner."),
        (("T",), "prose", "Out."),
    ]


def test_mkdocs_rule_keeps_line_count_and_code() -> None:
    lines = ["!!! note", "    a", "", "    b", "c"]
    skip = bytearray(len(lines))
    labels = mkdocs_admonitions(lines, skip, bytearray(len(lines)))
    assert lines == ["", "a", "", "b", "c"]
    assert [(u.text, u.first_line) for u in labels] == [("Note", 1)]
    fenced = "```\n!!! note\n    code\n```\n"
    assert units(fenced) == [((), "code", "```\n!!! note\n    code\n```")]
    assert units("!!! not the syntax, just shouting\n") == [
        ((), "prose", "!!! not the syntax, just shouting")
    ]


DOCUSAURUS = {
    "type-and-title": (
        ":::tip Use the cache\nBody **here**.\n:::\n",
        ["Use the cache", "Body here."],
    ),
    "bracket-title": (":::danger[Careful]\nHot.\n:::\n", ["Careful", "Hot."]),
    "type-only": (":::note\nPlain.\n:::\n", ["Note", "Plain."]),
    "myst-colon-fence-with-options": (
        ":::{admonition} Sorting\n:class: dropdown\nStable sorts keep order.\n:::\n",
        ["Sorting", "Stable sorts keep order."],
    ),
    "nested-with-more-colons": (
        "::::info Outer\nA.\n:::warning\nB.\n:::\n::::\n",
        ["Outer", "A.", "Warning", "B."],
    ),
}


@pytest.mark.parametrize(("doc", "expected"), DOCUSAURUS.values(), ids=DOCUSAURUS.keys())
def test_colon_fence_admonitions(doc: str, expected: list[str]) -> None:
    got = units("# Topic\n\n" + doc + "\nAfter.\n")
    assert [text for _, _, text in got] == [*expected, "After."]


def test_colon_rule_leaves_a_stray_closer() -> None:
    lines = [":::", "text"]
    assert colon_fences(lines, bytearray(2), bytearray(2)) == [] and lines == [":::", "text"]


def test_syntax_shown_as_indented_code_stays_code() -> None:
    doc = 'Write it so:\n\n    !!! note "Title"\n        body\n\n    :::tip\n    x\n    :::\n'
    assert units(doc) == [
        ((), "prose", "Write it so:"),
        ((), "code", '```\n!!! note "Title"\n    body\n\n:::tip\nx\n:::\n```'),
    ]


def test_myst_admonition_directive_body_is_markdown() -> None:
    doc = "# T\n\n```{note} Remember\n:class: tip\nThe *body* is read.\n\n- a list\n```\n"
    assert units(doc) == [
        (("T",), "prose", "Remember"),
        (("T",), "prose", "The body is read."),
        (("T",), "prose", "- a list"),
    ]
    assert units("```{warning}\nHot.\n```\n") == [((), "prose", "Warning"), ((), "prose", "Hot.")]


def test_other_myst_directives_stay_code() -> None:
    assert (
        myst_directive(["```{code-cell} python", "print(1)", "```"], 0, 3, "{code-cell} python")
        is None
    )
    assert units("```{math}\nx^2\n```\n") == [((), "code", "```{math}\nx^2\n```")]


ICONS = {
    "material": ("Updated :material-clock-edit-outline: today", "Updated today"),
    "fontawesome": (":fontawesome-solid-download: Download", " Download"),
    "octicons": ("See :octicons-arrow-right-24: next", "See next"),
    "not-an-icon": ("ratio 1:2 and a:b-c: text", "ratio 1:2 and a:b-c: text"),
}


@pytest.mark.parametrize(("text", "expected"), ICONS.values(), ids=ICONS.keys())
def test_icon_shortcodes_go(text: str, expected: str) -> None:
    assert clean_inline(text) == expected
