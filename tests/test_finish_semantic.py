"""semantic_type rules: one case per rule, precedence, and the docstring matches the data."""

from __future__ import annotations

import pytest

from chunks import make_chunk
from notechunk.finish import semantic
from notechunk.finish.semantic import RULES, TYPES, semantic_type
from notechunk.qa.artifacts import SemanticTally

CASES = [
    ("code", "```python\nprint(1)\n```", "markdown"),
    ("code", "Example:\n~~~\nls -la\n~~~", "markdown"),
    ("fact_row", "Pass: Zoji La. State: Ladakh.", "spreadsheet"),
    ("fact_row", "The Constitution was adopted in 1949.", "spreadsheet"),
    (
        "question",
        "What is a writ of habeas corpus?\nIt orders a detained person produced.",
        "markdown",
    ),
    ("question", "Q. Name the longest river.", "markdown"),
    ("list", "- Right to Equality\n- Right to Freedom\n- Right to Religion", "markdown"),
    ("list", "Writs:\n1. Habeas corpus\n2. Mandamus\n3. Certiorari", "markdown"),
    ("definition", "A writ is a formal written order issued by a court.", "markdown"),
    ("definition", "Federalism refers to a division of power between levels.", "markdown"),
    ("definition", "Secularism means the state has no official religion.", "markdown"),
    (
        "comparison",
        "Fundamental Rights are justiciable whereas Directive Principles are not.",
        "markdown",
    ),
    ("comparison", "The Lok Sabha has more members than the Rajya Sabha.", "markdown"),
    ("event", "On 26 January 1950 the Constitution came into force.", "markdown"),
    ("event", "The Battle of Plassey was fought in 1757 by Clive.", "markdown"),
    ("event", "Ashoka ruled in the 3rd century BC and spread Buddhism widely.", "markdown"),
    ("narrative", "Rivers of the north carry snow melt and silt down to the plains.", "markdown"),
    ("narrative", "", "markdown"),
]


@pytest.mark.parametrize(
    ("expected", "text", "source_type"), CASES, ids=[f"{c[0]}-{k}" for k, c in enumerate(CASES)]
)
def test_rules(expected: str, text: str, source_type: str) -> None:
    assert semantic_type(text, source_type) == expected  # type: ignore[arg-type]


def test_long_subject_is_not_a_definition() -> None:
    text = (
        "After many long years of debate in the assembly and outside it the final text "
        "is a compromise."
    )
    assert semantic_type(text, "markdown") != "definition"


def test_docstring_lists_every_rule_in_order() -> None:
    doc = semantic.__doc__ or ""
    positions = [doc.index(f"- `{name}`:") for name in TYPES]
    assert positions == sorted(positions)
    assert [r.name for r in RULES] + ["narrative"] == list(TYPES)


def test_summary_counts_and_examples() -> None:
    chunks = [
        make_chunk(text=f"- a{k}\n- b", source="x", source_type="markdown", id=str(k))
        for k in range(5)
    ]
    tally = SemanticTally()
    for c in chunks:
        tally.add(c)
    summary = tally.result()
    assert summary["counts"]["list"] == 5
    assert len(summary["examples"]["list"]) == 3
