"""api: run, chunk_file, chunk_markdown_text, load, iter_chunks; in memory is what ships."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import notechunk
from notechunk import api
from notechunk.chunk import SCHEMA_VERSION, Chunk
from notechunk.config import Config
from notechunk.data import SAMPLE_DIR
from notechunk.errors import ConfigError, InputError, MissingExtra, UsageError


def unscored(chunks: list[Chunk]) -> list[Chunk]:
    return [replace(c, retrieval_score=None) for c in chunks]


@pytest.fixture(scope="module")
def sample_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = notechunk.run(SAMPLE_DIR, out)
    assert result.exit_code == 0
    return out


def test_run_returns_the_cli_result(sample_out: Path, tmp_path: Path) -> None:
    from notechunk.cli import main

    assert main(["run", str(SAMPLE_DIR), "--out", str(tmp_path)]) == 0
    cli_bytes = (tmp_path / "chunks.jsonl.gz").read_bytes()
    assert gzip.decompress(cli_bytes) == gzip.decompress(
        (sample_out / "chunks.jsonl.gz").read_bytes()
    )
    result = notechunk.run(str(SAMPLE_DIR), str(tmp_path), use_cache=False, workers=2)
    assert isinstance(result, notechunk.RunResult)
    assert result.metrics.surviving == len(list(notechunk.load(tmp_path)))


def test_run_reads_src_toml_or_the_given_config(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nOne. Two. Three. Four.\n", encoding="utf-8")
    (notes / "notechunk.toml").write_text("[markdown]\nwindow_sentences = 1\n", encoding="utf-8")
    assert notechunk.run(notes, tmp_path / "o1").markdown_chunks == 4
    cfg_file = tmp_path / "two.toml"
    cfg_file.write_text("[markdown]\nwindow_sentences = 2\noverlap = 0.0\n", encoding="utf-8")
    assert notechunk.run(notes, tmp_path / "o2", cfg_file).markdown_chunks == 2
    typed = Config().with_overrides(markdown={"window_sentences": 4})
    assert notechunk.run(notes, tmp_path / "o3", typed).markdown_chunks == 1


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"src": "/no/such/notes"}, UsageError, "no such file or folder"),
        ({"workers": 0}, UsageError, "workers must be at least 1"),
        ({"segmenter": "nope"}, ConfigError, "unknown segmenter"),
        ({"config": "/no/such.toml"}, ConfigError, "cannot read config"),
        ({"config": Config(tokenizer="hf:/no/tok.json")}, ConfigError, "no tokenizer.json"),
        ({"src": SAMPLE_DIR / "notechunk.toml"}, UsageError, "not a folder, a Markdown"),
        ({"out": SAMPLE_DIR / "geography"}, UsageError, "not a notechunk output folder"),
    ],
    ids=["src", "workers", "segmenter", "config-file", "tokenizer", "src-kind", "foreign-out"],
)
def test_run_errors_are_notechunk_errors(
    tmp_path: Path, kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    args: dict[str, object] = {"src": SAMPLE_DIR / "polity", "out": tmp_path / "out", **kwargs}
    with pytest.raises(error, match=message):
        notechunk.run(**args)  # type: ignore[arg-type]
    assert not (tmp_path / "out").exists()  # nothing done before the arguments are checked
    assert not (SAMPLE_DIR / "qa").exists()


def test_chunk_file_is_what_run_ships_for_that_file(tmp_path: Path) -> None:
    for name in ("polity/writs.md", "sheets/passes.xlsx", "sheets/constitution_articles.csv"):
        path = SAMPLE_DIR / name
        notechunk.run(path, tmp_path / name)
        shipped = unscored(list(notechunk.load(tmp_path / name)))
        assert shipped
        assert notechunk.chunk_file(path) == shipped
        assert notechunk.chunk_file(str(path), Config()) == shipped


def test_chunk_file_include_omitted_and_errors(tmp_path: Path) -> None:
    note = tmp_path / "a.md"
    note.write_text("# A\n\nSee above for the list.\n\nThe river rises at Gangotri.\n", "utf-8")
    kept = notechunk.chunk_file(note, Config().with_overrides(markdown={"window_sentences": 1}))
    every = notechunk.chunk_file(
        note, Config().with_overrides(markdown={"window_sentences": 1}), include_omitted=True
    )
    assert [c.omit for c in every] == [True, False] and every[1:] == kept
    with pytest.raises(InputError, match="no such file"):
        notechunk.chunk_file(tmp_path / "missing.md")
    with pytest.raises(InputError, match="not a Markdown, text or spreadsheet file"):
        notechunk.chunk_file(tmp_path / "notes.pdf")  # a .txt is a note now
    bad = tmp_path / "fake.xlsx"
    bad.write_bytes(b"<html>not a workbook</html>")
    with pytest.raises(InputError, match=r"^fake\.xlsx: "):
        notechunk.chunk_file(bad)


def test_chunk_markdown_text() -> None:
    [chunk] = notechunk.chunk_markdown_text("# Writs\n\nMandamus commands a public official.")
    assert chunk.embed_text == "Writs\nMandamus commands a public official."  # no "<text>" title
    assert (chunk.source, chunk.title, chunk.lines) == ("<text>", "", (3, 3))
    named = notechunk.chunk_markdown_text("Mandamus.", source="polity/writs.md")
    assert named[0].embed_text == "writs\nMandamus."
    front = notechunk.chunk_markdown_text("---\ntitle: Writs of India\n---\nMandamus.\n")
    assert front[0].embed_text == "Writs of India\nMandamus."
    dup = notechunk.chunk_markdown_text(
        "# A\n\nSame fact.\n\n# A\n\nSame fact.\n", include_omitted=True
    )
    assert [c.flags for c in dup] == [(), ("duplicate",)] and dup[1].duplicate_of == dup[0].id


def test_iter_chunks_equals_what_run_ships(sample_out: Path) -> None:
    shipped = unscored(list(notechunk.load(sample_out)))
    streamed = list(api.iter_chunks(SAMPLE_DIR))
    assert streamed == shipped  # the corpus glossary pass included: acronyms expanded alike
    assert any(c.acronyms for c in streamed)
    plain = list(api.iter_chunks(SAMPLE_DIR, Config().with_overrides(enrich={"acronyms": False})))
    assert plain and not any(c.acronyms for c in plain)  # acronyms off: nothing expanded
    assert list(api.chunks_from(sample_out)) == list(notechunk.load(sample_out))
    assert list(api.chunks_from(SAMPLE_DIR / "polity")) == list(
        api.iter_chunks(SAMPLE_DIR / "polity")
    )


def test_iter_chunks_raises_on_a_failed_file_after_the_good_ones(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nThe first note.\n", encoding="utf-8")
    (tmp_path / "b.md").write_bytes(b"# B\n\n\x00\x00\x00 binary \x00" * 50)
    (tmp_path / "c.xlsx").write_bytes(b"not a workbook")
    got: list[str] = []
    with pytest.raises(InputError) as err:
        for chunk in api.iter_chunks(tmp_path):
            got.append(chunk.source)
    assert got == ["a.md"]
    assert err.value.source in ("b.md", "c.xlsx")
    with pytest.raises(UsageError):
        api.iter_chunks(tmp_path / "missing")


def test_load_errors_and_file_paths(sample_out: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a notechunk output"):
        notechunk.load(tmp_path)
    direct = list(notechunk.load(sample_out / "chunks.jsonl.gz"))
    assert direct == list(notechunk.load(sample_out))
    assert all(c.retrieval_score is not None for c in direct)


def test_load_refuses_an_out_of_a_newer_schema(sample_out: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(sample_out, out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["schema"] == SCHEMA_VERSION
    manifest["schema"] = SCHEMA_VERSION + 1
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(InputError, match="newer notechunk"):
        notechunk.load(out)


def test_load_prefers_parquet(sample_out: Path, tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    chunks = list(notechunk.load(sample_out))
    out = tmp_path / "out"
    shutil.copytree(sample_out, out)
    reordered = list(reversed(chunks))  # so the test sees which file was read
    rows = [c.to_json() for c in reordered]
    pairs = ("resolved", "acronyms", "properties")  # JSON objects: Parquet maps (an empty
    # struct cannot be)
    plain = pa.Table.from_pylist([{k: v for k, v in r.items() if k not in pairs} for r in rows])
    schema = plain.schema
    for name in pairs:
        schema = schema.append(pa.field(name, pa.map_(pa.string(), pa.string())))
    rows = [{**r, **{n: list(r[n].items()) for n in pairs}} for r in rows]
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), out / "chunks.parquet")
    with pytest.raises(InputError, match="chunks.parquet is not the file its manifest"):
        list(notechunk.load(out))  # a parquet file the run did not write is never served
    manifest = json.loads((out / "manifest.json").read_text())
    data = (out / "chunks.parquet").read_bytes()
    manifest["files"]["chunks.parquet"] = {
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert list(notechunk.load(out)) == reordered
    assert list(notechunk.load(out / "chunks.parquet")) == reordered
    assert api.is_output(out)


def test_load_without_pyarrow(
    sample_out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "pyarrow" else real(name, *a),
    )
    out = tmp_path / "out"
    out.mkdir()
    (out / "chunks.parquet").write_bytes(b"PAR1")
    with pytest.raises(MissingExtra, match=r"pip install 'notechunk\[parquet\]'"):
        notechunk.load(out)
    shutil.copy(sample_out / "chunks.jsonl.gz", out / "chunks.jsonl.gz")
    with pytest.raises(InputError, match="no manifest.json"):  # the manifest must match
        notechunk.load(out)
    shutil.copy(sample_out / "manifest.json", out / "manifest.json")
    assert list(notechunk.load(out)) == list(notechunk.load(sample_out))  # falls back


def test_config_from_toml_and_overrides(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('segmenter = "fast"\n[markdown]\nwindow_max_words = 80\n', encoding="utf-8")
    cfg = Config.from_toml(path)
    assert (cfg.segmenter, cfg.markdown.window_max_words) == ("fast", 80)
    same = Config().with_overrides(segmenter="fast", markdown={"window_max_words": 80})
    assert same == cfg and cfg.with_overrides() == cfg
    kept = cfg.with_overrides(quality={"markdown": {"max_words": 600}})
    assert kept.markdown.window_max_words == 80 and kept.quality.markdown.max_words == 600
    assert kept.quality.markdown.fragment_words == 15
    with pytest.raises(ConfigError, match="unknown key"):
        Config().with_overrides(markdown={"window_max_word": 80})
    with pytest.raises(ConfigError, match=r"overlap must be a finite number in \[0, 1\)"):
        Config().with_overrides(markdown={"overlap": 1.5})
