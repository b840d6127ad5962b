"""io.cache: keys depend on the code, the config and the file; entries round-trip."""

from __future__ import annotations

import gzip
import shutil
from dataclasses import replace
from pathlib import Path

import msgspec

from chunks import make_chunk
from notechunk.chunk import DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config, MarkdownConfig
from notechunk.io.cache import MAGIC, Cache, code_fingerprint, config_key, file_key

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
    path = cache.path(key)
    assert path == tmp_path / "ab" / f"{key}.msgpack.gz"
    frames = _frames(path)
    assert len(frames) == 5  # the magic, one batch of chunks, the end, the file's records, the seal
    _write(path, frames[:2])  # no end, no file records, no seal: torn
    assert cache.load(key) == (None, "torn")
    _write(path, [frames[0], *frames[2:]])  # the chunks gone, resealed as was
    assert cache.load(key) == (None, "its bytes do not match its checksum")
    assert b"The Act applies." in frames[1]
    forged = frames[1].replace(b"The Act applies.", b"The Act repeals.")  # never said
    _write(path, [frames[0], forged, *frames[2:]])
    assert cache.load(key) == (None, "its bytes do not match its checksum")
    _write(path, [*frames, b"\x00"])
    assert cache.load(key) == (None, "bytes after its seal")
    other = msgspec.msgpack.decode(frames[3][4:])
    other["notechunk"] = "0" + other["notechunk"]
    head = msgspec.msgpack.encode(other)
    _write(path, [*frames[:3], len(head).to_bytes(4, "big") + head, frames[4]])
    assert cache.load(key) == (None, "written by another notechunk version")
    cache.put(key, result)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 10])  # a torn gzip stream
    assert cache.load(key) == (None, "unreadable")
    path.write_bytes(whole[:-5] + bytes([whole[-5] ^ 1]) + whole[-4:])  # its gzip size wrong
    assert cache.load(key) == (None, "unreadable")
    path.write_bytes(whole)
    assert cache.get(key) == result
    path.write_bytes(gzip.compress(b'{"source": 1}'))  # a foreign shape is a miss, not a crash
    assert cache.load(key) == (None, "not an entry")
    path.write_text('{"trunc')
    assert cache.get(key) is None


def test_a_large_entry_streams_in_batches(tmp_path: Path) -> None:
    """More chunks than a batch: several chunk records, read back in order."""
    cache = Cache(tmp_path)
    chunks = tuple(
        make_chunk(text=f"row {k}", source="s.csv", source_type="spreadsheet", row=k + 2, id=f"{k}")
        for k in range(2_500)
    )
    result = FileResult(source="s.csv", chunks=chunks)
    key = "cd" + "1" * 62
    cache.put(key, result)
    assert len(_frames(cache.path(key))) == 1 + 3 + 3  # magic, three batches, end, head, seal
    assert cache.get(key) == result


def test_an_entry_written_in_parts_is_kept_only_when_it_ends_well(tmp_path: Path) -> None:
    """`Cache.writer`: the parts of a result read back as one; a part with errors, or an
    exception in the block, leaves no entry and no temporary file (the file is redone)."""
    cache = Cache(tmp_path)
    parts = [
        FileResult(
            source="s.csv",
            chunks=tuple(
                make_chunk(text=f"r{k}", source="s.csv", source_type="spreadsheet", id=f"{k}")
                for k in range(lo, lo + 3)
            ),
        )
        for lo in (0, 3)
    ]
    good, bad, broken = ("ab" + str(k) * 62 for k in range(3))
    with cache.writer(good, "s.csv") as entry:
        for part in parts:
            entry.add(part)
    got = cache.get(good)
    assert got is not None and got.chunks == parts[0].chunks + parts[1].chunks
    failing = replace(parts[1], errors=(FileError(source="s.csv", stage="read", reason="cut"),))
    with cache.writer(bad, "s.csv") as entry:
        entry.add(parts[0])
        entry.add(failing)
    try:
        with cache.writer(broken, "s.csv") as entry:
            entry.add(parts[0])
            raise OSError("mid-sheet")
    except OSError:
        pass
    assert cache.get(bad) is None and cache.get(broken) is None
    assert sorted(p.name for p in cache.path(good).parent.iterdir()) == [cache.path(good).name]


def _frames(path: Path) -> list[bytes]:
    """An entry's decompressed bytes cut where the writer writes: the magic, each chunk
    batch with its length, the end (a zero length), the file's records with their length,
    the seal (the digest)."""
    data = gzip.decompress(path.read_bytes())
    assert data.startswith(MAGIC)
    frames, at = [MAGIC], len(MAGIC)
    while (size := int.from_bytes(data[at : at + 4], "big")) != 0:
        frames.append(data[at : at + 4 + size])
        at += 4 + size
    frames.append(data[at : at + 4])
    at += 4
    size = int.from_bytes(data[at : at + 4], "big")
    frames += [data[at : at + 4 + size], data[at + 4 + size :]]
    return frames


def _write(path: Path, frames: list[bytes]) -> None:
    path.write_bytes(gzip.compress(b"".join(frames), mtime=0))
