"""Flash-card exports as one sheet (SPEC §1.1, v3): Quizlet and Anki plain-text decks.

A `.txt` or `.tsv` whose lines are `front|back`, `front<TAB>back` or `front;back` cards
(`discover.deck_separator`) is a sheet with the columns `front` and `back`: one card, one
row, numbered by its line. Anki's header lines are honoured and are not rows:
`#separator:` names the separator, `#columns:` the column names, `#html:true` says the
fields are HTML (read as HTML: text only), `#tags column:3` (and the guid, notetype and
deck columns) names a column; the others (`#notetype:`, `#deck:`, `#tags:`) are metadata.
With an Anki header, fields are read as Anki writes them (quoted like CSV, so a quoted
field may hold the separator or line breaks); without one a line splits at its first
separator (a Quizlet answer may hold `;`). A field that holds HTML tags is read as HTML
even without `#html:true`. Cloze deletions keep their answer (`{{c1::Paris::capital}}` ->
`Paris`). A `.tsv` that is no deck is read as CSV. Anki writes its export under any name:
a `.csv` that opens with an Anki header line is a deck too (`anki_export`), and in an Anki
export a one-field row is a whole card (a cloze), not too few fields.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Generator, Iterator
from pathlib import Path

from notechunk.config import SheetsConfig
from notechunk.discover import ANKI_HEADER, deck_separator
from notechunk.markdown.html import html_items
from notechunk.sheets.cells import media_text
from notechunk.sheets.csvread import check_text, read_csv
from notechunk.sheets.limits import cut_cells
from notechunk.sheets.model import RawSheet, SheetRow
from notechunk.textio import FALLBACK_FLAG, decode_text, open_regular, read_regular

CARD_COLUMNS = ("front", "back")
_CLOZE = re.compile(r"\{\{c\d+::((?:[^:}]|:(?!:)|\}(?!\}))*)(?:::(?:[^}]|\}(?!\}))*)?\}\}")
_HTML = re.compile(r"<(?:[A-Za-z][A-Za-z0-9]*\b[^<>]*|/[A-Za-z][A-Za-z0-9]*\s*)>|&[#\w]+;")
_MAX_DECK_BYTES = 256 << 20


def read_deck(path: Path, rel: str, cfg: SheetsConfig) -> Generator[RawSheet, None, None]:
    """A card deck as one sheet named after the file stem (a `.tsv` that is no deck: CSV)."""
    data = read_regular(path, rel, _MAX_DECK_BYTES)
    check_text(data[: 1 << 20], rel)
    decoded = decode_text(data, rel)
    text = decoded.text.removeprefix("\ufeff")
    sep = deck_separator(text)
    if sep is None:
        yield from read_csv(path, rel, cfg)
        return
    flags = (FALLBACK_FLAG,) if decoded.fell_back else ()
    yield RawSheet(
        name=path.stem,
        visible=True,
        rows=_card_rows(text, sep, flags, cfg.max_cell_chars),
        columns=_columns(text, sep),
        min_fields=1 if ANKI_HEADER.match(text.split("\n", 1)[0].rstrip("\r")) else None,
    )


def anki_export(path: Path, rel: str) -> bool:
    """Does the file open with an Anki header line (`#separator:tab`, `#html:false`)? Anki
    writes its text export under any name, `.csv` included: such a file is a deck (one
    card a line, a cloze card one field), never a table with a header row."""
    with open_regular(path, rel) as fh:
        head = fh.read(256)
    first = head.decode("utf-8", "replace").removeprefix("\ufeff").split("\n", 1)[0]
    return ANKI_HEADER.match(first.rstrip("\r")) is not None


def _columns(text: str, sep: str) -> tuple[str, ...]:
    """The deck's column names: Anki's `#columns:` names, else `front`, `back` (then
    unnamed), with the columns Anki's `#guid column:N`, `#notetype column:N`,
    `#deck column:N` and `#tags column:N` headers place named after them."""
    named: dict[int, str] = {}
    given: tuple[str, ...] = ()
    for line in _header_lines(text):
        m = ANKI_HEADER.match(line)
        if m is None:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "columns":
            given = tuple(n.strip() for n in value.split(sep))
        elif key.endswith(" column") and value.isdigit() and int(value) >= 1:
            named[int(value) - 1] = key.removesuffix(" column")
    if any(given):
        return given
    if not named:
        return CARD_COLUMNS
    width = max(len(CARD_COLUMNS) + len(named), max(named) + 1)
    free = iter([*CARD_COLUMNS, *([""] * width)])  # "": named by `header.given_header`
    return tuple(named[i] if i in named else next(free) for i in range(width))


def _header_lines(text: str) -> Iterator[str]:
    """Anki's header lines: the `#key:value` lines at the top of the file."""
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if ANKI_HEADER.match(line) is None:
            return
        yield line


def _card_rows(text: str, sep: str, flags: tuple[str, ...], max_chars: int) -> Iterator[SheetRow]:
    header = list(_header_lines(text))
    html = any(line.replace(" ", "").casefold() == "#html:true" for line in header)
    lines = text.split("\n")
    start = len(header)
    if header:  # Anki's own format: CSV quoting, fields may span lines
        body = lines[start:]
        numbers = _record_lines(body, sep, start)
        records: Iterator[list[str]] = csv.reader(body, delimiter=sep, strict=False)
    else:
        numbers = iter(range(1, len(lines) + 1))
        records = (line.split(sep, 1) if line.strip() else [] for line in lines)
    for number, record in zip(numbers, records, strict=False):
        cells = tuple(field_text(c, html) for c in record)
        if not any(cells):
            cells = ()
        cells, cut = cut_cells(cells, number, max_chars)
        yield SheetRow(number=number, cells=cells, flags=flags + cut)


def _record_lines(body: list[str], sep: str, offset: int) -> Iterator[int]:
    """The 1-based file line each CSV record of `body` starts on."""
    reader = csv.reader(body, delimiter=sep, strict=False)
    last = 0
    for _ in reader:
        yield offset + last + 1
        last = reader.line_num


def field_text(field: str, html: bool = False) -> str:
    """A card field as text: clozes answered, HTML read as HTML (text only)."""
    field = field.strip().rstrip("\r")
    media = media_text(field)  # a picture or sound: its alt text, else nothing
    if media is not None:
        field = media
    if "{{c" in field:
        field = _CLOZE.sub(r"\1", field)
    if html or _HTML.search(field) is not None:
        field = "\n".join(item.text for item in html_items(field))
    return field.strip()
