"""CSV reading: encodings, a bounded delimiter guess, long fields cut, never a hang."""

import codecs
import time
from pathlib import Path

import pytest

from notechunk.config import SheetsConfig
from notechunk.errors import InputError
from notechunk.sheets.csvread import guess_delimiter, read_csv

CFG = SheetsConfig()


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        (codecs.BOM_UTF8 + b"Pass,State\nZoji La,Ladakh\n", "utf8-bom"),
        (b"Pass,State\nZoji La,Ladakh\n", "utf8"),
        ("Pass,State\nZoji La,Ladakh\n".encode("utf-16"), "utf16"),
        ("Pass,State\nZoji La,Ladakh\n".encode("cp1252"), "cp1252"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_csv_encodings(tmp_path: Path, raw: bytes, name: str) -> None:
    p = tmp_path / "f.csv"
    p.write_bytes(raw)
    (sheet,) = list(read_csv(p, "f.csv", CFG))
    rows = list(sheet.rows)
    assert rows[0].cells == ("Pass", "State")
    assert rows[1].cells == ("Zoji La", "Ladakh")


def test_csv_cp1252_fallback_flagged(tmp_path: Path) -> None:
    p = tmp_path / "f.csv"
    p.write_bytes("Name,Note\nCafé,naïve – dash\n".encode("cp1252"))
    rows = list(next(read_csv(p, "f.csv", CFG)).rows)
    assert rows[1].cells == ("Café", "naïve – dash")
    assert rows[1].flags == ("encoding_fallback:cp1252",)


def test_csv_keeps_na_and_long_ints(tmp_path: Path) -> None:
    p = tmp_path / "f.csv"
    p.write_text("a,b\nNA,12345678901234567890\n", encoding="utf-8")
    rows = list(next(read_csv(p, "f.csv", CFG)).rows)
    assert rows[1].cells == ("NA", "12345678901234567890")


@pytest.mark.parametrize(
    ("sample", "delimiter"),
    [
        ("a,b,c\n1,2,3\n", ","),
        ("a;b;c\n1;2,5;3\n4;5;6\n", ";"),
        ("a\tb\n1, 2\t3\n", "\t"),
        ("a|b\nx|y\n", "|"),
        ("one column\nno delimiter\n", ","),
        ('"q; with semicolon",b\n"r; s",c\n', ","),
        ("", ","),
    ],
    ids=repr,
)
def test_guess_delimiter(sample: str, delimiter: str) -> None:
    assert guess_delimiter(sample) == delimiter


@pytest.mark.parametrize(
    "junk",
    ["'\n", '"\n', "'a',\n", '"\'"\n', "';'\n"],
    ids=repr,
)
def test_guess_delimiter_is_fast_on_quote_noise(junk: str) -> None:
    """csv.Sniffer took 115 s on 64 KB of lines holding a lone quote."""
    sample = junk * (65536 // len(junk))
    t0 = time.perf_counter()
    guess_delimiter(sample)
    assert time.perf_counter() - t0 < 1.0


def test_field_over_csv_default_limit_is_read_and_cut(tmp_path: Path) -> None:
    p = tmp_path / "big.csv"
    p.write_bytes(b"Term,Meaning\nbig," + b"x" * 200_000 + b"\nlapse,Dalhousie\n")
    rows = list(next(read_csv(p, "big.csv", SheetsConfig(max_cell_chars=1000))).rows)
    assert rows[1].cells == ("big", "x" * 1000)
    assert rows[1].flags == ("cell_cut:B2:200000",)
    assert rows[2].cells == ("lapse", "Dalhousie") and rows[2].flags == ()


def test_nul_bytes_are_one_input_error(tmp_path: Path) -> None:
    p = tmp_path / "nul.csv"
    p.write_bytes(b'a,b\n"x\x00y",z\n')
    with pytest.raises(InputError) as err:
        list(next(read_csv(p, "nul.csv", CFG)).rows)
    assert err.value.reason == "not a CSV file: binary content (NUL bytes)"


def test_malformed_csv_is_one_input_error(tmp_path: Path) -> None:
    p = tmp_path / "open.csv"
    p.write_bytes(b'a,b\n"x' + b"y" * (1 << 25))  # a quoted field past the field limit
    with pytest.raises(InputError) as err:
        list(next(read_csv(p, "open.csv", CFG)).rows)
    assert "malformed CSV" in err.value.reason and "\n" not in err.value.reason
