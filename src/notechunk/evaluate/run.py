"""`notechunk eval` and `notechunk eval-convert`: argument checks, the sweep, the reports.

The I/O edge of the eval. Order matters: every argument is checked, OUT is made usable
and the questions are read before any chunking, so a bad argument costs nothing and
fails in one line (exit 2, like `run`). Then the sweep runs (a progress bar on stderr)
and OUT gets results.json (metadata, rows, comparisons), per_question.jsonl (each row's
per-question outcomes, for paired tests later), results.md and results.html. Everything
but the `*_s` timings is deterministic.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.config import Config
from notechunk.errors import UsageError
from notechunk.evaluate.questions import QuestionFile
from notechunk.evaluate.report import comparisons, parse_compare, write_results
from notechunk.evaluate.retrieve import Retriever
from notechunk.evaluate.rows import EvalMeta
from notechunk.evaluate.specs import Plan
from notechunk.evaluate.strategies import Inputs
from notechunk.evaluate.sweep import Settings, run_sweep

DEFAULT_BUDGET = 1000
SAMPLE_DIR = Path(__file__).resolve().parents[1] / "data" / "sample"
SAMPLE_QUESTIONS = SAMPLE_DIR.parent / "sample_questions.jsonl"
EVAL_MARKER = ".notechunk-eval"
CONVERT_MARKER = ".notechunk-eval-convert"


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
    marker, or for an older eval its results.json), and must not hold SRC (the reports
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
    if entries and not entries & {own, "results.json"}:
        raise UsageError(
            f"{out}: not empty and not a notechunk eval output (no {own}); "
            "choose a new or empty folder"
        )


def usable_out(out: Path, own: str = EVAL_MARKER) -> Path:
    """OUT as a writable folder carrying this command's marker, or a one-line UsageError."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / own).touch()
    except OSError as exc:
        raise UsageError(f"{out}: cannot create the output folder ({exc.strerror})") from None
    if not os.access(out, os.W_OK):
        raise UsageError(f"{out}: the output folder is not writable")
    return out


def run_convert(args: argparse.Namespace) -> int:
    from notechunk.evaluate.convert import convert_squad, detect_kind, write_converted
    from notechunk.evaluate.questions import loads, read_text_arg

    check_out(Path(args.out), own=CONVERT_MARKER)
    text, _notes = read_text_arg(Path(args.file), "SQuAD JSON")
    data = loads(text, str(args.file))
    kind = detect_kind(data) if args.kind == "auto" else args.kind
    converted = convert_squad(data, kind, args.layout)
    out = usable_out(Path(args.out), own=CONVERT_MARKER)
    corpus_dir, qpath = write_converted(converted, out)
    print(
        f"{len(converted.documents)} documents -> {corpus_dir}, "
        f"{len(converted.questions)} questions -> {qpath}"
    )
    return 0


def parse_ks(value: str) -> tuple[int, ...]:
    parts = [x.strip() for x in value.split(",") if x.strip()]
    if not parts or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise UsageError(f"--k: expected comma-separated whole numbers, got {value[:40]!r}")
    ks = tuple(sorted({int(p) for p in parts}))
    if ks[0] < 1:
        raise UsageError("--k: cut-offs must be >= 1")
    return ks


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """Everything an eval run needs, checked: what `execute` runs and writes."""

    src: Path
    out: Path
    plan: Plan
    retrievers: tuple[Retriever, ...]
    questions: QuestionFile
    settings: Settings
    pairs: tuple[tuple[str, str], ...]
    segmenter: str
    files: int
    workers: int
    cfg: Config


