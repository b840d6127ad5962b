"""Try retrieval on a finished run: `notechunk search` and `notechunk index`.

`runview` opens OUT (a finished run: manifest present) and keys every derived index on
the sha256 of its chunks.jsonl.gz; `bm25` (stemmed, cached in OUT/.search), `dense`
(the packaged MiniLM, vectors cached beside it) and `engine` (hybrid by reciprocal-rank
fusion) rank the chunks by `embed_text`; `lance` writes and queries an embedded LanceDB
table; `show` prints hits for people or as JSON. Optional libraries are imported inside
the function that needs them, so `notechunk --help` stays light.
"""
