"""Acronyms in text: the definitions notes give, the acronyms they use, the false friends.

Definitions (`definitions`), each checked by the Schwartz-Hearst rule (the acronym's
letters occur in order in the long form, the first at the start of a word):
"Reserve Bank of India (RBI)", "RBI (Reserve Bank of India)", a line "RBI - Reserve Bank
of India" (or ":", "=", "–"), and a row or table whose columns are Term/Meaning or
Abbreviation/Full form ("Abbreviation: RBI. Full form: Reserve Bank of India").

Uses (`uses`): words with at least two capitals and no more small letters than capitals
("RBI", "MoU", "PILs" -> "PIL", "MERS-CoV"), except false friends by context: a roman
numeral after a name or a numbering word ("Part III", "Henry VIII"), shouting ("LET US
KNOW", a line of capitals), a unit or era after a number ("321 BC", "50 MW"), a grade
("grade AA"). `noisy` is the stop list of definitions the patterns find but notes do not mean.
`ambiguous` names the shapes never listed as undefined (they may still be
expanded when the corpus defines them): roman numerals, English words in capitals ("IT",
"US"), chemical formulas ("CO2", "NaCl"), tokens with digits, repeated letters ("AAA").
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Set

# a word with a second capital before any hyphen: the only words `acronym_shaped` can pass
# "(?<![\w&.-])" after the first capital: a pattern that starts with a letter set lets the
# regex engine skip to capitals instead of trying every position (3x faster)
_TOKEN = re.compile(
    r"([A-Z](?<![\w&.-][A-Z])[a-z0-9&]*[A-Z][A-Za-z0-9&]*(?:-[A-Za-z0-9]+)*)(?![\w&]|-\w)"
)
_ROMAN = re.compile(r"M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_PAREN = re.compile(r"\(([^()]{1,80})\)")
_LINE_DEF = re.compile(
    r"^[\s>*•\-]*([A-Z][A-Za-z0-9&-]{1,11})\s*(?:[-–—=:]|&ndash;)\s+([A-Za-z][^\n]{2,100}?)\s*\.?$",
    re.MULTILINE,
)
_LINE_MARK = re.compile(r"^[\s>*•\-]*[A-Z][a-z0-9&]*[A-Z][A-Za-z0-9&-]*\s*[-–—=:&]", re.M)
_PAIR = re.compile(r"(?:^|(?<=[.;])\s+|\n)([A-Za-z][A-Za-z /()-]{0,30}?):\s")
TERM_COLUMNS = frozenset({"term", "abbreviation", "abbr", "acronym", "short form", "short name"})
MEANING_COLUMNS = frozenset(
    {"meaning", "full form", "fullform", "expansion", "stands for", "definition", "long form",
     "full name", "description"}
)  # fmt: skip
ENGLISH_CAPS = frozenset(
    """A I AM AN AS AT BE BY DO GO HE IF IN IS IT ME MY NO OF OH OK ON OR SO TO UP US WE
    ALL AND ARE BUT FOR HAS NOT THE WAS YOU ANY CAN NEW KEY NOTE NOTES TIP TODO IMP
    IMPORTANT WARNING NB ONLY ALSO WHY HOW WHAT WHEN WHERE WHO YES""".split()
)
NUMBERING_WORDS = frozenset(
    """part parts article articles schedule schedules chapter chapters unit units section
    sections class classes grade grades phase phases plan plans book books volume volumes
    amendment title list paper papers stage stages type types level levels tier tiers
    round world war act no number vol""".split()
)
GRADE_WORDS = frozenset("grade grades graded rated rating ratings scored score class".split())
ELEMENTS = frozenset(
    """H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge
    As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm
    Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U
    Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og""".split()
)
_MARKS = " *_'\"“”‘’"  # emphasis and quotes around a long form are not part of it
_ACRONYM = re.compile(r"[^\W_](?:[^\W_]|[&-])*")
_FORMULA_MARKS = re.compile(r"[{}$=+<>|\\@#;]|://")
FUNCTION_WORDS = frozenset(
    """a an the this that these those it its we our they their there here which who what
    is are was were be been and or but if so as at by for from in into of on to with
    than then thus also not no can may will would should could shall must has have had
    do does did one two""".split()
)
SENTENCE_VERBS = frozenset(
    """is are was were has have had shows show means mean refers refer gives give makes
    make provides provide includes include upholds uphold""".split()
)
_FORMULA = re.compile(r"(?:(?:[A-Z][a-z]?)\d*|\((?:[A-Z][a-z]?\d*)+\)\d*)+x?")


def acronym_key(token: str) -> str:
    """The acronym a token is a form of: "PILs" -> "PIL"."""
    if len(token) > 2 and token.endswith("s") and token[-2].isupper():
        return token[:-1]
    return token


def acronym_shaped(token: str) -> bool:
    """At least two capitals, no more small letters than capitals, at most 12 letters."""
    key = acronym_key(token)
    upper = sum(map(str.isupper, key))
    if upper < 2:
        return False
    return sum(map(str.islower, key)) <= upper and sum(map(str.isalpha, key)) <= 12


def is_roman(token: str) -> bool:
    return bool(token) and _ROMAN.fullmatch(token) is not None


def is_formula(token: str) -> bool:
    """A chemical formula with a count or a two-letter element ("CO2", "NaCl", "NOx")."""
    if not any(ch.isdigit() or ch.islower() for ch in token) or not _FORMULA.fullmatch(token):
        return False
    return all(sym in ELEMENTS for sym in re.findall(r"[A-Z][a-z]?", token))


def ambiguous(token: str) -> str | None:
    """Why a token shape is never reported as an undefined acronym, or None."""
    if is_roman(token):
        return "roman numeral"
    if token in ENGLISH_CAPS:
        return "English word"
    if is_formula(token):
        return "chemical formula"
    if any(ch.isdigit() for ch in token):
        return "has digits"
    letters = [ch for ch in token if ch.isalpha()]
    if len(set(letters)) == 1:
        return "grade"
    return None


def false_friend(
    text: str, start: int, end: int, lines: dict[int, bool] | None = None
) -> str | None:
    """Why the acronym-shaped word at text[start:end] is not an acronym here, or None.
    `lines`: whether each line (by its start) is mostly capitals, kept across the tokens
    of one text so a long line is read once, not once per token."""
    token = text[start:end]
    before = text[max(0, start - 60) : start].rstrip()  # the words next to it are enough
    prev = before.rsplit(None, 1)[-1] if before else ""
    after = text[end : end + 60].lstrip()
    nxt = after.split(None, 1)[0] if after else ""
    if is_roman(token) and set(token) <= set("IVX"):
        if prev[:1].isupper() or prev.casefold().strip(".,") in NUMBERING_WORDS:
            return "roman numeral"
        if not prev or before.endswith(("(", "\n")):
            return "roman numeral"
    elif is_roman(token) and prev.casefold().strip(".,") in NUMBERING_WORDS:
        return "roman numeral"
    if prev and re.fullmatch(r"[\d.,]+", prev):
        return "unit or era"
    if prev.casefold() in GRADE_WORDS:
        return "grade"
    if _shouting(text, start, end, prev, nxt, {} if lines is None else lines):
        return "shouting"
    return None


def _shouting(text: str, start: int, end: int, prev: str, nxt: str, lines: dict[int, bool]) -> bool:
    """Capitals as emphasis: the line is mostly capital words, the token stands in a run
    of three or more capital words, or it or its neighbour is an English word in capitals
    next to another capital word."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    shouted = lines.get(line_start)
    if shouted is None:
        shouted = lines[line_start] = _shouting_line(text[line_start:line_end])
    if shouted:
        return True
    left = text[max(line_start, start - 60) : start].split()
    right = text[end : min(line_end, end + 60)].split()
    run = 1
    for side in (reversed(left), right):
        for w in side:
            if not _caps_word(w):
                break
            run += 1
    if run >= 3:
        return True
    if text[start:end] in ENGLISH_CAPS and any(_caps_word(w) for w in (prev, nxt)):
        return True  # "THANK US", "IT IS": a word in capitals, not an acronym
    return any(w.strip(".,;:!?") in ENGLISH_CAPS for w in (prev, nxt))


