"""prepare: the text the block parser reads, with line numbers unchanged and units found
before the parser placed at their lines."""

from __future__ import annotations

from notechunk.markdown.parse import BlockParser, make_parser
from notechunk.markdown.prepare import prepare


def test_plain_text_is_parsed_once_and_untouched() -> None:
    body = "# A\n\ntext\n"
    prep = prepare(body, BlockParser(), 0)
    assert prep.lines == body.split("\n") and prep.markers == {} and prep.covered == []


def test_constructs_rewritten_lines_kept_units_placed() -> None:
    body = (
        "intro\n\n"  # 0-1
        "  A     B\n-----  -----\n  1     2\n\n"  # 2-5: a simple table
        "%% gone %%\n\n"  # 6-7
        "a) item\n\n"  # 8-9
        "```ad-note\ntitle: T\nbody\n```\n"  # 10-13
    )
    for parser in (BlockParser(), make_parser()):
        prep = prepare(body, parser, 0)
        assert len(prep.lines) == len(body.split("\n"))
        assert prep.lines[2:6] == ["", "", "", ""]
        assert prep.lines[6] == "" and prep.lines[8] == "1) item"
        assert prep.lines[10:14] == ["", "", "body", ""]
        assert prep.markers == {8: "a)"}
        assert sorted(prep.covered) == [(2, 5), (10, 11)]
        kinds = [t.type for t in prep.tokens]
        assert kinds.index("nc_units") < kinds.index("list_item_open")


def test_front_matter_lines_are_never_touched() -> None:
    prep = prepare("---\na) x\n---\n# Title\n", BlockParser(), 3)
    assert prep.lines[1] == "a) x" and prep.markers == {}
