"""The block-reference pass (SPEC §1.1, Logseq): a `((uuid))` may point at a block of
another page, so which text it stands for is known only over the whole corpus.

`link_block_refs` runs once, after discovery and before any per-file work: it reads the
Markdown files that hold a block id or a reference (`id::`, `((`), builds the corpus'
block index (uuid -> the block's first line, `markdown.logseq.block_ids`; the first file
in discovery order wins a repeated id) and gives each file the entries it refers to
(`SourceFile.refs`), so the reader replaces each reference with its block's first line
and its cache key changes when a referenced block does. A file that cannot be read here
is left as it is: its own read reports it.
"""

from __future__ import annotations

from dataclasses import replace

from notechunk.discover import Discovery
from notechunk.errors import InputError
from notechunk.markdown.logseq import block_ids, refs_in
from notechunk.textio import decode_text, read_regular


def link_block_refs(found: Discovery, max_bytes: int) -> Discovery:
    """`found` with each Markdown file's `refs`: (uuid, first line) of every block it
    refers to that some file of the corpus defines, sorted by uuid."""
    index: dict[str, str] = {}
    uses: dict[int, set[str]] = {}
    for k, f in enumerate(found.files):
        if f.kind != "markdown":
            continue
        try:
            data = read_regular(f.path, f.rel, max_bytes)
        except InputError:
            continue
        if b"((" not in data and b"id::" not in data:
            continue
        try:
            text = decode_text(data, f.rel).text
        except InputError:
            continue
        for uuid, first in block_ids(text).items():
            index.setdefault(uuid, first)
        used = refs_in(text)
        if used:
            uses[k] = used
    if not uses:
        return found
    files = list(found.files)
    for k, used in uses.items():
        refs = tuple(sorted((u, index[u]) for u in used if u in index))
        if refs:
            files[k] = replace(files[k], refs=refs)
    return replace(found, files=tuple(files))
