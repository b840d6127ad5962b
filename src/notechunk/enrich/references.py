"""resolve_references: a chunk's opening reference resolved from the file it stands in.

A chunk that leans on something outside it is resolved from the nearest
compatible mention before it anywhere in the same file, read in document order: the
chunk's own words before the reference, the earlier chunks of its section, its heading,
the sibling sections before it (their chunks and headings), the parent heading, and so
on out to the document title. Everything between a chunk and its parent heading is
under that parent, so a mention under the same parent wins over one farther up the
file. References (`find_mentions`):

- named: a determiner and a capitalised head noun that names a kind of thing ("the Act",
  "this Court", "the said Commission") -> a name ending in that noun ("Government of
  India Act, 1858") or naming it before "of" ("High Court of Bombay");
- marked: "the said scheme", "the above policy" (any noun), and a demonstrative with a
  noun as the first words ("These rights") -> the same, ignoring case and number;
- person: "He", "She", "His", "Her" as the first word -> a person's name;
- topic: "It", "They", "This", "These", "Its", "Their" as the first word -> the innermost
  heading that names a topic (not a facet such as "Causes"), else the title.

A resolved reference goes into `resolved` and, unless the context already says it, into
`embed_text`; one that finds nothing is flagged `dangling:<phrase>`. Spreadsheet rows are
independent facts and are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from notechunk.chunk import Chunk
from notechunk.enrich.compose import annotate, body_start
from notechunk.enrich.names import HONORIFICS, Name, NameFinder, head_key, heading_names

Kind = Literal["named", "person", "topic"]
OVERLAP = 3  # earlier chunks that may share a chunk's opening (overlapping windows)
# "(?<!\w)" written after the first letter ("T(?<!\wT)"): a pattern that starts with a
# letter set lets the regex engine skip to its letters instead of trying every position
_DET = (
    r"[Tt](?<!\w[Tt])h(?:e\s+(?:said|above|aforesaid|aforementioned|same)\s+"
    r"|(?:e|is|at|ese|ose)\s+)"
)
_NAMED = re.compile(rf"{_DET}([A-Z][a-z]+)(?!\s+(?:[A-Z0-9]|of\s+[A-Z0-9])|[\w-])")
_MARKED = re.compile(r"[Tt](?<!\w[Tt])he\s+(?:said|above|aforesaid|aforementioned)\s+([a-z]+)\b")
_FIRST = re.compile(r"^[\s>*•\-\d.)(\"'“‘]*([A-Z][a-z]*)(?=[\s,])(?:\s+([a-z]+))?")
_LOWER_WORD = re.compile(r"[a-z][a-z'’-]*")
_IN_LOWER_WORD = frozenset("abcdefghijklmnopqrstuvwxyz'’-")
MAX_NAME_WORDS = 8
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n")
# Capitalised after "the"/"this", these nouns point at one of many earlier-named things
# ("the Act" of several); singletons of a domain ("the State", "the Constitution") do not.
REFERENCE_HEADS = frozenset(
    """act bill court commission committee council scheme policy mission treaty company
    board report plan movement amendment tribunal code convention declaration resolution
    agreement pact accord order ordinance regulation programme program fund corporation
    session conference summit charter doctrine directive proclamation revolt rebellion war
    battle dynasty yojana abhiyan""".split()
)
PERSON_WORDS = frozenset({"He", "She", "His", "Her"})
TOPIC_WORDS = frozenset({"It", "They", "This", "These", "Its", "Their", "Those"})
DEMONSTRATIVES = frozenset({"This", "These", "That", "Those"})
_NOT_NOUNS = frozenset(
    """is was are were be been being has had have can could will would may might must shall
    should do does did led leads lead made makes make means meant shows showed also
    includes included became become remained remains gave gives took takes refers referred
    helped helps allowed allows resulted results caused causes meant not too is in on at by
    for to of from with as all both each one two only further again in which who whose
    whom that what where when""".split()
)
GENERIC_HEADINGS = frozenset(
    """introduction overview background summary notes note conclusion causes cause effects
    effect results result impact significance importance features feature types type
    provisions provision criticism criticisms evaluation aftermath consequences functions
    powers composition structure history examples facts key points objectives treatment
    diagnosis symptoms prevention details definition meaning course""".split()
)
_QUESTION_WORDS = frozenset("why how what when where who which".split())


@dataclass(frozen=True, slots=True)
class Mention:
    """A reference as written ("The Act"), its kind, its head noun key, where it starts;
    `last_word` when the antecedent must end in the head ("These rights": a common noun
    names a name by its last word, "the Court" also a "High Court of Bombay")."""

    phrase: str
    kind: Kind
    head: str
    start: int
    last_word: bool = False


def first_sentence(text: str) -> str:
    m = _SENTENCE_END.search(text)
    return text[: m.start()] if m else text


def find_mentions(text: str) -> list[Mention]:
    """The references of a chunk, in order, each phrase once: a pronoun or a demonstrative
    as its first word, a named or marked reference anywhere ("The Company's servants" in
    its second sentence leans on the file as much as in its first)."""
    sentence = first_sentence(text)
    found: dict[str, Mention] = {}
    first = _FIRST.match(sentence)
    if first:
        word, noun = first.group(1), first.group(2)
        start = first.start(1)
        if word in DEMONSTRATIVES and noun and noun not in _NOT_NOUNS and not noun.endswith("ed"):
            phrase = f"{word} {noun}"
            found[phrase] = Mention(
                phrase=phrase, kind="named", head=head_key(noun), start=start, last_word=True
            )
        elif word in PERSON_WORDS:
            found[word] = Mention(phrase=word, kind="person", head="", start=start)
        elif word in TOPIC_WORDS and not _NAMED.match(sentence, start):
            found[word] = Mention(phrase=word, kind="topic", head="", start=start)
    for m in _NAMED.finditer(text):
        if head_key(m.group(1)) in REFERENCE_HEADS:
            phrase = " ".join(m.group(0).split())
            mention = Mention(
                phrase=phrase, kind="named", head=head_key(m.group(1)), start=m.start()
            )
            found.setdefault(phrase, mention)
    marked = "said" in text or "above" in text or "aforementioned" in text
    for m in _MARKED.finditer(text) if marked else ():
        phrase = " ".join(m.group(0).split())
        mention = Mention(
            phrase=phrase, kind="named", head=head_key(m.group(1)), start=m.start(), last_word=True
        )
        found.setdefault(phrase, mention)
    return sorted(found.values(), key=lambda x: x.start)


def resolve_references(chunks: Sequence[Chunk], finder: NameFinder) -> tuple[Chunk, ...]:
    """One file's chunks (in file order) with their opening references resolved."""
    if not any(c.source_type == "markdown" for c in chunks):
        return tuple(chunks)  # sheet rows are independent facts: nothing to resolve
    mentions = [find_mentions(c.text) if c.source_type == "markdown" else [] for c in chunks]
    if not any(mentions):
        return tuple(chunks)
    file = _File(chunks, finder)
    out: list[Chunk] = []
    for k, c in enumerate(chunks):
        if not mentions[k]:
            out.append(c)
            continue
        resolved: list[tuple[str, str]] = []
        flags: list[str] = []
        embed = c.embed_text
        for m in mentions[k]:
            found = _topic(c) if m.kind == "topic" else file.antecedent(k, m)
            if found is None:
                flags.append(f"dangling:{m.phrase.casefold()}")
                continue
            resolved.append((m.phrase, found))
            embed = annotate(embed, m.phrase, found, body_start(embed, c.text))
        out.append(
            replace(
                c,
                # by phrase, one antecedent each: as the record's JSON object stores it
                resolved=tuple(sorted(dict((*c.resolved, *resolved)).items())),
                flags=(*c.flags, *flags),
                embed_text=embed,
            )
        )
    return tuple(out)


