"""`notechunk eval` and `notechunk eval-convert`: argument wiring, the sweep, the reports.

This is the I/O edge of the eval: it reads the corpus and questions, shows rich progress
bars on stderr, and writes OUT/results.json (a list of rows, sorted keys, rounded floats),
OUT/results.md and OUT/results.html (inline SVG, no remote assets). Everything it computes
is deterministic: sorted corpus walk, fixed tokenization, stable tie-breaking.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notechunk.config import Config, resolve_config
from notechunk.errors import UsageError
from notechunk.evaluate.corpora import (
    Document,
    Question,
    convert_squad,
    load_corpus,
    load_questions,
    write_converted,
)
from notechunk.evaluate.metrics import score_rankings
from notechunk.evaluate.retrieve import RETRIEVERS, Retriever, get_retriever
from notechunk.evaluate.strategies import (
    Strategy,
    Unit,
    baseline_strategies,
    chonkie_recursive,
    chonkie_sentence,
    fixed_chars,
    fixed_words,
    installed,
    langchain_recursive,
    notechunk_strategy,
    notechunk_sweep,
    peer_strategies,
    with_markdown,
)
from notechunk.segment.base import Segmenter, Span, spans_from_cuts

DEFAULT_KS = (1, 3, 5, 10)
DEFAULT_BUDGET = 1000
RANK_DEPTH = 1000
GROUPS = ("notechunk", "baselines", "peers")
METRIC_KEYS = ("recall@1", "recall@3", "recall@5", "recall@10", "mrr", "recall@budget")


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `notechunk eval SRC --questions FILE --out DIR ...`."""
    parser.add_argument("src", type=Path, help="corpus folder of Markdown files")
    parser.add_argument("--questions", type=Path, required=True, help="questions JSONL")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--retriever", choices=sorted(RETRIEVERS), default="bm25")
    parser.add_argument("--k", default="1,3,5,10", help="cut-offs for recall@k (1,3,5,10)")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET, help="word budget for recall@budget"
    )
    parser.add_argument(
        "--strategies",
        default=",".join(GROUPS),
        help=(
            "comma list of groups (notechunk, baselines, peers) and single strategies: "
            "nc:WINDOW/OVERLAP/CAP, chars:SIZE/OVERLAP, words:SIZE/OVERLAP, "
            "langchain:SIZE/OVERLAP, chonkie-recursive:SIZE, chonkie-sentence:SIZE/OVERLAP"
        ),
    )
    parser.add_argument("--config", type=Path, default=None, help="TOML config file")
    parser.add_argument("--segmenter", default=None, help="sentence splitter backend")