def _shouting_line(line: str) -> bool:
    """Mostly capital words (three or more words)."""
    words = re.findall(r"[A-Za-z]{2,}", line)
    return len(words) >= 3 and sum(map(str.isupper, words)) >= 0.8 * len(words)


def _caps_word(word: str) -> bool:
    w = word.strip(".,;:!?\"'")
    return len(w) >= 2 and w.isalpha() and w.isupper()


def uses(text: str, among: Container[str] | None = None) -> list[str]:
    """The acronyms `text` uses (keys, in order of first use, each once); with `among`,
    only those keys (the others are not checked: a glossary lookup needs no more)."""
    out: dict[str, None] = {}
    lines: dict[int, bool] = {}
    for m in _TOKEN.finditer(text):
        token = m.group(1)
        key = acronym_key(token)  # the lookup first: it rules out most tokens cheaply
        if key in out or (among is not None and key not in among) or not acronym_shaped(token):
            continue
        if false_friend(text, m.start(1), m.end(1), lines) is None:
            out[key] = None
    return list(out)


def may_use(text: str, forms: Set[str]) -> bool:
    """Whether `text` may use one of the acronyms whose `spellings` are `forms`: False
    means `uses(text, among)` is empty for those keys, found by one regex pass and a set
    test (no loop per word), so a map over many texts checks the rest alone."""
    return not forms.isdisjoint(_TOKEN.findall(text))


