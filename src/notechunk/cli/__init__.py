"""The command line: parse, call the library, print, return an exit code (SPEC §2).

Errors become one line on stderr here and nowhere else: 0 all files processed, 1 some
files failed (the rest is written), 2 unusable arguments or config. What each command
does is in `cli.run` (run, demo), `cli.commands` (the others) and `cli.eval` (eval,
eval-convert), imported when the parser is built; only this package prints.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notechunk._version import __version__
from notechunk.cli._out import say
from notechunk.cli.help import ABOUT, COMMANDS, EXAMPLES
from notechunk.errors import ConfigError, NotechunkError, UsageError

RETRIEVERS = ("bm25", "dense", "hybrid")  # search.engine checks the same names; kept light


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
    from notechunk.cli.commands import (
        cmd_config_show,
        cmd_index,
        cmd_inspect,
        cmd_mcp,
        cmd_report,
        cmd_search,
        cmd_templates_suggest,
        cmd_watch,
    )
    from notechunk.cli.run import cmd_demo, cmd_run

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

    wat = _sub(sub, "watch")
    wat.add_argument("src", type=Path, help="folder of notes to watch")
    wat.add_argument("--out", type=out_folder, required=True, help="output folder")
    _watch_options(wat)
    wat.set_defaults(func=cmd_watch)

    mcp = _sub(sub, "mcp")
    mcp.add_argument("out", type=Path, help="output folder of `notechunk run` (or of --watch)")
    mcp.add_argument(
        "--http",
        default=None,
        metavar="HOST:PORT",
        help="serve streamable HTTP at HOST:PORT (PORT alone: 127.0.0.1) instead of stdio",
    )
    mcp.add_argument(
        "--watch",
        type=Path,
        default=None,
        metavar="NOTES",
        help="also keep OUT current: run NOTES into OUT now and after every change",
    )
    mcp.add_argument(
        "--src",
        type=Path,
        default=None,
        metavar="NOTES",
        help="where OUT's notes are, for read_source (default: what OUT/origin.json says)",
    )
    _watch_options(mcp)
    mcp.set_defaults(func=cmd_mcp)

    tmpl = _sub(sub, "templates")
    tsub = tmpl.add_subparsers(dest="templates_command", required=True, parser_class=_Parser)
    sug = tsub.add_parser("suggest", help="print a starter [[templates]] block per sheet")
    sug.add_argument("file", type=Path)
    sug.add_argument("--config", type=Path, default=None)
    sug.set_defaults(func=cmd_templates_suggest)

    from notechunk.cli.eval import (
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


def _watch_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, default=None, help="TOML config file")
    p.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: the CPU count)"
    )
    p.add_argument("--segmenter", default=None, help="sentence splitter (default, fast, ...)")
    p.add_argument(
        "--index",
        action="store_true",
        help="also keep the LanceDB table OUT/lancedb current (kept anyway when it exists)",
    )
    p.add_argument(
        "--debounce-ms",
        type=int,
        default=300,
        metavar="MS",
        help="group a burst of changes for up to MS milliseconds into one run (300)",
    )


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
