"""build_report: OUT/report.html from the QA artifacts alone (`notechunk report OUT`).

One self-contained page: inline CSS, inline JS, inline SVG charts drawn here; no remote
asset, no clock, no absolute path, so the same artifacts give the same bytes. Tables with
a text box and a select filter their rows in the browser; the script marks
`<body data-filters-ready="N">` when it has wired N tables, and applies a filter given in
the URL fragment (`#flagged=fragment`), which is how the browser test checks it runs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from notechunk.chunk import QUALITY_LABELS
from notechunk.errors import UsageError
from notechunk.io.jsonio import write_text
from notechunk.qa.metrics import Metrics

MAX_TABLE_ROWS = 5000

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d2430;
background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;
border-bottom:1px solid #dde2e8;padding-bottom:4px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}
.card{background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:20px}.card span{color:#5a6472;font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:18px}
.chart{background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:8px}
.chart h3{font-size:13px;margin:0 0 4px;color:#3a4452}
table{border-collapse:collapse;background:#fff;width:100%;font-size:12.5px}
th,td{border:1px solid #e1e5ea;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#eef1f5;position:sticky;top:0}td.num{text-align:right}
td.text{max-width:560px;overflow-wrap:anywhere}
.filters{margin:6px 0;display:flex;gap:8px;align-items:center}
.filters input{padding:3px 6px;width:260px}.count{color:#5a6472}
.scroll{max-height:520px;overflow:auto;border:1px solid #dde2e8}
.note{color:#5a6472;font-size:12px}.bad{color:#a4262c;font-weight:600}
"""

_JS = """
(function(){
  var tables=document.querySelectorAll('table[data-filter]');
  function apply(t,q,v){
    var col=+t.dataset.selectCol, shown=0, rows=t.tBodies[0].rows;
    q=q.toLowerCase();
    for(var i=0;i<rows.length;i++){
      var r=rows[i], ok=(!q||r.textContent.toLowerCase().indexOf(q)>=0)&&
        (!v||r.cells[col].textContent===v);
      r.hidden=!ok; if(ok)shown++;
    }
    var c=document.getElementById(t.id+'-count');
    if(c)c.textContent=shown+' of '+rows.length+' rows';
  }
  var wired=0;
  tables.forEach(function(t){
    var box=document.getElementById(t.id+'-q'), sel=document.getElementById(t.id+'-sel');
    function go(){apply(t,box.value,sel.value);}
    box.addEventListener('input',go); sel.addEventListener('change',go); go(); wired++;
  });
  var h=decodeURIComponent(location.hash.slice(1));
  if(h.indexOf('=')>0){
    var id=h.slice(0,h.indexOf('=')), v=h.slice(h.indexOf('=')+1);
    var sel=document.getElementById(id+'-sel');
    if(sel){sel.value=v; sel.dispatchEvent(new Event('change'));}
  }
  document.body.dataset.filtersReady=String(wired);
  document.body.dataset.readyMs=String(Math.round(performance.now()));
})();
"""

QUALITY_COLORS = {
    "ok": "#3b8c5a",
    "short": "#d9a21b",
    "fragment": "#e07b39",
    "too_long": "#7d5ba6",
    "too_long_tokens": "#5b6fa6",
    "context_dead": "#b8383d",
}
BASE_CSS = _CSS  # the source view's pages share the report's look


def script() -> str:
    """The filter script of every table made by `filter_table` (inline it once per page)."""
    return _JS


@dataclass(frozen=True, slots=True)
class Link:
    """A table cell that links somewhere (`href` relative to the page); both escaped."""

    text: str
    href: str

    def __str__(self) -> str:
        return self.text


