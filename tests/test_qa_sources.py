"""qa.sources: every chunk shown in its file, omissions with their reasons, all escaped."""

from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from chunks import make_chunk
from notechunk.chunk import Chunk, DiscardedRow
from notechunk.cli import main
from notechunk.corpus import Corpus
from notechunk.qa import source_pages, sources_html
from notechunk.qa.rebuild import build_report
from notechunk.qa.sources import Card, FileView, Gap, layout, page_name
from notechunk.textio import source_lines

EVIL = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'


def md_chunk(text: str, lines: tuple[int, int], cid: str, **kw: object) -> Chunk:
    return make_chunk(
        text=text,
        source="n.md",
        source_type="markdown",
        lines=lines,
        id=cid,
        **kw,  # type: ignore[arg-type]
    )


def test_page_names_are_safe_stable_and_distinct() -> None:
    names = [page_name(s) for s in ("a/b c.md", "a-b c.md", "../../x.md", f"{EVIL}.md", "é.md")]
    assert all(re.fullmatch(r"[A-Za-z0-9_][\w.-]*-[0-9a-f]{8}\.html", n) for n in names), names
    assert len(set(names)) == len(names)  # same slug, different hash
    assert page_name("a/b c.md") == page_name("a/b c.md")


def test_source_lines_number_as_the_runner_does() -> None:
    assert source_lines("a\r\nb\rc\n") == ["a", "b", "c"]
    assert source_lines("a\x0bb\u2028c\n\nd") == ["a\x0bb\u2028c", "", "d"]  # not line ends


def test_layout_gaps_and_overlap() -> None:
    a = md_chunk("A", (3, 5), "a")
    b = md_chunk("B", (5, 7), "b")  # overlaps a on line 5
    c = md_chunk("C", (10, 10), "c")
    got = layout([a, b, c], n_lines=12)
    assert got == [
        Gap(1, 2), Card(a, 3, 5, 0), Card(b, 5, 7, 5), Gap(8, 9), Card(c, 10, 10, 7),
        Gap(11, 12),
    ]  # fmt: skip


def test_lines_past_the_end_are_clamped() -> None:
    (card,) = layout([md_chunk("A", (1, 9), "a")], n_lines=3)
    assert isinstance(card, Card) and (card.first, card.last) == (1, 3)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrimmedChunk(Chunk):
    """A chunk as the context-dead trimming issue will make it (a `trimmed` field)."""

    trimmed: tuple[str, ...] = ()


def render(view: FileView, text: str | None = None) -> str:
    """The view's facts as one JSON string (what the page's script draws)."""
    lines = source_lines(text) if text is not None else None
    where = {"a": "n.md", "b": "n.md"}
    return json.dumps(
        sources_html.page_data(view, lines, lambda c: f"reason for {c.id}", where),
        ensure_ascii=False,
    )


def inflate(b64: str) -> str:
    return zlib.decompress(base64.b64decode(b64), -15).decode("utf-8")


def page_data(page: Path) -> dict[str, object]:
    """A page's inline view, inflated."""
    html = page.read_text(encoding="utf-8")
    raw = re.search(r'<script id="nc-data" type="application/octet-stream">([^<]*)</script>', html)
    assert raw, page
    data: dict[str, object] = json.loads(inflate(raw.group(1)))
    return data


def page_text(page: Path) -> list[str] | None:
    """The lines a page shows (its text file, inflated), None when it has none."""
    ref = re.search(r'<script src="(text/[0-9a-f]{32}\.js)">', page.read_text(encoding="utf-8"))
    if ref is None:
        return None
    js = (page.parent / ref.group(1)).read_text(encoding="ascii")
    return inflate(js.split('"')[1]).split("\n")


def test_markdown_page_marks_chunks_gaps_and_omissions() -> None:
    text = "# Title\n\nFirst para here.\nSecond line.\n\nCopy.\n\nSee above for more.\n"
    a = md_chunk("First para here. Second line.", (3, 4), "a", quality="short")
    b = md_chunk("Copy.", (6, 6), "b")
    dup = md_chunk("Copy.", (6, 6), "d", omit=True, duplicate_of="b", flags=("duplicate",))
    dead = make_chunk(cls=TrimmedChunk,
        text="", source="n.md", source_type="markdown", lines=(8, 8), id="t",
        quality="context_dead", omit=True, flags=("context_dead_trimmed:see above",),
        trimmed=("See above for more.",),
    )  # fmt: skip
    view = FileView(
        source="n.md", source_type="markdown", chunks=(a, b, dup, dead),
        flagged=frozenset({"a", "d", "t"}),
    )  # fmt: skip
    items = json.loads(render(view, text))["items"]
    cards = {i["id"]: i for i in items if "id" in i}
    assert len(cards) == 4
    assert (cards["a"]["q"], cards["a"]["f"], cards["a"]["o"]) == ("short", 1, 0)
    assert (cards["d"]["q"], cards["d"]["f"], cards["d"]["o"]) == ("ok", 1, 1)
    assert cards["d"]["why"] == "reason for d" and cards["d"]["orig"].startswith("n.md-")
    assert cards["d"]["orig"].endswith("#c-b")
    assert cards["t"]["tr"] == [["see above", "See above for more."]]
    assert items[0] == {"g": [1, 2], "cap": ""}  # the heading, in no chunk
    assert (cards["d"]["a"], cards["d"]["b"], cards["d"]["sh"]) == (6, 6, 6)  # shares line 6


