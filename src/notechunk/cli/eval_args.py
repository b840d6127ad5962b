"""The eval's command line: its options, and the checks of OUT and the cut-offs made
before any work (`run.py` runs the eval; the CLI adds these options to its parsers).

OUT follows `run`'s rule: absent, empty or written by this command before (its marker),
never holding SRC, never an empty string; anything else is one `UsageError` line.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from notechunk.data import SAMPLE_DIR, SAMPLE_QUESTIONS
from notechunk.errors import UsageError
from notechunk.io.outdir import check_file, open_own

DEFAULT_BUDGET = 1000
EVAL_MARKER = ".notechunk-eval"
CONVERT_MARKER = ".notechunk-eval-convert"
_MAIN_FILE = {EVAL_MARKER: "results.json", CONVERT_MARKER: "questions.jsonl"}


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `notechunk eval [SRC] --out DIR ...`."""
    parser.add_argument(
        "src",
        type=Path,
        nargs="?",
        default=SAMPLE_DIR,
        help="folder (or file) of notes, as for `run` (default: the bundled sample notes)",
    )
    parser.add_argument(
        "--questions",
        type=Path,
        default=SAMPLE_QUESTIONS,
        help="questions JSONL (default: the sample notes' questions)",
    )
    parser.add_argument("--out", type=out_folder, required=True, help="output folder")
    parser.add_argument(
        "--retriever", default="bm25", help="comma list of bm25, dense, hybrid (bm25)"
    )
    parser.add_argument("--k", default="1,3,5,10", help="cut-offs for recall@k (1,3,5,10)")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET, help="word budget for recall@budget"
    )
    parser.add_argument(
        "--strategies",
        default="notechunk,baselines,peers",
        help=(
            "comma list of groups (notechunk, nc, baselines, peers) and single strategies: "
            "nc:WINDOW/OVERLAP/CAP, cfg:FILE.toml, chars:SIZE/OVERLAP, words:SIZE/OVERLAP, "
            "langchain:SIZE/OVERLAP, langchain-headers:SIZE/OVERLAP, chonkie-recursive:SIZE, "
            "chonkie-sentence:SIZE/OVERLAP"
        ),
    )
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="A,B",
        help="paired test of two rows (row numbers or STRATEGY@RETRIEVER); repeatable",
    )
    parser.add_argument("--config", type=Path, default=None, help="TOML config file")
    parser.add_argument("--segmenter", default=None, help="sentence splitter backend")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="folder for cached dense vectors (default: OUT/.cache)",
    )


def add_convert_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `notechunk eval-convert squad FILE --out DIR`."""
    parser.add_argument("format", choices=["squad"], help="input format")
    parser.add_argument("file", type=Path, help="SQuAD-format JSON (SQuAD, COVID-QA)")
    parser.add_argument("--out", type=out_folder, required=True, help="output folder")
    parser.add_argument(
        "--kind",
        choices=["auto", "covid", "squad"],
        default="auto",
        help="covid: files named by document_id; squad: by title (auto: detect)",
    )
    parser.add_argument(
        "--layout",
        choices=["paragraphs", "sections"],
        default="paragraphs",
        help="SQuAD contexts as paragraphs of one section, or one section each",
    )


def out_folder(value: str) -> Path:
    """`--out`: a folder name (an empty string would silently mean the current folder)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("--out is empty: name an output folder")
    return Path(value)


def check_out(out: Path, src: Path | None = None, own: str = EVAL_MARKER) -> None:
    """Refuse, first thing and creating nothing, an OUT whose files we would overwrite.

    OUT must be absent, an empty folder, or one this command wrote before (`own`: its
    marker; an output of an older version, which has none, is known by its main file:
    results.json, or questions.jsonl for eval-convert), and must not hold SRC (the reports
    would be read back as notes). An OUT inside SRC is fine: discovery skips it.
    """
    try:
        target = out.resolve()
        holds = src is not None and (
            target == src.resolve() or src.resolve().is_relative_to(target)
        )
    except (OSError, RuntimeError) as exc:
        raise UsageError(f"{out}: cannot resolve the output folder ({exc})") from None
    if holds:
        raise UsageError(f"{out}: the output folder would hold the notes of {src}; choose another")
    if not target.exists():
        return
    if not target.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    try:
        entries = {e.name for e in os.scandir(target)}
    except OSError as exc:
        raise UsageError(f"{out}: cannot list the output folder ({exc.strerror})") from None
    if entries and not entries & {own, _MAIN_FILE[own]}:
        raise UsageError(
            f"{out}: not empty and not a notechunk eval output (no {own}); "
            "choose a new or empty folder"
        )


def usable_out(out: Path, own: str = EVAL_MARKER) -> Path:
    """OUT as a writable folder carrying this command's marker, or a one-line UsageError."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not check_file(out / own):  # a link at the marker's name is refused, never followed
            os.close(open_own(out / own, os.O_WRONLY | os.O_CREAT))
    except OSError as exc:
        raise UsageError(f"{out}: cannot create the output folder ({exc.strerror})") from None
    if not os.access(out, os.W_OK):
        raise UsageError(f"{out}: the output folder is not writable")
    return out


def parse_ks(value: str) -> tuple[int, ...]:
    parts = [x.strip() for x in value.split(",") if x.strip()]
    if not parts or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise UsageError(f"--k: expected comma-separated whole numbers, got {value[:40]!r}")
    ks = tuple(sorted({int(p) for p in parts}))
    if ks[0] < 1:
        raise UsageError("--k: cut-offs must be >= 1")
    return ks