def bar_chart(
    labels: Sequence[str],
    values: Sequence[int],
    *,
    title: str,
    colors: Sequence[str] | None = None,
    width: int = 520,
    height: int = 230,
) -> str:
    """An inline SVG bar chart (counts above bars, labels below)."""
    left, right, top, bottom = 44, 10, 22, 46
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max([*values, 1])
    n = max(1, len(values))
    slot = plot_w / n
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}">',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        'stroke="#8a94a3"/>',
        f'<text x="{left - 6}" y="{top + 4}" font-size="10" text-anchor="end" '
        f'fill="#5a6472">{top_value}</text>',
        f'<text x="{left - 6}" y="{top + plot_h}" font-size="10" text-anchor="end" '
        'fill="#5a6472">0</text>',
    ]
    for k, (label, v) in enumerate(zip(labels, values, strict=True)):
        h = plot_h * v / top_value
        x = left + k * slot + slot * 0.12
        w = slot * 0.76
        color = colors[k] if colors else "#4a78b5"
        parts.append(
            f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{color}"><title>{escape(label)}: {v}</title></rect>'
        )
        cx = x + w / 2
        parts.append(
            f'<text x="{cx:.1f}" y="{top + plot_h - h - 4:.1f}" font-size="10" '
            f'text-anchor="middle" fill="#1d2430">{v}</text>'
        )
        parts.append(
            f'<text x="{cx:.1f}" y="{top + plot_h + 14}" font-size="10" text-anchor="middle" '
            f'fill="#3a4452" transform="rotate(20 {cx:.1f} {top + plot_h + 14})">'
            f"{escape(label)}</text>"
        )
    parts.append("</svg>")
    return f'<div class="chart"><h3>{escape(title)}</h3>{"".join(parts)}</div>'


