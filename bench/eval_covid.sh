#!/usr/bin/env bash
# The COVID-QA retrieval eval on the product's own path (notechunk eval).
#   bench/eval_covid.sh                         # BM25 sweep: notechunk, baselines, peers
#   bench/eval_covid.sh --strategies nc --retriever bm25,dense,hybrid \
#       --compare 'notechunk (config)@bm25,notechunk (config)@hybrid'
# Extra arguments go to `notechunk eval`. Reads ../shared/corpora in place; writes only
# under bench/results/ (git-ignored); dense vectors are cached in bench/results/cache, so
# a second dense run embeds nothing new.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shared="${NOTECHUNK_SHARED:-$here/../../shared}/corpora/qa"
out="$here/results/covid"
py="${PYTHON:-python}"
mkdir -p "$out"
"$py" -m notechunk eval-convert squad "$shared/covid-qa-200423.json" --out "$out/data"
"$py" -m notechunk eval "$out/data/corpus" --questions "$out/data/questions.jsonl" \
    --out "$out/eval" --cache "$here/results/cache" "$@"
