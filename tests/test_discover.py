from __future__ import annotations

import os
from pathlib import Path

import pytest

from notechunk.discover import discover


def test_sorted_filtered_and_hidden_skipped(tmp_path: Path) -> None:
    for rel in [
        "b.md",
        "a/z.md",
        "a/y.csv",
        "c.pdf",
        ".hidden/x.md",
        "a/.x.md",
        "-dash.md",
        "spaced name.md",
        "ünï.md",
        "s.XLSX",
    ]:
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
    found = discover(tmp_path)
    assert [f.rel for f in found.files] == [
        "-dash.md",
        "a/y.csv",
        "a/z.md",
        "b.md",
        "s.XLSX",
        "spaced name.md",
        "ünï.md",
    ]
    assert {f.kind for f in found.files} == {"markdown", "spreadsheet"}
    assert found.skipped == ("c.pdf",)  # named, never silently absent; hidden files are not


def test_txt_is_a_note_unless_its_lines_are_cards(tmp_path: Path) -> None:
    files = {
        "note.txt": "Photosynthesis makes sugar.\n\nIt needs light; and water.\n- a list\n",
        "pipes.txt": "mitochondria|powerhouse of the cell\nribosome|makes proteins\n",
        "tabs.txt": "Paris\tcapital of France\nRome\tcapital of Italy\n\n",
        "semi.txt": "H2O; water\nNaCl; salt\nCO2; carbon dioxide\n",
        "anki.txt": "#separator:Pipe\n#html:true\nonly one card|its back\n",
        "one.txt": "a|b\n",
        "deck.tsv": "front\tback\n",
        "mixed.txt": "a|b\nc|d\nno separator here\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    kinds = {f.rel: f.kind for f in discover(tmp_path).files}
    assert kinds == {
        "anki.txt": "spreadsheet",
        "deck.tsv": "spreadsheet",
        "mixed.txt": "markdown",  # 2 of 3 lines split: below 90%
        "note.txt": "markdown",
        "one.txt": "markdown",  # one line is no deck
        "pipes.txt": "spreadsheet",
        "semi.txt": "spreadsheet",
        "tabs.txt": "spreadsheet",
    }


def test_deck_separator() -> None:
    from notechunk.discover import deck_separator

    assert deck_separator("a\tb|c\nd\te|f\n") == "\t"  # tab first on a tie
    assert deck_separator("#separator:semicolon\nx") == ";"
    assert deck_separator("#separator:@\nx@y") == "@"
    assert deck_separator("Dear diary.\nToday it rained.\n") is None
    assert deck_separator("|a\n|b\n") is None  # an empty front is no card


def test_symlink_loop_and_outside_link(tmp_path: Path) -> None:
    (tmp_path / "src" / "d").mkdir(parents=True)
    (tmp_path / "src" / "d" / "n.md").write_text("x")
    (tmp_path / "outside.md").write_text("x")
    os.symlink(tmp_path / "src", tmp_path / "src" / "d" / "loop")
    os.symlink(tmp_path / "outside.md", tmp_path / "src" / "out.md")
    os.symlink(tmp_path / "nowhere", tmp_path / "src" / "dangling.md")
    found = discover(tmp_path / "src")
    assert [f.rel for f in found.files] == ["d/n.md"]
    reasons = {e.source: e.reason for e in found.errors}
    assert "outside" in reasons["out.md"]
    assert "dangling.md" in reasons


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_unreadable_folder_is_reported(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        found = discover(tmp_path)
        assert [e.source for e in found.errors] == ["locked"]
    finally:
        locked.chmod(0o755)


def test_single_file(tmp_path: Path) -> None:
    p = tmp_path / "one.md"
    p.write_text("x")
    assert [f.rel for f in discover(p).files] == ["one.md"]


VAULTS = {
    "dendron-root-md": (["root.md", "econ.md", "econ.micro.md"], True),
    "most-notes-deeply-dotted": (["a.b.c.md", "a.b.d.md", "a.e.f.md", "index.md"], True),
    "a-lone-versioned-name": (["v1.2 notes.md"], False),
    "few-dotted-among-many": (["v1.2 notes.md", "a.md", "b.md", "c.d.e.md"], False),
    "dotted-sheets-do-not-count": (["x.y.z.csv", "p.q.r.csv", "s.t.u.csv"], False),
}


@pytest.mark.parametrize(("names", "expected"), VAULTS.values(), ids=VAULTS.keys())
def test_hierarchy_vault(names: list[str], expected: bool) -> None:
    from notechunk.discover import hierarchy_vault

    assert hierarchy_vault(names) is expected


def test_dendron_yml_makes_the_folders_below_it_vaults(tmp_path: Path) -> None:
    from notechunk.discover import hierarchy_of

    for rel in [
        "ws/dendron.yml",
        "ws/notes/econ.micro.md",
        "ws/notes/econ.md",
        "other/v1.2 notes.md",
        "other/b.md",
    ]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    found = {f.rel: f.hierarchy for f in discover(tmp_path).files}
    assert found == {
        "other/b.md": False,
        "other/v1.2 notes.md": False,
        "ws/notes/econ.md": True,
        "ws/notes/econ.micro.md": True,
    }
    for rel, hierarchy in found.items():  # one file looked at apart says the same
        assert hierarchy_of(tmp_path / rel, rel) is hierarchy