class _File:
    """What one file says before each chunk, in document order: the title, then for each
    chunk the headings it opens (outermost first) and the names of its text. The nearest
    compatible mention before a reference is its antecedent: the chunk's own words, the
    headings it opens, the last `OVERLAP` chunks (each only up to the later chunk's
    opening, which overlapping windows share) with the headings they open, then the
    latest mention of the rest of the file, kept per head noun as the chunks are passed
    (so a reference costs the same wherever it stands). Whatever stands between the chunk
    and an earlier section is under the same parent heading, so the nearest mention is
    the one under the same parent when there is one."""

    def __init__(self, chunks: Sequence[Chunk], finder: NameFinder) -> None:
        self.chunks = chunks
        self.finder = finder
        self.headings = {h for c in chunks for h in (*c.section_path, c.title)}
        self.names: dict[int, list[Name]] = {}  # a chunk's names, found once
        self.folded = 0  # chunks [0, folded) are in the latest-mention tables
        self.latest = _Latest()
        if chunks:
            for n in heading_names(chunks[0].title, finder):
                self.latest.add(n, strict=False)

    @cached_property
    def whole(self) -> _Whole:
        return _Whole("\n".join(c.text for c in self.chunks))

    def names_of(self, k: int) -> list[Name]:
        """A chunk's names; an implausible person stays as a blank blocker, so "he" is
        not resolved past the nearest run of capitals to a farther name."""
        if k not in self.names:
            self.names[k] = [
                n if self._plausible(n) else replace(n, text="")
                for n in self.finder.names(self.chunks[k].text)
                if n.person or len(n.text.split()) <= MAX_NAME_WORDS
            ]
        return self.names[k]

    def _plausible(self, n: Name) -> bool:
        if not n.person:  # `_plausible`'s first test, without the file's word tables
            return len(n.text.split()) <= MAX_NAME_WORDS
        return _plausible(n, self.whole, n.text in self.headings)

    def opened(self, k: int) -> list[Name]:
        """The names of the headings chunk `k` opens (those its predecessor is not under),
        outermost first (a heading names a person only as `_person_heading` says)."""
        path = self.chunks[k].section_path
        prev = self.chunks[k - 1].section_path if k else ()
        same = 0
        while same < min(len(path), len(prev)) and path[same] == prev[same]:
            same += 1
        return [
            n
            for h in path[same:]
            for n in heading_names(h, self.finder)
            if not n.person or self._person_heading(h, n)
        ]

    def _person_heading(self, heading: str, n: Name) -> bool:
        """A heading names a person when it is no facet ("Causes"), its words are no
        common words of the file, and the file's text says its last word ("Ashoka" is
        named in its section, "Work" is not)."""
        return (
            heading.casefold() not in GENERIC_HEADINGS
            and _plausible(n, self.whole, heading=True)
            and self.whole.alone(n.text.split()[-1]) > 0
        )

    def antecedent(self, k: int, m: Mention) -> str | None:
        """The nearest antecedent of `m` (in chunk `k`) before it in the file, or None."""
        opening = first_sentence(self.chunks[k].text)
        near: list[tuple[list[Name], bool]] = [
            ([n for n in self.names_of(k) if n.start < m.start], True),
            (self.opened(k), False),
        ]
        for j in range(k - 1, max(-1, k - 1 - OVERLAP), -1):
            near.append((_names_before(self.chunks[j].text, self.names_of(j), opening), True))
            near.append((self.opened(j), False))
        for names, strict in near:
            hit = _last_match(m, names, strict)
            if hit is not None:
                return hit or None  # "": the nearest candidate is no person
        while self.folded < k - OVERLAP:
            for n in self.opened(self.folded):
                self.latest.add(n, strict=False)
            for n in self.names_of(self.folded):
                self.latest.add(n, strict=True)
            self.folded += 1
        return self.latest.find(m)