def spellings(keys: Iterable[str]) -> frozenset[str]:
    """Every token `acronym_key` maps to one of `keys`: the key and its plural."""
    return frozenset(f for k in keys for f in (k, k + "s"))


def definitions(text: str) -> list[tuple[str, str]]:
    """(acronym, long form) pairs `text` defines, in order, less the noisy ones (`noisy`)."""
    found = ((a, long.strip(_MARKS)) for a, long in _candidates(text))
    return [(a, long) for a, long in found if noisy(a, long) is None]


def noisy(acronym: str, long: str) -> str | None:
    """Why a definition the patterns found is not one, or None: the stop list, from what
    the shared note corpora gave. An acronym that is no single token ("SC/ST", "Q,K,V",
    "G_{ISO}"); a long form that does not start with the acronym's first letter
    ("India's first ... submarine (SSBN)"), opens with a function word ("this suggests
    (TS)"), is a sentence or a formula rather than a name ("... shows the extent of",
    "Mental Age, CA = Chronological Age", a URL), or runs past the words its letters can
    name."""
    if not _ACRONYM.fullmatch(acronym):
        return "not one token"
    words = long.split()
    if not words or long[0].casefold() != acronym[0].casefold():
        return "first letters differ"
    if words[0].casefold() in FUNCTION_WORDS:
        return "function word"
    if _FORMULA_MARKS.search(long) or any(w.casefold() in SENTENCE_VERBS for w in words[1:]):
        return "sentence or formula"
    letters = sum(ch.isalnum() for ch in acronym)
    if len(words) > min(letters + 5, letters * 2) + long.count(" of ") + long.count(" and "):
        return "too long"
    return None


