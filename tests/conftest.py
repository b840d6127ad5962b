"""Shared fixtures: a tiny regex segmenter (so Markdown tests do not depend on a backend)
and the location of ../shared/corpora, which tests skip without."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from notechunk.segment.base import Span, spans_from_cuts

sys.path.insert(0, str(Path(__file__).parent))  # tests/qa_fixtures.py and helpers

# NOTECHUNK_SHARED, else ../shared beside the clone (CI) or beside a folder of worktrees
_HERE = Path(__file__).resolve()
SHARED = Path(
    os.environ.get(
        "NOTECHUNK_SHARED",
        next(
            (p / "shared" for p in _HERE.parents[1:4] if (p / "shared" / "corpora").is_dir()),
            _HERE.parents[2] / "shared",
        ),
    )
)
CORPORA = SHARED / "corpora"


class PeriodSegmenter:
    """Splits after . ! ? followed by whitespace, and at newlines: predictable for tests."""

    name = "period"

    def spans(self, text: str) -> list[Span]:
        cuts = [m.end() for m in re.finditer(r"[.!?](?=\s)|\n", text)]
        return spans_from_cuts(text, cuts)


@pytest.fixture
def seg() -> PeriodSegmenter:
    return PeriodSegmenter()


def corpus(*parts: str) -> Path:
    """A path under ../shared/corpora, or skip the test when it is absent."""
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present (../shared is not part of a fresh clone)")
    return path


_VOCAB = (
    "empire dynasty revolt parliament council writ article river monsoon pass plateau "
    "treaty reform movement governor province tax revenue court temple edict inscription "
    "coast delta basin glacier forest tribe trade port harbour charter assembly bill"
).split()


def make_corpus(root: Path, files: int, seed: int = 0, sentences: int = 60) -> list[Path]:
    """Write `files` generated Markdown notes under `root` (headings, prose, bullets).

    Deterministic for a seed; each file carries a unique token `zqfileN` so tests can
    check that its text reached the outputs.
    """
    import random

    rng = random.Random(seed)
    out = []
    for n in range(files):
        lines = [f"# Topic {n} zqfile{n}", ""]
        for k in range(sentences):
            if k % 15 == 0:
                lines += ["", f"## Part {k // 15}", ""]
            words = " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(8, 20)))
            bullet = "- " if k % 7 == 3 else ""
            lines.append(f"{bullet}{words.capitalize()} {n}x{k}.")
        path = root / f"d{n % 10}" / f"note-{n:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(path)
    return out


# A Markdown file holding this marker kills the Ray worker that processes it (os._exit),
# through a sitecustomize module on the PYTHONPATH of the session's Ray workers only.
KILL_MARKER = "ZQ-KILL-THE-RAY-WORKER"
_KILLER = f'''
import os
try:
    import notechunk.perfile as _process
except ImportError:
    _process = None
if _process is not None:
    _original = _process.process_markdown

    def _killing(rel, data, *args, **kwargs):
        if b"{KILL_MARKER}" in data:
            os._exit(9)
        return _original(rel, data, *args, **kwargs)

    _process.process_markdown = _killing
'''


@pytest.fixture(scope="session")
def ray_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One local Ray instance (2 CPUs) for every Ray test of the session (ray.init takes
    seconds); its workers kill themselves on a file holding `KILL_MARKER`."""
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed here (pip install 'notechunk[ray]')"
    )
    import logging

    hook = tmp_path_factory.mktemp("ray-hook")
    (hook / "sitecustomize.py").write_text(_KILLER)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(hook), old) if p)
    try:
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    yield
    ray.shutdown()
