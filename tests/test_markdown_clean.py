from __future__ import annotations

import pytest

from notechunk.markdown.clean import clean_inline


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("[Fundamental Rights]{.underline}", "Fundamental Rights"),
        ("the [Doctrine]{.mark} of [lapse]{.smallcaps}", "the Doctrine of lapse"),
        ("**bold** and *em* and _u_ in snake_case_name", "bold and em and u in snake_case_name"),
        ("***both***", "both"),
        ("see [the site](https://example.org/a_(b)) now", "see the site now"),
        (r"\*not emphasis\* and \[x\] 5\_000", "*not emphasis* and [x] 5_000"),
        ("[[Page|alias]] and [[Other]] ![[img.png]]", "alias and Other "),
        ("<!-- hidden --> visible <u>under</u>", " visible under"),
        ("==highlight== ~~struck~~ H~2~O x^2^", "highlight struck H2O x2"),
        ("a `code_x` b", "a code_x b"),
        ("Tom &amp; Jerry&nbsp;here", "Tom & Jerry here"),
        ("line one\nline two", "line one\nline two"),
        ("![alt text](pic.png)", "alt text"),
    ],
)
def test_clean_inline(raw: str, clean: str) -> None:
    assert clean_inline(raw) == clean
