"""perfile: one file's bytes in, its finished chunks (or one FileError) out; the cache."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from notechunk.chunk import FileResult
from notechunk.config import Config
from notechunk.discover import discover
from notechunk.perfile import Tools, file_outcomes, join_parts, process_batch, process_markdown
from notechunk.textio import FALLBACK_FLAG

CFG = Config()


def md(data: bytes, rel: str = "n.md") -> FileResult:
    return process_markdown(rel, data, CFG, Tools.load(CFG))


def test_markdown_is_finished_with_ids_and_title() -> None:
    res = md(b"# Writs\n\nHabeas corpus protects personal liberty against unlawful detention.\n")
    (c,) = res.chunks
    assert c.id and c.title == "n" and c.embed_text.startswith("n > Writs\n")
    assert c.quality == "fragment" and c.word_count == 8


def test_cp1252_note_is_read_and_flagged_once() -> None:
    (c,) = md("# Caf\u00e9\n\nThe caf\u00e9 opened in 1923.\n".encode("cp1252")).chunks
    assert "café" in c.text and c.flags.count(FALLBACK_FLAG) == 1


def test_binary_file_is_one_error() -> None:
    res = md(b"\x00\x01binary")
    assert not res.chunks and len(res.errors) == 1 and "NUL" in res.errors[0].reason


def test_batch_caches_good_results_only(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# A\n\nAlpha text.\n")
    (src / "b.md").write_bytes(b"\x00bad")
    files = list(discover(src).files)
    first = process_batch(files, CFG, tmp_path / "cache", "k")
    assert [bool(o.result.errors) for o in first] == [False, True]
    cached = list((tmp_path / "cache").rglob("*.msgpack.gz"))
    assert len(cached) == 1
    again = process_batch(files, CFG, tmp_path / "cache", "k")
    assert [o.result for o in again] == [o.result for o in first]
    assert [o.key for o in again] == [o.key for o in first]


def test_a_vault_note_has_its_title_path_and_its_own_cache_entry(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "vault").mkdir(parents=True)
    (src / "vault" / "dendron.yml").write_text("version: 5\n")
    note = "---\ntitle: Microeconomics\n---\n\n# Supply\n\nPrices rise when supply falls.\n"
    (src / "vault" / "economics.MIT.micro.md").write_text(note)
    (src / "v1.2 notes.md").write_text("# Draft\n\nText.\n")
    files = {f.rel: f for f in discover(src).files}
    (vault,) = process_batch([files["vault/economics.MIT.micro.md"]], CFG, None, "k")
    (c,) = vault.result.chunks
    assert c.title == "economics > MIT > Microeconomics"
    assert c.embed_text.startswith("economics > MIT > Microeconomics > Supply\n")
    (plain,) = process_batch([files["v1.2 notes.md"]], CFG, None, "k")
    assert plain.result.chunks[0].title == "v1.2 notes"
    alone = replace(files["vault/economics.MIT.micro.md"], hierarchy=False)
    (other,) = process_batch([alone], CFG, None, "k")
    assert other.key != vault.key  # the title differs, so must the cache entry


def test_a_txt_note_is_plain_text_never_code() -> None:
    data = b"Osmosis\n\n    Water moves across a membrane to the saltier side.\n"
    (c,) = md(data, "bio/osmosis.txt").chunks
    assert "```" not in c.text and c.title == "osmosis" and c.lines == (1, 3)
    (as_md,) = md(data, "bio/osmosis.md").chunks
    assert "```" in as_md.text  # the same bytes as Markdown: indented code


def test_a_sheet_in_parts_is_cached_whole_and_joins_to_the_batch_result(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    rows = "".join(f"Pass {k},Ladakh {k},{4000 + k} m,an old trade route {k}\n" for k in range(9))
    (src / "p.csv").write_text("Pass,State,Altitude,Note\n" + rows)
    files = list(discover(src).files)
    parts = list(file_outcomes(files, CFG, tmp_path / "cache", "k", every=4))
    assert [o.more for o in parts] == [True, True, True, False]
    assert [len(o.result.chunks) for o in parts] == [4, 4, 1, 0]  # the rows, then the rest
    assert not parts[0].result.reports and parts[-1].result.reports
    (whole,) = process_batch(files, CFG, None, "k")
    assert join_parts("p.csv", [o.result for o in parts]) == whole.result
    (cached,) = list((tmp_path / "cache").rglob("*.msgpack.gz"))
    hit = process_batch(files, CFG, tmp_path / "cache", "k")
    assert [o.result for o in hit] == [whole.result]  # the entry written part by part
    cut = replace(CFG, sheets=replace(CFG.sheets, max_rows=5))  # truncated: an error
    errs = list(file_outcomes(files, cut, tmp_path / "cut", "k", every=4))
    assert errs[-1].result.errors
    assert not list((tmp_path / "cut").rglob("*.msgpack.gz*"))  # not kept, no temporary left
    assert cached.is_file()
