"""Careless and hostile input to `eval` and `eval-convert` (issue 13's eval cases): each
gives `run`'s contract, one line on stderr and exit 2 for an unusable argument (checked
before any chunking), never a traceback; what can be read is read and flagged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from notechunk.cli import main

NOTE = "# Writs\n\nMandamus means we command. The court orders an official to act.\n"
QUESTION = {"question": "Which writ means we command?", "answers": ["Mandamus"]}


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    src = tmp_path / "src"
    src.mkdir()
    (src / "writs.md").write_text(NOTE, encoding="utf-8")
    qpath = tmp_path / "q.jsonl"
    qpath.write_text(json.dumps(QUESTION) + "\n", encoding="utf-8")
    return src, qpath


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any chunking or peer reading fails the test: the error must come first."""

    def forbidden(*_a: object, **_k: object) -> None:
        raise AssertionError("work started before the arguments were checked")

    monkeypatch.setattr("notechunk.job.collect", forbidden)
    monkeypatch.setattr("notechunk.evaluate.documents.load_documents", forbidden)


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("notechunk: "), err
    return lines[0]


def _questions(text: bytes) -> Callable[[Path, Path], list[str]]:
    def build(tmp_path: Path, qpath: Path) -> list[str]:
        qpath.write_bytes(text)
        return []

    return build


