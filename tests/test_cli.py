from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from notechunk.cli import build_parser, main
from notechunk.data import SAMPLE_DIR


def write(root: Path, rel: str, text: str | bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def read_chunks(out: Path) -> list[dict[str, object]]:
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


NOTE = """# Fundamental Rights

Dr. B.R. Ambedkar called Art. 32 the heart and soul of the Constitution. It lets a person
move the Supreme Court directly when a Fundamental Right is violated, and the Court can
issue writs such as habeas corpus and mandamus to enforce it.

## Related

See above for the list of rights.
"""


def test_run_writes_spec_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "notes"
    write(src, "polity/rights.md", NOTE)
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    assert (out / "stages" / "markdown_chunks.jsonl").is_file()
    assert (out / "stages" / "excel_chunks.jsonl").is_file()
    chunks = read_chunks(out)
    assert [c["section_path"] for c in chunks] == [["Fundamental Rights"]]
    c = chunks[0]
    assert c["source"] == "polity/rights.md" and c["source_type"] == "markdown"
    assert c["lines"] == [3, 5]
    assert "Dr. B.R. Ambedkar called Art. 32 the heart" in str(c["text"])
    for key in ("id", "word_count", "quality", "omit", "flags", "template", "sheet", "row"):
        assert key in c
    staged = [
        json.loads(x) for x in (out / "stages" / "markdown_chunks.jsonl").read_text().splitlines()
    ]
    dead = [s for s in staged if s["quality"] == "context_dead"]
    assert len(dead) == 1 and dead[0]["omit"] is True
    assert "1 files" in capsys.readouterr().out


def test_bad_file_exit_1_others_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "notes"
    write(src, "good.md", NOTE)
    write(src, "bad.md", b"\x00\x01binary\x00")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "bad.md" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    errors = json.loads((out / "qa" / "errors.json").read_text())
    assert [e["source"] for e in errors] == ["bad.md"]
    assert read_chunks(out)


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "/nonexistent/folder", "--out", "x"],
        ["run", ".", "--out", "x", "--workers", "0"],
        ["run", ".", "--out", "x", "--segmenter", "nope"],
        ["frobnicate"],
        ["run"],
    ],
    ids=["missing-src", "workers-0", "bad-segmenter", "bad-command", "missing-arg"],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("notechunk: ") and "Traceback" not in err


def test_bad_config_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "notes"
    write(src, "a.md", NOTE)
    write(src, "notechunk.toml", "[markdown]\noverlap = 2\n")
    assert main(["run", str(src), "--out", str(tmp_path / "o")]) == 2
    assert "notechunk.toml" in capsys.readouterr().err


def test_config_from_src_root_is_used(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    write(src, "a.md", NOTE)
    write(src, "notechunk.toml", '[context_dead]\nphrases = ["dr"]\n')
    out = tmp_path / "o"
    assert main(["run", str(src), "--out", str(out)]) == 0
    # the list is replaced: "Dr." is now dead, "See above" is not; SPEC v3: the dead opening
    # sentence is trimmed and the rest kept
    chunks = read_chunks(out)
    assert [c["section_path"] for c in chunks] == [
        ["Fundamental Rights"],
        ["Fundamental Rights", "Related"],
    ]
    assert chunks[0]["text"].startswith("It lets a person move the Supreme Court")
    assert "context_dead_trimmed:dr" in chunks[0]["flags"]
    assert chunks[1]["text"] == "See above for the list of rights."


def test_inspect_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "n.md", NOTE)
    assert main(["inspect", str(p), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["path"] for s in data["sections"]] == [
        ["Fundamental Rights"],
        ["Fundamental Rights", "Related"],
    ]
    assert data["sections"][0]["lines"] == [1, 5]
    assert data["sections"][0]["sentences"][0].startswith("Dr. B.R. Ambedkar called Art. 32")
    assert len(data["windows"]) == 2
    assert main(["inspect", str(p)]) == 0
    assert "Fundamental Rights > Related" in capsys.readouterr().out


def test_config_show_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    from notechunk.config import Config, config_from_dict

    assert main(["config", "show"]) == 0
    text = capsys.readouterr().out
    assert config_from_dict(tomllib.loads(text)) == Config()


def test_every_command_has_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    helps = {a.dest: a.help for a in sub._choices_actions}  # type: ignore[attr-defined]
    for name, p in sub.choices.items():  # type: ignore[union-attr]
        assert helps.get(name), f"`notechunk {name}` has no one-line help"
        text = p.format_help()
        assert f"usage: notechunk {name}" in text, name
        assert p.description and p.description != helps[name], f"`{name}` says what it does"
        examples = text[text.index("examples:") :] if "examples:" in text else ""
        assert f"notechunk {name}" in examples, f"`notechunk {name} --help` has no example"
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for name in sub.choices:  # type: ignore[union-attr]
        assert f"notechunk {name}" in readme, f"README does not document `{name}`"


def test_top_level_help_speaks_to_users(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    about = text.split("\n\n")[1]  # after the usage line: what the tool does
    assert about.startswith("notechunk turns a folder of notes") and "SPEC" not in about
    examples = text[text.index("examples:") :].splitlines()[1:4]
    assert len(examples) == 3 and all(e.strip().startswith("notechunk ") for e in examples)


def test_demo_runs_on_bundled_sample(tmp_path: Path) -> None:
    assert SAMPLE_DIR.is_dir()
    out = tmp_path / "out"
    assert main(["demo", "--out", str(out)]) == 0
    assert len(read_chunks(out)) > 10


def test_eval_runs_on_bundled_sample(tmp_path: Path) -> None:
    out = tmp_path / "ev"
    assert main(["eval", "--out", str(out), "--strategies", "nc"]) == 0
    rows = json.loads((out / "results.json").read_text())["rows"]
    assert rows[0]["strategy"].startswith("notechunk")
    assert rows[0]["recall@10"] >= 0.9  # the sample questions are answerable from the notes
