"""render_report: the HTML text of OUT/report.html from a run's metrics and QA rows.

One self-contained page: inline CSS, inline JS, inline SVG charts (`widgets`); no remote
asset, no clock, no absolute path, so the same artifacts give the same bytes. Tables with
a text box and a select filter their rows in the browser; the script marks
`<body data-filters-ready="N">` when it has wired N tables, and applies a filter given in
the URL fragment (`#flagged=fragment`), which is how the browser test checks it runs.
Written by `artifacts` after a run, and again from the qa/ files by `rebuild`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from notechunk.chunk import QUALITY_LABELS
from notechunk.qa.metrics import Metrics
from notechunk.qa.widgets import BASE_CSS, QUALITY_COLORS, Link, bar_chart, filter_table, script, td


def render_report(
    metrics: Metrics,
    flagged: Sequence[dict[str, Any]],
    discarded: Sequence[dict[str, Any]],
    errors: Sequence[dict[str, Any]],
    semantic: dict[str, Any],
    sources: Mapping[str, str] | None = None,
    flagged_total: int | None = None,
    enrichment: dict[str, Any] | None = None,
    accounts: Sequence[dict[str, Any]] = (),
) -> str:
    """The HTML text of report.html (pure: same inputs, same string). `flagged` may be
    the first `MAX_TABLE_ROWS` rows only, with `flagged_total` the full count.

    `sources` maps chunk ids to their source files: when given, the flagged and lowest
    score tables link each chunk to its place in the source view (OUT/sources/).
    """
    from notechunk.qa.sources import INDEX, SOURCES_DIR, chunk_href, page_name

    def where(chunk_id: str, text: str) -> object:
        if sources is None or chunk_id not in sources:
            return text
        return Link(text, chunk_href(sources[chunk_id], chunk_id, f"{SOURCES_DIR}/"))

    m = metrics
    n_flagged = len(flagged) if flagged_total is None else flagged_total
    cards = [
        ("chunks", m.total),
        ("surviving", m.surviving),
        ("omitted", m.omitted),
        ("duplicates", m.duplicates),
        ("flagged", m.flagged),
        ("avg words", _one_decimal(m.avg_words_surviving)),
        ("mean retrieval", m.retrieval_score_mean),
        ("discarded rows", m.discarded_rows),
        ("errors", m.errors),
    ]
    card_html = "".join(
        f'<div class="card"><b>{escape("-" if v is None else str(v))}</b>'
        f"<span>{escape(k)}</span></div>"
        for k, v in cards
    )
    quality = {q: m.quality[q] for q in QUALITY_LABELS if q in m.quality}
    wh = m.word_count_histogram
    rh = m.retrieval_score_histogram
    raw_sem = semantic.get("counts", {})
    order = [r["name"] for r in semantic.get("rules", [])] or sorted(raw_sem)
    sem = {t: raw_sem[t] for t in order if t in raw_sem}
    charts = "".join(
        [
            bar_chart(
                list(quality),
                list(quality.values()),
                title="Quality labels (all chunks)",
                colors=[QUALITY_COLORS.get(q, "#4a78b5") for q in quality],
            ),
            bar_chart(
                [b.bin for b in wh],
                [b.count for b in wh],
                title="Words per surviving chunk",
            ),
            bar_chart(
                [b.bin for b in rh],
                [b.count for b in rh],
                title="Retrieval score (surviving chunks)",
            ),
            bar_chart(list(sem), list(sem.values()), title="Semantic types (surviving)"),
        ]
    )
    src_rows = "".join(
        "<tr>"
        + td(Link(src, f"{SOURCES_DIR}/{page_name(src)}") if sources is not None else src)
        + td(v.source_type)
        + "".join(td(x, "num") for x in (v.total, v.surviving, v.omitted, v.flagged))
        + td(_one_decimal(v.avg_words), "num")
        + td(v.mean_retrieval_score, "num")
        + "</tr>"
        for src, v in m.sources.items()
    )
    src_table = (
        '<div class="scroll"><table><thead><tr><th>source</th><th>type</th><th>total</th>'
        "<th>surviving</th><th>omitted</th><th>flagged</th><th>avg words</th>"
        f"<th>mean retrieval</th></tr></thead><tbody>{src_rows}</tbody></table></div>"
    )
    sh = m.sheets
    sheet_line = (
        f"<p>{sh.sheets} sheet(s): {sh.data_rows} data rows = "
        f"{sh.chunks} chunks + {sh.discarded} discarded "
        f"({sh.blank_rows} blank rows counted). "
        + ("Conserved." if sh.conserved else '<span class="bad">NOT conserved.</span>')
        + "</p>"
    )
    low = m.lowest_retrieval_scores
    low_rows = "".join(
        "<tr>"
        + td(r.retrieval_score, "num")
        + td(r.id)
        + td(where(r.id, r.location))
        + td(r.semantic_type)
        + td(r.text, "text")
        + "</tr>"
        for r in low
    )
    low_table = (
        "<table><thead><tr><th>score</th><th>id</th><th>where</th><th>type</th><th>text</th>"
        f"</tr></thead><tbody>{low_rows}</tbody></table>"
    )
    flagged_table = filter_table(
        "flagged",
        ["quality", "omit", "where", "reason", "words", "text"],
        [
            (
                f["quality"],
                f["omit"],
                where(f["id"], f["location"]),
                f["reason"],
                f["word_count"],
                f["text"],
            )
            for f in flagged
        ],
        select_col=0,
        select_label="labels",
        text_cols=(5,),
        num_cols=(4,),
        total=n_flagged,
    )
    discarded_table = filter_table(
        "discarded",
        ["rule", "file", "sheet", "row", "measured", "threshold", "cells"],
        [
            (
                d["rule"],
                d["source"],
                d["sheet"],
                d["row"],
                d["measured"],
                d["threshold"],
                "; ".join(f"{h}: {d['cells'].get(h, '')}" for h in d.get("columns", d["cells"])),
            )
            for d in discarded
        ],
        select_col=0,
        select_label="rules",
        text_cols=(6,),
        num_cols=(3,),
    )
    errors_table = filter_table(
        "errors",
        ["stage", "source", "reason"],
        [(e["stage"], e["source"], e["reason"]) for e in errors],
        select_col=0,
        select_label="stages",
        text_cols=(2,),
    )
    view_line = (
        f"<p>Every chunk in its file, with its boundaries, label, flags and what was omitted: "
        f'<a href="{SOURCES_DIR}/{INDEX}">the source view</a>.</p>'
        if sources is not None
        else ""
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>notechunk QA report</title><style>{BASE_CSS}</style></head><body>"
        "<h1>notechunk QA report</h1>"
        '<p class="note">Built from OUT/qa/*.json; rebuild with '
        "<code>notechunk report OUT</code>.</p>"
        f'<div class="cards">{card_html}</div>{view_line}'
        f'<h2>Charts</h2><div class="charts">{charts}</div>'
        f"<h2>Per source</h2>{src_table}"
        f"<h2>Sheet conservation</h2>{sheet_line}"
        f"<h2>Markdown conservation</h2>{_lines_section(m, accounts)}"
        f"<h2>Lowest retrieval scores ({len(low)})</h2>{low_table}"
        f"<h2>Flagged chunks ({n_flagged})</h2>{flagged_table}"
        f"<h2>Discarded sheet rows ({len(discarded)})</h2>{discarded_table}"
        f"<h2>Errors ({len(errors)})</h2>{errors_table}"
        f"{_enrichment_section(m, enrichment or {})}"
        f"<script>{script()}</script></body></html>\n"
    )


def conserved_text(unaccounted: int) -> str:
    """What the reports say of one file's account."""
    return "yes" if not unaccounted else f"NO, {unaccounted} lines unaccounted for"


