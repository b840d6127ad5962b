"""report.html renders in headless Chromium: a non-blank screenshot and working filter JS."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

import qa_fixtures as fx
from qa_fixtures import finalize

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def chromium(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp / 'profile'}", *args,
    ]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def png_pixels(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, raw scanlines with filter bytes) of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, bpp = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            bpp = {2: 3, 6: 4, 0: 1, 4: 2}[color]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return width, height, bpp, zlib.decompress(idat)


def distinct_colours(raw: bytes, width: int, bpp: int, rows: int = 400) -> int:
    """Colours in the first `rows` scanlines, undoing PNG filters."""
    stride = width * bpp
    prev = bytearray(stride)
    seen: set[bytes] = set()
    for y in range(rows):
        start = y * (stride + 1)
        f, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        seen.update(bytes(line[i : i + bpp]) for i in range(0, stride, bpp * 7))
        prev = line
    return len(seen)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    finalize(out, fx.stage_chunks(), fx.discarded(), fx.sheet_reports(), fx.errors(), fx.CFG)
    return out / "report.html"


def test_screenshot_is_not_blank(report: Path, tmp_path: Path) -> None:
    png = tmp_path / "report.png"
    chromium(tmp_path, f"--screenshot={png}", "--window-size=1200,2000", report.as_uri())
    assert png.is_file() and png.stat().st_size > 1000
    width, height, bpp, raw = png_pixels(png.read_bytes())
    assert (width, height) == (1200, 2000)
    assert distinct_colours(raw, width, bpp) > 5


def test_filter_script_runs(report: Path, tmp_path: Path) -> None:
    dom = chromium(tmp_path, "--dump-dom", report.as_uri() + "#flagged=fragment").stdout
    assert re.search(
        r'<body[^>]*data-filters-ready="6"', dom
    )  # flagged, discarded, errors, glossary, dangling, the Markdown line accounts
    assert '<table id="lines"' in dom
    table = dom[dom.index('id="flagged"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr( hidden=\"\")?><td>(\w+)</td>", table)
    assert rows, "flagged rows missing"
    assert {q for hidden, q in rows if not hidden} == {"fragment"}
    assert any(hidden for hidden, _ in rows)
    assert 'id="flagged-count">3 of 11 rows' in dom
