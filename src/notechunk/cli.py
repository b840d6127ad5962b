"""The command line: parse, call the pipeline, print, return an exit code (SPEC §2).

Errors become one line on stderr here and nowhere else: 0 all files processed, 1 some
files failed (the rest is written), 2 unusable arguments or config.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from notechunk import __version__
from notechunk.cli_help import ABOUT, COMMANDS, EXAMPLES
from notechunk.config import Config, resolve_config, to_toml
from notechunk.errors import ConfigError, MissingExtra, NotechunkError, UsageError

SAMPLE_DIR = Path(__file__).parent / "data" / "sample"
RETRIEVERS = ("bm25", "dense", "hybrid")  # notechunk.search.engine.RETRIEVERS, kept light


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so bad arguments follow our exit codes."""

    def error(self, message: str) -> Any:  # noqa: D401 - argparse's signature
        raise UsageError(message)


def _sub(sub: Any, name: str) -> argparse.ArgumentParser:
    """A subcommand with its one-line help, what it does, and examples."""
    help_, about, examples = COMMANDS[name]
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help_,
        description=about,
        epilog=f"examples:\n  {examples}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="notechunk",
        description=ABOUT,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"notechunk {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    run = _sub(sub, "run")
    run.add_argument("src", type=Path, help="folder (or file) of Markdown and spreadsheets")
    run.add_argument("--out", type=out_folder, required=True, help="output folder")
    _common_run_options(run)
    run.set_defaults(func=cmd_run)

    demo = _sub(sub, "demo")
    demo.add_argument("--out", type=out_folder, default=Path("out"), help="output folder (out)")
    _common_run_options(demo)
    demo.set_defaults(func=cmd_demo)

    insp = _sub(sub, "inspect")
    insp.add_argument("file", type=Path)
    insp.add_argument("--config", type=Path, default=None)
    insp.add_argument("--segmenter", default=None)
    insp.add_argument("--json", action="store_true", help="print JSON")
    insp.set_defaults(func=cmd_inspect)

    rep = _sub(sub, "report")
    rep.add_argument("out", type=Path)
    rep.set_defaults(func=cmd_report)

    srch = _sub(sub, "search")
    srch.add_argument("out", type=Path, help="output folder of a finished `notechunk run`")
    srch.add_argument("query", help="the question or keywords")
    srch.add_argument("-k", type=int, default=5, help="how many chunks to show (5)")
    srch.add_argument(
        "--retriever",
        choices=RETRIEVERS,
        default=None,
        help="bm25 (default), dense or hybrid (default with --db)",
    )
    srch.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    srch.add_argument("--db", type=Path, default=None, help="search this LanceDB folder instead")
    srch.set_defaults(func=cmd_search)

    idx = _sub(sub, "index")
    idx.add_argument("out", type=Path, help="output folder of a finished `notechunk run`")
    idx.add_argument("--db", type=Path, default=None, help="LanceDB folder (OUT/lancedb)")
    idx.set_defaults(func=cmd_index)

    tmpl = _sub(sub, "templates")
    tsub = tmpl.add_subparsers(dest="templates_command", required=True, parser_class=_Parser)
    sug = tsub.add_parser("suggest", help="print a starter [[templates]] block per sheet")
    sug.add_argument("file", type=Path)
    sug.add_argument("--config", type=Path, default=None)
    sug.set_defaults(func=cmd_templates_suggest)

    from notechunk.evaluate.run import (
        add_convert_arguments,
        add_eval_arguments,
        run_convert,
        run_eval,
    )

    ev = _sub(sub, "eval")
    add_eval_arguments(ev)
    ev.set_defaults(func=run_eval)
    evc = _sub(sub, "eval-convert")
    add_convert_arguments(evc)
    evc.set_defaults(func=run_convert)

    cfg = _sub(sub, "config")
    csub = cfg.add_subparsers(dest="config_command", required=True, parser_class=_Parser)
    show = csub.add_parser("show", help="print the effective configuration as TOML")
    show.add_argument("src", type=Path, nargs="?", default=None)
    show.add_argument("--config", type=Path, default=None)
    show.set_defaults(func=cmd_config_show)
    return p


