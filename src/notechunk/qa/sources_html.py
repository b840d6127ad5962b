"""The source view's pages (pure: a FileView in, its page's data and shell out).

A page is a small static shell (the file's name, links, the filter controls; every value
escaped) that loads the shared `viewer.css` and `viewer.js` (`qa.sources_assets`), its
file's text once (`text/<key>.js`, shared by every page of the same text and kept from
the previous run when unchanged) and its own view inline: what `page_data` says, as
JSON deflated and in base64 (`pack`). The view holds the facts only (each card's lines
as a range into the text, ids, labels, flags, reasons, the gaps with the reasons their
lines are in no chunk, a sheet's rows and discarded rows); the script renders them.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from notechunk.chunk import QUALITY_LABELS, Chunk, DiscardedRow
from notechunk.io.jsonio import dumps
from notechunk.qa.sources import Card, FileView, Gap, chunk_href, layout, page_name
from notechunk.qa.sources_assets import VIEWER_CSS, VIEWER_JS
from notechunk.qa.widgets import BASE_CSS, Link, filter_table, script

LEVEL = 1
"""zlib's level for the text and the views: on rfcs-md 6 is 13% smaller but the whole
source view takes 1.35x as long."""

TEXT_DIR = "text"


def pack(data: bytes) -> str:
    """Raw deflate in base64: what `DecompressionStream('deflate-raw')` reads back."""
    co = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return base64.b64encode(co.compress(data) + co.flush()).decode("ascii")


def text_bytes(lines: Sequence[str]) -> bytes:
    """The text a page shows: its lines joined by `\\n` (the script splits them again)."""
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def text_script(text: bytes) -> bytes:
    """OUT/sources/text/<key>.js: a file's lines, once, for every page that shows them."""
    return b'window.NC_TEXT="' + pack(text).encode("ascii") + b'";\n'


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _trimmed(c: Chunk) -> list[str]:
    """The chunk's trimmed sentences (`trimmed`, a string or a list, when it exists)."""
    raw = getattr(c, "trimmed", None)
    if not raw:
        return []
    return [raw] if isinstance(raw, str) else [str(x) for x in raw]


def _card(
    c: Chunk, view: FileView, reason: Callable[[Chunk], str], where: Mapping[str, str]
) -> dict[str, Any]:
    """What a chunk's card or row says: id, label, omitted, flagged and why, its place."""
    meta = [f"{c.word_count} words"]
    if c.lines is not None:
        meta.insert(0, f"lines {c.lines[0]}–{c.lines[1]}")
    if c.sheet is not None:
        meta.insert(0, f"row {c.row}")
    if c.semantic_type:
        meta.append(c.semantic_type)
    if c.retrieval_score is not None:
        meta.append(f"retrieval {c.retrieval_score:.2f}")
    flagged = c.id in view.flagged
    out: dict[str, Any] = {
        "id": c.id,
        "q": c.quality,
        "f": int(flagged),
        "o": int(c.omit),
        "m": " · ".join(meta),
    }
    if c.section_path or c.outline_path:
        out["p"] = " › ".join((*c.section_path, *c.outline_path))
    if c.flags:
        out["fl"] = list(c.flags)
    if flagged:
        out["why"] = reason(c)
        if c.duplicate_of is not None and c.duplicate_of in where:
            out["orig"] = chunk_href(where[c.duplicate_of], c.duplicate_of)
    trimmed = _trimmed(c)
    if trimmed:
        phrase = next(
            (f.split(":", 1)[1] for f in c.flags if f.startswith("context_dead_trimmed:")), ""
        )
        out["tr"] = [[phrase, s] for s in trimmed]
    return out


def _gap_cap(view: FileView, lines: Sequence[str], gap: Gap) -> dict[str, Any]:
    """A stretch in no chunk: its reasons from the file's account (qa/skipped_lines.json)
    and any line unaccounted for; no caption when the stretch is blank."""
    out: dict[str, Any] = {"g": [gap.first, gap.last]}
    if not any(lines[n - 1].strip() for n in range(gap.first, gap.last + 1)):
        return out
    a = view.account
    if a is None:
        out["cap"] = ""
        return out
    reasons = dict.fromkeys(
        s.reason for s in a.skipped if s.first <= gap.last and s.last >= gap.first
    )
    out["cap"] = ", ".join(reasons)
    lost = sum(1 for n in a.unaccounted if gap.first <= n <= gap.last)
    if lost:
        out["lost"] = lost
    return out


