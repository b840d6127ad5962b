"""Inline clean-up on hostile input (issue 13): seconds for `clean_inline` on texts made of
one repeated pattern, at several sizes. A linear pattern grows with the size; the seed's
quadratic ones grew with its square (64 KB of `**a ` 22 s, 128 KB 88 s, 32 KB of `[` 19 s).

    python bench/bench_clean.py [--sizes 65536 131072 1048576] [--seed PATH/TO/old/clean.py]

`--seed` also times another version of the module (e.g. `git show 7f8468c:src/notechunk/
markdown/clean.py > /tmp/seed_clean.py`), on 16 KB and 32 KB only. Writes
bench/results/clean.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable
from typing import Any

from benchlib import write_result

from notechunk.markdown.clean import clean_inline

UNITS = ["**a ", "[", "[[", "![a](b ", "==a ", "_a ", "`", "{.a ", "<a ", "<!--", "&amp", "\\"]


def seconds(fn: Callable[[str], str], text: str) -> float:
    start = time.perf_counter()
    fn(text)
    return time.perf_counter() - start


def load(path: str) -> Callable[[str], str]:
    spec = importlib.util.spec_from_file_location("seed_clean", path)
    assert spec is not None and spec.loader is not None
    module: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn: Callable[[str], str] = module.clean_inline
    return fn


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[65_536, 131_072, 1_048_576])
    ap.add_argument("--seed", default=None)
    args = ap.parse_args()
    results: dict[str, Any] = {}
    print(f"{'pattern':10}" + "".join(f"{s // 1024:>9} KB" for s in args.sizes))
    for unit in UNITS:
        row = [seconds(clean_inline, unit * (size // len(unit))) for size in args.sizes]
        results[unit] = dict(zip(map(str, args.sizes), row, strict=True))
        print(f"{unit!r:10}" + "".join(f"{t:11.3f}s" for t in row))
    if args.seed:
        seed = load(args.seed)
        print("seed version:")
        for unit in UNITS:
            row = [seconds(seed, unit * (size // len(unit))) for size in (16_384, 32_768)]
            results[f"seed {unit}"] = dict(zip(("16384", "32768"), row, strict=True))
            print(f"{unit!r:10}" + "".join(f"{t:11.3f}s" for t in row))
    write_result("clean", results)


if __name__ == "__main__":
    main()