def _lines_section(m: Metrics, accounts: Sequence[dict[str, Any]]) -> str:
    """The Markdown line totals and, per file, whether its account holds (qa/skipped_lines.json)."""
    t = m.markdown_lines
    line = (
        f"<p>{t.files} Markdown file(s): {t.lines} non-blank lines = {t.in_chunks} in chunks + "
        f"{t.skipped} skipped with a reason + {t.unaccounted} unaccounted. "
        + ("Conserved." if t.conserved else '<span class="bad">NOT conserved.</span>')
        + "</p>"
    )
    rows = [
        (
            a["source"],
            a["lines"],
            a["in_chunks"],
            a["skipped_lines"],
            len(a["unaccounted"]),
            conserved_text(len(a["unaccounted"])),
        )
        for a in sorted(accounts, key=lambda a: (-len(a["unaccounted"]), a["source"]))
    ]
    table = filter_table(
        "lines",
        ["source", "lines", "in chunks", "skipped", "unaccounted", "conserved"],
        rows,
        select_col=5,
        select_label="conserved",
        num_cols=(1, 2, 3, 4),
    )
    return line + table


def _enrichment_section(m: Metrics, data: dict[str, Any]) -> str:
    """Counts, the glossary (with the undefined acronyms) and the dangling references."""
    e = m.enrichment
    line = (
        f"<p>{e.merged_sections} chunk(s) of merged tiny sections; "
        f"{e.references_resolved} reference(s) resolved in {e.chunks_resolved} chunk(s), "
        f"{e.dangling} dangling in {e.chunks_dangling}; {e.acronyms_defined} acronym(s) "
        f"defined, {e.acronyms_expanded} expansion(s) in {e.chunks_expanded} chunk(s), "
        f"{e.acronyms_undefined} used but undefined.</p>"
    )
    rows = [
        ("defined", g["acronym"], g["expansion"], g["origin"], g["uses"])
        for g in data.get("glossary", [])
    ] + [("undefined", u["acronym"], "", "", u["uses"]) for u in data.get("undefined", [])]
    glossary = filter_table(
        "glossary",
        ["status", "acronym", "expansion", "defined in", "uses"],
        rows,
        select_col=0,
        select_label="status",
        text_cols=(2,),
        num_cols=(4,),
    )
    dangling = filter_table(
        "dangling",
        ["phrases", "where", "text"],
        [(", ".join(d["phrases"]), d["location"], d["text"]) for d in data.get("dangling", [])],
        select_col=0,
        select_label="phrases",
        text_cols=(2,),
    )
    return (
        f"<h2>Enrichment</h2>{line}<h3>Acronyms ({len(rows)})</h3>{glossary}"
        f"<h3>Dangling references ({len(data.get('dangling', []))})</h3>{dangling}"
    )


def _one_decimal(value: float | None) -> str | None:
    return None if value is None else f"{value:.1f}"
