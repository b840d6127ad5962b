"""The other commands: inspect, report, search, index, watch, mcp, templates suggest,
config show.

Each parses nothing and prints its result; errors are raised for `cli.main` to turn into
one line and an exit code. Apart from `cli` (parse and dispatch) and `cli.run` (the run
path); every heavy import is inside the command that needs it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from notechunk.cli._out import json_safe, say, terminal_safe
from notechunk.cli.run import command_config
from notechunk.config import Config, resolve_config, to_toml
from notechunk.errors import MissingExtra, NotechunkError, UsageError


def cmd_inspect(args: argparse.Namespace) -> int:
    from notechunk.discover import TEXT_EXTENSIONS, kind_of
    from notechunk.markdown import layout_markdown
    from notechunk.markdown.plaintext import plain_as_markdown
    from notechunk.markdown.runner import window_text
    from notechunk.segment import get_segmenter
    from notechunk.textio import read_text

    path: Path = args.file
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if kind_of(path) != "markdown":
        raise UsageError(f"{path}: inspect reads Markdown and text notes (.md, .txt)")
    cfg = command_config(path.parent, args)
    text = read_text(path, terminal_safe(path.name), cfg.markdown.max_file_mb << 20).text
    if path.suffix.lower() in TEXT_EXTENSIONS:  # as `run` reads a .txt note
        text = plain_as_markdown(text)
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
        print(json_safe(json.dumps(data, ensure_ascii=False, indent=2)))
        return 0
    sections: list[dict[str, Any]] = data["sections"]
    windows: list[dict[str, Any]] = data["windows"]
    for k, s in enumerate(sections):  # the notes' text is untrusted: escapes made visible
        crumbs = terminal_safe(" > ".join(s["path"])) or "(before the first heading)"
        print(
            f"[{k}] {crumbs}  lines {s['lines'][0]}-{s['lines'][1]}, "
            f"{len(s['sentences'])} sentences"
        )
        for sentence in s["sentences"]:
            print(f"      | {terminal_safe(sentence[:100])}")
    print(f"{len(windows)} windows")
    for i, w in enumerate(windows):
        flag = " (merged bullets)" if w["merged_bullets"] else ""
        print(f"  window {i}: {w['words']} words{flag}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from notechunk.qa.rebuild import build_report

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
        print(json_safe(render_json(result)))
        return 0
    from rich.console import Console

    print_hits(result, Console(highlight=False))
    fresh = list(result.saved)
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


def _watch_plan(src: Path, out: Path, args: argparse.Namespace) -> Any:
    from notechunk.cli.run import _workers
    from notechunk.integrations.watch import WatchPlan, require_watchfiles
    from notechunk.io.publish import check_out

    try:
        require_watchfiles()
    except MissingExtra as exc:
        raise UsageError(str(exc)) from None
    if not src.is_dir():
        raise UsageError(f"{src}: no such folder (watch follows a folder of notes)")
    if args.debounce_ms < 0:
        raise UsageError("--debounce-ms must be at least 0")
    command_config(src, args)  # a bad config is exit 2 before anything starts
    check_out(out, src)
    return WatchPlan(
        src=src,
        out=out,
        config=lambda: command_config(src, args),
        workers=_workers(args.workers) or 1,
        index=args.index,
        debounce_ms=args.debounce_ms,
    )


def _quiet_libraries() -> None:
    """bm25s sets its logger to DEBUG when imported, and the SDK adds a handler: its
    index build would be logged on every run. A filter outlives that setLevel."""
    import logging

    logging.getLogger("bm25s").addFilter(lambda record: record.levelno >= logging.WARNING)


def cmd_watch(args: argparse.Namespace) -> int:
    from notechunk.integrations.watch import watch

    _quiet_libraries()
    return watch(_watch_plan(args.src, args.out, args), say=say)


def cmd_mcp(args: argparse.Namespace) -> int:
    import threading

    try:
        from notechunk.integrations import mcp_server
    except ImportError:
        raise UsageError(str(MissingExtra("notechunk mcp", "the mcp SDK", "mcp"))) from None
    from notechunk.integrations.notes_view import Notes

    _quiet_libraries()
    http = mcp_server.parse_http(args.http) if args.http else None
    if http is not None and not mcp_server.is_loopback(http[0]):
        say(f"serving the notes at {http[0]}, beyond this machine, with no authentication")
    if args.watch is None:
        notes = Notes(args.out, src=args.src)
        notes.refresh()  # an OUT that cannot be served is exit 2; the index loads now
        mcp_server.serve(notes, http)
        return 0
    plan = _watch_plan(args.watch, args.out, args)
    first = threading.Event()
    notes = Notes(args.out, src=args.src or args.watch, first_run=first)
    stop = threading.Event()

    def serve() -> None:
        try:
            mcp_server.serve(notes, http)
        except Exception as exc:  # noqa: BLE001 - the server thread's edge: one line
            say(f"the MCP server stopped ({type(exc).__name__}: {exc})")
        finally:
            stop.set()

    def started(cfg: Config) -> None:
        notes.mark()

    def after(published: bool) -> None:
        if published:
            try:
                notes.refresh()
            except NotechunkError as exc:
                say(f"the new run is not served yet: {exc}")
        first.set()

    from notechunk.io.cache import CACHE_DIR

    def before(changed: list[tuple[str, Path]], cfg: Config) -> None:
        try:
            for problem in notes.provisional(changed, cfg, args.out / CACHE_DIR):
                say(f"{problem} (its published chunks are served)")
        except NotechunkError as exc:
            say(f"changes not searchable before the run: {exc}")

    from notechunk.integrations.watch import watch

    server = threading.Thread(target=serve, name="mcp-server", daemon=True)
    server.start()
    return watch(plan, say=say, stop=stop, after=after, before=before, started=started)


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
