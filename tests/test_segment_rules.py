"""The default rule segmenter: the 48 Golden Rules (pySBD's English set) and note cases."""

from __future__ import annotations

import json
from typing import Any

import pytest

# tests/ -> repo -> the repo's parent, which holds shared/ (not part of a fresh clone).
from conftest import SHARED
from notechunk.segment import get_segmenter, split
from notechunk.segment.rules import RuleSegmenter

GOLDEN = SHARED / "corpora" / "sbd" / "pysbd_en_golden_rules.json"

# Rule id -> why the default backend fails it. strict xfail: a fix shows up as XPASS.
KNOWN_FAILURES = {
    18: "'5 a.m. Mr. Smith' and '6 P.M. Mr. Smith' need opposite answers; we never break "
    "before a title after a.m./p.m.",
}


def _golden_rules() -> list[Any]:
    if not GOLDEN.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{GOLDEN} absent"), id="absent")]
    rules = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return [
        pytest.param(
            rule,
            id=f"{rule['id']:02d}-{rule['rule'][:40]}",
            marks=[pytest.mark.corpus]
            + (
                [pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[rule["id"]])]
                if rule["id"] in KNOWN_FAILURES
                else []
            ),
        )
        for rule in rules
    ]


@pytest.mark.parametrize("rule", _golden_rules())
def test_golden_rule(rule: dict[str, Any]) -> None:
    got = [s.strip() for s in split(RuleSegmenter(), rule["text"])]
    assert got == [s.strip() for s in rule["expected_sentences"]]


NOTE_CASES = {
    "initials-after-title": (
        "Dr. B.R. Ambedkar was the chairman. He chaired the drafting committee.",
        ["Dr. B.R. Ambedkar was the chairman.", "He chaired the drafting committee."],
    ),
    "initial-before-initial": (
        "As the historian J. A. Froude wrote, the U.S. A. Lincoln era began.",
        ["As the historian J. A. Froude wrote, the U.S. A. Lincoln era began."],
    ),
    "article-number": (
        "Under Art. 226 the High Court issues writs. Art. 32 goes to the Supreme Court.",
        ["Under Art. 226 the High Court issues writs.", "Art. 32 goes to the Supreme Court."],
    ),
    "acronym-then-lowercase": (
        "Ties between the U.S.A. and India deepened in 2005.",
        ["Ties between the U.S.A. and India deepened in 2005."],
    ),
    "eg-ie": (
        "Landforms, e.g. rivers, shape settlement, i.e. where people live.",
        ["Landforms, e.g. rivers, shape settlement, i.e. where people live."],
    ),
    "number-abbreviation": (
        "Gate No. 5 is closed. Use gate 6 instead.",
        ["Gate No. 5 is closed.", "Use gate 6 instead."],
    ),
    "numbered-item-at-start": (
        "1. The Act was passed in 1935.",
        ["1. The Act was passed in 1935."],
    ),
    "numbered-lines": (
        "1. The Act was passed in 1935.\n2. It set up provincial autonomy.",
        ["1. The Act was passed in 1935.", "2. It set up provincial autonomy."],
    ),
    "bullets-each-a-sentence": (
        "Key features:\n- federal structure\n* bicameral legislature\n• independent judiciary",
        [
            "Key features:",
            "- federal structure",
            "* bicameral legislature",
            "• independent judiciary",
        ],
    ),
    "bullet-after-sentence-without-period": (
        "Rivers of the north\n- Ganga\n- Yamuna",
        ["Rivers of the north", "- Ganga", "- Yamuna"],
    ),
    "titles": (
        "Mr. Nehru met St. Xavier's staff. Prof. Sen spoke next.",
        ["Mr. Nehru met St. Xavier's staff.", "Prof. Sen spoke next."],
    ),
    "citation": (
        "Tribal rights expanded (Xaxa et al., 2014). Later work (Rao et al. 2019) agrees.",
        ["Tribal rights expanded (Xaxa et al., 2014).", "Later work (Rao et al. 2019) agrees."],
    ),
    "url-email-decimal-money": (
        "See https://example.org/a.b.html. Mail x.y@gov.in now. Pi is 3.14 and tea $2.50. Ok.",
        [
            "See https://example.org/a.b.html.",
            "Mail x.y@gov.in now.",
            "Pi is 3.14 and tea $2.50.",
            "Ok.",
        ],
    ),
    "multiple-punctuation-and-ellipsis": (
        "Really?! Yes. Wait... Then the monsoon failed… Famine followed.",
        ["Really?!", "Yes.", "Wait...", "Then the monsoon failed…", "Famine followed."],
    ),
    "am-pm-before-lowercase-and-opener": (
        "The session opens at 10 a.m. sharp. It closes at 5 p.m. The next day is free.",
        ["The session opens at 10 a.m. sharp.", "It closes at 5 p.m.", "The next day is free."],
    ),
    "paragraphs-and-soft-wraps": (
        "First paragraph.\n\nSecond paragraph wraps\nonto a new line. Done",
        ["First paragraph.", "Second paragraph wraps\nonto a new line.", "Done"],
    ),
    "inline-numbered-chain": (
        "Three organs: 1) the legislature 2) the executive 3) the judiciary",
        ["Three organs:", "1) the legislature", "2) the executive", "3) the judiciary"],
    ),
    "lowercase-sentence-start": (
        "the act failed. it was repealed in 1919. rivers, hills etc. and plains.",
        ["the act failed.", "it was repealed in 1919.", "rivers, hills etc. and plains."],
    ),
    "lowercase-numbered-items": (
        "1. the act was passed.\nOrgans: 1. the legislature 2. the executive",
        ["1. the act was passed.", "Organs:", "1. the legislature", "2. the executive"],
    ),
    "abbreviation-before-lowercase": (
        "Jane and co. arrived. See imp. points and approx. totals.",
        ["Jane and co. arrived.", "See imp. points and approx. totals."],
    ),
    "cjk-full-stops-without-spaces": (
        "光合作用需要阳光。植物吸收二氧化碳！为什么？「因为要生长。」最后",
        ["光合作用需要阳光。", "植物吸收二氧化碳！", "为什么？", "「因为要生长。」", "最后"],
    ),
    "japanese-and-latin-mixed": (
        "東京は日本の首都です。It is large. 人口は多い？はい。",
        ["東京は日本の首都です。", "It is large.", "人口は多い？", "はい。"],
    ),
}