def prepare(args: argparse.Namespace) -> Job:
    """Check every argument, make OUT usable and read the questions: no chunking yet."""
    from notechunk.config import resolve_config
    from notechunk.discover import discover
    from notechunk.evaluate.questions import load_questions
    from notechunk.evaluate.retrieve import get_retrievers, parse_retrievers
    from notechunk.evaluate.specs import parse_strategies
    from notechunk.segment import get_segmenter

    src, out = Path(args.src), Path(args.out)
    check_out(out, src)
    ks = parse_ks(args.k)
    if not 1 <= args.budget <= 10**9:
        raise UsageError("--budget must be a whole number from 1 to 1000000000")
    if not 1 <= args.workers <= 256:
        raise UsageError("--workers must be from 1 to 256")
    names = parse_retrievers(args.retriever)
    pairs = parse_compare(args.compare)
    if not src.exists():
        raise UsageError(f"{src}: no such file or folder")
    cfg, _ = resolve_config(src if src.is_dir() else src.parent, args.config)
    cfg = cfg.with_segmenter(args.segmenter)
    segmenter = get_segmenter(cfg.segmenter)
    plan = parse_strategies(args.strategies, cfg)
    questions = load_questions(Path(args.questions))
    found = discover(src, exclude=[out])
    if not found.files:
        raise UsageError(f"{src}: no Markdown or spreadsheet files to evaluate on")
    usable_out(out)
    retrievers = get_retrievers(names, Path(args.cache) if args.cache else out / ".cache")
    return Job(
        src=src,
        out=out,
        plan=plan,
        retrievers=tuple(retrievers),
        questions=questions,
        settings=Settings(ks=ks, budget=args.budget),
        pairs=tuple(pairs),
        segmenter=segmenter.name,
        files=len(found.files),
        workers=args.workers,
        cfg=cfg,
    )


def execute(job: Job) -> tuple[list[str], list[str]]:
    """Run the sweep (peers after the rest) and write OUT; returns the lines to print
    and the notes (one line each: what a person should know about this run)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from notechunk.evaluate.documents import load_documents
    from notechunk.evaluate.peers import peer_strategies

    notes = [*job.questions.notes, *job.plan.notes]
    inputs = Inputs(src=job.src, exclude=(job.out,), workers=job.workers)
    n_docs = n_rows = None
    if job.plan.want_peers or any(s.uses_documents for s in job.plan.strategies):
        docs = load_documents(job.src, job.cfg, exclude=[job.out])
        inputs = replace(inputs, documents=docs.documents)
        notes += docs.notes
        n_docs = len(docs.documents)
        n_rows = sum(d.kind == "row" for d in docs.documents)
    questions = job.questions.questions
    columns = (TextColumn("{task.description:<50}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("eval", total=len(job.plan.strategies) * len(job.retrievers))

        def step(what: str) -> None:
            bar.update(task, description=what[:50], advance=1)

        result = run_sweep(
            job.plan.strategies, inputs, questions, job.retrievers, job.settings, step=step
        )
        measured, notes = list(result.measured), [*notes, *result.notes]
        if job.plan.want_peers:
            ref = next((m.row for m in measured if m.row.strategy == "notechunk (config)"), None)
            peers, peer_notes = peer_strategies(int(ref.mean_chars) if ref else 1000)
            bar.update(task, total=len(measured) + len(peers) * len(job.retrievers))
            more = run_sweep(peers, inputs, questions, job.retrievers, job.settings, step=step)
            measured += more.measured
            notes += [*peer_notes, *more.notes]
    meta = EvalMeta(
        corpus=job.src.as_posix(),
        files=job.files,
        documents=n_docs,
        rows=n_rows,
        questions=len(questions),
        retrievers=tuple(r.name for r in job.retrievers),
        budget=job.settings.budget,
        ks=job.settings.ks,
        segmenter=job.segmenter,
    )
    notes = list(dict.fromkeys(notes + _dense_notes(job.retrievers)))
    pairs = comparisons(measured, job.pairs)
    return write_results(job.out, meta, measured, pairs, notes), notes


def _dense_notes(retrievers: Sequence[Retriever]) -> list[str]:
    from notechunk.evaluate.dense import DenseRetriever
    from notechunk.evaluate.retrieve import HybridRetriever

    for r in retrievers:
        parts = r.parts if isinstance(r, HybridRetriever) else (r,)
        for p in parts:
            if isinstance(p, DenseRetriever):
                e = p.embedder
                return [
                    f"dense vectors ({e.model}): {e.embedded} texts embedded, "
                    f"{e.reused} reused from the cache"
                ]
    return []


def run_eval(args: argparse.Namespace) -> int:
    """`notechunk eval`: prepare (every check), execute, print the table; exit status."""
    from notechunk.cli import terminal_safe

    lines, notes = execute(prepare(args))
    for note in notes:
        print(f"note: {terminal_safe(note)}", file=sys.stderr)
    for block in lines:  # strategy names come from file names (cfg:FILE): escape them too
        for line in block.split("\n"):
            print(terminal_safe(line))
    return 0
