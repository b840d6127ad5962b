"""What an eval run leaves in OUT, and the paired comparisons asked for with `--compare`.

OUT/results.json: `{"meta", "rows", "comparisons", "notes"}`; OUT/per_question.jsonl:
one line per row with its per-question outcomes (first-hit rank, budget hit), so rows
of different runs on the same questions can be compared later; OUT/results.md and
OUT/results.html. Written atomically (`io.jsonio`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from notechunk.errors import UsageError
from notechunk.evaluate.paired import Paired, compare
from notechunk.evaluate.render import render_comparisons, render_html, render_markdown, render_table
from notechunk.evaluate.rows import EvalMeta, Measured
from notechunk.io.jsonio import dumps, write_json, write_text


def parse_compare(values: Sequence[str]) -> list[tuple[str, str]]:
    """`--compare A,B` (repeatable) as pairs of row names; checked before any work."""
    out: list[tuple[str, str]] = []
    for value in values:
        a, sep, b = value.partition(",")
        if not sep or not a.strip() or not b.strip() or "," in b:
            raise UsageError(f"--compare: expected A,B (two rows), got {value[:60]!r}")
        out.append((a.strip(), b.strip()))
    return out


def find_row(measured: Sequence[Measured], name: str) -> Measured:
    """A row by its number in the table, its STRATEGY@RETRIEVER label, or its strategy
    when that names one row."""
    if name.isdigit() and 1 <= int(name) <= len(measured):
        return measured[int(name) - 1]
    hits = [m for m in measured if name in (m.row.label, m.row.strategy)]
    if len(hits) != 1:
        why = "no row" if not hits else "several rows (add @RETRIEVER)"
        raise UsageError(f"--compare: {name[:60]!r} names {why}")
    return hits[0]


def comparisons(measured: Sequence[Measured], pairs: Sequence[tuple[str, str]]) -> list[Paired]:
    """recall@budget and MRR of each pair, paired on the same questions."""
    out: list[Paired] = []
    for a_name, b_name in pairs:
        a, b = find_row(measured, a_name), find_row(measured, b_name)
        la, lb = a.row.label, b.row.label
        hits_a = [float(h) for h in a.outcomes.budget_hit]
        hits_b = [float(h) for h in b.outcomes.budget_hit]
        out.append(compare(la, lb, "recall@budget", hits_a, hits_b))
        rr_a, rr_b = a.outcomes.reciprocal_ranks(), b.outcomes.reciprocal_ranks()
        out.append(compare(la, lb, "mrr", rr_a, rr_b))
    return out


def write_results(
    out: Path,
    meta: EvalMeta,
    measured: Sequence[Measured],
    pairs: Sequence[Paired],
    notes: Sequence[str],
) -> list[str]:
    """Write every report file; returns the lines the CLI prints on stdout (table,
    comparisons, where the files are; the notes go to stderr)."""
    rows = [m.row for m in measured]
    write_json(
        out / "results.json",
        {
            "meta": meta.to_json(),
            "rows": [r.to_json() for r in rows],
            "comparisons": [p.to_json() for p in pairs],
            "notes": list(notes),
        },
    )
    write_text(
        out / "per_question.jsonl",
        "".join(dumps(m.per_question_json()) + "\n" for m in measured),
    )
    write_text(out / "results.md", render_markdown(rows, meta, pairs, notes))
    write_text(out / "results.html", render_html(rows, meta, pairs, notes))
    lines = [render_table(rows, meta.ks)]
    if pairs:
        lines += ["", render_comparisons(pairs)]
    lines.append(f"wrote {out / 'results.json'}, per_question.jsonl, results.md, results.html")
    return lines
