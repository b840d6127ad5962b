"""The eval's reports, rendered in memory: a Markdown table (also printed), results.md and
results.html (inline SVG bars, no remote assets, every value escaped)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from notechunk.evaluate.paired import Paired
from notechunk.evaluate.rows import EvalMeta, EvalRow


def _columns(ks: Sequence[int]) -> list[str]:
    recalls = [f"recall@{k}" for k in ks]
    return ["n_chunks", "mean_words", *recalls, "mrr", "recall@budget", "wall_s"]


def _cells(row: EvalRow, ks: Sequence[int]) -> list[str]:
    return [
        str(row.n_chunks),
        f"{row.mean_words:.1f}",
        *(f"{row.recall(k):.3f}" for k in ks),
        f"{row.mrr:.3f}",
        f"{row.recall_at_budget:.3f}",
        f"{row.wall_s:.1f}",
    ]


def render_table(rows: Sequence[EvalRow], ks: Sequence[int]) -> str:
    """A Markdown table of the rows, numbered (what `--compare` can name), as printed."""
    cols = _columns(ks)
    lines = [
        "| # | strategy | retriever | " + " | ".join(cols) + " |",
        "| ---: | --- | --- | " + " | ".join("---:" for _ in cols) + " |",
    ]
    for i, r in enumerate(rows, start=1):
        lines.append(
            f"| {i} | {_md(r.strategy)} | {r.retriever} | " + " | ".join(_cells(r, ks)) + " |"
        )
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def render_comparisons(pairs: Sequence[Paired]) -> str:
    lines = [
        "| A | B | metric | A | B | A - B (95% CI) | A better | B better | sign test p |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for p in pairs:
        lines.append(
            f"| {_md(p.a)} | {_md(p.b)} | {p.metric} | {p.mean_a:.3f} | {p.mean_b:.3f} | "
            f"{p.diff:+.3f} ({p.ci_low:+.3f}, {p.ci_high:+.3f}) | {p.a_better} | "
            f"{p.b_better} | {p.p_sign:.4f} |"
        )
    return "\n".join(lines)


def _summary(meta: EvalMeta) -> str:
    docs = ""
    if meta.documents is not None:
        docs = f" (peers and baselines: {meta.documents} documents, {meta.rows} of them rows)"
    return (
        f"Corpus `{meta.corpus}`: {meta.files} files{docs}, {meta.questions} questions; "
        f"retrievers {', '.join(meta.retrievers)}; budget {meta.budget} words; "
        f"segmenter {meta.segmenter}."
    )


def render_markdown(
    rows: Sequence[EvalRow], meta: EvalMeta, pairs: Sequence[Paired], notes: Sequence[str]
) -> str:
    parts = [
        "# notechunk eval",
        "",
        _summary(meta),
        "notechunk rows index each chunk's `embed_text` (what `run` ships); a hit is judged "
        "on the chunk's text. wall_s: making the chunks plus indexing and ranking.",
        "",
        render_table(rows, meta.ks),
    ]
    if pairs:
        parts += ["", "## Paired comparisons (same questions)", "", render_comparisons(pairs)]
    if notes:
        parts += ["", "## Notes", "", *[f"- {n}" for n in notes]]
    return "\n".join(parts) + "\n"


def _svg_bars(rows: Sequence[EvalRow]) -> str:
    """Horizontal grouped bars, one group per row, recall@5 (if measured) and @budget."""
    colors = ("#3b6ea5", "#e08a2c")
    label_w, bar_w, bar_h, gap = 320, 420, 10, 8
    keys = ["recall@budget"]
    if rows and 5 in dict(rows[0].recall_at):
        keys.insert(0, "recall@5")
    group_h = bar_h * len(keys) + gap
    height = 30 + group_h * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 60}" '
        f'height="{height}" font-family="sans-serif" font-size="11">'
    ]
    for j, key in enumerate(keys):
        x = label_w + j * 140
        parts.append(f'<rect x="{x}" y="4" width="10" height="10" fill="{colors[j]}"/>')
        parts.append(f'<text x="{x + 14}" y="13">{html.escape(key)}</text>')
    for i, r in enumerate(rows):
        y0 = 24 + i * group_h
        name = html.escape(f"{r.strategy} / {r.retriever}")
        parts.append(
            f'<text x="{label_w - 6}" y="{y0 + bar_h * len(keys) / 2 + 4}" '
            f'text-anchor="end">{name}</text>'
        )
        for j, key in enumerate(keys):
            v = r.recall_at_budget if key == "recall@budget" else r.recall(5)
            y = y0 + j * bar_h
            parts.append(
                f'<rect x="{label_w}" y="{y}" width="{v * bar_w:.1f}" height="{bar_h - 1}" '
                f'fill="{colors[j]}"><title>{name} {key} {v:.3f}</title></rect>'
            )
            parts.append(f'<text x="{label_w + v * bar_w + 4:.1f}" y="{y + 8}">{v:.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _html_table(head: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    trs = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>" for cells in body
    )
    return f"<table><tr>{th}</tr>{trs}</table>"


def render_html(
    rows: Sequence[EvalRow], meta: EvalMeta, pairs: Sequence[Paired], notes: Sequence[str]
) -> str:
    head = ["#", "strategy", "retriever", *_columns(meta.ks)]
    body = [[str(i), r.strategy, r.retriever, *_cells(r, meta.ks)] for i, r in enumerate(rows, 1)]
    compared = ""
    if pairs:
        compared = "<h2>Paired comparisons</h2>" + _html_table(
            ["A", "B", "metric", "A", "B", "A - B", "95% CI", "A better", "B better", "p"],
            [
                [
                    p.a,
                    p.b,
                    p.metric,
                    f"{p.mean_a:.3f}",
                    f"{p.mean_b:.3f}",
                    f"{p.diff:+.3f}",
                    f"{p.ci_low:+.3f} .. {p.ci_high:+.3f}",
                    str(p.a_better),
                    str(p.b_better),
                    f"{p.p_sign:.4f}",
                ]
                for p in pairs
            ],
        )
    note_html = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    style = (
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
        "td:nth-child(2),td:nth-child(3){text-align:left}"
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>notechunk eval</title>"
        f"<style>{style}</style></head><body><h1>notechunk eval</h1>"
        f"<p>{html.escape(_summary(meta))}</p>{_svg_bars(rows)}{_html_table(head, body)}"
        + compared
        + (f"<ul>{note_html}</ul>" if notes else "")
        + "</body></html>\n"
    )