def _td(value: object, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    if isinstance(value, Link):
        return f'<td{attr}><a href="{escape(value.href)}">{escape(value.text)}</a></td>'
    if value is None:
        value = ""
    elif isinstance(value, bool):
        value = "yes" if value else "no"
    elif isinstance(value, float):
        value = f"{value:g}"
    return f"<td{attr}>{escape(str(value))}</td>"


def filter_table(
    table_id: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    select_col: int,
    select_label: str,
    text_cols: Sequence[int] = (),
    num_cols: Sequence[int] = (),
    limit: int | None = MAX_TABLE_ROWS,
    total: int | None = None,
) -> str:
    """A table with a text box and a select (on column `select_col`) that filter its rows;
    beyond `limit` rows (None: no limit) the rest is left to the qa/ files. `total` is the
    full count when `rows` holds only the first ones (a streamed run)."""
    shown = rows if limit is None else rows[:limit]
    n = len(rows) if total is None else total
    options = sorted({str(r[select_col]) for r in shown})
    opts = f'<option value="">all {escape(select_label)}</option>' + "".join(
        f'<option value="{escape(o)}">{escape(o)}</option>' for o in options
    )
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for r in shown:
        cells = []
        for k, v in enumerate(r):
            cls = "text" if k in text_cols else "num" if k in num_cols else ""
            cells.append(_td(v, cls))
        body.append("<tr>" + "".join(cells) + "</tr>")
    note = (
        f'<p class="note">Showing the first {limit} of {n} rows; '
        "the full list is in the qa/ files.</p>"
        if limit is not None and n > limit
        else ""
    )
    return (
        f'<div class="filters"><input id="{table_id}-q" type="search" '
        f'placeholder="filter text"><select id="{table_id}-sel">{opts}</select>'
        f'<span class="count" id="{table_id}-count">{len(shown)} rows</span></div>{note}'
        f'<div class="scroll"><table id="{table_id}" data-filter="1" '
        f'data-select-col="{select_col}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _load(qa: Path, name: str, default: Any) -> Any:
    """A QA file's JSON (`default` when absent), of the same kind as `default` (a list of
    objects, or an object); anything else is a `UsageError` naming the file."""
    path = qa / name
    if not path.is_file():
        return default
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(
            f"{path}: not readable JSON ({_short(exc)}); run notechunk again"
        ) from None
    if isinstance(default, list):
        ok = isinstance(data, list) and all(isinstance(row, dict) for row in data)
    else:
        ok = isinstance(data, dict)
    if not ok:
        kind = "a list of objects" if isinstance(default, list) else "an object"
        raise UsageError(f"{path}: not {kind}; run notechunk again")
    return data


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


def render_report(
    metrics: Metrics,
    flagged: Sequence[dict[str, Any]],
    discarded: Sequence[dict[str, Any]],
    errors: Sequence[dict[str, Any]],
    semantic: dict[str, Any],
    sources: Mapping[str, str] | None = None,
    flagged_total: int | None = None,
    enrichment: dict[str, Any] | None = None,
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
        + _td(Link(src, f"{SOURCES_DIR}/{page_name(src)}") if sources is not None else src)
        + _td(v.source_type)
        + "".join(_td(x, "num") for x in (v.total, v.surviving, v.omitted, v.flagged))
        + _td(_one_decimal(v.avg_words), "num")
        + _td(v.mean_retrieval_score, "num")
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
        + _td(r.retrieval_score, "num")
        + _td(r.id)
        + _td(where(r.id, r.location))
        + _td(r.semantic_type)
        + _td(r.text, "text")
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
        f"<title>notechunk QA report</title><style>{_CSS}</style></head><body>"
        "<h1>notechunk QA report</h1>"
        '<p class="note">Built from OUT/qa/*.json; rebuild with '
        "<code>notechunk report OUT</code>.</p>"
        f'<div class="cards">{card_html}</div>{view_line}'
        f'<h2>Charts</h2><div class="charts">{charts}</div>'
        f"<h2>Per source</h2>{src_table}"
        f"<h2>Sheet conservation</h2>{sheet_line}"
        f"<h2>Lowest retrieval scores ({len(low)})</h2>{low_table}"
        f"<h2>Flagged chunks ({n_flagged})</h2>{flagged_table}"
        f"<h2>Discarded sheet rows ({len(discarded)})</h2>{discarded_table}"
        f"<h2>Errors ({len(errors)})</h2>{errors_table}"
        f"{_enrichment_section(m, enrichment or {})}"
        f"<script>{_JS}</script></body></html>\n"
    )


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


def build_report(out: Path) -> Path:
    """Rebuild OUT/report.html from OUT/qa/*.json (missing files count as empty)."""
    qa = out / "qa"
    try:
        metrics = Metrics.from_json(_load(qa, "metrics.json", {}))
    except ValueError as exc:
        raise UsageError(f"{out}: {exc}") from None
    loaded = {
        name: _load(qa, name, default)
        for name, default in (
            ("flagged.json", []),
            ("discarded_rows.json", []),
            ("errors.json", []),
            ("semantic_types.json", {}),
            ("enrichment.json", {}),
        )
    }
    try:
        html = render_report(
            metrics,
            loaded["flagged.json"],
            loaded["discarded_rows.json"],
            loaded["errors.json"],
            loaded["semantic_types.json"],
            _chunk_sources(out),
            enrichment=loaded["enrichment.json"],
        )
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise UsageError(
            f"{qa}: a file lacks what the report needs ({type(exc).__name__}: {_short(exc)}); "
            "run notechunk again"
        ) from None
    path = out / "report.html"
    write_text(path, html)
    return path


def _one_decimal(value: float | None) -> str | None:
    return None if value is None else f"{value:.1f}"


def _chunk_sources(out: Path) -> dict[str, str] | None:
    """Chunk id -> source from OUT's stage files (every chunk, omitted too), when OUT has
    a source view to link to; None otherwise."""
    from notechunk.qa.sources import INDEX, SOURCES_DIR

    if not (out / SOURCES_DIR / INDEX).is_file():
        return None
    found: dict[str, str] = {}
    for name in ("markdown_chunks.jsonl", "excel_chunks.jsonl"):
        path = out / "stages" / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    data = json.loads(line) if line.strip() else None
                    if data is not None:
                        found[str(data["id"])] = str(data["source"])
                except (ValueError, KeyError, TypeError, IndexError):
                    continue  # a damaged line only costs its link
    return found