@pytest.mark.parametrize(("text", "expected"), NOTE_CASES.values(), ids=NOTE_CASES.keys())
def test_note_cases(text: str, expected: list[str]) -> None:
    assert split(get_segmenter("default"), text) == expected


def test_spans_point_into_text() -> None:
    text = "  Dr. Rao left.\n\n  He came back.  "
    spans = RuleSegmenter().spans(text)
    assert spans == [(2, 15), (19, 32)]
    assert [text[s:e] for s, e in spans] == ["Dr. Rao left.", "He came back."]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"], ids=["empty", "spaces", "blank-lines"])
def test_no_sentences_in_whitespace(text: str) -> None:
    assert RuleSegmenter().spans(text) == []


@pytest.mark.corpus
def test_invariants_on_real_notes() -> None:
    """Every Markdown note of the shared corpus keeps the span invariants."""
    notes = SHARED / "corpora" / "notes-md"
    if not notes.is_dir():
        pytest.skip(f"{notes} absent")
    seg = RuleSegmenter()
    for path in sorted(notes.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        spans = seg.spans(text)
        assert all(s < e and text[s:e] == text[s:e].strip() for s, e in spans), path
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), path
        # Disjoint spans holding as many non-space characters as the text cover all of them.
        solid = sum(len("".join(text[s:e].split())) for s, e in spans)
        assert solid == len("".join(text.split())), path


