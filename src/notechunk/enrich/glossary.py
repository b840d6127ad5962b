"""The corpus glossary: statistics per file or block, merged, then a map over chunks.

`glossary_stats(chunks)` counts, for any slice of the corpus, the definitions its chunks
give and the chunks that use each acronym; `merge_stats` adds two slices' counts (it is
associative and commutative, so a process pool, a stream of blocks or Ray can build the
statistics in any grouping and order and get the same result). `build_glossary` picks
each acronym's expansion: the user's glossary file first, else the long form the corpus
gives most often (ties: the first in sort order). `expand_acronyms` then maps each chunk:
every acronym it uses that the glossary knows gets its expansion in `embed_text` once,
recorded in `acronyms`, unless that chunk defines it or already says the expansion (the
map reads a file's own definitions first: every engine hands it a file's chunks together
or the file's definitions with a part of it). `Glossary.undefined` lists acronyms used but
defined nowhere, with the number of chunks using them (false friends left out: see
`acronyms.ambiguous`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from notechunk.chunk import Chunk
from notechunk.enrich.acronyms import (
    acronym_key,
    acronym_shaped,
    ambiguous,
    definitions,
    may_use,
    spellings,
    uses,
)
from notechunk.enrich.compose import annotate
from notechunk.errors import ConfigError

USER_ORIGIN = "glossary file"  # the origin of an entry from the user's glossary file
_USER_LINE = re.compile(r"^\s*([^\s:=,\t]+)\s*(?::|=|,|\t| - | – )\s*(.+?)\s*$")


@dataclass(frozen=True, slots=True, kw_only=True)
class GlossaryStats:
    """Counts over a slice of the corpus. `defined[acronym][long form]` is (how often,
    the first source in sort order); `used[acronym]` the number of surviving chunks
    using it. Never mutated."""

    defined: Mapping[str, Mapping[str, tuple[int, str]]] = field(default_factory=dict)
    used: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One acronym of the glossary: its expansion, where it comes from, its uses and the
    other long forms the corpus gave it."""

    acronym: str
    expansion: str
    origin: str
    uses: int
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Glossary:
    entries: tuple[Entry, ...] = ()
    undefined: tuple[tuple[str, int], ...] = ()

    def lookup(self) -> dict[str, str]:
        return {e.acronym: e.expansion for e in self.entries}


def glossary_stats(chunks: Iterable[Chunk]) -> GlossaryStats:
    """The definitions and uses of a slice of chunks (omitted ones define, never use)."""
    defined: dict[str, dict[str, tuple[int, str]]] = {}
    used: Counter[str] = Counter()
    for c in chunks:
        for acr, long in definitions(c.text):
            _add(defined.setdefault(acr, {}), long, (1, c.source))
        if not c.omit:
            used.update(uses(c.text))
    return GlossaryStats(defined=defined, used=dict(used))


def merge_stats(a: GlossaryStats, b: GlossaryStats) -> GlossaryStats:
    """The counts of two slices together (associative, commutative)."""
    return merge_all((a, b))


def merge_all(parts: Iterable[GlossaryStats]) -> GlossaryStats:
    """The counts of many slices together, in one pass."""
    defined: dict[str, dict[str, tuple[int, str]]] = {}
    used: Counter[str] = Counter()
    for part in parts:
        for acr, longs in part.defined.items():
            mine = defined.setdefault(acr, {})
            for key, value in longs.items():
                _add(mine, key, value)
        used.update(part.used)
    return GlossaryStats(defined=defined, used=dict(used))


def _add(into: dict[str, tuple[int, str]], key: str, value: tuple[int, str]) -> None:
    old = into.get(key)
    into[key] = value if old is None else (old[0] + value[0], min(old[1], value[1]))


def _ranked(longs: Mapping[str, tuple[int, str]]) -> list[tuple[int, str, str]]:
    """(count, spelling, first source) per long form ignoring case, most given first; a
    form is spelled as most often (ties: the first in sort order)."""
    groups: dict[str, list[tuple[str, int, str]]] = {}
    for long, (n, source) in longs.items():
        groups.setdefault(long.casefold(), []).append((long, n, source))
    out = []
    for forms in groups.values():
        spelling = min(forms, key=lambda f: (-f[1], f[0]))[0]
        out.append((sum(f[1] for f in forms), spelling, min(f[2] for f in forms)))
    return sorted(out, key=lambda v: (-v[0], v[1].casefold(), v[1]))


