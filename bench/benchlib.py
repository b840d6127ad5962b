"""Shared helpers of the bench scripts: corpora, timing (warm-up, median), versions, results.

Plain time.perf_counter; every library is timed in the same process on the same texts.
Results go to bench/results/*.json (gitignored).
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "src"))  # run from a clone without installing


def corpora_dir() -> Path:
    """../shared/corpora beside the clone (or beside a folder of worktrees)."""
    for parent in ROOT.parents:
        if (parent / "shared" / "corpora").is_dir():
            return parent / "shared" / "corpora"
    return ROOT.parent / "shared" / "corpora"


def load_markdown(name: str) -> list[tuple[str, str]]:
    """(relative path, text) of every .md file of one corpus, in sorted order."""
    root = corpora_dir() / name
    if not root.is_dir():
        return []
    out = []
    for path in sorted(p for p in root.rglob("*.md") if p.is_file()):
        data = path.read_bytes()
        out.append((path.relative_to(root).as_posix(), data.decode("utf-8", errors="replace")))
    return out


def megabytes(texts: list[tuple[str, str]]) -> float:
    return sum(len(t.encode("utf-8")) for _, t in texts) / 1e6


def timed(fn: Callable[[], Any], runs: int = 3, warmup: int = 1) -> tuple[float, list[float]]:
    """Median wall time of `runs` calls after `warmup` untimed ones, and all the times."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def machine() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def write_result(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    data = {
        "machine": machine(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **data,
    }
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path
