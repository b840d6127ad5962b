#!/usr/bin/env bash
# The outline eval (issue 21): questions over the shared notes-outline corpus whose key
# words are often only in a parent bullet (bench/outline_questions/notes-outline.jsonl:
# the question, the answer copied from the note, its file, "needs_parent").
#   bench/eval_outline.sh                       # BM25: notechunk's rows and every peer
#   bench/eval_outline.sh --retriever bm25,hybrid
# Then bench/outline_sign.py prints recall@1/5/10 and MRR on all questions and on the
# needs_parent half, with exact two-sided sign tests at recall@5 and @10 of notechunk's
# default row against each peer. Extra arguments go to `notechunk eval`. Reads
# ../shared/corpora in place; writes only under bench/results/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${NOTECHUNK_SHARED:-$here/../../shared}/corpora/notes-outline"
questions="${QUESTIONS:-$here/outline_questions/notes-outline.jsonl}"
out="$here/results/outline"
py="${PYTHON:-python}"
mkdir -p "$out"
nc="notechunk (config)@bm25"
lh="langchain-headers 1000/200@bm25"
"$py" -m notechunk eval "$corpus" --questions "$questions" --out "$out/eval" \
    --strategies notechunk,peers --compare "$nc,$lh" "$@" | tee "$out/eval.log"
"$py" "$here/outline_sign.py" "$out/eval" "$questions" "$nc" "$lh" \
    "langchain-recursive 1000/200@bm25" "chonkie-recursive 512@bm25" \
    "chonkie-sentence 512/102@bm25" | tee "$out/sign.md"
