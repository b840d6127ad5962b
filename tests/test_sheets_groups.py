"""Context carried down: a group header row names the rows below it (SPEC §1.2, v2)."""

from pathlib import Path

from notechunk.config import Config
from notechunk.sheets import process_sheet_file

CFG = Config()


def run(tmp_path: Path, text: str) -> tuple[dict[int, str | None], dict[int, str]]:
    p = tmp_path / "g.csv"
    p.write_text(text, encoding="utf-8")
    res = process_sheet_file(p, "g.csv", CFG)
    assert not res.errors
    (rep,) = res.reports
    assert rep.data_rows == rep.chunks + rep.discarded
    groups = {c.row: c.group for c in res.pieces if c.row is not None}
    return groups, {d.row: d.explanation for d in res.discarded}


def test_group_headers_carry_down_until_the_next(tmp_path: Path) -> None:
    groups, discarded = run(
        tmp_path,
        "label,note,lon\n"
        "Jhelum River,,\nUri Dam (JK),hydel,74.1\nMangla Dam (POJK),lake,73.6\n"
        "Chenab River,,\nSalal Dam (JK),,74.8\n",
    )
    assert groups == {3: "Jhelum River", 4: "Jhelum River", 6: "Chenab River"}
    assert "carried down as the group" in discarded[2]
    assert discarded[2].startswith("1 non-empty cell(s)")  # still a too_few_fields row


def test_a_sentence_row_does_not_become_a_group(tmp_path: Path) -> None:
    groups, _ = run(
        tmp_path,
        "label,note\nJK,\nState governments declare National Parks under section 35.,\n"
        "Hemis NP,Ladakh\n",
    )
    assert groups == {4: "JK"}


def test_a_lone_one_cell_row_mid_sheet_is_not_a_group(tmp_path: Path) -> None:
    """A vocabulary word without its meaning, once, is not a header of what follows."""
    groups, discarded = run(
        tmp_path, "Word,Meaning\nabate,lessen\nperpendicular,\nimpute,attribute\nlaud,praise\n"
    )
    assert groups == {2: None, 4: None, 5: None}
    assert "carried down" not in discarded[3]


def test_one_group_header_first_below_the_header_counts(tmp_path: Path) -> None:
    groups, _ = run(tmp_path, "Pass,State\nHimalayan passes,\nZoji La,Ladakh\nRohtang,HP\n")
    assert groups == {3: "Himalayan passes", 4: "Himalayan passes"}


def test_section_labels_are_groups_too(tmp_path: Path) -> None:
    groups, discarded = run(
        tmp_path, "Topic,Pages\nUnit I,\nCells,12 to 20\nUnit II,\nTissues,21 to 30\n"
    )
    assert groups == {3: "Unit I", 5: "Unit II"}
    assert discarded[2].startswith("1 of 1 cells are structural")
