"""What enrichment costs: `notechunk run` with every enrichment on against all of them off.

Each side is a fresh `python -m notechunk run SRC --out FRESH --config C` (QA and report
included, a fresh OUT each time, so no cache), where C sets `[enrich]` merge_sections,
references and acronyms all true or all false. The sides run alternately (ABAB..., the
first pair untimed: it warms the page cache), so both see the same machine load; the
figure is the ratio of the medians. Target: on / off <= 1.15 on notes-md.

    python bench/bench_enrich_cost.py [--runs 3] [--corpus notes-md] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench_run import timed
from benchlib import corpora_dir, write_result

TARGET = 1.15
SIDES = {
    "off": "[enrich]\nmerge_sections = false\nreferences = false\nacronyms = false\n",
    "on": "[enrich]\nmerge_sections = true\nreferences = true\nacronyms = true\n",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--workers", type=int, default=0, help="0: notechunk's default")
    args = ap.parse_args(argv)
    results = {}
    missed = False
    for name in args.corpus or ["notes-md"]:
        src = corpora_dir() / name
        if not src.is_dir():
            print(f"skip {name}: {src} not present")
            continue
        times: dict[str, list[float]] = {side: [] for side in SIDES}
        with tempfile.TemporaryDirectory() as tmp:
            configs = {}
            for side, text in SIDES.items():
                configs[side] = Path(tmp) / f"{side}.toml"
                configs[side].write_text(text, encoding="utf-8")
            for k in range(args.runs + 1):
                for side in SIDES if k % 2 == 0 else reversed(SIDES):
                    cmd = [sys.executable, "-m", "notechunk", "run", str(src)]
                    cmd += ["--out", str(Path(tmp) / f"{side}{k}"), "--config", str(configs[side])]
                    if args.workers:
                        cmd += ["--workers", str(args.workers)]
                    elapsed = timed(cmd)
                    if k:
                        times[side].append(elapsed)
        off, on = statistics.median(times["off"]), statistics.median(times["on"])
        ratio = on / off
        missed |= ratio > TARGET
        results[name] = {
            "off_s": [round(x, 3) for x in times["off"]],
            "on_s": [round(x, 3) for x in times["on"]],
            "ratio": round(ratio, 3),
        }
        verdict = "met" if ratio <= TARGET else "MISSED"
        print(
            f"TARGET enrichment cost, {name}: off {off:.2f} s, on {on:.2f} s (medians of "
            f"{args.runs}), ratio {ratio:.3f} (target <= {TARGET}: {verdict})",
            flush=True,
        )
    write_result(
        "enrich_cost",
        {"cpus": os.cpu_count(), "load": os.getloadavg(), "corpora": results},
    )
    return 0 if not missed else 1


if __name__ == "__main__":
    raise SystemExit(main())
