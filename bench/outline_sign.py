"""Recall@k, MRR and paired sign tests from a `notechunk eval` run, on all questions and
on the `needs_parent` ones alone (the questions whose key words are only in a parent
bullet). Used by bench/eval_outline.sh; standard library only.

    python bench/outline_sign.py EVAL_OUT QUESTIONS.jsonl "ROW A" "ROW B" [...]

Each ROW is a `label` of EVAL_OUT/per_question.jsonl (e.g. "notechunk (config)@bm25",
"langchain-headers 1000/200@bm25"); the first row is compared with each of the others.
The sign test is exact and two-sided over the questions where the two rows differ at
recall@k (a hit within the top k for one row and not the other).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

KS = (1, 5, 10)


def sign_p(wins: int, losses: int) -> float:
    n = wins + losses
    if n == 0:
        return 1.0
    low = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(low + 1)) / 2**n
    return min(1.0, 2 * tail)


def hit(rank: int | None, k: int) -> bool:
    return rank is not None and rank <= k


def summary(ranks: list[int | None]) -> str:
    n = len(ranks)
    cells = [f"{sum(hit(r, k) for r in ranks) / n:.3f}" for k in KS]
    mrr = sum(1 / r for r in ranks if r is not None) / n
    return " | ".join([*cells, f"{mrr:.3f}"])


def main(argv: list[str]) -> int:
    out, qfile, *labels = argv
    if len(labels) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = {}
    for line in (Path(out) / "per_question.jsonl").read_text().splitlines():
        obj = json.loads(line)
        rows[obj["label"]] = obj["first_hit"]
    missing = [lab for lab in labels if lab not in rows]
    if missing:
        print(f"no such rows: {missing}; have: {sorted(rows)}", file=sys.stderr)
        return 2
    qs = [json.loads(x) for x in Path(qfile).read_text().splitlines() if x.strip()]
    subsets = {
        "all": list(range(len(qs))),
        "needs_parent": [i for i, q in enumerate(qs) if q.get("needs_parent")],
        "no parent needed": [i for i, q in enumerate(qs) if not q.get("needs_parent")],
    }
    for name, idx in subsets.items():
        if not idx:  # a set of one kind only (the deep set: every question needs a parent)
            continue
        print(f"\n### {name} ({len(idx)} questions)\n")
        print("| row | recall@1 | recall@5 | recall@10 | MRR |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for lab in labels:
            print(f"| {lab} | {summary([rows[lab][i] for i in idx])} |")
        print()
        a = labels[0]
        for b in labels[1:]:
            parts = []
            for k in (5, 10):
                w = sum(hit(rows[a][i], k) and not hit(rows[b][i], k) for i in idx)
                lo = sum(hit(rows[b][i], k) and not hit(rows[a][i], k) for i in idx)
                parts.append(f"r@{k} {w} wins / {lo} losses, p = {sign_p(w, lo):.3g}")
            print(f"- {a} vs {b}: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
