"""HTML of the source view (pure: a FileView in, a page out; every value escaped).

Pages are self-contained (inline CSS and JS, no remote asset) and static: the text is in
the HTML, so a page reads without JavaScript; the script only filters (a label select
and a text box, or `#show=flagged` in the URL) and, for a link to a chunk, scrolls to it
and outlines it. When done it marks `<body data-ready="N" data-ready-ms="T">` (N items,
T ms since navigation started), which is how the browser test reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape

from notechunk.chunk import QUALITY_LABELS, Chunk, DiscardedRow
from notechunk.qa.sources import Card, FileView, Gap, chunk_href, layout, page_name
from notechunk.qa.sources_assets import PAGE_CSS, PAGE_JS
from notechunk.qa.widgets import BASE_CSS, QUALITY_COLORS, Link, filter_table, script
from notechunk.textio import source_lines


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _badge(quality: str) -> str:
    color = QUALITY_COLORS.get(quality, "#4a78b5")
    return f'<span class="badge" style="background:{color}">{_e(quality)}</span>'


def _attrs(c: Chunk, flagged: frozenset[str]) -> str:
    f = "1" if c.id in flagged else "0"
    return f'id="c-{_e(c.id)}" data-q="{_e(c.quality)}" data-f="{f}" data-o="{int(c.omit)}"'


def _trimmed(c: Chunk) -> list[str]:
    """The chunk's trimmed sentences (`trimmed`, a string or a list, when it exists)."""
    raw = getattr(c, "trimmed", None)
    if not raw:
        return []
    return [raw] if isinstance(raw, str) else [str(x) for x in raw]


def _header(
    c: Chunk, view: FileView, reason: Callable[[Chunk], str], where: Mapping[str, str]
) -> str:
    parts = [_badge(c.quality)]
    if c.omit:
        parts.append('<span class="badge omit">omitted</span>')
    parts.append(f'<a class="cid" href="#c-{_e(c.id)}">{_e(c.id)}</a> ')
    meta = [f"{c.word_count} words"]
    if c.lines is not None:
        meta.insert(0, f"lines {c.lines[0]}–{c.lines[1]}")
    if c.sheet is not None:
        meta.insert(0, f"row {c.row}")
    if c.semantic_type:
        meta.append(c.semantic_type)
    if c.retrieval_score is not None:
        meta.append(f"retrieval {c.retrieval_score:.2f}")
    parts.append(f'<span class="meta">{_e(" · ".join(meta))}</span>')
    if c.section_path or c.outline_path:
        path = " › ".join((*c.section_path, *c.outline_path))
        parts.append(f'<div class="meta">{_e(path)}</div>')
    if c.flags:
        parts.append("<div>" + "".join(f'<code class="flag">{_e(f)}</code>' for f in c.flags))
        parts.append("</div>")
    if c.id in view.flagged:
        why = _e(reason(c))
        if c.duplicate_of is not None and c.duplicate_of in where:
            href = chunk_href(where[c.duplicate_of], c.duplicate_of)
            why += f' (<a href="{_e(href)}">see the original</a>)'
        parts.append(f'<div class="why">{why}</div>')
    phrase = next(
        (f.split(":", 1)[1] for f in c.flags if f.startswith("context_dead_trimmed:")), ""
    )
    for sentence in _trimmed(c):
        said = f" ({_e(phrase)})" if phrase else ""
        parts.append(
            f'<div class="trim">trimmed, context-dead{said}: <del>{_e(sentence)}</del></div>'
        )
    return "".join(parts)


def _lines(lines: Sequence[str], first: int, last: int, shared_until: int = 0) -> str:
    out = []
    for n in range(first, last + 1):
        cls = "l sh" if n <= shared_until else "l"
        out.append(f'<div class="{cls}" data-n="{n}">{_e(lines[n - 1])}</div>')
    return "".join(out)