def _markdown_items(
    view: FileView,
    lines: Sequence[str] | None,
    reason: Callable[[Chunk], str],
    where: Mapping[str, str],
) -> list[dict[str, Any]]:
    """Cards (a line range into the text, the chunk's text when it has none) and gaps."""
    placed = layout(view.chunks, len(lines)) if lines else [Card(c, 0, -1, -1) for c in view.chunks]
    items: list[dict[str, Any]] = []
    for item in placed:
        if isinstance(item, Gap):
            assert lines is not None
            items.append(_gap_cap(view, lines, item))
            continue
        card = _card(item.chunk, view, reason, where)
        if item.last >= item.first:
            card.update(a=item.first, b=item.last, sh=item.shared_until)
        else:
            card["x"] = item.chunk.text
        items.append(card)
    return items


def _discarded(d: DiscardedRow) -> dict[str, Any]:
    why = f"discarded, {d.rule}: {d.explanation} (measured {d.measured}, threshold {d.threshold})"
    return {"d": d.row, "why": why, "x": "; ".join(f"{h}: {v}" for h, v in d.cells)}


def _sheets(
    view: FileView, reason: Callable[[Chunk], str], where: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Each sheet: its status lines and its rows in row order, chunks and discarded rows."""
    names = list(
        dict.fromkeys(
            [r.sheet for r in view.reports]
            + [c.sheet or "" for c in view.chunks]
            + [d.sheet for d in view.discarded]
        )
    )
    out = []
    for name in names:
        notes = [
            f"{r.status}: header row {r.header_row}, {r.data_rows} data rows = "
            f"{r.chunks} chunks + {r.discarded} discarded ({r.blank_rows} blank)"
            + (f". {r.note}" if r.note else "")
            for r in view.reports
            if r.sheet == name
        ]
        rows: list[tuple[int, int, dict[str, Any]]] = []
        for k, c in enumerate(x for x in view.chunks if (x.sheet or "") == name):
            row = _card(c, view, reason, where) | {"row": c.row, "grp": c.group or "", "x": c.text}
            rows.append((c.row or 0, k, row))
        rows += [(d.row, -1, _discarded(d)) for d in view.discarded if d.sheet == name]
        rows.sort(key=lambda r: (r[0], r[1]))
        out.append({"name": name, "notes": notes, "rows": [r for _, _, r in rows]})
    return out


def summary_line(view: FileView) -> str:
    """The page's one line of counts (and, for a huge file, where the rest are)."""
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
    return summary


def page_data(
    view: FileView,
    lines: Sequence[str] | None,
    reason: Callable[[Chunk], str],
    where: Mapping[str, str],
) -> dict[str, Any]:
    """Everything one source page shows but its text (`lines`, None when unreadable)."""
    labels = [q for q in QUALITY_LABELS if any(c.quality == q for c in view.chunks)]
    opts = [["", "all chunks"], ["flagged", "flagged"], ["omitted", "omitted"]]
    opts += [[q, q] for q in labels]
    if view.discarded:
        opts.append(["discarded", "discarded rows"])
    data: dict[str, Any] = {
        "kind": view.source_type,
        "t": view.title,
        "s": summary_line(view),
        "err": [f"{e.stage} error: {e.reason}" for e in view.errors],
        "opts": opts,
    }
    if view.source_type == "spreadsheet":
        data["sheets"] = _sheets(view, reason, where)
    else:
        data["items"] = _markdown_items(view, lines, reason, where)
        data["unread"] = lines is None and bool(view.chunks)
    return data


def page(view: FileView, data: Mapping[str, Any], text_ref: str | None) -> str:
    """One source file's page: the shell, its view inline, its text by reference."""
    text = f'<script src="{_e(text_ref)}"></script>' if text_ref else ""
    packed = pack(dumps(data).encode("utf-8", "surrogateescape"))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(view.source)} · notechunk sources</title>"
        f'<link rel="stylesheet" href="{VIEWER_CSS}"></head><body>'
        '<nav><a href="index.html">all sources</a><a href="../report.html">QA report</a></nav>'
        f'<h1>{_e(view.source)}</h1><div id="title"></div>'
        '<noscript><p class="bad">This page is drawn by its script: allow JavaScript, or '
        "read the chunks in stages/*_chunks.jsonl.</p></noscript>"
        '<div class="filters"><select id="show"></select>'
        '<input id="q" type="search" placeholder="filter text"><span class="count" id="count">'
        f'</span></div><main></main><script id="nc-data" type="application/octet-stream">'
        f"{packed}</script>{text}"
        f'<script src="{VIEWER_JS}"></script></body></html>\n'
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
