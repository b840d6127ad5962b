"""build_report: OUT/report.html again from the QA artifacts alone (`notechunk report OUT`).

Each qa/ file is checked for its kind (a list of objects, or an object) and a file that
lacks what the page needs is a one-line `UsageError` naming it, never a traceback; the
chunks link to the source view when OUT has one. Apart from `report` (which renders in
memory, pure) because this is the side that reads and writes files.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from notechunk.errors import OutputError, UsageError
from notechunk.io.jsonio import write_text
from notechunk.io.outdir import read_own
from notechunk.io.publish import current_dir, link_output
from notechunk.qa.capped import split_trailer
from notechunk.qa.metrics import Metrics
from notechunk.qa.report import render_report


def _load(qa: Path, name: str, default: Any) -> Any:
    """A QA file's JSON (`default` when absent), of the same kind as `default` (a list of
    objects, or an object); anything else is a `UsageError` naming the file."""
    path = qa / name
    if not path.is_file():
        return default
    try:
        data = json.loads(read_own(path).decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(
            f"{path}: not readable JSON ({_short(exc)}); run notechunk again"
        ) from None
    if isinstance(default, list):
        ok = isinstance(data, list) and all(isinstance(row, dict) for row in data)
    else:
        ok = isinstance(data, dict)
    if not ok:
        kind = "a list of objects" if isinstance(default, list) else "an object"
        raise UsageError(f"{path}: not {kind}; run notechunk again")
    return data


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


def build_report(out: Path) -> Path:
    """Rebuild OUT/report.html from OUT/qa/*.json (missing files count as empty), in the
    folder of OUT's current run; an OUT that cannot be written is one `OutputError`."""
    run = current_dir(out)
    qa = run / "qa"
    try:
        metrics = Metrics.from_json(_load(qa, "metrics.json", {}))
    except ValueError as exc:
        raise UsageError(f"{out}: {exc}") from None
    loaded = {
        name: _load(qa, name, default)
        for name, default in (
            ("flagged.json", []),
            ("discarded_rows.json", []),
            ("errors.json", []),
            ("semantic_types.json", {}),
            ("enrichment.json", {}),
            ("skipped_lines.json", []),
        )
    }
    flagged, more = split_trailer(loaded["flagged.json"])  # a list cut to size ends in a count
    try:
        html = render_report(
            metrics,
            flagged,
            split_trailer(loaded["discarded_rows.json"])[0],
            loaded["errors.json"],
            loaded["semantic_types.json"],
            _chunk_sources(run),
            flagged_total=len(flagged) + more,
            enrichment=loaded["enrichment.json"],
            accounts=split_trailer(loaded["skipped_lines.json"])[0],
        )
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise UsageError(
            f"{qa}: a file lacks what the report needs ({type(exc).__name__}: {_short(exc)}); "
            "run notechunk again"
        ) from None
    try:
        write_text(run / "report.html", html, durable=True)  # no manifest covers it
        if run != out:  # OUT/report.html is the link through `.current` (made again if gone)
            link_output(out, "report.html")
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise OutputError(f"{out}: cannot write report.html ({why})") from None
    return out / "report.html"


def _chunk_sources(out: Path) -> dict[str, str] | None:
    """Chunk id -> source from OUT's stage files (every chunk, omitted too), when OUT has
    a source view to link to; None otherwise."""
    from notechunk.qa.contents import STAGE_NAMES, stage_file
    from notechunk.qa.sources import INDEX, SOURCES_DIR

    if not (out / SOURCES_DIR / INDEX).is_file():
        return None
    found: dict[str, str] = {}
    for name in STAGE_NAMES:
        for form in ("jsonl", "gzip"):  # as `[output] stages` wrote them
            path = out / "stages" / stage_file(name, form)
            if path.is_file():
                for line in _stage_lines(path):
                    try:
                        data = json.loads(line) if line.strip() else None
                        if data is not None:
                            found[str(data["id"])] = str(data["source"])
                    except (ValueError, KeyError, TypeError, IndexError):
                        continue  # a damaged line only costs its link
    return found


def _stage_lines(path: Path) -> Iterator[str]:
    """A stage file's lines, plain or gzip; a torn gzip ends them where it tears."""
    if path.suffix != ".gz":
        yield from path.read_text(encoding="utf-8", errors="replace").splitlines()
        return
    try:
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
            yield from fh
    except (OSError, EOFError, zlib.error):
        return
