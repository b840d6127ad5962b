"""The reliability catalog, round two: careless or hostile use of the command line.

Each case builds its own inputs, runs `main`, and checks the contract: the exit status,
exactly one clean stderr line where there is an error (no traceback, no raw control
character), and that nobody's files were overwritten or lost.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from notechunk.cli import main

NOTE = "# Note\n\nThe Zoji La pass links Srinagar with Leh at 3528 metres zqnote.\n"
SRC_DIR = Path(__file__).resolve().parents[1] / "src"


def notes(tmp: Path) -> Path:
    src = tmp / "src"
    src.mkdir()
    (src / "a.md").write_text(NOTE)
    return src


@dataclass(frozen=True)
class Case:
    id: str
    argv: Callable[[Path], list[str]]  # builds the inputs under tmp, returns the arguments
    code: int
    says: str = ""  # a fragment the stderr line must hold (for exit codes 1 and 2)
    check: Callable[[Path], None] | None = None


def _out_is_src(tmp: Path) -> list[str]:
    src = notes(tmp)
    (src / "qa").mkdir()
    (src / "qa" / "summary.md").write_text("# My own summary zqmine\n")
    (src / "stages").mkdir()
    (src / "stages" / "plan.md").write_text("# Plan\n\nMy study plan zqplan.\n")
    return ["run", str(src), "--out", str(src)]


def _user_files_intact(tmp: Path) -> None:
    assert "zqmine" in (tmp / "src" / "qa" / "summary.md").read_text()
    assert (tmp / "src" / "stages" / "plan.md").is_file()
    assert not (tmp / "src" / "chunks.jsonl.gz").exists()


def _foreign_out(tmp: Path) -> list[str]:
    src = notes(tmp)
    out = tmp / "mine"
    out.mkdir()
    (out / "thesis.docx").write_bytes(b"keep me")
    return ["run", str(src), "--out", str(out)]


def _foreign_intact(tmp: Path) -> None:
    assert sorted(p.name for p in (tmp / "mine").iterdir()) == ["thesis.docx"]


def _out_holds_src(tmp: Path) -> list[str]:
    parent = tmp / "all"
    parent.mkdir()
    src = notes(parent)
    return ["run", str(src), "--out", str(parent)]


def _failing_name(name: str) -> Callable[[Path], list[str]]:
    def build(tmp: Path) -> list[str]:
        src = notes(tmp)
        (src / name).write_bytes(b"\x00binary")
        return ["run", str(src), "--out", str(tmp / "out")]

    return build


def _text_file(tmp: Path) -> list[str]:
    (tmp / "notes.pdf").write_text(NOTE)  # a .txt is a note now: a kind no run reads
    return ["run", str(tmp / "notes.pdf"), "--out", str(tmp / "out")]


def _deep_toml(tmp: Path) -> list[str]:
    src = notes(tmp)
    (tmp / "c.toml").write_text("segmenter = " + "[" * 5000 + "]" * 5000 + "\n")
    return ["run", str(src), "--out", str(tmp / "out"), "--config", str(tmp / "c.toml")]


def _slow_markdown(tmp: Path) -> list[str]:
    src = notes(tmp)
    words = " ".join(f"w{k}." for k in range(300_000))
    (src / "huge.md").write_text(f"# Huge\n\n{words}\n")
    (tmp / "c.toml").write_text("[markdown]\ntimeout_s = 0.05\n")
    return ["run", str(src), "--out", str(tmp / "out"), "--config", str(tmp / "c.toml")]


def _only_huge_failed(tmp: Path) -> None:
    import json

    errors = json.loads((tmp / "out" / "qa" / "errors.json").read_text())
    assert [(e["source"], e["stage"]) for e in errors] == [("huge.md", "chunk")]


CASES = [
    Case("out-is-src", _out_is_src, 2, "would hold the notes", _user_files_intact),
    Case("out-foreign-folder", _foreign_out, 2, "not a notechunk output", _foreign_intact),
    Case("out-holds-src", _out_holds_src, 2, "would hold the notes"),
    Case("out-empty-string", lambda t: ["run", str(notes(t)), "--out", ""], 2, "--out is empty"),
    Case("out-root", lambda t: ["run", str(notes(t)), "--out", "/"], 2, "would hold the notes"),
    Case("src-other-file", _text_file, 2, "not a Markdown, text or spreadsheet file"),
    Case("src-device", lambda t: ["run", "/dev/null", "--out", str(t / "o")], 2, "/dev/null"),
    Case("config-show-missing", lambda t: ["config", "show", str(t / "nope")], 2, "no such"),
    Case("toml-5000-deep", _deep_toml, 2, "nested too deeply"),
    Case("name-with-newline", _failing_name("bad\nnotechunk: all fine.md"), 1, "bad\\n"),
    Case("name-with-escape", _failing_name("bad\x1b]0;pwned\x07.md"), 1, "bad\\x1b]0;pwned"),
    Case("markdown-time-limit", _slow_markdown, 1, "markdown.timeout_s", _only_huge_failed),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cli_case(tmp_path: Path, capfd: pytest.CaptureFixture[str], case: Case) -> None:
    code = main(case.argv(tmp_path))
    err = capfd.readouterr().err
    assert code == case.code, err
    assert "Traceback" not in err
    assert not any(ch in err for ch in "\x1b\x07\r"), repr(err)
    if case.code:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("notechunk: "), err
        assert case.says in lines[0], lines[0]
    if case.check is not None:
        case.check(tmp_path)


def test_workers_are_clamped_to_the_cpus(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(notes(tmp_path)), "--out", str(tmp_path / "o"), "--workers", "64"]) == 0
    err = capfd.readouterr().err
    assert "--workers 64 is more than the" in err and len(err.strip().splitlines()) == 1


def test_config_show_into_a_closed_pipe() -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC_DIR))
    done = subprocess.run(
        f"{sys.executable} -m notechunk config show | head -1",
        shell=True,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "# defaults"
    assert done.stderr == "", done.stderr


def test_disk_full_keeps_the_earlier_outputs(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, out = notes(tmp_path), tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}
    (src / "b.md").write_text(NOTE.replace("zqnote", "zqnew"))
    real = os.replace

    def full(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> None:
        # the staged flagged.json cannot be completed (written as the chunks stream past)
        if Path(b).name == "flagged.json" and ".staging" in str(b):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(a, b)

    monkeypatch.setattr(os, "replace", full)
    capfd.readouterr()
    assert main(["run", str(src), "--out", str(out)]) == 1
    err = capfd.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1 and "No space left on device" in err[0] and "earlier outputs kept" in err[0]
    )
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}
    assert after == before and not (out / ".staging").exists()


def test_a_folder_on_another_device_is_published_by_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src, out = notes(tmp_path), tmp_path / "out"
    real = os.replace

    def cross(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> None:
        if ".staging" in str(a) and ".staging" not in str(b) and f"{os.sep}qa{os.sep}" in str(b):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real(a, b)

    monkeypatch.setattr(os, "replace", cross)
    assert main(["run", str(src), "--out", str(out)]) == 0
    assert (out / "qa" / "errors.json").read_text() == "[]\n"
    assert not (out / ".staging").exists()
    assert not [p for p in (out / "qa").iterdir() if p.name.startswith(".")]


# --- eval and eval-convert (issue 13's eval cases; more in tests/test_evaluate_hostile.py)

QUESTION = '{"question": "Which pass links Srinagar with Leh?", "answers": ["Zoji La"]}\n'
CP1252_QUESTION = QUESTION.replace("pass", "pass—").encode("cp1252")


def _eval(*extra: str, questions: bytes = QUESTION.encode()) -> Callable[[Path], list[str]]:
    def build(tmp: Path) -> list[str]:
        src = notes(tmp)
        (tmp / "q.jsonl").write_bytes(questions)
        return ["eval", str(src), "--questions", str(tmp / "q.jsonl"), "--out", str(tmp / "o"),
                "--strategies", "nc", *extra]  # fmt: skip

    return build


def _eval_cp1252_note(tmp: Path) -> list[str]:
    argv = _eval()(tmp)
    (tmp / "src" / "café.md").write_bytes("# Café\n\nZoji La crème brûlée.\n".encode("cp1252"))
    return argv


def _eval_bad_config(tmp: Path) -> list[str]:
    (tmp / "c.toml").write_text("[markdown]\nwindow_sentences = 0\n")
    return [*_eval()(tmp), "--config", str(tmp / "c.toml")]


def _eval_out_file(tmp: Path) -> list[str]:
    (tmp / "o").write_text("a file")
    return _eval()(tmp)


def _convert(data: str) -> Callable[[Path], list[str]]:
    def build(tmp: Path) -> list[str]:
        (tmp / "s.json").write_text(data)
        return ["eval-convert", "squad", str(tmp / "s.json"), "--out", str(tmp / "c")]

    return build


EVAL_CASES = [
    Case("eval-cp1252-note", _eval_cp1252_note, 0),
    Case("eval-bad-config", _eval_bad_config, 2, "window_sentences"),
    Case("eval-cp1252-questions", _eval(questions=CP1252_QUESTION), 0),
    Case("eval-utf16-questions", _eval(questions=QUESTION.encode("utf-16")), 0),
    Case("eval-100k-nested-json", _eval(questions=b"[" * 100_000 + b"]" * 100_000), 2, "nested"),
    Case("eval-5000-digit-number", _eval(questions=b'{"n": ' + b"9" * 5000 + b"}"), 2, "JSON"),
    Case("eval-chars-10-20", _eval("--strategies", "chars:10/20"), 2, "smaller than the size"),
    Case("eval-chars-0-0", _eval("--strategies", "chars:0/0"), 2, "the size"),
    Case("eval-words-minus-5", _eval("--strategies", "words:-5/0"), 2, "the size"),
    Case("eval-nc-nan", _eval("--strategies", "nc:nan/0.3/120"), 2, "the window"),
    Case("eval-nc-inf", _eval("--strategies", "nc:inf/0.3/120"), 2, "the window"),
    Case("eval-out-is-a-file", _eval_out_file, 2, "not a folder"),
    Case("convert-data-of-ints", _convert('{"data": [1]}'), 2, "data[0]"),
    Case("convert-paragraphs-abc", _convert('{"data": [{"paragraphs": "abc"}]}'), 2, "paragraphs"),
]  # fmt: skip


@pytest.mark.parametrize("case", EVAL_CASES, ids=[c.id for c in EVAL_CASES])
def test_eval_cli_case(tmp_path: Path, capfd: pytest.CaptureFixture[str], case: Case) -> None:
    test_cli_case(tmp_path, capfd, case)


# --- `notechunk report OUT` over damaged QA files: one line naming the file, exit 2

REPORT_DAMAGE = {
    "metrics-list": ("metrics.json", "[1, 2]", "metrics.json: not an object"),
    "metrics-junk": ("metrics.json", '{"total": "many"}', "metrics.json"),
    "discarded-row-missing-keys": ("discarded_rows.json", '[{"source": "x"}]', "'rule'"),
    "errors-object": ("errors.json", '{"a": 1}', "errors.json: not a list of objects"),
    "semantic-torn": ("semantic_types.json", "{", "semantic_types.json: not readable JSON"),
    "flagged-of-ints": ("flagged.json", "[1]", "flagged.json: not a list of objects"),
    "flagged-missing-keys": ("flagged.json", '[{"id": 1}]', "'quality'"),
    "enrichment-glossary-junk": ("enrichment.json", '{"glossary": [{"x": 1}]}', "'acronym'"),
    "flagged-deep": ("flagged.json", "[" * 100_000 + "]" * 100_000, "flagged.json: not readable"),
}


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "out"
    assert main(["demo", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize(("name", "text", "said"), REPORT_DAMAGE.values(), ids=list(REPORT_DAMAGE))
def test_report_over_damaged_qa_files(
    demo_out: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    said: str,
) -> None:
    import shutil

    out = tmp_path / "out"
    shutil.copytree(demo_out, out)
    (out / "qa" / name).write_text(text)
    capsys.readouterr()
    assert main(["report", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err, err


def test_an_unexpected_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last line of defence: a bug is one line and exit 1, never a traceback."""
    from notechunk import cli
    from notechunk.cli import run as cli_run

    def broken(_: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli_run, "cmd_demo", broken)
    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        action.choices["demo"].set_defaults(func=broken)  # type: ignore[index]
    assert main(["demo"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("notechunk: internal error (ZeroDivisionError: division by zero)")
    assert err.count("\n") == 1
