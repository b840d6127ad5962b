"""io.cache: keys depend on the code, the config and the file; entries round-trip."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from chunks import make_chunk
from notechunk.chunk import DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config, MarkdownConfig
from notechunk.io.cache import Cache, code_fingerprint, config_key, file_key

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "notechunk"


def test_fingerprint_changes_when_a_rule_changes(tmp_path: Path) -> None:
    copy = tmp_path / "notechunk"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    before = code_fingerprint(copy)
    assert code_fingerprint(copy) == before
    rule = copy / "finish" / "quality.py"
    rule.write_text(rule.read_text() + "\n# a rule edited\n")
    assert code_fingerprint(copy) != before


def test_keys_depend_on_code_config_path_and_bytes() -> None:
    cfg = Config()
    k = config_key(cfg, "code-a")
    assert config_key(cfg, "code-b") != k
    other = replace(cfg, markdown=MarkdownConfig(window_max_words=90))
    assert config_key(other, "code-a") != k
    base = file_key(b"x", "a.md", k)
    assert file_key(b"y", "a.md", k) != base
    assert file_key(b"x", "b.md", k) != base
    assert file_key(b"x", "a.md", config_key(cfg, "code-b")) != base


def test_round_trip_and_damaged_entries(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    result = FileResult(
        source="s.csv",
        chunks=(
            make_chunk(text="t", source="s.csv", source_type="spreadsheet", row=2, id="x"),
            make_chunk(
                text="The Act applies.",
                source="s.csv",
                source_type="spreadsheet",
                row=4,
                id="y",
                resolved=(("The Act", "Government of India Act 1858"),),
                acronyms=(("WHO", "World Health Organization"),),
                section_paths=(("A", "B"), ("C",)),
            ),
        ),
        discarded=(
            DiscardedRow(
                source="s.csv",
                sheet="s",
                row=3,
                rule="too_few_fields",
                cells=(("A", "1"),),
                measured=1,
                threshold=2,
            ),
        ),
        reports=(
            SheetReport(
                source="s.csv",
                sheet="s",
                status="read",
                header_row=1,
                data_rows=2,
                blank_rows=0,
                chunks=1,
                discarded=1,
            ),
        ),
        errors=(FileError(source="s.csv", stage="read", reason="r"),),
    )
    key = "ab" + "0" * 62
    assert cache.get(key) is None
    cache.put(key, result)
    got = cache.get(key)
    assert got == result
    assert got is not None and type(got.discarded[0].measured) is int  # kept as measured
    path = tmp_path / "ab" / f"{key}.json"
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 4  # the file's records, a line per chunk, the seal
    path.write_bytes(b"".join(lines[:2]))  # a chunk short: a miss
    assert cache.load(key) == (None, "its lines do not match its checksum")
    path.write_bytes(b"".join([lines[0], lines[2], lines[3]]))  # a chunk gone, resealed as was
    assert cache.load(key)[1] == "its lines do not match its checksum"
    whole = b"".join(lines)
    assert b"The Act applies." in whole
    path.write_bytes(whole.replace(b"The Act applies.", b"The Act repeals."))  # never said
    assert cache.load(key) == (None, "its lines do not match its checksum")
    path.write_bytes(b"".join([*lines, b"{}\n"]))
    assert cache.load(key) == (None, "lines after its seal")
    path.write_bytes(b"".join(lines).replace(b'"notechunk":"', b'"notechunk":"0'))
    assert cache.load(key) == (None, "written by another notechunk version")
    path.write_text('{"source": 1}')  # a foreign shape is a miss, not a crash
    assert cache.get(key) is None
    path.write_text('{"trunc')
    assert cache.get(key) is None
