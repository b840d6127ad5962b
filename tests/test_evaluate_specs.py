"""`--strategies`: every entry kind, and every bad number refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from notechunk.config import Config
from notechunk.errors import ConfigError, UsageError
from notechunk.evaluate.peers import installed
from notechunk.evaluate.specs import parse_strategies


def _names(spec: str) -> list[str]:
    return [s.name for s in parse_strategies(spec, Config()).strategies]


def test_groups_and_single_entries() -> None:
    assert _names("nc") == ["notechunk (config)"]
    assert len(_names("notechunk")) == 16
    assert _names("baselines")[0] == "fixed-chars 1000/0"
    assert _names("nc:100/0.3/120, chars:10/0,words:200/50") == [
        "notechunk 100/0.3/120w",
        "fixed-chars 10/0",
        "fixed-words 200/50",
    ]
    plan = parse_strategies("peers", Config())
    assert plan.want_peers and not plan.strategies


def test_cfg_entry_uses_another_config_file(tmp_path: Path) -> None:
    path = tmp_path / "wide.toml"
    path.write_text("[markdown]\nwindow_max_words = 300\n", encoding="utf-8")
    (s,) = parse_strategies(f"cfg:{path}", Config()).strategies
    assert s.name == "notechunk cfg wide" and dict(s.params)["window_max_words"] == 300
    bad = tmp_path / "bad.toml"
    bad.write_text("[markdown]\noverlap = 2\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        parse_strategies(f"cfg:{bad}", Config())


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("chars:10/20", "smaller than the size"),
        ("chars:10/10", "smaller than the size"),
        ("chars:0/0", "the size must be a whole number from 1"),
        ("words:-5/0", "the size must be a whole number"),
        ("words:5", "needs 2 number(s)"),
        ("words:5/", "needs 2 number(s)"),
        ("chars:1e3/0", "the size must be a whole number"),
        ("chars:" + "9" * 5000 + "/0", "the size must be a whole number"),
        ("nc:nan/0.3/120", "the window (sentences) must be a whole number"),
        ("nc:inf/0.3/120", "the window (sentences) must be a whole number"),
        ("nc:100/nan/120", "the overlap must be a fraction"),
        ("nc:100/inf/120", "the overlap must be a fraction"),
        ("nc:100/1.0/120", "the overlap must be a fraction"),
        ("nc:100/-0.1/120", "the overlap must be a fraction"),
        ("nc:100/0.3/-1", "the cap"),
        ("nc:0/0.3/120", "the window"),
        ("langchain:100/200", "smaller than the size"),
        ("chonkie-recursive:0", "the size"),
        ("chonkie-sentence:512/nan", "the overlap"),
        ("bogus", "unknown entry"),
        ("cfg:", "needs a config file"),
        ("", "no strategy"),
    ],
)
def test_bad_entries_are_one_usage_error(spec: str, says: str) -> None:
    with pytest.raises(UsageError) as err:
        parse_strategies(spec, Config())
    message = str(err.value)
    assert says in message and "\n" not in message and len(message) < 200


def test_missing_peer_library_is_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from notechunk.evaluate import peers

    monkeypatch.setattr(peers, "installed", lambda module: False)
    plan = parse_strategies("nc,langchain:1000/200", Config())
    assert [s.name for s in plan.strategies] == ["notechunk (config)"]
    assert plan.notes == ("langchain:1000/200 skipped: langchain_text_splitters is not installed",)
    with pytest.raises(UsageError, match="no strategy to run .langchain"):
        parse_strategies("langchain:1000/200", Config())


@pytest.mark.skipif(not installed("langchain_text_splitters"), reason="LangChain not installed")
def test_peer_entries_when_installed() -> None:
    assert _names("langchain:1000/200,langchain-headers:800/100") == [
        "langchain-recursive 1000/200",
        "langchain-headers 800/100",
    ]
