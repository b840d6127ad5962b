from notechunk.config import Template
from notechunk.sheets.templates import (
    apply,
    bind,
    clean_mnemonic_patterns,
    fallback_text,
    normalize_name,
    remove_generic_tags,
    select_template,
)

PASSES = Template(
    name="passes",
    match="*passes*",
    text="The {Pass} pass is in {State}[, connecting {Connects}][, at {Altitude}].",
)
NAMES = ["Pass", "State", "connects", "ALTITUDE (m)"]


def test_names_match_ignoring_case_space_punct() -> None:
    assert normalize_name("Altitude (m)") == normalize_name("altitude_m")
    t = Template(name="t", match="*", text="{altitude m} {pass}")
    assert bind(t, NAMES).missing == ()


def test_template_fills_sentence() -> None:
    text, flag = apply(bind(PASSES, NAMES), ("Khyber", "KPK", "Pakistan and Afghanistan", "1070 m"))
    assert flag is None
    assert text == "The Khyber pass is in KPK, connecting Pakistan and Afghanistan, at 1070 m."


def test_optional_segment_dropped_when_empty() -> None:
    t = Template(name="passes", match="*", text="The {Pass} pass is in {State}[, at {Altitude}].")
    text, _ = apply(bind(t, ["Pass", "State", "Altitude"]), ("Zoji La", "Ladakh", ""))
    assert text == "The Zoji La pass is in Ladakh."
    t2 = Template(
        name="p", match="*", text="The {Pass} pass, connecting {Connects}, at {Altitude}."
    )
    text2, flag2 = apply(bind(t2, ["Pass", "Connects", "Altitude"]), ("Zoji La", "", "3528 m"))
    assert text2 is None and flag2 == "template_fallback:p:empty field Connects"


def test_missing_column_falls_back_with_flag() -> None:
    text, flag = apply(bind(PASSES, ["Pass", "State", "Connects"]), ("Khyber", "KPK", "x"))
    assert text is None and flag == "template_fallback:passes:missing column Altitude"


def test_literal_brackets_and_braces() -> None:
    t = Template(name="x", match="*", text="{A} [[note]] {{b}}")
    text, _ = apply(bind(t, ["A"]), ("v",))
    assert text == "v [note] {b}"


def test_select_template_globs_case_insensitive() -> None:
    t = Template(name="p", match="*PASSES*", text="{A}", sheet="main*")
    assert select_template((t,), "geo/Passes.xlsx", "Main sheet") is t
    assert select_template((t,), "geo/Passes.xlsx", "other") is None
    assert select_template((t,), "geo/rivers.xlsx", "Main") is None


def test_generic_tags_removed() -> None:
    assert remove_generic_tags("Khyber #imp [PYQ 2019] (Imp) ★ *** pass") == "Khyber pass"
    assert remove_generic_tags("Rank #1 in 2020") == "Rank #1 in 2020"


def test_mnemonic_cells_removed() -> None:
    assert clean_mnemonic_patterns("Mnemonic: KBZ") == ""
    assert clean_mnemonic_patterns("Trick - remember K") == ""
    assert clean_mnemonic_patterns("Shipki La mnemonic – Shimla") == "Shipki La mnemonic – Shimla"


def test_fallback_keeps_headers() -> None:
    text = fallback_text(["Pass", "Altitude", "Tip"], ("Khyber #imp", "1070 m.", "Trick: K"))
    assert text == "Pass: Khyber. Altitude: 1070 m."
    assert fallback_text(["Q", "A"], ("Why?", "Because")) == "Q: Why? A: Because."


def test_values_without_a_label_stand_bare() -> None:
    names = ("", "", "Notes", "")
    assert fallback_text(("", ""), ("bonjour", "привет")) == "bonjour — привет."
    assert fallback_text(("", ""), ("Why?", "Because")) == ("Why? — Because.")
    assert fallback_text(names, ("0", "", "w0", "x")) == "0. Notes: w0. x."
    assert fallback_text(names, ("", "", "", "")) == ""
