"""The source view in headless Chromium: marked chunks on screen, a report link scrolls to
its chunk, the label filter works (skipped without chromium)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notechunk.cli import main
from test_qa_report_browser import CHROMIUM, chromium, png_pixels
from test_qa_sources import page_data

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

FRAGMENT_ORANGE = bytes.fromhex("e07b39")  # the `fragment` badge and card border
SHORT_YELLOW = bytes.fromhex("d9a21b")  # the `short` badge and card border
TARGET_BLUE = bytes.fromhex("1f6feb")  # the outline of the linked chunk
VT = "--virtual-time-budget=5000"  # the page draws itself after inflating its data: wait


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    return out


def flagged_link(demo: Path, label: str, page: str = "") -> str:
    """The source-view link of the first `label` chunk in report.html's flagged table
    (on a source page whose name starts with `page`)."""
    html = (demo / "report.html").read_text(encoding="utf-8")
    table = html[html.index('id="flagged"') :]
    row = re.search(
        rf'<tr><td>{label}</td><td>[^<]*</td><td><a href="(sources/{re.escape(page)}[^"]+)"', table
    )
    assert row, f"no {label} row with a link"
    return row.group(1)


def colour_counts(
    raw: bytes, width: int, bpp: int, rows: int, colours: tuple[bytes, ...]
) -> dict[bytes, int]:
    """Pixels of exactly each of `colours` in the first `rows` scanlines (PNG row filters
    undone, in one pass)."""
    stride, prev = width * bpp, bytearray(width * bpp)
    counts = dict.fromkeys(colours, 0)
    for y in range(rows):
        start = y * (stride + 1)
        f, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for i in range(0, stride, bpp):
            px = bytes(line[i : i + 3])
            if px in counts:
                counts[px] += 1
        prev = line
    return counts


def test_link_scrolls_to_the_flagged_chunk(demo: Path, tmp_path: Path) -> None:
    href = flagged_link(demo, "short", "geography-monsoon")  # monsoon.md:11, its 3rd card
    page, target = href.split("#")
    url = (demo / page).as_uri() + "#" + target
    dom = chromium(tmp_path, "--window-size=1200,800", VT, "--dump-dom", url).stdout
    assert f'data-target="{target}"' in dom
    top = int(re.search(r'data-target-top="(-?\d+)"', dom).group(1))  # type: ignore[union-attr]
    assert 0 <= top <= 20, top  # the chunk is at the top of the window
    # headless --screenshot captures from the top of the page but paints only the tiles
    # around the scrolled-to chunk: a tall window keeps that chunk inside the picture
    png = tmp_path / "shot.png"
    chromium(tmp_path, f"--screenshot={png}", "--window-size=1200,1600", VT, url)
    width, _, bpp, raw = png_pixels(png.read_bytes())
    seen = colour_counts(raw, width, bpp, 1600, (SHORT_YELLOW, TARGET_BLUE))
    assert seen[SHORT_YELLOW] > 200  # the marked chunk
    assert seen[TARGET_BLUE] > 200  # outlined as the target


def test_page_shows_marked_chunks(demo: Path, tmp_path: Path) -> None:
    png = tmp_path / "page.png"
    page = demo / "sources" / "history-bhakti-movement.md-37ccf8eb.html"
    chromium(tmp_path, f"--screenshot={png}", "--window-size=1200,2400", VT, page.as_uri())
    width, _, bpp, raw = png_pixels(png.read_bytes())
    green = bytes.fromhex("3b8c5a")  # `ok` cards
    seen = colour_counts(raw, width, bpp, 2400, (green, FRAGMENT_ORANGE, SHORT_YELLOW))
    assert seen[green] > 1000 and seen[FRAGMENT_ORANGE] > 200 and seen[SHORT_YELLOW] > 200


def test_filter_from_the_url(demo: Path, tmp_path: Path) -> None:
    page = demo / "sources" / "history-bhakti-movement.md-37ccf8eb.html"
    data = page_data(page)
    total = len([i for i in data["items"] if "id" in i])
    flagged = sum(i.get("f", 0) for i in data["items"])
    assert total > flagged > 0
    dom = chromium(tmp_path, VT, "--dump-dom", page.as_uri() + "#show=flagged").stdout
    assert f'data-ready="{total}"' in dom
    shown = re.findall(r'<section class="chunk[^"]*"[^>]*data-f="(\d)"[^>]*>', dom)
    hidden = re.findall(r'<section [^>]*hidden=""', dom)
    assert len(shown) == total and len(hidden) == shown.count("0") == total - flagged
    assert f"{flagged} of {total} shown" in dom


def test_the_view_shows_every_line_and_escapes_it(tmp_path: Path) -> None:
    """The script draws every line of the file, numbered, with the chunk facts; hostile
    text stays text."""
    src = tmp_path / "notes"
    src.mkdir()
    evil = '<img src=x onerror="document.title=1">'
    lines = ["# Title", "", f"{evil} is a hostile line with enough words to be a chunk.", ""]
    (src / "n.md").write_text("\n".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    page = next(p for p in (out / "sources").glob("n.md-*.html"))
    dom = chromium(tmp_path, VT, "--dump-dom", page.as_uri()).stdout
    assert 'data-ready="1"' in dom and "<img" not in dom
    assert '<div class="l" data-n="1"># Title</div>' in dom
    assert "&lt;img src=x" in dom and 'data-n="3"' in dom and "in no chunk: heading" in dom


def test_index_lists_every_file(demo: Path, tmp_path: Path) -> None:
    dom = chromium(tmp_path, "--dump-dom", (demo / "sources" / "index.html").as_uri()).stdout
    assert 'data-filters-ready="1"' in dom and "21 of 21 rows" in dom