def _config(text: str) -> Callable[[Path, Path], list[str]]:
    def build(tmp_path: Path, qpath: Path) -> list[str]:
        (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
        return ["--config", str(tmp_path / "bad.toml")]

    return build


def _args(*extra: str) -> Callable[[Path, Path], list[str]]:
    return lambda tmp_path, qpath: list(extra)


def _out_is_a_file(tmp_path: Path, qpath: Path) -> list[str]:
    (tmp_path / "o").write_text("a file, not a folder", encoding="utf-8")
    return []


DEEP = b"[" * 100_000 + b"]" * 100_000
BIG = b'{"question": "q", "answers": ["a"], "n": ' + b"9" * 5000 + b"}"
BAD = [
    ("bad-config-toml", _config("markdown = ["), "invalid TOML"),
    ("bad-config-value", _config("[markdown]\noverlap = 2\n"), "markdown.overlap"),
    ("missing-config", _args("--config", "/nonexistent/x.toml"), "x.toml"),
    ("100k-nested-json", _questions(DEEP), "nested too deeply"),
    ("5000-digit-number", _questions(BIG), "unusable JSON"),
    ("utf16-no-bom-questions", _questions(json.dumps(QUESTION).encode("utf-16-le")), "binary"),
    ("chars-10-20", _args("--strategies", "chars:10/20"), "smaller than the size"),
    ("chars-0-0", _args("--strategies", "chars:0/0"), "the size"),
    ("words-minus-5", _args("--strategies", "words:-5/0"), "the size"),
    ("nc-nan", _args("--strategies", "nc:nan/0.3/120"), "the window"),
    ("nc-inf", _args("--strategies", "nc:inf/0.3/120"), "the window"),
    ("nc-overlap-nan", _args("--strategies", "nc:100/nan/120"), "the overlap"),
    ("k-zero", _args("--k", "0"), "--k"),
    ("k-huge", _args("--k", "9" * 5000), "--k"),
    ("budget-zero", _args("--budget", "0"), "--budget"),
    ("workers-zero", _args("--workers", "0"), "--workers"),
    ("unknown-retriever", _args("--retriever", "bm25,tfidf"), "--retriever"),
    ("compare-one-row", _args("--compare", "1"), "--compare"),
    ("unknown-segmenter", _args("--segmenter", "nope"), "nope"),
    ("out-is-a-file", _out_is_a_file, "not a folder"),
]


@pytest.mark.parametrize(("case", "build", "says"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.usefixtures("no_work")
def test_bad_eval_input_is_one_line_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    build: Callable[[Path, Path], list[str]],
    says: str,
) -> None:
    src, qpath = _setup(tmp_path)
    extra = build(tmp_path, qpath)
    args = ["eval", str(src), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--strategies", "nc", *extra]) == 2
    assert says in _one_line(capsys.readouterr().err)
    assert (tmp_path / "o").is_file() or not (tmp_path / "o").exists()  # OUT not even made


@pytest.mark.parametrize(
    ("encoding", "noted"),
    [("utf-16", False), ("cp1252", True)],
    ids=["utf16-questions", "cp1252-questions"],
)
def test_questions_in_other_encodings_just_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str, noted: bool
) -> None:
    src, qpath = _setup(tmp_path)
    q = {"question": "Which writ means “we command”?", "answers": ["Mandamus"]}
    qpath.write_bytes((json.dumps(q, ensure_ascii=False) + "\n").encode(encoding))
    args = ["eval", str(src), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--strategies", "nc"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and ("questions decoded as cp1252" in err) is noted
    results = json.loads((tmp_path / "o" / "results.json").read_text("utf-8"))
    assert results["rows"][0]["recall@1"] == 1.0


def test_cp1252_note_is_read_and_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, qpath = _setup(tmp_path)
    (src / "café.md").write_bytes(
        "# Café\n\nThe Rowlatt Act was passed in 1919 – crème.\n".encode("cp1252")
    )
    qpath.write_text(
        json.dumps({"question": "When was the Rowlatt Act passed?", "answers": ["1919 – crème"]})
        + "\n",
        encoding="utf-8",
    )
    args = ["eval", str(src), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--strategies", "nc,words:100/0"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "café.md: decoded as cp1252 (not UTF-8)" in err
    results = json.loads((tmp_path / "o" / "results.json").read_text("utf-8"))
    assert [r["recall@1"] for r in results["rows"]] == [1.0, 1.0]
    assert "café.md: decoded as cp1252 (not UTF-8)" in results["notes"]


def test_out_inside_src_is_not_read_back(tmp_path: Path) -> None:
    src, qpath = _setup(tmp_path)
    args = ["eval", str(src), "--questions", str(qpath), "--out", str(src / "eval")]
    assert main([*args, "--strategies", "nc,words:100/0"]) == 0
    assert main([*args, "--strategies", "nc,words:100/0"]) == 0  # results.md now in SRC/eval
    results = json.loads((src / "eval" / "results.json").read_text("utf-8"))
    assert [r["n_chunks"] for r in results["rows"]] == [1, 1]


def _squad(data: object) -> Callable[[Path], Path]:
    def build(tmp_path: Path) -> Path:
        path = tmp_path / "s.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    return build


def _raw(data: bytes) -> Callable[[Path], Path]:
    def build(tmp_path: Path) -> Path:
        path = tmp_path / "s.json"
        path.write_bytes(data)
        return path

    return build


CONVERT_BAD = [
    ("data-of-ints", _squad({"data": [1]}), "data[0] must be an object"),
    ("paragraphs-string", _squad({"data": [{"title": "T", "paragraphs": "abc"}]}), "paragraphs"),
    ("qas-string", _squad({"data": [{"paragraphs": [{"context": "c", "qas": "x"}]}]}), "qas"),
    ("top-level-list", _squad([1, 2]), "the top level"),
    ("not-json", _raw(b"{"), "not JSON"),
    ("100k-nested", _raw(DEEP), "nested too deeply"),
    ("5000-digit", _raw(b'{"data": ' + b"9" * 5000 + b"}"), "unusable JSON"),
    ("binary", _raw(b"\x00\x01"), "binary"),
    ("missing", lambda tmp_path: tmp_path / "absent.json", "cannot read"),
]


@pytest.mark.parametrize(("case", "build", "says"), CONVERT_BAD, ids=[c[0] for c in CONVERT_BAD])
def test_bad_convert_input_is_one_line_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    build: Callable[[Path], Path],
    says: str,
) -> None:
    path = build(tmp_path)
    assert main(["eval-convert", "squad", str(path), "--out", str(tmp_path / "c")]) == 2
    assert says in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "c").exists()  # nothing created for a file that cannot convert


def test_convert_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _squad({"data": []})(tmp_path)
    (tmp_path / "c").write_text("x", encoding="utf-8")
    assert main(["eval-convert", "squad", str(path), "--out", str(tmp_path / "c")]) == 2
    assert "not a folder" in _one_line(capsys.readouterr().err)


def test_convert_cp1252_json(tmp_path: Path) -> None:
    data = {"data": [{"title": "Café", "paragraphs": [{"context": "Crème.", "qas": []}]}]}
    path = tmp_path / "s.json"
    path.write_bytes(json.dumps(data, ensure_ascii=False).encode("cp1252"))
    assert main(["eval-convert", "squad", str(path), "--out", str(tmp_path / "c")]) == 0
    assert (tmp_path / "c" / "corpus" / "Caf.md").read_text("utf-8") == "# Café\n\nCrème.\n"


def _foreign_out(tmp_path: Path, qpath: Path) -> list[str]:
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "thesis.docx").write_bytes(b"keep me")
    return []


@pytest.mark.parametrize(
    ("case", "out", "says"),
    [
        ("out-empty-string", lambda t: "", "--out is empty"),
        ("out-is-src", lambda t: str(t / "src"), "would hold the notes"),
        ("out-holds-src", lambda t: str(t), "would hold the notes"),
    ],
    ids=["out-empty-string", "out-is-src", "out-holds-src"],
)
@pytest.mark.usefixtures("no_work")
def test_out_that_would_overwrite_or_read_back_notes(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    out: Callable[[Path], str],
    says: str,
) -> None:
    src, qpath = _setup(tmp_path)
    assert main(["eval", str(src), "--questions", str(qpath), "--out", out(tmp_path)]) == 2
    assert says in _one_line(capsys.readouterr().err)
    assert sorted(p.name for p in src.iterdir()) == ["writs.md"]


@pytest.mark.usefixtures("no_work")
def test_foreign_out_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, qpath = _setup(tmp_path)
    _foreign_out(tmp_path, qpath)
    assert main(["eval", str(src), "--questions", str(qpath), "--out", str(tmp_path / "o")]) == 2
    assert "not a notechunk eval output" in _one_line(capsys.readouterr().err)
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["thesis.docx"]
    path = _squad({"data": []})(tmp_path)
    assert main(["eval-convert", "squad", str(path), "--out", str(tmp_path / "o")]) == 2
    assert "not a notechunk eval output" in _one_line(capsys.readouterr().err)


def test_a_previous_eval_out_is_reused(tmp_path: Path) -> None:
    src, qpath = _setup(tmp_path)
    args = ["eval", str(src), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--strategies", "nc"]) == 0
    assert (tmp_path / "o" / ".notechunk-eval").is_file()
    assert main([*args, "--strategies", "nc"]) == 0
    path = _squad({"data": []})(tmp_path)
    for _ in range(2):
        assert main(["eval-convert", "squad", str(path), "--out", str(tmp_path / "c")]) == 0


def test_names_from_files_reach_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, qpath = _setup(tmp_path)
    cfg = tmp_path / "evil\x1b]0;pwned\x07.toml"
    cfg.write_text("[markdown]\noverlap = 0.1\n", encoding="utf-8")
    (src / "bad\nnotechunk: all fine.md").write_bytes(b"\x00binary")
    args = ["eval", str(src), "--questions", str(qpath), "--out", str(tmp_path / "o")]
    assert main([*args, "--strategies", f"nc,cfg:{cfg},words:50/0"]) == 0
    captured = capsys.readouterr()
    for stream in (captured.out, captured.err):
        assert not any(ch in stream for ch in "\x1b\x07\r"), repr(stream)
    assert "notechunk cfg evil\\x1b]0;pwned\\x07" in captured.out
    assert [ln for ln in captured.err.splitlines() if "all fine" in ln] == [
        "note: bad\\nnotechunk: all fine.md: binary content (NUL bytes), not a text file"
    ]