class _Latest:
    """The latest mention per head noun (any name with it; a name ending in it) and the
    latest person, as a file is read; a heading matches either way (it names its
    section's topic: "Right to Equality" for "these rights")."""

    def __init__(self) -> None:
        self.by_head: dict[str, str] = {}
        self.by_last: dict[str, str] = {}
        self.person: str | None = None

    def add(self, n: Name, strict: bool) -> None:
        if n.person:
            self.person = n.text
            return
        self.by_head[n.head] = n.text
        if not strict or (head_key(_last_word(n.text)) == n.head and n.head in REFERENCE_HEADS):
            self.by_last[n.head] = n.text

    def find(self, m: Mention) -> str | None:
        if m.kind == "person":
            return self.person or None
        return (self.by_last if m.last_word else self.by_head).get(m.head)


_RUN = re.compile(r"[\w-]+")
_EDGE = re.compile(r"[\w-]")


class _Whole:
    """A file's text, and how often a phrase occurs in it or a word stands alone (each
    counted once, when first asked: a file asks about a few dozen words, so a table of
    every word of the file costs more than it saves)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.counts: dict[str, int] = {}  # a name is judged in every chunk that says it
        self.alones: dict[str, int] = {}
        self.lowers: dict[str, bool] = {}

    def count(self, phrase: str) -> int:
        """How often `phrase` occurs in the text (counted once per phrase)."""
        n = self.counts.get(phrase)
        if n is None:
            n = self.counts[phrase] = self.text.count(phrase)
        return n

    def alone(self, word: str) -> int:
        """How often `word` stands with no word character or hyphen on either side."""
        n = self.alones.get(word)
        if n is not None:
            return n
        if _RUN.fullmatch(word):  # a maximal run equal to `word`: found by `str.find`
            text, size, n = self.text, len(word), 0
            at = text.find(word)
            while at >= 0:
                if (at == 0 or not _EDGE.match(text, at - 1)) and not _EDGE.match(text, at + size):
                    n += 1
                at = text.find(word, at + 1)
        else:
            n = len(re.findall(rf"(?<![\w-]){re.escape(word)}(?![\w-])", self.text))
        self.alones[word] = n
        return n

    def writes_lower(self, word: str) -> bool:
        """Is `word` a whole lower-case word of the text (a run of letters, apostrophes
        and hyphens that starts with a letter and no word character or hyphen precedes)?
        Such a word is a common word, not part of a person's name: Title Case text ("Ran
        Binding Protein") is not a person. Asked of a few words, so searched for each."""
        got = self.lowers.get(word)
        if got is None:
            got = _LOWER_WORD.fullmatch(word) is not None and self._lower_at(word)
            self.lowers[word] = got
        return got

    def _lower_at(self, word: str) -> bool:
        text, size = self.text, len(word)
        at = text.find(word)
        while at >= 0:
            after = text[at + size : at + size + 1]
            if not (after and after in _IN_LOWER_WORD):
                before = text[at - 1 : at] if at else ""
                if not before or not _EDGE.match(before) and before not in "'’":
                    return True
                if before in "'’" and not (at > 1 and text[at - 2] in _IN_LOWER_WORD):
                    return True
            at = text.find(word, at + 1)
        return False