def out_folder(value: str) -> Path:
    """`--out`: a folder name (an empty string would silently mean the current folder)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("--out is empty: name an output folder")
    return Path(value)


def _common_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, default=None, help="TOML config file")
    p.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: the CPU count)"
    )
    p.add_argument("--segmenter", default=None, help="sentence splitter (default, fast, ...)")
    p.add_argument(
        "--engine",
        choices=("local", "ray"),
        default=None,
        help="where the work runs: local (this machine's cores; default) or ray (Ray Data; "
        "pip install 'notechunk[ray]')",
    )
    p.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="with --engine ray: join the Ray cluster at ADDR (default: $RAY_ADDRESS, else "
        "a local Ray instance of --workers CPUs)",
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="redo every file and rewrite every output (ignore OUT/.cache and the manifest)",
    )


def _load(src: Path | None, args: argparse.Namespace) -> Config:
    cfg, _ = resolve_config(src, args.config)
    cfg = cfg.with_segmenter(getattr(args, "segmenter", None))
    if getattr(args, "engine", None):
        cfg = cfg.with_overrides(engine=args.engine)
    if cfg.output.parquet:
        from notechunk.io.parquet import require_pyarrow

        try:
            require_pyarrow("[output] parquet = true")
        except MissingExtra as exc:
            raise ConfigError(str(exc)) from None
    from notechunk.segment import get_segmenter

    get_segmenter(cfg.segmenter)  # fail early (exit 2) on an unknown backend
    if cfg.tokenizer:  # and on a tokenizer that cannot be loaded
        from notechunk.tokens import load_counter

        load_counter(cfg.tokenizer)
    return cfg


def _progress_printer() -> tuple[Callable[[str, int, int], None], Callable[[], None]]:
    """A rich progress bar on stderr that appears only once a run passes one second."""
    start = time.monotonic()
    state: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        if "bar" not in state:
            if time.monotonic() - start < 1.0 or not sys.stderr.isatty():
                return
            from rich.progress import Progress

            bar = Progress(transient=True, console=_stderr_console())
            bar.start()
            state["bar"] = bar
        bar = state["bar"]
        if stage not in state:
            state[stage] = bar.add_task(stage, total=total)
        bar.update(state[stage], completed=done, total=total)

    def stop() -> None:
        if "bar" in state:
            state["bar"].stop()

    return update, stop


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _workers(asked: int | None, cluster: bool = False) -> int | None:
    """--workers, defaulting to the CPU count and clamped to it (more processes than cores
    only cost memory and time); a clamp is said on stderr. On a Ray cluster the CPUs are
    the cluster's: no default (every CPU), no clamp."""
    cpus = _cpus()
    if asked is not None and asked < 1:
        raise UsageError("--workers must be at least 1")
    if cluster:
        return asked
    if asked is None:
        return cpus
    if asked > cpus:
        say(f"--workers {asked} is more than the {cpus} CPU(s) here; using {cpus}")
        return cpus
    return asked


def _check_src(src: Path) -> None:
    from notechunk.discover import kind_of

    if not src.exists():
        raise UsageError(f"{src}: no such file or folder")
    if src.is_dir():
        return
    if not src.is_file():
        raise UsageError(f"{src}: not a folder or a regular file")
    if kind_of(src) is None:
        raise UsageError(
            f"{src}: not a Markdown or spreadsheet file (.md, .markdown, .xlsx, .xlsm, .xls, "
            ".ods, .csv)"
        )


def _run(src: Path, args: argparse.Namespace) -> int:
    from notechunk.io.publish import check_out
    from notechunk.pipeline import run

    _check_src(src)
    cfg = _load(src, args)
    address = args.ray_address or None
    if address and cfg.engine != "ray":
        raise UsageError('--ray-address needs --engine ray (or engine = "ray" in the config)')
    if cfg.engine == "ray":
        from notechunk.engines.ray import require_ray

        try:
            require_ray()
        except MissingExtra as exc:
            raise UsageError(str(exc)) from None
        address = address or os.environ.get("RAY_ADDRESS") or None
    workers = _workers(args.workers, cluster=address is not None)
    check_out(args.out, src)  # an unusable OUT is a bad argument (exit 2), before any work
    update, stop = _progress_printer()
    try:
        result = run(
            src,
            args.out,
            cfg,
            workers=workers,
            progress=update,
            use_cache=not args.no_cache,
            ray_address=address,
        )
    finally:
        stop()
    for err in result.errors:
        say(err.message())
    m = result.metrics
    print(
        f"{result.files} files: {result.markdown_chunks} markdown and {result.sheet_chunks} "
        f"spreadsheet chunks; {m.surviving} kept, {m.omitted} omitted, "
        f"{m.discarded_rows} rows discarded; {len(result.errors)} file errors "
        f"-> {terminal_safe(str(args.out))}"
    )
    return result.exit_code


def cmd_run(args: argparse.Namespace) -> int:
    return _run(args.src, args)


def cmd_demo(args: argparse.Namespace) -> int:
    return _run(SAMPLE_DIR, args)


