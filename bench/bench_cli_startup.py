"""CLI start-up: median wall time of `import notechunk.cli` and of `notechunk --help`,
each in a fresh interpreter (`python -c pass` is printed as the floor). Target < 0.3 s.
Also lists any heavy module (markdown_it, bm25s, numpy, rich, ...) that `--help` imports.

    python bench/bench_cli_startup.py [--runs 11]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchlib import ROOT, write_result

HEAVY = ("markdown_it", "markdown_it_pyrs", "bm25s", "numpy", "rich", "spacy", "openpyxl")
PROBE = (
    "import sys\nfrom notechunk.cli import main\ntry:\n    main(['--help'])\n"
    "except SystemExit:\n    pass\nimport json\n"
    f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
)


def wall(cmd: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs + 1):  # the first run warms the file cache and is dropped
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    script = Path(sys.executable).with_name("notechunk")
    help_cmd = [str(script), "--help"] if script.exists() else None
    if help_cmd is None and shutil.which("notechunk"):
        help_cmd = ["notechunk", "--help"]
    help_cmd = help_cmd or [sys.executable, "-m", "notechunk", "--help"]
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import notechunk.cli": [sys.executable, "-c", "import notechunk.cli"],
        " ".join(["notechunk", "--help"]): help_cmd,
    }
    out: dict[str, float] = {}
    for name, cmd in cases.items():
        out[name] = wall(cmd, args.runs, env)
        print(f"{name:24s} {out[name] * 1000:7.1f} ms (median of {args.runs})")
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], check=True, capture_output=True, text=True, env=env
    )
    heavy = json.loads(probe.stdout.strip().splitlines()[-1])
    print(f"heavy modules imported by --help: {heavy or 'none'}")
    verdict = "ok" if out["notechunk --help"] < 0.3 and not heavy else "MISSED"
    print(f"target < 300 ms and lazy: {verdict}")
    path = write_result("cli_startup", {"seconds": out, "heavy_imports": heavy, "runs": args.runs})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
