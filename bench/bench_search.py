"""`notechunk search`: latency (first and second question) and what stemming does.

    python bench/bench_search.py [--skip-latency] [--skip-qa]

1. Latency on notes-md: `notechunk search` as a user runs it (a new process each time),
   BM25 first (builds OUT/.search) then second; dense and hybrid when the dense extra is
   installed. The run is made once into bench/results/search/nmd.
2. Stemming: recall@1/@5 and MRR of BM25 over `embed_text` with the shared tokeniser
   plain vs + Snowball English, on the question sets we have (the sample's questions,
   COVID-QA and SQuAD dev, each chunked by `notechunk run`), and the vocabulary of
   notes-md both ways. A hit is a chunk whose text contains an answer (evaluate.metrics).
Results: bench/results/search.json (gitignored).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchlib import RESULTS, ROOT, corpora_dir

from notechunk.bm25 import Bm25Index, index_terms, make_stem
from notechunk.evaluate.metrics import contains_answer, normalize
from notechunk.evaluate.questions import load_questions

NOTECHUNK = [sys.executable, "-m", "notechunk"]
WORK = RESULTS / "search"
QUERIES = [
    "Which article of the constitution abolishes untouchability?",
    "causes of the revolt of 1857",
    "monsoon onset over Kerala",
]


def run(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([*NOTECHUNK, *args], check=True, capture_output=True)
    return time.perf_counter() - start


def chunked(name: str, src: Path) -> Path:
    out = WORK / name
    if not (out / "manifest.json").is_file():
        run("run", str(src), "--out", str(out))
    return out


def latency(out: Path) -> dict[str, list[float]]:
    shutil.rmtree(out / ".search", ignore_errors=True)
    times: dict[str, list[float]] = {}
    for retriever in ("bm25", "dense", "hybrid"):
        try:
            times[retriever] = [
                run("search", str(out), q, "--retriever", retriever) for q in QUERIES
            ]
        except subprocess.CalledProcessError:
            times[retriever] = []  # the dense extra is not installed
    return times


def chunks_of(out: Path) -> tuple[list[str], list[str]]:
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    return [r["embed_text"] for r in rows], [normalize(r["text"]) for r in rows]


def recall(out: Path, questions_path: Path) -> dict[str, dict[str, float]]:
    embed, texts = chunks_of(out)
    questions = load_questions(questions_path).questions
    result = {}
    for stem in (False, True):
        index = Bm25Index.build(embed, stem=stem)
        r1 = r5 = mrr = 0.0
        for q in questions:
            scores = index.scores(q.question)
            order = sorted(range(len(embed)), key=lambda i: -scores[i])[:100]
            answers = [normalize(a) for a in q.answers]
            hits = (k for k, i in enumerate(order, 1) if contains_answer(texts[i], answers))
            rank = next(hits, 0)
            r1 += rank == 1
            r5 += 0 < rank <= 5
            mrr += 1 / rank if rank else 0
        n = len(questions)
        result["stemmed" if stem else "plain"] = {
            "questions": n, "recall@1": round(r1 / n, 4), "recall@5": round(r5 / n, 4),
            "mrr": round(mrr / n, 4),
        }  # fmt: skip
    return result


def vocabulary(out: Path) -> dict[str, int]:
    embed, _ = chunks_of(out)
    plain, stem = make_stem(False), make_stem(True)
    return {
        "plain": len({t for e in embed for t in index_terms(e, plain)}),
        "stemmed": len({t for e in embed for t in index_terms(e, stem)}),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--skip-qa", action="store_true")
    args = ap.parse_args()
    corpora = corpora_dir()
    WORK.mkdir(parents=True, exist_ok=True)
    report: dict[str, object] = {}
    nmd = chunked("nmd", corpora / "notes-md")
    report["notes_md_vocabulary"] = vocabulary(nmd)
    if not args.skip_latency:
        report["notes_md_latency_s"] = latency(nmd)
    if not args.skip_qa:
        sample = chunked("sample", ROOT / "src" / "notechunk" / "data" / "sample")
        qa = {"sample": recall(sample, ROOT / "src/notechunk/data/sample_questions.jsonl")}
        sets = (("covid", "covid-qa-200423.json"), ("squad", "squad-v1.1-dev-reconstructed.json"))
        for name, file in sets:
            data = WORK / f"{name}-data"
            if not (data / "questions.jsonl").is_file():
                run("eval-convert", "squad", str(corpora / "qa" / file), "--out", str(data))
            qa[name] = recall(chunked(name, data / "corpus"), data / "questions.jsonl")
        report["stemming_recall"] = qa
    name = "search-qa.json" if args.skip_latency else "search.json"
    (RESULTS / name).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
