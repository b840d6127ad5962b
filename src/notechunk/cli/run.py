"""`notechunk run` and `notechunk demo`: the config a command runs with, the worker count,
the progress bar, and the one summary line.

Apart from `cli` (which only parses and dispatches) so that the parser reads as the
commands' options; every heavy import here is inside the function that needs it, so
`notechunk --help` stays light.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from notechunk.cli._out import say, terminal_safe
from notechunk.config import Config, resolve_config
from notechunk.data import SAMPLE_DIR
from notechunk.errors import ConfigError, MissingExtra, UsageError


def command_config(src: Path | None, args: argparse.Namespace) -> Config:
    """The config a command runs with: the file, then --segmenter and --engine, with its
    segmenter and tokenizer loaded now (exit 2 before any work)."""
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
            f"{src}: not a Markdown, text or spreadsheet file (.md, .markdown, .txt, .xlsx, "
            ".xlsm, .xls, .ods, .csv, .tsv)"
        )


def _run(src: Path, args: argparse.Namespace) -> int:
    from notechunk.job import run

    _check_src(src)
    cfg = command_config(src, args)
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
    for note in result.notes:
        say(note)
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
