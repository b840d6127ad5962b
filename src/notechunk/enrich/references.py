"""resolve_references: a chunk's opening reference resolved from the file it stands in.

A chunk whose first sentence leans on something outside it is resolved from the nearest
preceding antecedent in the same file: the chunk's own words before the reference, then
the earlier chunks of its section (nearest first), then its heading path (innermost
first), then the document title. References (`find_mentions`):

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
from typing import Literal

from notechunk.chunk import Chunk
from notechunk.enrich.compose import annotate, body_start
from notechunk.enrich.names import HONORIFICS, Name, NameFinder, head_key, heading_names

Kind = Literal["named", "person", "topic"]
LOOKBACK = 20  # earlier chunks of a section searched for an antecedent, nearest first
_DET = r"(?:[Tt]he\s+(?:said|above|aforesaid|aforementioned|same)\s+|[Tt]h(?:e|is|at|ese|ose)\s+)"
_NAMED = re.compile(rf"(?<!\w){_DET}([A-Z][a-z]+)(?!\s+(?:[A-Z0-9]|of\s+[A-Z0-9])|[\w-])")
_MARKED = re.compile(r"(?<!\w)[Tt]he\s+(?:said|above|aforesaid|aforementioned)\s+([a-z]+)\b")
_FIRST = re.compile(r"^[\s>*•\-\d.)(\"'“‘]*([A-Z][a-z]*)(?=[\s,])(?:\s+([a-z]+))?")
_LOWER_WORD = re.compile(r"(?<![\w-])[a-z][a-z'’-]*")
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
    """The references of a chunk's first sentence, in order, each phrase once."""
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
    for m in _NAMED.finditer(sentence):
        if head_key(m.group(1)) in REFERENCE_HEADS:
            phrase = " ".join(m.group(0).split())
            mention = Mention(
                phrase=phrase, kind="named", head=head_key(m.group(1)), start=m.start()
            )
            found.setdefault(phrase, mention)
    for m in _MARKED.finditer(sentence):
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
    names: dict[int, list[Name]] = {}  # a chunk's names, found once
    # A word the file also writes in lower case is a common word, not part of a person's
    # name: Title Case text ("Ran Binding Protein") is not a person.
    common = {w for c in chunks for w in _LOWER_WORD.findall(c.text)}
    whole = "\n".join(c.text for c in chunks)
    headings = {h for c in chunks for h in (*c.section_path, c.title)}

    def names_of(k: int) -> list[Name]:
        """A chunk's names; an implausible person stays as a blank blocker, so "he" is
        not resolved past the nearest run of capitals to a farther name."""
        if k not in names:
            names[k] = [
                n if n.text in headings or _plausible(n, common, whole) else replace(n, text="")
                for n in finder.names(chunks[k].text)
                if n.person or len(n.text.split()) <= MAX_NAME_WORDS
            ]
        return names[k]

    out: list[Chunk] = []
    for k, c in enumerate(chunks):
        mentions = find_mentions(c.text) if c.source_type == "markdown" else []
        if not mentions:
            out.append(c)
            continue
        earlier = [
            j
            for j in range(k - 1, max(-1, k - 1 - LOOKBACK), -1)
            if chunks[j].section_path == c.section_path
        ]
        resolved: list[tuple[str, str]] = []
        flags: list[str] = []
        embed = c.embed_text
        opening = first_sentence(c.text)
        before = [_names_before(chunks[j].text, names_of(j), opening) for j in earlier]
        for m in mentions:
            own = [n for n in names_of(k) if n.start < m.start]
            found = _antecedent(m, own, before, c, finder)
            if found is None:
                flags.append(f"dangling:{m.phrase.casefold()}")
                continue
            resolved.append((m.phrase, found))
            embed = annotate(embed, m.phrase, found, body_start(embed, c.text))
        out.append(
            replace(
                c,
                resolved=(*c.resolved, *resolved),
                flags=(*c.flags, *flags),
                embed_text=embed,
            )
        )
    return tuple(out)


def _plausible(n: Name, common: set[str], whole: str) -> bool:
    """A name short enough to be one; a person's only in words the file never writes in
    lower case, without capitals-only words, and, unless an honorific or initials lead it,
    with its last word used alone elsewhere in the file ("Marin constructed" after "Paul
    Marin"): people are named again by surname, places and events rarely are. (A name
    that is also a heading of the file is taken as it is.)"""
    words = n.text.split()
    if len(words) > MAX_NAME_WORDS:
        return False
    if not n.person:
        return True
    titled = words[0].casefold().rstrip(".") in HONORIFICS
    rest = words[1:] if titled else words
    if any(
        w.casefold().strip(".,'’") in common or sum(ch.isupper() for ch in w) > 1 and "." not in w
        for w in rest
    ):
        return False
    if titled or "." in words[0] or len(words) < 2:
        return True
    alone = len(re.findall(rf"(?<![\w-]){re.escape(words[-1])}(?![\w-])", whole))
    return alone > len(re.findall(re.escape(" ".join(words[-2:])), whole))


def _names_before(text: str, names: list[Name], opening: str) -> list[Name]:
    """The names of an earlier chunk that precede the later chunk's opening sentence
    (overlapping windows share it; what follows it in the earlier chunk comes later)."""
    at = text.find(opening)
    return names if at < 0 else [n for n in names if n.start < at]


def _antecedent(
    m: Mention, own: list[Name], earlier: list[list[Name]], c: Chunk, finder: NameFinder
) -> str | None:
    """The nearest antecedent of `m`: own words, earlier chunks, headings, title."""
    if m.kind == "topic":
        return _topic(c)
    for found in (own, *earlier):
        hit = _last_match(m, found)
        if hit is not None:
            return hit or None  # "": the nearest candidate is no person
    for heading in (*reversed(c.section_path), c.title):  # a heading is its section's topic:
        hit = _last_match(m, heading_names(heading, finder), strict=False)  # "Right to ..."
        if hit is not None:
            return hit
    return None


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