def test_a_markdown_page_says_why_lines_are_in_no_chunk_and_whether_it_conserves() -> None:
    """Issue 22: the gaps name the account's reasons; a line lost without one is flagged
    and the page says "Conserved: NO, 1 lines unaccounted for"."""
    from notechunk.chunk import LineAccount, SkippedLines

    text = "# Title\n\nFirst para here.\n\nLost line.\n"
    a = md_chunk("First para here.", (3, 3), "a")
    heading = SkippedLines(first=1, last=1, reason="heading", text="# Title")
    account = LineAccount(
        source="n.md", lines=3, in_chunks=1, skipped_lines=1, skipped=(heading,), unaccounted=(5,)
    )
    view = FileView(source="n.md", source_type="markdown", chunks=(a,), account=account)
    data = json.loads(render(view, text))
    assert data["items"][0] == {"g": [1, 2], "cap": "heading"}
    assert data["items"][-1] == {"g": [4, 5], "cap": "", "lost": 1}
    assert "Conserved: NO, 1 lines unaccounted for" in data["s"]
    whole = FileView(
        source="n.md",
        source_type="markdown",
        chunks=(a,),
        account=LineAccount(source="n.md", lines=3, in_chunks=3, skipped_lines=0),
    )
    assert "Conserved: yes" in json.loads(render(whole, text))["s"]


def test_unreadable_source_shows_chunk_text() -> None:
    view = FileView(source="n.md", source_type="markdown", chunks=(md_chunk("Hi", (1, 1), "a"),))
    data = json.loads(render(view))
    assert data["unread"] is True and data["items"][0]["x"] == "Hi"


def test_sheet_page_shows_rows_in_order_with_discards() -> None:
    kept = make_chunk(text="Pass: Zoji La", source="p.csv", source_type="spreadsheet", sheet="p",
                 row=3, id="r3")  # fmt: skip
    gone = DiscardedRow(source="p.csv", sheet="p", row=2, rule="structural",
                        cells=(("Pass", "Total"),), measured=1.0, threshold="label")  # fmt: skip
    view = FileView(source="p.csv", source_type="spreadsheet", chunks=(kept,), discarded=(gone,))
    data = json.loads(render(view))
    (sheet,) = data["sheets"]
    assert [r.get("d", r.get("row")) for r in sheet["rows"]] == [2, 3]
    assert sheet["rows"][0]["why"].startswith("discarded, structural")
    assert sheet["rows"][0]["x"] == "Pass: Total"
    assert ["discarded", "discarded rows"] in data["opts"]