def cmd_inspect(args: argparse.Namespace) -> int:
    from notechunk.discover import kind_of
    from notechunk.markdown import layout_markdown
    from notechunk.markdown.runner import window_text
    from notechunk.segment import get_segmenter
    from notechunk.textio import read_text

    path: Path = args.file
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if kind_of(path) != "markdown":
        raise UsageError(f"{path}: inspect reads Markdown files (.md)")
    cfg = _load(path.parent, args)
    text = read_text(path, path.name).text
    from notechunk.tokens import counter_for

    lay = layout_markdown(text, cfg, get_segmenter(cfg.segmenter), None, counter_for(cfg.tokenizer))
    data: dict[str, Any] = {
        "file": path.as_posix(),
        "metadata": lay.parsed.metadata,
        "sections": [
            {
                "path": list(s.path),
                "lines": list(s.lines),
                "sentences": [x.text for x in lay.sentences[k]],
            }
            for k, s in enumerate(lay.parsed.sections)
        ],
        "windows": [
            {
                "sections": [list(lay.parsed.sections[sec].path) for sec, _, _ in w.parts],
                "sentences": [[sec, start, end] for sec, start, end in w.parts],
                "words": w.words,
                "merged_bullets": w.merged,
                "text": window_text(w, lay.sentences),
            }
            for w in lay.windows
        ],
    }
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    sections: list[dict[str, Any]] = data["sections"]
    windows: list[dict[str, Any]] = data["windows"]
    for k, s in enumerate(sections):
        crumbs = " > ".join(s["path"]) or "(before the first heading)"
        print(
            f"[{k}] {crumbs}  lines {s['lines'][0]}-{s['lines'][1]}, "
            f"{len(s['sentences'])} sentences"
        )
        for sentence in s["sentences"]:
            print(f"      | {sentence[:100]}")
    print(f"{len(windows)} windows")
    for i, w in enumerate(windows):
        flag = " (merged bullets)" if w["merged_bullets"] else ""
        print(f"  window {i}: {w['words']} words{flag}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from notechunk.qa.report import build_report

    if not (args.out / "qa").is_dir():
        raise UsageError(f"{args.out}: not a notechunk output folder (no qa/)")
    path = build_report(args.out)
    print(path)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from notechunk.search.show import print_hits, render_json

    if args.db is not None:
        from notechunk.search.lance import search_db

        result = search_db(
            args.db, args.query, k=args.k, retriever=args.retriever or "hybrid", out=args.out
        )
    else:
        from notechunk.search.engine import search

        result = search(args.out, args.query, k=args.k, retriever=args.retriever or "bm25")
    for note in result.notes:
        say(note)
    if args.json:
        print(render_json(result))
        return 0
    from rich.console import Console

    print_hits(result, Console(highlight=False))
    fresh = [name for name, new in result.built.items() if new]
    if fresh:
        say(
            f"built the {' and '.join(fresh)} index in {args.out / '.search'} "
            "(kept until the run changes)"
        )
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    from notechunk.search.lance import build_index

    rep = build_index(args.out, args.db)
    for note in rep.notes:
        say(note)
    kind = "vectors + full-text index" if rep.vectors else "full-text index"
    print(
        f"{rep.rows} chunks in {terminal_safe(str(rep.db))} (table chunks, {kind}): "
        f"{rep.inserted} added, "
        f"{rep.updated} updated, {rep.deleted} deleted"
    )
    return 0


def cmd_templates_suggest(args: argparse.Namespace) -> int:
    from notechunk.discover import kind_of
    from notechunk.sheets import suggest_templates

    path: Path = args.file
    if not path.is_file() or kind_of(path) != "spreadsheet":
        raise UsageError(f"{path}: not a spreadsheet file (.xlsx, .xlsm, .xls, .ods, .csv)")
    cfg, _ = resolve_config(path.parent, args.config)
    print(suggest_templates(path, path.name, cfg), end="")
    return 0


def cmd_config_show(args: argparse.Namespace) -> int:
    if args.src is not None and not args.src.is_dir():
        raise UsageError(f"{args.src}: no such folder")
    cfg, origin = resolve_config(args.src, args.config)
    print(f"# from {origin}" if origin else "# defaults")
    print(to_toml(cfg), end="")
    return 0


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with control characters escaped (\\n, \\x1b, ...): a file name can then
    neither forge a second line nor send escape sequences to the terminal."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def say(message: str) -> None:
    """One line on stderr, prefixed and made terminal-safe."""
    print(f"notechunk: {terminal_safe(message)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status instead of exiting, so tests can call it."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        code: int = args.func(args)
        sys.stdout.flush()
        return code
    except (ConfigError, UsageError) as exc:
        say(str(exc))
        return 2
    except NotechunkError as exc:  # InputError, OutputError: the run could not finish
        say(str(exc))
        return 1
    except BrokenPipeError:  # `notechunk ... | head -1`: the reader left, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        say(f"internal error ({type(exc).__name__}: {exc}); please report it with the command")
        return 1