# Abbreviations of the other languages notes are written in. Each case split inside a
# sentence before these languages were known, except the "-end-" ones (a real sentence end
# after an abbreviation keeps splitting) and "ru-initials-are-no-end" (the Russian opener
# "А" must not break after an initial).
LANGUAGE_CASES = {
    "ru-figure-and-table-numbers": (
        "Слои стенки видны на (рис. 10.1) и в табл. 2. Далее идёт разбор.",
        ["Слои стенки видны на (рис. 10.1) и в табл. 2.", "Далее идёт разбор."],
    ),
    "ru-lowercase-after-abbreviation": (
        "На рис. показана схема, а цена в тыс. руб. указана в прил. к договору.",
        ["На рис. показана схема, а цена в тыс. руб. указана в прил. к договору."],
    ),
    "ru-pages": (
        "Методика описана на стр. 12 и с. 49. Там же есть схема.",
        ["Методика описана на стр. 12 и с. 49.", "Там же есть схема."],
    ),
    "ru-city-and-named-after": (
        "Центр в г. Казань носит им. П.А. Петрова и с 1990 г. принимает больных.",
        ["Центр в г. Казань носит им. П.А. Петрова и с 1990 г. принимает больных."],
    ),
    "ru-named-after-initials": (
        "Академия им. С. М. Кирова готовит врачей.",
        ["Академия им. С. М. Кирова готовит врачей."],
    ),
    "ru-spaced-that-is": (
        "Нужны лучевые методы, т. е. МРТ и КТ, а также УЗИ и т. п.",
        ["Нужны лучевые методы, т. е. МРТ и КТ, а также УЗИ и т. п."],
    ),
    "ru-et-al-citation": (
        "Петров А.А., Сидоров Б.Б. и др. Лучевая диагностика. Москва, 2019.",
        ["Петров А.А., Сидоров Б.Б. и др. Лучевая диагностика.", "Москва, 2019."],
    ),
    "ru-end-after-etc": (
        "Оценивают размер, форму и т.д. Затем описывают края.",
        ["Оценивают размер, форму и т.д.", "Затем описывают края."],
    ),
    "ru-end-after-year": (
        "Классификация принята в 2017 г. В ней пять стадий.",
        ["Классификация принята в 2017 г.", "В ней пять стадий."],
    ),
    "ru-end-after-centimetres": (
        "Размер опухоли 5 см. При этом края ровные.",
        ["Размер опухоли 5 см.", "При этом края ровные."],
    ),
    "ru-initials-are-no-end": (
        "Книгу написал А. А. Иванов в 2020 году.",
        ["Книгу написал А. А. Иванов в 2020 году."],
    ),
    "de-spaced-zb": (
        "Obst, z. B. Äpfel und Birnen, ist gesund. Gemüse auch.",
        ["Obst, z. B. Äpfel und Birnen, ist gesund.", "Gemüse auch."],
    ),
    "de-bzw-vgl-figure-page": (
        "Man nimmt Tabletten bzw. Tropfen (vgl. Abb. 3 auf S. 12). Danach ruht man.",
        ["Man nimmt Tabletten bzw. Tropfen (vgl. Abb. 3 auf S. 12).", "Danach ruht man."],
    ),
    "de-before-nouns": (
        "Ggf. Antibiotika geben, evtl. Fieber messen, d. h. Kontrolle inkl. Labor.",
        ["Ggf. Antibiotika geben, evtl. Fieber messen, d. h. Kontrolle inkl. Labor."],
    ),
    "de-usw-before-lowercase": (
        "Äpfel, Birnen usw. sind reich an Vitaminen, s. Kap. 4.",
        ["Äpfel, Birnen usw. sind reich an Vitaminen, s. Kap. 4."],
    ),
    "de-ordinal-and-century": (
        "Die Stadt wuchs im 19. Jh. stark an. Am 3. Mai beginnt das Fest.",
        ["Die Stadt wuchs im 19. Jh. stark an.", "Am 3. Mai beginnt das Fest."],
    ),
    "de-end-after-century": (
        "Das geschah im 19. Jh. Die Folgen waren groß.",
        ["Das geschah im 19. Jh.", "Die Folgen waren groß."],
    ),
    "de-end-after-usw": (
        "Wir kaufen Äpfel, Birnen usw. Die Preise steigen.",
        ["Wir kaufen Äpfel, Birnen usw.", "Die Preise steigen."],
    ),
    "fr-about-and-for-example": (
        "Certains, p. ex. Descartes, doutent (cf. p. 45) : env. 30 % des cas.",
        ["Certains, p. ex. Descartes, doutent (cf. p. 45) : env. 30 % des cas."],
    ),
    "fr-before-christ": (
        "Rome fut fondée en 753 av. J.-C. Elle devint un empire.",
        ["Rome fut fondée en 753 av. J.-C.", "Elle devint un empire."],
    ),
    "fr-monsieur-end-before-madame": (
        "M. Dupont enseigne la morale. Mme. Martin enseigne l'histoire.",
        ["M. Dupont enseigne la morale.", "Mme. Martin enseigne l'histoire."],
    ),
    "fr-end-after-etc": (
        "On étudie la morale, la politique, etc. Le cours commence lundi.",
        ["On étudie la morale, la politique, etc.", "Le cours commence lundi."],
    ),
    "es-titles-and-page": (
        "La Sra. Gómez cita la pág. 12 del libro. El Sr. Ruiz no está de acuerdo.",
        ["La Sra. Gómez cita la pág. 12 del libro.", "El Sr. Ruiz no está de acuerdo."],
    ),
    "es-for-example": (
        "Algunos países, p. ej. México y Chile, firmaron el tratado.",
        ["Algunos países, p. ej. México y Chile, firmaron el tratado."],
    ),
    "it-titles-page-ecc": (
        "Il Sig. Rossi e la Dott. Bianchi leggono a pag. 30 storia, arte, ecc. e poi discutono.",
        ["Il Sig. Rossi e la Dott. Bianchi leggono a pag. 30 storia, arte, ecc. e poi discutono."],
    ),
    "it-for-example-compare": (
        "Alcune città, ad es. Roma, sono antiche (cfr. cap. 3).",
        ["Alcune città, ad es. Roma, sono antiche (cfr. cap. 3)."],
    ),
    "it-end-after-ecc": (
        "Si studiano storia, arte, ecc. Poi si fa l'esame.",
        ["Si studiano storia, arte, ecc.", "Poi si fa l'esame."],
    ),
    "latin-in-english-notes": (
        "Smith, op. cit. 45, and ibid. 47 cite c. 1100 sources, viz. the chronicles.",
        ["Smith, op. cit. 45, and ibid. 47 cite c. 1100 sources, viz. the chronicles."],
    ),
    "latin-end-after-ibid": (
        "The quote is from ibid. The next one is not.",
        ["The quote is from ibid.", "The next one is not."],
    ),
}


@pytest.mark.parametrize(("text", "expected"), LANGUAGE_CASES.values(), ids=LANGUAGE_CASES.keys())
def test_language_abbreviations(text: str, expected: list[str]) -> None:
    assert split(get_segmenter("default"), text) == expected
