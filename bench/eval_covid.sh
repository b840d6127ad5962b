#!/usr/bin/env bash
# Reproduce the COVID-QA chunking sweep (BM25; pass --retriever dense for the dense rows).
# Reads ../shared/corpora in place; writes only under bench/results/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shared="${NOTECHUNK_SHARED:-$here/../../shared}/corpora/qa"
out="$here/results/covid"
py="${PYTHON:-python}"
mkdir -p "$out"
cat > "$out/candidate.toml" <<'TOML'
[markdown]
window_sentences = 100
overlap = 0.3
window_max_words = 120
TOML
"$py" -m notechunk eval-convert squad "$shared/covid-qa-200423.json" --out "$out/data"
"$py" -m notechunk eval "$out/data/corpus" --questions "$out/data/questions.jsonl" \
    --out "$out/eval" --config "$out/candidate.toml" "$@"
