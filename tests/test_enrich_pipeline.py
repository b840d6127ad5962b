"""Enrichment on the product's path: run ships it, QA counts it, config turns it off."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest

from notechunk.cli import main
from notechunk.config import Config, EnrichConfig
from notechunk.errors import ConfigError
from notechunk.job import collect, run

BANKING = """# Banking

The Reserve Bank of India (RBI) was set up in 1935.

## Acts

The Banking Regulation Act, 1949 gave the central bank wide powers over banks.
The Act also lets it inspect any bank at any time, and it often does so in practice today.
"""
MARKETS = "# Markets\n\nThe RBI and SEBI watch the markets. The Act was amended.\n"


def corpus(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "banking.md").write_text(BANKING)
    (src / "markets.md").write_text(MARKETS)
    return src


def shipped(out: Path) -> list[dict[str, object]]:
    with gzip.open(out / "chunks.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]


ALL_ON = replace(Config(), enrich=EnrichConfig(references=True, acronyms=True))


def test_defaults_merge_sections_only_but_qa_lists_the_glossary(tmp_path: Path) -> None:
    src = corpus(tmp_path)
    assert Config().enrich == EnrichConfig(merge_sections=True, references=False, acronyms=False)
    got = collect(src, Config())
    assert all(not c.acronyms and not c.resolved for c in got.corpus.chunks)
    assert got.corpus.glossary is not None
    assert got.corpus.glossary.undefined == (("SEBI", 1),)


def test_run_ships_enrichment_and_qa_reports_it(tmp_path: Path) -> None:
    src = corpus(tmp_path)
    result = run(src, tmp_path / "out", ALL_ON)
    rows = shipped(tmp_path / "out")
    markets = next(r for r in rows if r["source"] == "markets.md")
    assert markets["acronyms"] == {"RBI": "Reserve Bank of India"}
    assert "RBI (Reserve Bank of India)" in str(markets["embed_text"])
    assert all(isinstance(r["resolved"], dict) for r in rows)
    e = result.metrics.enrichment
    assert e.acronyms_defined == 1 and e.acronyms_undefined == 1
    assert e.chunks_expanded >= 1
    report = json.loads((tmp_path / "out" / "qa" / "enrichment.json").read_text())
    assert report["undefined"] == [{"acronym": "SEBI", "uses": 1}]
    assert report["glossary"][0]["origin"] == "banking.md"
    summary = (tmp_path / "out" / "qa" / "summary.md").read_text()
    assert "## Enrichment" in summary and "SEBI (1)" in summary
    assert "Dangling references" in (tmp_path / "out" / "report.html").read_text()


def test_dangling_reference_is_counted_and_listed(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# Notes\n\nThe Act was amended in 1919 by the council.\n")
    result = run(src, tmp_path / "out", replace(Config(), enrich=EnrichConfig(references=True)))
    assert result.metrics.enrichment.dangling_by_phrase == {"the act": 1}
    report = json.loads((tmp_path / "out" / "qa" / "enrichment.json").read_text())
    assert [d["phrases"] for d in report["dangling"]] == [["the act"]]


def test_everything_off_is_the_plain_context(tmp_path: Path) -> None:
    src = corpus(tmp_path)
    off = replace(
        Config(), enrich=EnrichConfig(merge_sections=False, references=False, acronyms=False)
    )
    chunks = [c for c in collect(src, off).corpus.chunks if not c.omit]
    assert all(not c.resolved and not c.acronyms for c in chunks)
    assert all(c.embed_text.endswith(c.text) for c in chunks)


def test_user_glossary_file(tmp_path: Path) -> None:
    src = corpus(tmp_path)
    glossary = tmp_path / "terms.txt"
    glossary.write_text("SEBI: Securities and Exchange Board of India\n")
    cfg = replace(Config(), enrich=EnrichConfig(acronyms=True, glossary=str(glossary)))
    got = collect(src, cfg)
    assert got.corpus.glossary is not None and got.corpus.glossary.undefined == ()
    first_key = got.run_key
    glossary.write_text("SEBI: Securities Board\n")
    assert collect(src, cfg).run_key != first_key  # a new glossary is a new run


def test_unreadable_glossary_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = corpus(tmp_path)
    cfg = replace(Config(), enrich=EnrichConfig(glossary=str(tmp_path / "missing.txt")))
    assert not cfg.enrich.acronyms  # the file is read (and checked) for QA either way
    with pytest.raises(ConfigError, match="cannot read the glossary"):
        collect(src, cfg)
    (src / "notechunk.toml").write_text('[enrich]\nglossary = "bad.txt"\n')
    (src / "bad.txt").write_text("not a glossary line\n")
    assert main(["run", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bad.txt:1" in err and "Traceback" not in err