def _markdown_body(view: FileView, reason: Callable[[Chunk], str], where: Mapping[str, str]) -> str:
    lines = source_lines(view.text) if view.text is not None else []
    out = []
    if view.text is None and view.chunks:
        out.append(
            '<p class="note">The source file could not be read again when this page '
            "was written: each card shows the chunk's text instead of the file's lines.</p>"
        )
    for item in (
        layout(view.chunks, len(lines)) if lines else [Card(c, 0, -1, -1) for c in view.chunks]
    ):
        if isinstance(item, Gap):
            body = _lines(lines, item.first, item.last)
            content = any(lines[n - 1].strip() for n in range(item.first, item.last + 1))
            cap = (
                '<div class="cap" title="headings are kept as each chunk\'s heading path; '
                'front matter, blank lines and markup carry no text">'
                f"in no chunk{_gap_reasons(view, item.first, item.last)}</div>"
                if content
                else ""
            )
            out.append(f'<div class="gap">{cap}{body}</div>')
            continue
        c = item.chunk
        omit = " omit" if c.omit else ""
        color = QUALITY_COLORS.get(c.quality, "#4a78b5")
        shown = (
            _lines(lines, item.first, item.last, item.shared_until)
            if item.last >= item.first
            else f'<div class="l" data-n="">{_e(c.text)}</div>'
        )
        out.append(
            f'<section class="chunk{omit}" style="border-left-color:{color}" '
            f"{_attrs(c, view.flagged)}>"
            f"<header>{_header(c, view, reason, where)}</header>"
            f'<div class="lines">{shown}</div>'
            f"<details><summary>text as shipped ({c.word_count} words)</summary>"
            f"<pre>{_e(c.text)}</pre></details></section>"
        )
    return "".join(out)


def _gap_reasons(view: FileView, first: int, last: int) -> str:
    """Why lines `first`..`last` are in no chunk, from the file's account (qa/skipped_lines
    .json): the reasons of its skipped spans there, and any line unaccounted for."""
    a = view.account
    if a is None:
        return ""
    reasons = dict.fromkeys(s.reason for s in a.skipped if s.first <= last and s.last >= first)
    lost = sum(1 for n in a.unaccounted if first <= n <= last)
    said = f": {_e(', '.join(reasons))}" if reasons else ""
    if lost:
        said += f' <span class="bad">{lost} line{"s" if lost != 1 else ""} unaccounted</span>'
    return said


def _discarded_row(d: DiscardedRow) -> str:
    cells = "; ".join(f"{h}: {v}" for h, v in d.cells)
    why = f"discarded, {d.rule}: {d.explanation} (measured {d.measured}, threshold {d.threshold})"
    return (
        f'<tr class="disc" data-q="discarded" data-f="1" data-o="1"><td class="num">{d.row}</td>'
        f'<td><span class="badge disc">discarded</span></td><td>{_e(why)}</td>'
        f'<td class="text">{_e(cells)}</td></tr>'
    )


def _sheet_body(view: FileView, reason: Callable[[Chunk], str], where: Mapping[str, str]) -> str:
    names = list(
        dict.fromkeys(
            [r.sheet for r in view.reports]
            + [c.sheet or "" for c in view.chunks]
            + [d.sheet for d in view.discarded]
        )
    )
    out = []
    for name in names:
        out.append(f"<h2>Sheet {_e(name)}</h2>")
        for r in (r for r in view.reports if r.sheet == name):
            line = (
                f"{r.status}: header row {r.header_row}, {r.data_rows} data rows = "
                f"{r.chunks} chunks + {r.discarded} discarded ({r.blank_rows} blank)"
            )
            out.append(f'<p class="note">{_e(line)}{_e(". " + r.note) if r.note else ""}</p>')
        rows: list[tuple[int, int, str]] = []
        for k, c in enumerate(x for x in view.chunks if (x.sheet or "") == name):
            color = QUALITY_COLORS.get(c.quality, "#4a78b5")
            cells = (
                f'<td class="num">{c.row}</td><td>{_header(c, view, reason, where)}</td>'
                f'<td>{_e(c.group or "")}</td><td class="text">{_e(c.text)}</td>'
            )
            omit = " omit" if c.omit else ""
            rows.append(
                (
                    c.row or 0,
                    k,
                    f'<tr class="chunk{omit}" style="border-left:6px solid {color}" '
                    f"{_attrs(c, view.flagged)}>{cells}</tr>",
                )
            )
        rows += [(d.row, -1, _discarded_row(d)) for d in view.discarded if d.sheet == name]
        body = "".join(html for _, _, html in sorted(rows, key=lambda r: (r[0], r[1])))
        out.append(
            "<table><thead><tr><th>row</th><th>chunk</th><th>group / why</th>"
            f"<th>text</th></tr></thead><tbody>{body}</tbody></table>"
        )
    return "".join(out)