def _plausible(n: Name, whole: _Whole, heading: bool = False) -> bool:
    """A name short enough to be one; a person's only in words the file never writes in
    lower case ("October Revolution" in a file that says "the revolution" is none),
    without capitals-only words, and, unless an honorific or initials lead it or it is a
    heading of the file, with its last word used alone elsewhere in the file ("Marin
    constructed" after "Paul Marin"): people are named again by surname, places and
    events rarely are."""
    words = n.text.split()
    if len(words) > MAX_NAME_WORDS:
        return False
    if not n.person:
        return True
    titled = words[0].casefold().rstrip(".") in HONORIFICS
    rest = words[1:] if titled else words
    if any(
        whole.writes_lower(w.casefold().strip(".,'’"))
        or sum(ch.isupper() for ch in w) > 1
        and "." not in w
        for w in rest
    ):
        return False
    if heading or titled or "." in words[0] or len(words) < 2:
        return True
    return whole.alone(words[-1]) > whole.count(" ".join(words[-2:]))


def _names_before(text: str, names: list[Name], opening: str) -> list[Name]:
    """The names of an earlier chunk that precede the later chunk's opening sentence
    (overlapping windows share it; what follows it in the earlier chunk comes later)."""
    at = text.find(opening)
    return names if at < 0 else [n for n in names if n.start < at]


def _last_match(m: Mention, names: list[Name], strict: bool = True) -> str | None:
    for n in reversed(names):
        if m.kind == "person" and n.person:
            return n.text  # "" for a blocker
        if m.kind == "named" and n.head == m.head and not n.person:
            if not (strict and m.last_word):
                return n.text
            if head_key(_last_word(n.text)) == m.head and m.head in REFERENCE_HEADS:
                return n.text  # "this scheme": a name ending in a kind of named thing
    return None


def _last_word(name: str) -> str:
    """The last word of a name before a year ("Rowlatt Act, 1919" -> "Act")."""
    words = [w.strip(",()") for w in name.split()]
    while len(words) > 1 and words[-1].isdigit():
        words.pop()
    return words[-1]


def _topic(c: Chunk) -> str | None:
    """The innermost heading that names a topic, else the title, else None."""
    for heading in (*reversed(c.section_path), c.title):
        words = heading.split()
        if not words or not any(ch.isalpha() for ch in heading) or len(words) > 6:
            continue
        if words[0].casefold() in _QUESTION_WORDS or heading.casefold() in GENERIC_HEADINGS:
            continue
        return heading
    return None
