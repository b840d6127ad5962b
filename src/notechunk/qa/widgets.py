"""The parts of an HTML page shared by report.html and the source view: the look (CSS),
the filter script, an inline SVG bar chart, a table filtered in the browser, a link cell.

Every part is a pure function of its inputs returning HTML text (escaped here), so a
page is the same bytes for the same data. Apart from `report` because the source view
(`sources_html`) builds its pages from the same parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

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


def td(value: object, cls: str = "") -> str:
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
            cells.append(td(v, cls))
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
