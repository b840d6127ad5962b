"""`notechunk templates suggest FILE`: a starter `[[templates]]` block per sheet.

The output is TOML that loads as it is and a template that loses no value:
- strings are escaped for TOML (quotes, backslashes and control characters: a header
  holding `\\x01` gives `\\u0001`), comments never carry a control character or a newline;
- `match` and `sheet` are globs that match the file and sheet they came from (glob
  metacharacters in `passes[1].csv` are escaped: `*passes[[]1].csv`);
- each column is one `Header: {Field}.` pair: the first one required (a row without it
  falls back, flagged), the others optional `[...]` segments; a field is named so that it
  binds to its own column (a header `Alt{m}` becomes `{Altm}`); a column no field name
  can reach (its name, ignoring case and punctuation, is another column's) is left out
  and named in a comment;
- names are the runner's own column names (stacked header rows joined), so the template
  binds to the sheet as `run` reads it.
An unreadable file raises `InputError` (the CLI prints one line and exits 1).
"""

from __future__ import annotations

import re
from itertools import islice
from pathlib import Path

from notechunk.config import Config, Template
from notechunk.errors import InputError
from notechunk.sheets.header import build_header, find_header, given_header
from notechunk.sheets.isolate import run_isolated
from notechunk.sheets.read import TEXT_SHEET_SUFFIXES, check_container, read_any
from notechunk.sheets.templates import bind

_Found = list[tuple[str, int | None, bool, list[str]]]  # sheet, header row, stacked, names


def suggest_templates(path: Path, rel: str, cfg: Config) -> str:
    """TOML text: a `[[templates]]` block per non-empty visible sheet of `path`."""
    if path.suffix.lower() in TEXT_SHEET_SUFFIXES:  # text: read in this process
        found: _Found | str = _sheet_headers(path, rel, cfg)
    else:
        found = run_isolated(_safe_headers, (path, rel, cfg), cfg)
    if isinstance(found, str):
        raise InputError(rel, found)
    if not found:
        raise InputError(rel, "no non-empty sheet to suggest a template for")
    blocks: list[str] = []
    taken: set[str] = set()
    base = Path(rel).name
    for sheet, header_row, stacked, names in found:
        name = _slug(Path(rel).stem) + ("" if len(found) == 1 else "_" + _slug(sheet))
        name = _unused(name, taken)
        text, left_out = _template_text(names)
        lines = [
            f"# {_comment(rel)} / sheet {_comment(sheet)}: columns "
            + ", ".join(_comment(n) for n in names)
        ]
        lines += [f"# left out: {_comment(n)} (its name is another column's)" for n in left_out]
        lines += [
            "[[templates]]",
            f"name = {_q(name)}",
            f"match = {_q('*' + glob_escape(base))}",
            f"sheet = {_q(glob_escape(sheet))}",
            f"text = {_q(text)}",
        ]
        if header_row is not None and header_row != 1 and not stacked:
            lines.append(f"header_row = {header_row}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _sheet_headers(path: Path, rel: str, cfg: Config) -> _Found:
    if path.suffix.lower() not in TEXT_SHEET_SUFFIXES:
        check_container(path, rel, cfg.sheets)
    out: _Found = []
    for sheet in read_any(path, rel, cfg.sheets):
        if not sheet.visible and not cfg.sheets.include_hidden:
            continue
        head = list(islice(sheet.rows, cfg.sheets.header_search_rows))
        if not any(any(r.cells) for r in head):
            continue
        width = max(len(r.cells) for r in head)
        if sheet.columns is not None:  # a card deck names its own columns
            header = given_header(sheet.columns)
        else:
            header = build_header(head, find_header(head), width)
        used = [any(i < len(r.cells) and r.cells[i] for r in head) for i in range(width)]
        names = [n for n, u in zip(header.names, used, strict=False) if u]
        out.append((sheet.name, header.row, len(header.rows) > 1, names))
    return out


def _safe_headers(path: Path, rel: str, cfg: Config) -> _Found | str:
    try:
        return _sheet_headers(path, rel, cfg)
    except InputError as exc:
        return exc.reason


def _template_text(names: list[str]) -> tuple[str, list[str]]:
    """(text, columns left out): the first reachable column required, the rest optional."""
    refs = {n: _field_ref(n) for n in names}
    probe = Template(name="probe", match="*", text=" ".join(f"{{{r}}}" for r in refs.values()))
    columns = bind(probe, names).columns
    reachable = [n for i, n in enumerate(names) if columns.get(refs[n]) == i]
    left_out = [n for n in names if n not in reachable]
    pairs = [f"{_esc(n)}: {{{refs[n]}}}." for n in reachable]
    text = " ".join([pairs[0], *(f"[{p}]" for p in pairs[1:])]) if pairs else ""
    return text, left_out


def _field_ref(name: str) -> str:
    """The column's name as a template field: braces dropped (names match ignoring
    punctuation, so `{Altm}` binds to "Alt{m}"), never empty."""
    ref = " ".join(name.replace("{", " ").replace("}", " ").split())
    return ref or "_"


def glob_escape(text: str) -> str:
    """`text` as an fnmatch pattern matching exactly itself: `*`, `?`, `[` bracketed."""
    return re.sub(r"([*?\[])", r"[\1]", text)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "sheet"


def _unused(name: str, taken: set[str]) -> str:
    candidate, k = name, 1
    while candidate in taken:
        k += 1
        candidate = f"{name}_{k}"
    taken.add(candidate)
    return candidate


def _esc(name: str) -> str:
    return name.replace("{", "{{").replace("}", "}}").replace("[", "[[").replace("]", "]]")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _q(text: str) -> str:
    """A TOML basic string: backslash, quote and every control character escaped."""
    body = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", body) + '"'


def _comment(text: str) -> str:
    """Text safe inside a TOML comment: control characters shown as \\u escapes."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
