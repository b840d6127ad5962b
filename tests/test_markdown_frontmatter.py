from __future__ import annotations

from notechunk.markdown.frontmatter import read_front_matter, split_front_matter


def test_flat_pairs_lists_and_blanked_lines() -> None:
    text = (
        '---\ntitle: "Βαθμός προστασίας"\nsource: "https://x"\nauthor:\ntags:\n  - "clippings"\n'
        '  - web\naliases: [IP code, "IP"]\nnested:\n  key: value\n---\nBody\n'
    )
    fm, body = read_front_matter(text)
    assert fm.title == "Βαθμός προστασίας"
    assert fm.tags == ("clippings", "web")
    assert fm.metadata["aliases"] == "IP code, IP"
    assert fm.metadata["source"] == "https://x"
    assert body.split("\n")[11] == "Body" and fm.lines == 11
    assert not body[: body.index("Body")].strip()


def test_tag_forms() -> None:
    for line in ("tags: [a, b]", "tags: a, b", "tags: a b", "tag: '#a #b'"):
        fm, _ = read_front_matter(f"---\n{line}\n---\n")
        assert fm.tags == ("a", "b"), line


def test_not_front_matter() -> None:
    assert split_front_matter("--- not front matter\n") == ({}, "--- not front matter\n")
    assert split_front_matter("---\nno end\n") == ({}, "---\nno end\n")
    assert split_front_matter("---\na: 1\n---\ntext\n") == ({"a": "1"}, "\n\n\ntext\n")