def _candidates(text: str) -> list[tuple[str, str]]:
    """(acronym, long form) pairs the definition patterns find in `text`."""
    out: list[tuple[str, str]] = []
    if _TOKEN.search(text) is None:
        return out  # no word with two capitals: nothing can be defined (most sheet rows)
    for m in _PAREN.finditer(text) if "(" in text else ():
        inner = re.split(r"[;,]\s", m.group(1).strip())[0].strip()
        if acronym_shaped(inner) and " " not in inner:
            limit = min(len(inner) + 5, len(inner) * 2)
            words = _words_before(text, m.start(), limit)
            long = long_form(acronym_key(inner), " ".join(words))
            if long:
                out.append((acronym_key(inner), long))
            continue
        lead = _lead_word(text, m.start())
        if lead and acronym_shaped(lead.group(1)) and " " in inner:
            long = long_form(acronym_key(lead.group(1)), inner)
            if long and long == inner.removeprefix("the ").removeprefix("The "):
                out.append((acronym_key(lead.group(1)), long))
    for m in _LINE_DEF.finditer(text) if _LINE_MARK.search(text) else ():
        acr, said = acronym_key(m.group(1)), m.group(2).strip()
        if acronym_shaped(acr) and long_form(acr, said) == said:
            out.append((acr, said))
    low = text.casefold()
    if any(f"{name}:" in low for name in TERM_COLUMNS):
        out += _column_pairs(text)
    return out


_SENTENCE_BREAK = re.compile(r"(?<=[.!?:;])\s|\n")
_LEAD = re.compile(r"([A-Z][A-Za-z0-9&-]+)\Z")
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789&-")
_LOOK_BACK = 400  # characters before a parenthesis read first (the whole text if too few)


def _words_before(text: str, end: int, limit: int) -> list[str]:
    """The last `limit` words of the sentence that runs up to `end`: read from a window
    before it, so a text with many parentheses is not split whole once for each."""
    start = max(0, end - _LOOK_BACK)
    while True:
        before = text[start:end].rstrip()
        parts = _SENTENCE_BREAK.split(before)
        words = parts[-1].split()
        # exact when the window holds the sentence's start or more words than are kept
        # (its first word may be cut)
        if start == 0 or len(parts) > 1 or len(words) > limit:
            return words[-limit:]
        start = max(0, start - 4 * _LOOK_BACK)


def _lead_word(text: str, end: int) -> re.Match[str] | None:
    """`[A-Z][A-Za-z0-9&-]+` ending where only white space is left before `end`."""
    j = end
    while j > 0 and text[j - 1].isspace():
        j -= 1
    k = j
    while k > 0 and text[k - 1] in _WORD_CHARS:
        k -= 1
    return _LEAD.search(text, k, j)


def long_form(short: str, candidate: str) -> str | None:
    """Schwartz-Hearst: the shortest tail of `candidate` whose letters spell `short`."""
    s, i = len(short) - 1, len(candidate) - 1
    while s >= 0:
        ch = short[s].lower()
        if not ch.isalnum():
            s -= 1
            continue
        while i >= 0 and (
            candidate[i].lower() != ch or (s == 0 and i > 0 and candidate[i - 1].isalnum())
        ):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    long = candidate[candidate.rfind(" ", 0, i + 1) + 1 :].strip(" ,;:-")
    if len(long) <= len(short) or not any(ch.islower() for ch in long) or len(long.split()) < 2:
        if "-" not in long:
            return None
    return long


def _column_pairs(text: str) -> list[tuple[str, str]]:
    """A Term/Meaning row: "Term: RBI. Meaning: Reserve Bank of India" ("; " in tables)."""
    marks = list(_PAIR.finditer(text))
    cells: dict[str, str] = {}
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        cells[m.group(1).strip().casefold()] = text[m.end() : end].strip().rstrip(".;").strip()
    term = next((v for k, v in cells.items() if k in TERM_COLUMNS), "")
    meaning = next((v for k, v in cells.items() if k in MEANING_COLUMNS), "")
    if term and meaning and acronym_shaped(term) and " " not in term:
        return [(acronym_key(term), meaning)]
    return []
