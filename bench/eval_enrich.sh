#!/usr/bin/env bash
# The enrichment eval: each enrichment on and off, paired on the same questions.
#   bench/eval_enrich.sh sample|covid|squad [extra notechunk eval arguments]
#   bench/eval_enrich.sh covid --retriever bm25,dense,hybrid --cache bench/results/cache
# Rows: context only (every enrichment off); + tiny-section merge; + references;
# + acronyms (all three); each enrichment alone. Needs `notechunk eval` with `cfg:`
# strategies and `--compare`. Reads ../shared/corpora in place; writes only under
# bench/results/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shared="${NOTECHUNK_SHARED:-$here/../../shared}/corpora/qa"
set_name="${1:?sample, covid or squad}"
shift
out="$here/results/enrich-$set_name"
py="${PYTHON:-python}"
data="$here/../src/notechunk/data"
mkdir -p "$out/cfg"
base=""
if [ "$set_name" = sample ]; then  # its templates; not its [enrich] table: each row sets its own
    base="$(awk '/^\[/ { skip = ($0 == "[enrich]") } !skip' "$data/sample/notechunk.toml")"
fi
write() {  # name merge_sections references acronyms
    printf '%s\n\n[enrich]\nmerge_sections = %s\nreferences = %s\nacronyms = %s\n' \
        "$base" "$2" "$3" "$4" > "$out/cfg/$1.toml"
}
write off false false false
write sections true false false
write references true true false
write all true true true
write references_only false true false
write acronyms_only false false true
case "$set_name" in
    sample) corpus="$data/sample"; questions="$data/enrichment_questions.jsonl" ;;
    covid|squad)
        file=covid-qa-200423.json
        [ "$set_name" = squad ] && file=squad-v1.1-dev-reconstructed.json
        "$py" -m notechunk eval-convert squad "$shared/$file" --out "$out/data"
        corpus="$out/data/corpus"; questions="$out/data/questions.jsonl" ;;
    *) echo "unknown set: $set_name" >&2; exit 2 ;;
esac
rows=""
for name in off sections references all references_only acronyms_only; do
    rows="$rows${rows:+,}cfg:$out/cfg/$name.toml"
done
"$py" -m notechunk eval "$corpus" --questions "${QUESTIONS:-$questions}" --out "$out/eval" \
    --strategies "$rows" \
    --compare "notechunk cfg sections@bm25,notechunk cfg off@bm25" \
    --compare "notechunk cfg references@bm25,notechunk cfg sections@bm25" \
    --compare "notechunk cfg all@bm25,notechunk cfg references@bm25" \
    --compare "notechunk cfg all@bm25,notechunk cfg off@bm25" \
    --compare "notechunk cfg references_only@bm25,notechunk cfg off@bm25" \
    --compare "notechunk cfg acronyms_only@bm25,notechunk cfg off@bm25" "$@"
