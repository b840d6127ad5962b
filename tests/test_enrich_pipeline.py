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


def test_defaults_turn_every_pass_on(tmp_path: Path) -> None:
    src = corpus(tmp_path)
    assert Config().enrich == EnrichConfig(merge_sections=True, references=True, acronyms=True)
    got = {c.source: c for c in collect(src, Config()).corpus.chunks if "RBI" in c.text}
    assert got["markets.md"].acronyms == (("RBI", "Reserve Bank of India"),)
    assert got["banking.md"].acronyms == ()  # the chunk that defines it
    assert got["markets.md"].resolved == ()  # "The Act" of another file is not its act
    glossary = collect(src, Config()).corpus.glossary
    assert glossary is not None and glossary.undefined == (("SEBI", 1),)


def test_passes_off_leave_the_context_only_but_qa_lists_the_glossary(tmp_path: Path) -> None:
    src = corpus(tmp_path)
    off = replace(Config(), enrich=EnrichConfig(references=False, acronyms=False))
    got = collect(src, off)
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
    missing = str(tmp_path / "missing.txt")
    cfg = replace(Config(), enrich=EnrichConfig(acronyms=False, glossary=missing))
    # the file is read (and checked) for QA even with the expansion off
    with pytest.raises(ConfigError, match="cannot read the glossary"):
        collect(src, cfg)
    (src / "notechunk.toml").write_text('[enrich]\nglossary = "bad.txt"\n')
    (src / "bad.txt").write_text("not a glossary line\n")
    assert main(["run", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bad.txt:1" in err and "Traceback" not in err


# The monetary-policy note: two acronyms defined in its first section, used alone
# in every later one.
MONETARY = """# Monetary policy

## The committee

The Monetary Policy Committee (MPC) sets the policy rate. The Reserve Bank of India (RBI)
hosts it and its governor chairs it.

## Repo rate

The MPC cut the repo rate by 25 basis points in its February meeting this year, the first
cut in four years, and kept its stance neutral.

## Inflation target

The RBI Act gives the MPC a target of 4% consumer inflation, with a band of 2% either side.

## Tools

Open market operations let the RBI drain or add liquidity; the Reserve Bank of India (RBI)
also uses the cash reserve ratio.
"""


@pytest.mark.parametrize("engine", ["memory", "local"])
def test_the_defining_files_later_chunks_are_expanded(tmp_path: Path, engine: str) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "monetary-policy.md").write_text(MONETARY)
    if engine == "memory":
        chunks = list(collect(src, Config()).corpus.chunks)  # the defaults
    else:
        run(src, tmp_path / "out", Config())
        chunks = list(shipped(tmp_path / "out"))
    got = {c["section"]: c for c in map(summary, chunks)}
    assert got["The committee"]["acronyms"] == {}  # it defines both
    assert got["Repo rate"]["acronyms"] == {"MPC": "Monetary Policy Committee"}
    assert got["Inflation target"]["acronyms"] == {
        "RBI": "Reserve Bank of India",
        "MPC": "Monetary Policy Committee",
    }
    inflation = got["Inflation target"]["embed_text"]
    assert inflation.count("(Monetary Policy Committee)") == 1  # once, after its first use
    assert "The RBI (Reserve Bank of India) Act" in inflation
    assert got["Tools"]["acronyms"] == {}  # it says the expansion itself


def summary(c: object) -> dict[str, object]:
    """A chunk (or its shipped record) as the section it stands in, its expansions and
    its embed_text."""
    if isinstance(c, dict):
        return {
            "section": c["section_path"][-1],
            "acronyms": c["acronyms"],
            "embed_text": c["embed_text"],
        }
    return {
        "section": c.section_path[-1],  # type: ignore[attr-defined]
        "acronyms": dict(c.acronyms),  # type: ignore[attr-defined]
        "embed_text": c.embed_text,  # type: ignore[attr-defined]
    }