def test_everything_is_escaped(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    note = f"# {EVIL}\n\n{EVIL} is a hostile note with enough words to be a chunk.\n"
    (src / "evil<b>.md").write_text(note, encoding="utf-8")
    (src / "rows.csv").write_text(f"Name,Note\n{EVIL},{EVIL} and more words\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    pages = [p for p in (out / "sources").glob("*.html") if p.name != "index.html"]
    assert len(pages) == 2
    for path in [*pages, out / "sources" / "index.html", out / "report.html"]:
        html = path.read_text(encoding="utf-8")
        assert "<script>alert" not in html and "<img" not in html and "<b>.md" not in html, path
    assert "&lt;b&gt;.md" in "".join(p.read_text() for p in pages)  # the name, escaped
    # the notes' text is data the script escapes (test_qa_sources_browser draws it)
    assert any(EVIL in "\n".join(page_text(p) or []) for p in pages)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    return out


def stage_chunks(out: Path) -> list[dict[str, object]]:
    rows = []
    for name in ("markdown_chunks.jsonl", "excel_chunks.jsonl"):
        rows += [json.loads(x) for x in (out / "stages" / name).read_text().splitlines()]
    return rows


def ids_of(data: dict[str, object]) -> list[str]:
    items = data.get("items") or [r for s in data.get("sheets", []) for r in s["rows"]]  # type: ignore[attr-defined]
    return [i["id"] for i in items if "id" in i]  # type: ignore[union-attr]


def test_every_chunk_and_discarded_row_is_on_a_page(demo: Path) -> None:
    pages = {
        p.name: page_data(p) for p in (demo / "sources").glob("*.html") if p.name != "index.html"
    }
    for c in stage_chunks(demo):
        assert ids_of(pages[page_name(str(c["source"]))]).count(str(c["id"])) == 1
    discarded = json.loads((demo / "qa" / "discarded_rows.json").read_text())
    shown = sum(
        1
        for d in pages.values()
        for s in d.get("sheets", [])
        for r in s["rows"]
        if "d" in r  # type: ignore[attr-defined]
    )
    assert discarded and shown == len(discarded)
    for name, data in pages.items():  # every Markdown line is on its page, once
        if data["kind"] == "markdown" and data["items"]:
            lines = page_text(demo / "sources" / name)
            assert lines is not None
            covered = [
                n for i in data["items"] if "g" in i for n in range(i["g"][0], i["g"][1] + 1)
            ]  # type: ignore[index]
            covered += [
                n
                for i in data["items"]
                if "a" in i
                for n in range(max(i["a"], i["sh"] + 1), i["b"] + 1)
            ]  # type: ignore[index,operator]
            assert sorted(covered) == list(range(1, len(lines) + 1)), name


def test_report_links_land_on_the_chunk(demo: Path) -> None:
    html = (demo / "report.html").read_text(encoding="utf-8")
    links = re.findall(r'href="sources/([^"#]+)#c-([0-9a-f]+)"', html)
    flagged = json.loads((demo / "qa" / "flagged.json").read_text())
    assert {cid for _, cid in links} >= {f["id"] for f in flagged}
    for page, cid in links:
        assert cid in ids_of(page_data(demo / "sources" / page))
    assert 'href="sources/index.html"' in html
    pages = set(re.findall(r'href="sources/([^"#]+)"', html))
    assert len(pages) == 22 and all((demo / "sources" / p).is_file() for p in pages)
    (demo / "report.html").unlink()
    build_report(demo)  # rebuilt from the artifacts alone, the links stay
    assert (demo / "report.html").read_text(encoding="utf-8") == html


def test_a_removed_note_loses_its_page(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    for name in ("a", "b"):
        (src / f"{name}.md").write_text(f"# {name}\n\nA note called {name} with text.\n")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    assert (out / "sources" / page_name("b.md")).is_file()
    (src / "b.md").unlink()
    assert main(["run", str(src), "--out", str(out)]) == 0
    assert not (out / "sources" / page_name("b.md")).exists()
    assert (out / "sources" / page_name("a.md")).is_file()
    assert "b.md" not in (out / "sources" / "index.html").read_text(encoding="utf-8")


def test_a_file_with_only_an_error_gets_its_page(tmp_path: Path) -> None:
    from notechunk.chunk import FileError
    from notechunk.qa.source_pages import write_source_pages

    corpus = Corpus(errors=(FileError(source="bad.xlsx", stage="read", reason="not a zip"),))
    write_source_pages(tmp_path, [], corpus, lambda c: "", lambda c: False, None, {})
    page = page_data(tmp_path / "sources" / page_name("bad.xlsx"))
    assert page["err"] == ["read error: not a zip"]


def test_a_huge_file_shows_its_first_items_and_says_where_the_rest_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source_pages, "MAX_PAGE_ITEMS", 3)
    rows = [
        make_chunk(text=f"Row {i}.", source="big.csv", source_type="spreadsheet", row=i, id=f"r{i}")
        for i in range(2, 12)
    ]
    rows[-1] = make_chunk(
        text="Row 11.", source="big.csv", source_type="spreadsheet", row=11, id="r11", omit=True
    )
    gone = tuple(
        DiscardedRow(
            source="big.csv",
            sheet="s",
            row=20 + i,
            rule="blank",
            cells=(),
            measured=0.0,
            threshold="empty",
        )
        for i in range(5)
    )
    extras = Corpus(discarded=gone)
    source_pages.write_source_pages(
        tmp_path, iter(rows), extras, lambda c: "r", lambda c: c.omit, None, {}
    )
    page = page_data(tmp_path / "sources" / page_name("big.csv"))
    assert len(ids_of(page)) == 3  # the first three chunks only
    assert "10 chunks: 9 kept, 1 omitted, 1 flagged · 5 discarded rows" in str(page["s"])
    assert "shows the first 3 chunks and 3 discarded rows" in str(page["s"])
    index = (tmp_path / "sources" / "index.html").read_text()
    cells = re.findall(r'<td class="num">(\d+)</td>', index)
    assert cells == ["10", "9", "1", "1", "5", "0"]  # the whole file's counts
