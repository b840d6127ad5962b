"""Antecedent candidates: the names a text says, found by rules (the default backend).

A name is a run of capitalised words, with "of", "and", "for", "the" between them
("Government of India Act", "Rani Lakshmibai"), less the sentence-starters in front of it
("Under the ...", "The ..."), plus a year that follows ("..., 1858"). `head` is the word a
reference can name it by: its last word, or the word before "of" ("High Court of
Bombay" -> "court"). A name is a person's when an honorific leads it ("Lord Canning") or
when it is two to four capitalised words none of which names an institution, place or
event ("Mangal Pandey"). `NameFinder` is the interface a backend implements
(`spacy_names.SpacyNames` adds a pipeline's entities).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

_CAP = r"(?:[A-Z](?:\.[A-Z])*\.|[A-Z][\w'’-]*)"
_CONN = r"(?:of(?:[ \t]+the)?|and|for|on|in|de|da|ud|al|&)"  # "the" only after "of"
# one line; its first capital is `_CAP` with "(?<![\w.])" after the letter: a pattern that
# starts with a letter set lets the regex engine skip to capitals (about twice as fast)
_PHRASE = re.compile(
    rf"[A-Z](?<![\w.][A-Z])(?:(?:\.[A-Z])*\.|[\w'’-]*)(?:[ \t]+(?:{_CONN}[ \t]+)*{_CAP})*"
)
_NUMERAL = re.compile(r"[IVXLC]+")
_YEAR = re.compile(r",?\s+(?:of\s+)?\(?(\d{4})\)?(?!\d)")
_PREPOSITIONS = frozenset({"of", "to", "for", "against", "on", "in", "from"})
CONNECTORS = frozenset("of and for the on in de da ud al &".split())
STARTERS = frozenset(
    """the this that these those a an in on at by under after before from during since its
    his her their our according as when while through via per with within between under
    unlike like it he she they we there here also however thus hence but and or so if
    although though because since unless until whereas whether while yet once""".split()
)
HONORIFICS = frozenset(
    """mr mrs ms dr sir lord lady king queen emperor empress sultan raja rani maharaja
    maharani mahatma pandit shri sri smt justice prince princess nawab guru saint st
    begum maulvi tsar pope president governor viceroy general""".split()
)
# Heads that make a run of capitals an institution, a law, a place or an event, not a person.
INSTITUTIONS = frozenset(
    """act acts bill court courts commission committee constitution council government
    assembly scheme policy mission treaty company board report plan movement party article
    amendment tribunal authority ministry department bank code convention declaration
    resolution agreement pact accord order ordinance regulation rules programme program fund
    corporation union federation organisation organization society institute university
    dynasty empire kingdom sultanate revolt rebellion war battle session conference summit
    charter doctrine directive army navy force police parliament congress league sabha
    samaj yojana abhiyan river rivers mountain mountains hills range lake sea ocean bay
    gulf island islands valley plateau desert pass park sanctuary reserve forest state
    states province district city town village india indian british english french
    europe european asia asian africa america american north south east west central
    republic national international proclamation system virus disease syndrome revolution
    alliance
    foundation county invasion brotherhood western eastern northern southern
    infantry regiment cavalry brigade division battalion rifles cartridge rifle""".split()
)


@dataclass(frozen=True, slots=True)
class Name:
    """A name said in a text, where it starts, the word that can stand for it, whether a
    person bears it."""

    text: str
    start: int
    head: str
    person: bool


class NameFinder(Protocol):
    """Finds the names of a text, in text order."""

    name: str

    def names(self, text: str) -> list[Name]: ...


def head_key(word: str) -> str:
    """A head noun compared across number and case: "Rights" -> "right"."""
    w = word.casefold().removesuffix("'s").removesuffix("’s")
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


class RuleNames:
    """The default backend: names by the capitalisation rules of the module doc."""

    name = "rules"

    def names(self, text: str) -> list[Name]:
        out: list[Name] = []
        for m in _PHRASE.finditer(text):
            phrase = m.group(0)
            if " " in phrase or "\t" in phrase:  # one capitalised word names nothing here
                out += _names_in(text, m.start(), phrase.split())
        return out


def _names_in(text: str, start: int, words: list[str]) -> list[Name]:
    offset = start
    while words and (words[0].casefold() in STARTERS or words[0].casefold() in CONNECTORS):
        offset = text.index(words[0], offset) + len(words[0])
        words = words[1:]
    if not words:
        return []
    begin = text.index(words[0], offset)
    out: list[Name] = []
    titled = words[0].casefold().rstrip(".") in HONORIFICS
    if titled and _person_words(words):
        out.append(Name(text=" ".join(_person_words(words)), start=begin, head="", person=True))
    if len(words) < 2:
        return out
    end = text.index(words[-1], begin) + len(words[-1])
    year = _YEAR.match(text, end)
    body = text[begin : year.end() if year else end]
    body = " ".join(body.replace("’s", "'s").split())
    keys = [head_key(w) for w in words]
    # the head is the word before "of" ("Part IV of the Constitution" is a part) and the
    # last word unless an "of the" comes before it ("Government of India Act" is an act)
    heads = {_head_before(words, i) for i in range(len(words) - 1) if words[i + 1] == "of"}
    if not any(words[i] == "of" and words[i + 1] == "the" for i in range(len(words) - 1)):
        heads.add(keys[-1])
    # "Commission and Council" coordinates two things: it names neither by the word after "and"
    heads -= {keys[i + 1] for i in range(len(words) - 1) if words[i] in ("and", "&")}
    out += [Name(text=body, start=begin, head=h, person=False) for h in sorted(heads)]
    label = text[end : end + 1] == ":"  # "Authors: ...; Guillaume Date:" is a field name
    plain = (
        not label
        and not any(k in INSTITUTIONS for k in keys)
        and not any(
            w.casefold() in CONNECTORS or w.endswith(("'s", "’s")) or len(w) == 1 for w in words
        )
    )
    if plain and not titled and len(words) <= 4:
        out.append(Name(text=" ".join(words), start=begin, head="", person=True))
    return out


def _head_before(words: list[str], i: int) -> str:
    """The head noun ending at words[i], skipping a number ("Part IV" is a part)."""
    if i > 0 and (_NUMERAL.fullmatch(words[i]) or words[i].isdigit()):
        i -= 1
    return head_key(words[i])


def _person_words(words: list[str]) -> list[str]:
    """An honorific and the capitalised words after it, up to a connector or a possessive;
    none when an institution word follows ("General Service Enlistment Act" is a law)."""
    out = [words[0]]
    for w in words[1:]:
        if head_key(w) in INSTITUTIONS:
            return []
        if w.casefold() in CONNECTORS:
            break
        if w.endswith(("'s", "’s")):
            out.append(w[:-2])
            break
        out.append(w)
    return out if len(out) >= 2 else []


def heading_names(heading: str, finder: NameFinder) -> list[Name]:
    """Names a heading says, the heading itself named by its last word (unless it opens
    with a verb and its object: "Regulating the Company"), and a short heading of
    capitalised words that is not an institution ("Ashoka", "Rani
    Lakshmibai") as a person's name."""
    out = finder.names(heading)
    words = heading.split()
    # "Regulating the Company" says what a section does, it names no company
    verb = len(words) >= 2 and words[0].endswith("ing") and words[1] in ("the", "a", "an")
    if len(words) >= 2 and not verb:  # "Arabian Sea branch" is a branch, "Right to ..." a right
        out.append(Name(text=heading, start=0, head=head_key(words[-1]), person=False))
        if len(words) >= 3 and words[1] in _PREPOSITIONS:
            out.append(Name(text=heading, start=0, head=head_key(words[0]), person=False))
    if 1 <= len(words) <= 3 and all(w[:1].isupper() for w in words):
        if not any(head_key(w) in INSTITUTIONS for w in words):
            out.append(Name(text=heading, start=0, head="", person=True))
    return out
