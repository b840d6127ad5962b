"""Run every benchmark in bench/ in turn (`make bench`), each with its defaults, in its own
process: bench_cli_startup first (so nothing else is warm), then the others by name. Each
prints its figures; most write bench/results/<name>.json. Lines a script prints starting
with `TARGET` (a target, its figure, its peer in the same run, met or missed) are repeated
together at the end.

    python bench/run_all.py [NAME ...]   # e.g. `markdown workers` for bench_markdown, bench_workers
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRST = "bench_cli_startup.py"


def scripts(names: list[str]) -> list[Path]:
    found = sorted(HERE.glob("bench_*.py"), key=lambda p: (p.name != FIRST, p.name))
    if names:
        found = [p for p in found if p.stem.removeprefix("bench_") in names]
    return found


def main() -> int:
    failed = []
    targets: list[str] = []
    for script in scripts(sys.argv[1:]):
        print(f"\n=== {script.name} ===", flush=True)
        start = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")}
        proc = subprocess.Popen(
            [sys.executable, str(script)],
            cwd=HERE.parent,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith("TARGET"):
                targets.append(line.rstrip())
        code = proc.wait()
        print(f"=== {script.name}: exit {code}, {time.perf_counter() - start:.0f} s", flush=True)
        if code:
            failed.append(script.name)
    print("\n=== targets ===")
    for line in targets:
        print(line)
    if failed:
        print(f"failed or missed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
