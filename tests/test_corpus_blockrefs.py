"""The block-reference pass (corpus/blockrefs.py): the corpus' Logseq block index, each
file given the blocks it refers to, and a file's cache key following those blocks."""

from __future__ import annotations

from pathlib import Path

from notechunk.config import Config
from notechunk.corpus.blockrefs import link_block_refs
from notechunk.discover import discover
from notechunk.perfile import read_input

U1 = "5f1e2d3c-4b5a-4968-8776-aabbccddeeff"
U2 = "5f1e2d3c-4b5a-4968-8776-000000000000"


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_each_file_gets_the_blocks_it_refers_to(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pages/a.md": f"- Block A\n  id:: {U1}\n",
            "pages/b.md": f"- uses (({U1})) and (({U2}))\n",
            "pages/c.md": "- no refs at all\n",
            "facts.csv": "a,b\n1,2\n",
        },
    )
    found = link_block_refs(discover(tmp_path), 1 << 20)
    assert {f.rel: f.refs for f in found.files} == {
        "facts.csv": (),
        "pages/a.md": (),
        "pages/b.md": ((U1, "Block A"),),  # U2 is nowhere: the reader removes and flags it
        "pages/c.md": (),
    }


def test_the_first_definition_in_discovery_order_wins(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "a.md": f"- first\n  id:: {U1}\n",
            "b.md": f"- second\n  id:: {U1}\n",
            "c.md": f"- (({U1}))\n",
        },
    )
    found = link_block_refs(discover(tmp_path), 1 << 20)
    assert found.files[2].refs == ((U1, "first"),)


def test_a_file_too_large_here_is_left_to_its_own_read(tmp_path: Path) -> None:
    _write(tmp_path, {"a.md": f"- big block\n  id:: {U1}\n", "b.md": f"- (({U1}))\n"})
    found = link_block_refs(discover(tmp_path), 8)
    assert [f.refs for f in found.files] == [(), ()]


def test_cache_key_follows_the_referenced_block(tmp_path: Path) -> None:
    _write(tmp_path, {"a.md": f"- Old text\n  id:: {U1}\n", "b.md": f"- see (({U1}))\n"})
    cfg = Config()

    def key_of_b() -> str:
        found = link_block_refs(discover(tmp_path), 1 << 20)
        return read_input(found.files[1], cfg, "cfg")[1]

    before = key_of_b()
    assert key_of_b() == before
    (tmp_path / "a.md").write_text(f"- New text\n  id:: {U1}\n", encoding="utf-8")
    assert key_of_b() != before