def add_convert_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `notechunk eval-convert squad FILE --out DIR`."""
    parser.add_argument("format", choices=["squad"], help="input format")
    parser.add_argument("file", type=Path, help="SQuAD-format JSON (SQuAD, COVID-QA)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
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


def run_convert(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.file).read_text("utf-8"))
    except OSError as exc:
        raise UsageError(f"{args.file}: cannot read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{args.file}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise UsageError(f"{args.file}: expected a SQuAD JSON object")
    kind = args.kind
    if kind == "auto":
        first = (data.get("data") or [{}])[0]
        paragraphs = first.get("paragraphs") or [{}]
        kind = "covid" if "document_id" in paragraphs[0] and "title" not in first else "squad"
    converted = convert_squad(data, kind, args.layout)
    corpus_dir, qpath = write_converted(converted, Path(args.out))
    print(
        f"{len(converted.documents)} documents -> {corpus_dir}, "
        f"{len(converted.questions)} questions -> {qpath}"
    )
    return 0


def parse_ks(value: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(x) for x in value.split(",") if x.strip()}))
    except ValueError:
        raise UsageError(f"--k: expected comma-separated integers, got {value!r}") from None
    if not ks or ks[0] < 1:
        raise UsageError("--k: cut-offs must be >= 1")
    return ks


def resolve_segmenter(name: str) -> tuple[Segmenter, str | None]:
    """The configured backend, or the eval's interim splitter (with a note) while
    `notechunk.segment.get_segmenter` is not available."""
    try:
        from notechunk.segment import get_segmenter  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return InterimSegmenter(), "notechunk.segment.get_segmenter missing: interim splitter"
    seg: Segmenter = get_segmenter(name)
    return seg, None


_ABBREV = frozenset(
    "dr mr mrs ms prof st no nos art arts vs etc e.g i.e fig figs al approx ca cf "
    "jan feb mar apr jun jul aug sep sept oct nov dec sec ref refs vol eq".split()
)
_END = re.compile(r"[.!?][\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9])")


class InterimSegmenter:
    """A small rule splitter: ends at . ! ? before a capital or digit, except after an
    abbreviation or an initial. Only used until the real backends land."""

    name = "interim"

    def spans(self, text: str) -> list[Span]:
        cuts: list[int] = []
        for m in _END.finditer(text):
            if text[m.start()] == ".":
                word = text[: m.start()].rsplit(None, 1)[-1] if text[: m.start()].strip() else ""
                bare = word.lstrip("(\"'[").lower()
                if bare in _ABBREV or (len(bare) == 1 and bare.isalpha()) or "." in bare:
                    continue
            cuts.append(m.end())
        return spans_from_cuts(text, cuts)


def _nums(spec: str, body: str, n: int) -> list[float]:
    parts = body.split("/")
    if len(parts) != n:
        raise UsageError(f"--strategies: {spec!r} needs {n} number(s) separated by /")
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise UsageError(f"--strategies: {spec!r} has a non-number") from None


def build_strategies(
    specs: str, cfg: Config, segmenter: Segmenter
) -> tuple[list[Strategy], list[str], bool]:
    """Strategies named by `--strategies`; returns them, notes, and whether peers are wanted
    (peers are sized after the notechunk rows have run)."""
    out: list[Strategy] = []
    notes: list[str] = []
    want_peers = False
    for raw in (s.strip() for s in specs.split(",")):
        if not raw:
            continue
        kind, _, body = raw.partition(":")
        if raw == "notechunk":
            out += notechunk_sweep(cfg, segmenter)
        elif raw == "baselines":
            out += baseline_strategies()
        elif raw == "peers":
            want_peers = True
        elif kind == "nc":
            w, ov, cap = _nums(raw, body, 3)
            c = with_markdown(cfg, window_sentences=int(w), overlap=ov, window_max_words=int(cap))
            out.append(notechunk_strategy(f"notechunk {int(w)}/{ov}/{int(cap)}w", c, segmenter))
        elif kind == "chars":
            size, ov = _nums(raw, body, 2)
            out.append(fixed_chars(int(size), int(ov)))
        elif kind == "words":
            size, ov = _nums(raw, body, 2)
            out.append(fixed_words(int(size), int(ov)))
        elif kind in ("langchain", "chonkie-recursive", "chonkie-sentence"):
            module = "langchain_text_splitters" if kind == "langchain" else "chonkie"
            if not installed(module):
                notes.append(f"{raw} skipped: {module} is not installed")
                continue
            if kind == "langchain":
                size, ov = _nums(raw, body, 2)
                out.append(langchain_recursive(int(size), int(ov)))
            elif kind == "chonkie-recursive":
                (size,) = _nums(raw, body, 1)
                out.append(chonkie_recursive(int(size)))
            else:
                size, ov = _nums(raw, body, 2)
                out.append(chonkie_sentence(int(size), int(ov)))
        else:
            raise UsageError(f"--strategies: unknown entry {raw!r}")
    return out, notes, want_peers


def evaluate_units(
    units: Sequence[Unit],
    questions: Sequence[Question],
    retriever: Retriever,
    ks: Sequence[int],
    budget: int,
) -> dict[str, Any]:
    """Metrics of one strategy's units (the row without strategy/params)."""
    if not units:
        raise UsageError("a strategy produced no chunks")
    depth = min(len(units), max(RANK_DEPTH, max(ks)))
    rankings = retriever.rank([u.index_text for u in units], [q.question for q in questions], depth)
    scores = score_rankings(
        rankings, [u.text for u in units], [q.answers for q in questions], ks, budget
    )
    words = [len(u.text.split()) for u in units]
    row: dict[str, Any] = {
        "n_chunks": len(units),
        "mean_words": round(sum(words) / len(words), 1),
    }
    for k in ks:
        row[f"recall@{k}"] = round(scores.recall_at[k], 4)
    row["mrr"] = round(scores.mrr, 4)
    row["recall@budget"] = round(scores.recall_at_budget, 4)
    return row


