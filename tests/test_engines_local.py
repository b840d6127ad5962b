"""engines.local: contiguous byte-balanced batches; results in file order for any pool size."""

from __future__ import annotations

from pathlib import Path

import pytest

from notechunk.config import Config
from notechunk.discover import discover
from notechunk.engines.local import batches


def notes(tmp_path: Path, sizes: list[int]) -> Path:
    for k, n in enumerate(sizes):
        (tmp_path / f"n{k:02d}.md").write_text(f"# N{k}\n\n" + "word " * n + "\n")
    return tmp_path


def test_batches_are_contiguous_and_cover_every_file(tmp_path: Path) -> None:
    files = discover(notes(tmp_path, [10, 500, 10, 10, 400, 10, 10, 10])).files
    parts = batches(files, 2)
    assert [f for part in parts for f in part] == list(files)
    assert 1 < len(parts) <= 8 and all(parts)
    assert batches([], 4) == []


def test_files_too_big_for_one_block_give_the_same_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over WHOLE_BLOCK chunks gets its token blocks from the spill, a record at a
    time: every output is the same bytes."""
    from notechunk.cli import main
    from notechunk.corpus import inputs
    from notechunk.corpus import spill as spilled
    from notechunk.data import SAMPLE_DIR

    assert main(["run", str(SAMPLE_DIR), "--out", str(tmp_path / "a"), "--workers", "1"]) == 0
    monkeypatch.setattr(inputs, "WHOLE_BLOCK", 2)
    monkeypatch.setattr(spilled, "RECORD", 3)
    assert main(["run", str(SAMPLE_DIR), "--out", str(tmp_path / "b"), "--workers", "1"]) == 0
    names = ("chunks.jsonl.gz", "qa/metrics.json", "qa/flagged.json", "stages/excel_chunks.jsonl")
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_stored_in_the_workers_as_here(tmp_path: Path) -> None:
    """`store_files` on two workers stores each batch there (a sheet past `SHEET_PART`
    rows part by part, as this process does): read back in output order, the same
    records, token blocks, hashes and keys as one batch stored here."""
    from notechunk.corpus.spill import spill
    from notechunk.engines import SHEET_PART
    from notechunk.engines.local import store_files

    src = tmp_path / "src"
    src.mkdir()
    notes(src, [30, 5, 80, 12])
    rows = "\n".join(f"{k},Pass {k},Ladakh" for k in range(SHEET_PART + 300))
    (src / "a.csv").write_text("Id,Name,State\n" + rows + "\n")  # a batch alone
    files = discover(src).files
    cfg = Config()
    one = list(store_files(files, tmp_path / "one", cfg, workers=1))
    two = list(store_files(files, tmp_path / "two", cfg, workers=2))
    assert len(one) == 1 and len(two) > 1
    assert [k for b in one for k in b.keys] == [k for b in two for k in b.keys]
    assert len(one[0].batch.files) > len(files)  # the sheet came in parts
    here = spill((b.batch for b in one), tmp_path / "one", cfg)
    there = spill((b.batch for b in two), tmp_path / "two", cfg)
    assert list(here.chunks()) == list(there.chunks())
    assert here.original.tolist() == there.original.tolist()
    assert here.scores().tolist() == there.scores().tolist()
    assert [f.glossary for b in one for f in b.batch.files] == [
        f.glossary for b in two for f in b.batch.files
    ]


def test_the_source_view_beside_the_write_pass_is_the_one_written_here(tmp_path: Path) -> None:
    """Two workers write the source view on a worker (`Gathered.aside`) from its own read
    of the spill, one worker here after the other outputs: the same bytes, every file."""
    from notechunk.cli import main
    from notechunk.data import SAMPLE_DIR

    for name, workers in (("one", "1"), ("two", "2")):
        out = str(tmp_path / name)
        assert main(["run", str(SAMPLE_DIR), "--out", out, "--workers", workers]) == 0
    here, beside = (sorted((tmp_path / n / "sources").rglob("*")) for n in ("one", "two"))
    assert [p.relative_to(tmp_path / "one") for p in here] == [
        p.relative_to(tmp_path / "two") for p in beside
    ]
    assert len(here) > 10
    for a, b in zip(here, beside, strict=True):
        assert a.is_dir() or a.read_bytes() == b.read_bytes(), a


def test_a_job_beside_gives_its_error_to_whoever_waits() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from notechunk.engines.local import beside

    def failing() -> None:
        raise OSError(28, "No space left on device")

    with ThreadPoolExecutor(1) as pool:
        wait = beside(pool)(failing)
        with pytest.raises(OSError, match="No space"):
            wait()
