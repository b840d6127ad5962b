"""The reliability catalog, round three: links that lead out of OUT, a cache that is
believed, configs that read secrets, interrupts, names and dates that are not plain.

Each case plants its hazard in a real run's OUT, SRC or config and runs `main` (or the
package in a subprocess), then checks the contract: the exit status, one clean stderr
line where there is an error, and that nothing outside OUT was written, moved, deleted
or quoted.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import make_corpus
from notechunk.cli import main
from notechunk.discover import source_bytes

NOTE = "# Note\n\nThe Zoji La pass links Srinagar with Leh at 3528 metres zqnote.\n"
SECRET = "zqsecret-token-do-not-quote"
SRC_DIR = Path(__file__).resolve().parents[1] / "src"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC_DIR)}


def _ran(tmp: Path, capfd: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """SRC with one note and OUT holding its finished run; a folder `elsewhere` beside
    them holds a file that must stay as it is."""
    src = tmp / "src"
    src.mkdir()
    (src / "a.md").write_text(NOTE)
    out = tmp / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    (tmp / "elsewhere").mkdir()
    (tmp / "elsewhere" / "keep.txt").write_text("mine\n")
    capfd.readouterr()
    return src, out


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "\x1b" not in err
    return lines[0]


def _elsewhere_intact(tmp: Path) -> None:
    assert sorted(p.name for p in (tmp / "elsewhere").iterdir()) == ["keep.txt"]
    assert (tmp / "elsewhere" / "keep.txt").read_text() == "mine\n"


def _replace_by_link(path: Path, target: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        import shutil

        shutil.rmtree(path)
    else:
        path.unlink()
    path.symlink_to(target)


def _replace_by_fifo(path: Path, _: Path) -> None:
    path.unlink()
    os.mkfifo(path)


PLANTED: list[tuple[str, str, Callable[[Path, Path], None]]] = [
    ("stages", "stages", _replace_by_link),  # an output link turned to another folder
    (".current", ".current", _replace_by_link),  # the current-run link turned away
    (".cache", ".cache", _replace_by_link),
    (".runs", ".runs", _replace_by_link),
    ("lock-fifo", ".lock", _replace_by_fifo),
    ("chunks-fifo", "chunks.jsonl.gz", _replace_by_fifo),
]


@pytest.mark.parametrize(("name", "entry", "plant"), PLANTED, ids=[p[0] for p in PLANTED])
def test_a_planted_entry_of_out_is_refused(
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    name: str,
    entry: str,
    plant: Callable[[Path, Path], None],
) -> None:
    src, out = _ran(tmp_path, capfd)
    plant(out / entry, tmp_path / "elsewhere")
    rc = main(["run", str(src), "--out", str(out)])
    line = _one_line(capfd.readouterr().err)
    assert rc == 2
    assert f"{out / entry}:" in line and "notechunk writes only what it made" in line
    _elsewhere_intact(tmp_path)


def test_a_link_inside_an_old_generation_is_never_followed(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A generation is removed once a newer one is current: a link planted in it is
    unlinked, never followed to what it points at."""
    src, out = _ran(tmp_path, capfd)
    old = (out / ".current").resolve()
    (old / "summary-copy.md").symlink_to(tmp_path / "elsewhere" / "keep.txt")
    (old / "qa" / "outside").symlink_to(tmp_path / "elsewhere")
    (src / "b.md").write_text("# B\n\nThe Rohtang pass links Manali with Keylong zqb.\n")
    assert main(["run", str(src), "--out", str(out)]) == 0
    assert (out / ".current").resolve() != old and not old.exists()
    _elsewhere_intact(tmp_path)