def run_strategies(
    strategies: Sequence[Strategy],
    docs: Sequence[Document],
    questions: Sequence[Question],
    retriever: Retriever,
    ks: Sequence[int],
    budget: int,
    progress: Any = None,
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    task = progress.add_task("strategies", total=len(strategies)) if progress else None
    for s in strategies:
        if progress is not None:
            progress.update(task, description=s.name)
        units = s.run(docs)
        row: dict[str, Any] = {"strategy": s.name, "params": s.params, "retriever": retriever.name}
        row.update(evaluate_units(units, questions, retriever, ks, budget))
        row["mean_chars"] = round(sum(len(u.text) for u in units) / len(units), 1)
        rows.append(row)
        if progress is not None:
            progress.advance(task)
    return rows


def run_eval(args: argparse.Namespace) -> int:
    """Run the sweep and write OUT/results.{json,md,html}; returns the exit status."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    src = Path(args.src)
    ks = parse_ks(args.k)
    if args.budget < 1:
        raise UsageError("--budget must be >= 1")
    cfg, _ = resolve_config(src, args.config)
    cfg = cfg.with_segmenter(args.segmenter)
    segmenter, seg_note = resolve_segmenter(cfg.segmenter)
    docs = load_corpus(src)
    questions = load_questions(Path(args.questions))
    retriever = get_retriever(args.retriever)
    strategies, notes, want_peers = build_strategies(args.strategies, cfg, segmenter)
    if seg_note:
        notes.insert(0, seg_note)

    console = Console(stderr=True)
    columns = (TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        rows = run_strategies(strategies, docs, questions, retriever, ks, args.budget, progress)
        if want_peers:
            ref = next((r for r in rows if r["strategy"] == "notechunk (config)"), None)
            target = int(ref["mean_chars"]) if ref else 1000
            peers, peer_notes = peer_strategies(target)
            notes += peer_notes
            rows += run_strategies(peers, docs, questions, retriever, ks, args.budget, progress)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "corpus": src.as_posix(),
        "documents": len(docs),
        "questions": len(questions),
        "retriever": retriever.name,
        "budget": args.budget,
        "ks": list(ks),
        "segmenter": segmenter.name,
    }
    (out / "results.json").write_text(
        json.dumps(rows, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (out / "results.md").write_text(render_markdown(rows, ks, meta, notes), encoding="utf-8")
    (out / "results.html").write_text(render_html(rows, ks, meta, notes), encoding="utf-8")
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(render_table(rows, ks))
    print(f"wrote {out / 'results.json'}, results.md, results.html")
    return 0


def _columns(ks: Sequence[int]) -> list[str]:
    return ["n_chunks", "mean_words", *[f"recall@{k}" for k in ks], "mrr", "recall@budget"]


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if value <= 1.0 else f"{value:.1f}"
    return str(value)


def render_table(rows: Sequence[dict[str, Any]], ks: Sequence[int]) -> str:
    """A Markdown table of the rows (also what the CLI prints)."""
    cols = _columns(ks)
    lines = [
        "| strategy | " + " | ".join(cols) + " |",
        "| --- | " + " | ".join("---:" for _ in cols) + " |",
    ]
    for r in rows:
        cells = [_fmt(r.get(c, "")) for c in cols]
        lines.append(f"| {r['strategy']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_markdown(
    rows: Sequence[dict[str, Any]], ks: Sequence[int], meta: dict[str, Any], notes: Sequence[str]
) -> str:
    head = [
        "# notechunk eval",
        "",
        f"Corpus `{meta['corpus']}`: {meta['documents']} documents, {meta['questions']} "
        f"questions; retriever {meta['retriever']}; budget {meta['budget']} words; "
        f"segmenter {meta['segmenter']}.",
        "",
    ]
    tail = ["", *[f"- note: {n}" for n in notes]] if notes else []
    return "\n".join([*head, render_table(rows, ks), *tail]) + "\n"


def _svg_bars(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> str:
    """Horizontal grouped bars, one group per strategy, one bar per metric key (0..1)."""
    colors = ("#3b6ea5", "#e08a2c", "#5a9e5a", "#b04a5a")
    label_w, bar_w, bar_h, gap = 260, 420, 10, 8
    group_h = bar_h * len(keys) + gap
    height = 30 + group_h * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 60}" '
        f'height="{height}" font-family="sans-serif" font-size="11">'
    ]
    for j, key in enumerate(keys):
        x = label_w + j * 140
        parts.append(f'<rect x="{x}" y="4" width="10" height="10" fill="{colors[j % 4]}"/>')
        parts.append(f'<text x="{x + 14}" y="13">{html.escape(key)}</text>')
    for i, r in enumerate(rows):
        y0 = 24 + i * group_h
        name = html.escape(str(r["strategy"]))
        parts.append(
            f'<text x="{label_w - 6}" y="{y0 + bar_h * len(keys) / 2 + 4}" '
            f'text-anchor="end">{name}</text>'
        )
        for j, key in enumerate(keys):
            v = float(r.get(key, 0.0))
            y = y0 + j * bar_h
            parts.append(
                f'<rect x="{label_w}" y="{y}" width="{v * bar_w:.1f}" height="{bar_h - 1}" '
                f'fill="{colors[j % 4]}"><title>{name} {key} {v:.3f}</title></rect>'
            )
            parts.append(f'<text x="{label_w + v * bar_w + 4:.1f}" y="{y + 8}">{v:.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(
    rows: Sequence[dict[str, Any]], ks: Sequence[int], meta: dict[str, Any], notes: Sequence[str]
) -> str:
    cols = _columns(ks)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in ["strategy", *cols])
    body = "".join(
        "<tr><td>"
        + html.escape(str(r["strategy"]))
        + "</td>"
        + "".join(f"<td>{html.escape(_fmt(r.get(c, '')))}</td>" for c in cols)
        + "</tr>"
        for r in rows
    )
    keys = [k for k in ("recall@5", "recall@budget") if rows and k in rows[0]]
    note_html = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    summary = html.escape(
        f"{meta['documents']} documents, {meta['questions']} questions, retriever "
        f"{meta['retriever']}, budget {meta['budget']} words"
    )
    style = (
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
        "td:first-child{text-align:left}"
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>notechunk eval</title>"
        f"<style>{style}</style></head><body><h1>notechunk eval</h1><p>{summary}</p>"
        f"{_svg_bars(rows, keys)}<table><tr>{head}</tr>{body}</table>"
        + (f"<ul>{note_html}</ul>" if notes else "")
        + "</body></html>\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry (`python -m notechunk.evaluate.run eval|eval-convert ...`)."""
    parser = argparse.ArgumentParser(prog="notechunk")
    sub = parser.add_subparsers(dest="command", required=True)
    add_eval_arguments(sub.add_parser("eval", help="retrieval evaluation of chunkings"))
    add_convert_arguments(sub.add_parser("eval-convert", help="SQuAD JSON to corpus"))
    args = parser.parse_args(argv)
    try:
        return run_eval(args) if args.command == "eval" else run_convert(args)
    except UsageError as exc:
        print(f"notechunk: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
