"""What `notechunk --help` and each `notechunk COMMAND --help` tell a user: what the tool
or command does, and examples to copy (tests/test_cli.py checks every command has both)."""

ABOUT = """\
notechunk turns a folder of notes (Markdown, OneNote/pandoc exports, Excel, ODS and CSV
sheets) into chunks a retriever can use: each chunk one idea with its heading path or
sheet row, junk flagged with a reason, a QA report to review, and a search to try it."""

EXAMPLES = """\
examples:
  notechunk demo --out out                    chunk the bundled sample notes into out/
  notechunk run ~/notes --out out             chunk your notes; open out/report.html
  notechunk search out "when does the monsoon reach Kerala?"

`notechunk COMMAND --help` shows each command's options and examples."""

# one entry per command: (one-line help, what it does, examples)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": (
        "chunk a folder of notes into OUT",
        "Chunk every Markdown file and spreadsheet under SRC into OUT/chunks.jsonl.gz, with "
        "the QA files\n(OUT/qa/), OUT/report.html and the per-file source view "
        "(OUT/sources/index.html).",
        "notechunk run ~/notes --out out\n  notechunk run ~/notes --out out --workers 2 "
        "--config notechunk.toml",
    ),
    "demo": (
        "run on the bundled sample notes",
        "Chunk the sample notes shipped with notechunk (history, polity, geography, sheets).",
        'notechunk demo --out out\n  notechunk search out "Which pass links Srinagar and Leh?"',
    ),
    "inspect": (
        "sections, sentences and windows of one file",
        "Show how one Markdown file is cut: its sections, their sentences and the windows.",
        "notechunk inspect notes/monsoon.md\n  notechunk inspect notes/monsoon.md --json",
    ),
    "report": (
        "rebuild OUT/report.html from OUT's artifacts",
        "Rebuild OUT/report.html from OUT/qa/*.json (after editing them, or a new notechunk).",
        "notechunk report out",
    ),
    "search": (
        "ask a finished run a question: the chunks a retriever returns",
        "Rank the chunks of OUT by their embed_text and print the best k with their place "
        "and text.\nbm25 (stemmed) needs nothing more; dense and hybrid need the dense extra "
        "(pip install 'notechunk[dense]').\nIndexes are built on the first search and kept "
        "in OUT/.search until the run changes.\nWith --db, search the LanceDB folder made "
        "by `notechunk index` (hybrid by default).",
        'notechunk search out "causes of the revolt of 1857"\n'
        '  notechunk search out "monsoon onset" -k 3 --retriever hybrid\n'
        "  notechunk search out \"Article 32\" --json | jq '.hits[].id'\n"
        '  notechunk search out "monsoon onset" --db out/lancedb',
    ),
    "index": (
        "write a run's chunks into an embedded LanceDB table (vectors + full-text index)",
        "Write OUT's chunks (every field a column), their vectors (with the dense extra) and "
        "a full-text\nindex on embed_text into a LanceDB folder: no server. Re-indexing "
        "after a re-run replaces\nchanged rows by id and deletes the ones that are gone. "
        "Needs pip install 'notechunk[index]'.",
        "notechunk index out                 # writes out/lancedb\n"
        "  notechunk index out --db ~/rag/notes.lancedb\n"
        '  notechunk search out "monsoon onset" --db ~/rag/notes.lancedb',
    ),
    "watch": (
        "keep OUT current: run now, then again after every change to the notes",
        "Run NOTES into OUT, then watch NOTES and run again after each change (only changed "
        "files are\nchunked again). The search index (OUT/.search) and, with --index or "
        "when it exists, the LanceDB\ntable follow. A file that had chunks and now fails "
        "is reported and OUT keeps the previous\nrun. Ctrl-C leaves OUT whole. Needs pip "
        "install 'notechunk[mcp]' (watchfiles).",
        "notechunk watch ~/notes --out out\n  notechunk watch ~/notes --out out --index",
    ),
    "mcp": (
        "serve OUT's notes to an AI assistant (Model Context Protocol)",
        "Serve a finished run to an MCP client (Claude Desktop, Cursor, VS Code, ...): tools "
        "search_notes,\nread_chunk, read_source, list_sources and outline, and the resources "
        "notechunk://chunk/{id} and\nnotechunk://source/{path}. Reads OUT only; a newer run "
        "is picked up by itself. stdio by default;\n--http HOST:PORT for streamable HTTP "
        "(loopback unless you name another host). --watch NOTES\nkeeps OUT current in the "
        "same process. Needs pip install 'notechunk[mcp]'.",
        "notechunk mcp out\n  notechunk mcp out --watch ~/notes\n"
        "  notechunk mcp out --http 127.0.0.1:8765",
    ),
    "templates": (
        "spreadsheet template helpers",
        "Helpers for [[templates]], which turn a sheet's rows into sentences.",
        "notechunk templates suggest sheets/passes.xlsx >> notechunk.toml",
    ),
    "eval": (
        "compare chunking strategies by retrieval recall",
        "Chunk a corpus the way `run` does, ask its questions, and compare recall with "
        "other chunkers.",
        "notechunk eval --out eval-out            # the bundled sample and its questions\n"
        "  notechunk eval NOTES --questions q.jsonl --out eval-out --retriever dense",
    ),
    "eval-convert": (
        "SQuAD-format JSON to a corpus + questions.jsonl",
        "Turn a SQuAD-format question set into a Markdown corpus and questions.jsonl for "
        "`notechunk eval`.",
        "notechunk eval-convert squad covid-qa.json --out covid",
    ),
    "config": (
        "configuration helpers",
        "Show the configuration a run would use (defaults, notechunk.toml, --config).",
        "notechunk config show ~/notes",
    ),
}