def page(view: FileView, reason: Callable[[Chunk], str], where: Mapping[str, str]) -> str:
    """One source file's page."""
    total, kept, flagged = view.counts
    summary = (
        f"{view.source_type} · {total} chunks: {kept} kept, "
        f"{total - kept} omitted, {flagged} flagged"
    )
    if view.n_discarded:
        n = view.n_discarded
        summary += f" · {n} discarded row{'s' if n != 1 else ''}"
    if view.account is not None:
        lost = len(view.account.unaccounted)
        summary += " · Conserved: " + (f"NO, {lost} lines unaccounted for" if lost else "yes")
    hidden_chunks, hidden_rows = view.hidden
    if hidden_chunks or hidden_rows:
        summary += (
            f" · this page shows the first {len(view.chunks)} chunks and "
            f"{len(view.discarded)} discarded rows; all of them are in "
            "stages/*_chunks.jsonl and qa/discarded_rows.json"
        )
    labels = [q for q in QUALITY_LABELS if any(c.quality == q for c in view.chunks)]
    options = [
        '<option value="">all chunks</option>',
        '<option value="flagged">flagged</option>',
        '<option value="omitted">omitted</option>',
    ]
    options += [f'<option value="{_e(q)}">{_e(q)}</option>' for q in labels]
    if view.discarded:
        options.append('<option value="discarded">discarded rows</option>')
    errors = "".join(f'<p class="bad">{_e(e.stage)} error: {_e(e.reason)}</p>' for e in view.errors)
    body = (
        _sheet_body(view, reason, where)
        if view.source_type == "spreadsheet"
        else _markdown_body(view, reason, where)
    )
    title = f"<p>{_e(view.title)}</p>" if view.title else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(view.source)} · notechunk sources</title>"
        f"<style>{BASE_CSS}{PAGE_CSS}</style></head><body>"
        '<nav><a href="index.html">all sources</a><a href="../report.html">QA report</a></nav>'
        f'<h1>{_e(view.source)}</h1>{title}<p class="note">{_e(summary)}</p>{errors}'
        f'<div class="filters"><select id="show">{"".join(options)}</select>'
        '<input id="q" type="search" placeholder="filter text"><span class="count" id="count">'
        f"</span></div><main>{body}</main><script>{PAGE_JS}</script></body></html>\n"
    )


IndexRow = tuple[Link, str, int, int, int, int, int, int]


def index_row(v: FileView) -> IndexRow:
    """A file's line in the index: its counts (the page is written, its chunks let go)."""
    n, kept, flagged = v.counts
    return (
        Link(v.source, page_name(v.source)),
        v.source_type,
        n,
        kept,
        n - kept,
        flagged,
        v.n_discarded,
        len(v.errors),
    )


def index(rows: Sequence[IndexRow]) -> str:
    """OUT/sources/index.html: every source file with its counts, linked to its page."""
    table = filter_table(
        "files",
        ["file", "type", "chunks", "kept", "omitted", "flagged", "discarded rows", "errors"],
        rows,
        select_col=1,
        select_label="types",
        num_cols=(2, 3, 4, 5, 6, 7),
        limit=None,
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>notechunk sources</title><style>{BASE_CSS}</style></head><body>"
        '<nav><a href="../report.html">QA report</a></nav><h1>Sources</h1>'
        '<p class="note">Each file with its chunks shown in place: boundaries, labels, flags, '
        "and what was omitted or discarded, with the reason.</p>"
        f"{table}<script>{script()}</script></body></html>\n"
    )