def build_glossary(stats: GlossaryStats, user: Sequence[tuple[str, str]] = ()) -> Glossary:
    """Each acronym's expansion (user file first, else the corpus's most frequent)."""
    entries: dict[str, Entry] = {}
    for acr, longs in sorted(stats.defined.items()):
        ranked = _ranked(longs)
        _, best, source = ranked[0]
        entries[acr] = Entry(
            acronym=acr,
            expansion=best,
            origin=source,
            uses=stats.used.get(acr, 0),
            alternatives=tuple(v[1] for v in ranked[1:]),
        )
    for acr, long in user:
        entries[acr] = Entry(
            acronym=acr, expansion=long, origin=USER_ORIGIN, uses=stats.used.get(acr, 0)
        )
    undefined = sorted(
        ((a, n) for a, n in stats.used.items() if a not in entries and ambiguous(a) is None),
        key=lambda x: (-x[1], x[0]),
    )
    return Glossary(entries=tuple(entries[a] for a in sorted(entries)), undefined=tuple(undefined))


class _Either:
    """Membership in either of two mappings, without building their union per chunk."""

    def __init__(self, a: Mapping[str, str], b: Mapping[str, str]) -> None:
        self.a, self.b = a, b

    def __contains__(self, key: object) -> bool:
        return key in self.a or key in self.b


def expand_acronyms(
    chunks: Iterable[Chunk], glossary: Glossary, own: Mapping[str, str] | None = None
) -> list[Chunk]:
    """Every chunk with the expansion of each known acronym it uses (text or context)
    written into `embed_text` once, after its first use, and recorded in `acronyms`;
    the defining file's other chunks included, for a retriever that gets one of them
    alone does not know what the acronym means. Not expanded: in a chunk that defines
    the acronym itself, and where the chunk already says the expansion (its text or its
    context), so a definition is never repeated next to itself. A file's own definition
    is its chunks' meaning ("PM" may be a Prime Minister in one file and particulate
    matter in another); the user's glossary file wins over both. `own`: the definitions
    of the chunks' file when `chunks` are only part of one file (else found in
    `chunks`, per file)."""
    known = glossary.lookup()
    chunks = list(chunks)
    user = {e.acronym for e in glossary.entries if e.origin == USER_ORIGIN}
    defines: dict[str, dict[str, str]] = {}
    said: dict[int, list[tuple[str, str]]] = {}  # each chunk's definitions, found once
    for k, c in enumerate(chunks) if known and own is None else ():
        said[k] = definitions(c.text)
        for acr, long in said[k]:
            defines.setdefault(c.source, {}).setdefault(acr, long)
    out: list[Chunk] = []
    known_forms = spellings(known)
    seen: Mapping[str, str] | None = None
    forms = known_forms
    for k, c in enumerate(chunks):
        added: list[tuple[str, str]] = []
        embed = c.embed_text
        mine = own if own is not None else defines.get(c.source, {})
        if mine is not seen:  # the forms of a file's own definitions, once per file
            seen, forms = mine, known_forms | spellings(mine)
        found = uses(embed, _Either(known, mine)) if known and may_use(embed, forms) else []
        if not found:
            out.append(c)
            continue
        here = {a for a, _ in (said[k] if k in said else definitions(c.text))}
        for acr in found:
            meaning = known.get(acr) if acr in user else mine.get(acr) or known.get(acr)
            if meaning is None or acr in here:
                continue
            form = acr if re.search(rf"(?<!\w){re.escape(acr)}(?!\w)", embed) else acr + "s"
            new = annotate(embed, form, meaning)
            if new != embed:
                embed = new
                added.append((acr, meaning))
        out.append(
            replace(c, embed_text=embed, acronyms=tuple(sorted(dict(added).items())))
            if added
            else c
        )
    return out


def file_definitions(chunks: Iterable[Chunk]) -> dict[str, str]:
    """The acronyms `chunks` define (all of them, omitted ones too), each with the first
    long form given."""
    out: dict[str, str] = {}
    for c in chunks:
        for acr, long in definitions(c.text):
            out.setdefault(acr, long)
    return out


def parse_glossary(text: str, where: str) -> tuple[tuple[str, str], ...]:
    """A user glossary: one `ACRONYM: expansion` a line (or `=`, `,`, a tab, ` - `);
    blank lines and `#` comments are skipped; anything else is a ConfigError."""
    out: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _USER_LINE.match(line)
        if m is None or not acronym_shaped(m.group(1)):
            raise ConfigError(
                f"{where}:{n}: expected 'ACRONYM: expansion' (the line is not quoted)"
            )
        out[acronym_key(m.group(1))] = m.group(2)
    return tuple(sorted(out.items()))
