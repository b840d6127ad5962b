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
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.cli.eval_args import (
    CONVERT_MARKER,
    add_convert_arguments,
    add_eval_arguments,
    check_out,
    parse_ks,
    usable_out,
)
from notechunk.config import Config
from notechunk.errors import UsageError
from notechunk.evaluate.questions import QuestionFile
from notechunk.evaluate.report import comparisons, parse_compare, write_results
from notechunk.evaluate.retrieve import Retriever
from notechunk.evaluate.rows import EvalMeta
from notechunk.evaluate.specs import Plan
from notechunk.evaluate.strategies import Inputs
from notechunk.evaluate.sweep import Settings, run_sweep

# the CLI builds its `eval` and `eval-convert` parsers from here
__all__ = ["add_convert_arguments", "add_eval_arguments", "run_convert", "run_eval"]


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
    from notechunk.cli._out import terminal_safe

    print(
        terminal_safe(
            f"{len(converted.documents)} documents -> {corpus_dir}, "
            f"{len(converted.questions)} questions -> {qpath}"
        )
    )
    return 0


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
    from notechunk.cli._out import terminal_safe

    lines, notes = execute(prepare(args))
    for note in notes:
        print(f"note: {terminal_safe(note)}", file=sys.stderr)
    for block in lines:  # strategy names come from file names (cfg:FILE): escape them too
        for line in block.split("\n"):
            print(terminal_safe(line))
    return 0