def test_an_edited_cache_entry_is_redone_with_a_note(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    src, out = _ran(tmp_path, capfd)
    [entry] = [p for p in (out / ".cache").rglob("*.msgpack.gz") if p.is_file()]
    # the text edited inside the compressed records (same length, so every record still
    # decodes): only the seal can tell
    forged = gzip.decompress(entry.read_bytes()).replace(b"zqnote", b"zqfake")
    entry.write_bytes(gzip.compress(forged))
    (src / "b.md").write_text("# B\n\nThe Rohtang pass links Manali with Keylong zqb.\n")
    assert main(["run", str(src), "--out", str(out)]) == 0
    line = _one_line(capfd.readouterr().err)
    assert "cache entry of a.md not used" in line and "redone" in line
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        texts = [json.loads(row)["text"] for row in fh]
    assert any("zqnote" in t for t in texts) and not any("zqfake" in t for t in texts)
    assert b"zqfake" not in gzip.decompress(entry.read_bytes())  # rewritten from the note


def _glossary_outside(tmp: Path) -> str:
    return "../secret.txt"


def _glossary_absolute(tmp: Path) -> str:
    return str(tmp / "secret.txt")


def _glossary_link(tmp: Path) -> str:
    (tmp / "cfg" / "terms.txt").symlink_to(tmp / "secret.txt")
    return "terms.txt"


def _glossary_fifo(tmp: Path) -> str:
    os.mkfifo(tmp / "cfg" / "terms.txt")
    return "terms.txt"


def _glossary_home(tmp: Path) -> str:
    return "~/secret.txt"


GLOSSARIES = {
    "outside-folder": (_glossary_outside, "outside"),
    "absolute-path": (_glossary_absolute, "outside"),
    "link-out": (_glossary_link, "outside"),
    "fifo": (_glossary_fifo, "not a regular file"),
    "tilde": (_glossary_home, "not expanded"),
}


@pytest.mark.parametrize("case", sorted(GLOSSARIES))
def test_a_config_cannot_read_a_file_outside_its_folder(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], case: str
) -> None:
    make, says = GLOSSARIES[case]
    (tmp_path / "secret.txt").write_text(f"API: {SECRET}\n")
    (tmp_path / "cfg").mkdir()
    value = make(tmp_path)
    (tmp_path / "cfg" / "c.toml").write_text(f'[enrich]\nglossary = "{value}"\n')
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text(NOTE + "\nThe API is used here.\n")
    out = tmp_path / "out"
    rc = main(["run", str(src), "--out", str(out), "--config", str(tmp_path / "cfg" / "c.toml")])
    line = _one_line(capfd.readouterr().err)
    assert rc == 2 and says in line and SECRET not in line
    assert not out.exists()


def test_sigint_is_one_line_and_130_and_out_stays_whole(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_corpus(src, 150, seed=3, sentences=120)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
    subprocess.run(cmd, env=_env(), check=True, capture_output=True)
    before = (out / ".current").resolve()
    for path in sorted(src.rglob("*.md"))[::2]:
        path.write_text(path.read_text() + "\nAn added zqedit sentence for this test.\n")
    proc = subprocess.Popen(
        cmd, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    time.sleep(1.5)
    if proc.poll() is not None:
        pytest.fail("the run ended before it could be interrupted: make the corpus larger")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupt" in _one_line(err).lower()
    assert (out / ".current").resolve() == before  # the previous run is still the one shown
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        assert all(json.loads(row)["id"] for row in fh)


def test_names_that_are_not_utf8_keep_a_unique_reversible_source(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    names = [b"caf\xe9.md", "café.md".encode(), b"caf\\xe9.md"]  # Latin-1, UTF-8, a backslash
    for k, raw in enumerate(names):
        (src / os.fsdecode(raw)).write_text(f"# C\n\nA note about coffee number zq{k}.\n")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        sources = {json.loads(row)["source"] for row in fh}
    assert len(sources) == 3
    assert sorted(source_bytes(s) for s in sources) == sorted(names)


def test_dates_are_dates_whatever_the_year(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Battles"
    ws.append(["Battle", "Date", "Note"])
    ws.append(["Plassey", dt.date(1757, 6, 23), "Clive defeated the Nawab of Bengal"])
    ws.append(["Panipat", dt.datetime(1526, 4, 21), "Babur defeated Ibrahim Lodi there"])
    ws.append(["Ahead", dt.date(2150, 1, 2), "A date far in the future here"])
    src = tmp_path / "src"
    src.mkdir()
    wb.save(src / "battles.xlsx")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        texts = " ".join(json.loads(row)["text"] for row in fh)
    for day in ("1757-06-23", "1526-04-21", "2150-01-02"):
        assert f"Date: {day}." in texts


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("fake.xlsx", b"<html><body>not a workbook</body></html>", "fake.xlsx: "),
        ("image.csv", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "image.csv: "),
        ("zip.ods", b"PK\x03\x04" + b"\x00" * 64, "zip.ods: "),
    ],
    ids=["html-as-xlsx", "png-as-csv", "broken-zip-as-ods"],
)
def test_bytes_that_are_not_their_extension_are_one_error(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str, data: bytes, says: str
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text(NOTE)
    (src / name).write_bytes(data)
    rc = main(["run", str(src), "--out", str(tmp_path / "out")])
    line = _one_line(capfd.readouterr().err)
    assert rc == 1 and line.startswith(f"notechunk: {says}")
    errors = json.loads((tmp_path / "out" / "qa" / "errors.json").read_text(encoding="utf-8"))
    assert [e["source"] for e in errors] == [name]


@pytest.mark.parametrize("how", ["-c", "stdin"])
def test_the_api_runs_from_python_c_and_stdin(tmp_path: Path, how: str) -> None:
    """Workers start without re-importing a `__main__` that has no file."""
    src = tmp_path / "src"
    make_corpus(src, 6, seed=2, sentences=20)
    code = (
        "import notechunk, sys\n"
        f"r = notechunk.run({str(src)!r}, {str(tmp_path / 'out')!r}, workers=2)\n"
        "print(len(r.metrics.sources))\n"
    )
    args = [sys.executable, "-c", code] if how == "-c" else [sys.executable, "-"]
    done = subprocess.run(
        args,
        input=None if how == "-c" else code,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "6"
