"""Flash-card exports (Quizlet, Anki plain text) read as sheets: one card, one row, one
chunk; Anki's header lines honoured, HTML fields read as HTML, clozes answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from notechunk.config import Config
from notechunk.perfile import process_sheet
from notechunk.sheets.cards import field_text

CFG = Config()


def cards(tmp_path: Path, name: str, text: str) -> list[tuple[int | None, str]]:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    res = process_sheet(path, name, CFG)
    assert not res.errors
    (report,) = res.reports
    assert report.data_rows == report.chunks + report.discarded  # conserved
    return [(c.row, c.text) for c in res.chunks]


DECKS = {
    "quizlet-pipe": (
        "deck.txt",
        "Mitochondria|the powerhouse of the cell\nRibosome|makes proteins\n",
        [
            (1, "front: Mitochondria. back: the powerhouse of the cell."),
            (2, "front: Ribosome. back: makes proteins."),
        ],
    ),
    "tab": (
        "deck.tsv",
        "Paris\tcapital of France\n\nRome\tcapital of Italy\n",
        [
            (1, "front: Paris. back: capital of France."),
            (3, "front: Rome. back: capital of Italy."),
        ],
    ),
    "semicolon-back-keeps-later-semicolons": (
        "deck.txt",
        "What is H2O?; water; also ice\n" + "".join(f"Q{i}; A{i}\n" for i in range(9)),
        [
            (1, "front: What is H2O? back: water; also ice."),
            *((i + 2, f"front: Q{i}. back: A{i}.") for i in range(9)),
        ],
    ),
}


@pytest.mark.parametrize(("name", "text", "expected"), DECKS.values(), ids=DECKS.keys())
def test_one_chunk_per_card(tmp_path: Path, name: str, text: str, expected: list[object]) -> None:
    assert cards(tmp_path, name, text) == expected


def test_anki_headers_columns_quotes_html_and_cloze(tmp_path: Path) -> None:
    text = (
        "#separator:tab\n#html:true\n#notetype:Cloze\n#columns:Text\tExtra\n"
        "The capital of France is {{c1::Paris::city}}.\t<b>Seine</b> &amp; <i>Louvre</i>\n"
        '"Two<br>lines"\t"quoted\ttab"\n'
    )
    assert cards(tmp_path, "anki.txt", text) == [
        (5, "Text: The capital of France is Paris. Extra: Seine & Louvre."),
        (6, "Text: Two lines. Extra: quoted tab."),
    ]


def test_anki_metadata_columns_are_named(tmp_path: Path) -> None:
    text = (
        "#separator:tab\n#html:false\n#notetype column:1\n#tags column:4\n"
        "Basic\tOsmosis\twater moves to the saltier side\tbiology\n"
    )
    assert cards(tmp_path, "anki.txt", text) == [
        (
            5,
            "notetype: Basic. front: Osmosis. "
            "back: water moves to the saltier side. tags: biology.",
        )
    ]


def test_a_line_that_is_no_card_is_a_discarded_row(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    lines = [f"term {i}|meaning {i}" for i in range(12)]
    path.write_text("\n".join([*lines[:6], "Chapter two", *lines[6:]]) + "\n", encoding="utf-8")
    res = process_sheet(path, "deck.txt", CFG)
    assert len(res.chunks) == 12
    assert [(d.row, d.rule) for d in res.discarded] == [(7, "too_few_fields")]


def test_an_anki_export_named_csv_is_a_deck_and_a_cloze_card_is_whole(tmp_path: Path) -> None:
    text = "#separator:tab\n#html:false\n{{c1::2}} × {{c2::3}} = {{c3::6}}\n1 × 1 = {{c1::1}}\n"
    assert cards(tmp_path, "deck.csv", text) == [(3, "front: 2 × 3 = 6."), (4, "front: 1 × 1 = 1.")]


def test_a_headerless_bilingual_list_keeps_its_first_row(tmp_path: Path) -> None:
    words = [("adashmoq", "блуждать"), ("afsona", "легенда"), ("chiroyli", "красивый")]
    text = "".join(f"{a} | {b}\n" for a, b in [*words, ("kitob", "книга")])
    got = cards(tmp_path, "uz-ru.csv", text)
    assert got[0] == (1, "adashmoq — блуждать.")  # no made-up "Column 1:" labels
    assert len(got) == 4
    named = cards(tmp_path, "named.csv", "Uzbek | Russian\n" + text)
    assert named[0] == (2, "Uzbek: adashmoq. Russian: блуждать.")


def test_a_dataframe_row_index_is_left_out_and_said(tmp_path: Path) -> None:
    path = tmp_path / "deck.csv"
    rows = "".join(f"{i}|w{i}|слово {i}|Topic\n" for i in range(5))
    path.write_text("|word_en|word_ru|topic\n" + rows, encoding="utf-8")
    res = process_sheet(path, "deck.csv", CFG)
    assert res.chunks[0].text == "word_en: w0. word_ru: слово 0. topic: Topic."
    assert "row index" in res.reports[0].note
    path.write_text("|word_en|word_ru|topic\n" + rows.replace("3|", "7|", 1), encoding="utf-8")
    kept = process_sheet(path, "deck.csv", CFG)  # not 0, 1, 2, ...: a column like any other
    assert kept.chunks[0].text.startswith("0. word_en: w0.")


def test_a_csv_picture_cell_is_read_by_its_alt_and_flagged(tmp_path: Path) -> None:
    path = tmp_path / "words.csv"
    rows = "".join(f'w{i},слово {i},<img src="w{i}.jpg">\n' for i in range(3))
    path.write_text(
        "word,translation,picture\n" + rows + 'fox,лиса,<img alt="a fox" src="f.jpg">\n'
    )
    res = process_sheet(path, "words.csv", CFG)
    assert res.chunks[0].text == "word: w0. translation: слово 0."
    assert res.chunks[0].flags == ("media_cell:C2",)
    assert res.chunks[-1].text == "word: fox. translation: лиса. picture: a fox."


def test_a_tsv_table_with_a_header_is_read_as_csv(tmp_path: Path) -> None:
    path = tmp_path / "table.tsv"
    path.write_text("Pass\tState\tHeight\nZoji La\tLadakh\t3528\nRohtang\tHimachal\t3978\n")
    res = process_sheet(path, "table.tsv", CFG)
    assert [c.text for c in res.chunks][0].startswith("Pass: Zoji La")


FIELDS = {
    "cloze-with-hint": ("{{c1::Paris::city}} is big", "Paris is big"),
    "cloze-without-hint": ("{{c2::Rome}} and {{c3::Oslo}}", "Rome and Oslo"),
    "html-without-header": ("<div>one</div><div>two</div>", "one\ntwo"),
    "entity": ("R&amp;D", "R&D"),
    "plain-angle-is-text": ("a < b and b > c", "a < b and b > c"),
    "image-by-its-alt": ('<img alt="a red fox" src="fox.jpg">', "a red fox"),
    "image-and-sound-without-text": ('<img src="fox.jpg">[sound:fox.mp3]', ""),
}


@pytest.mark.parametrize(("raw", "expected"), FIELDS.values(), ids=FIELDS.keys())
def test_field_text(raw: str, expected: str) -> None:
    assert field_text(raw) == expected


def test_templates_suggest_for_a_deck_names_front_and_back(tmp_path: Path) -> None:
    from notechunk.sheets import suggest_templates

    path = tmp_path / "deck.txt"
    path.write_text("Osmosis|water moves across a membrane\nDiffusion|particles spread\n")
    out = suggest_templates(path, "deck.txt", CFG)
    assert "columns front, back" in out and "{front}" in out and "{back}" in out
