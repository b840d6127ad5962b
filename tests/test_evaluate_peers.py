"""Peer strategies: LangChain with its header metadata prepended, lazily imported peers."""

from __future__ import annotations

from pathlib import Path

import pytest

from notechunk.evaluate.documents import Document
from notechunk.evaluate.peers import installed, peer_strategies
from notechunk.evaluate.strategies import Inputs

DOCS = (
    Document(
        source="a.md", text="# Rivers\n\nIntro.\n\n## Ganga\n\nThe Ganga rises at Gangotri.\n"
    ),
    Document(source="s.csv#s:2", text="Pass: Zoji La\nState: Ladakh", kind="row"),
)


@pytest.mark.skipif(not installed("langchain_text_splitters"), reason="LangChain not installed")
def test_langchain_headers_prepend_the_metadata() -> None:
    from notechunk.evaluate.peers import langchain_headers

    units = langchain_headers(1000, 200).make(Inputs(src=Path("."), documents=DOCS)).units
    assert [(u.text, u.index_text) for u in units] == [
        ("Intro.", "Rivers\nIntro."),
        ("The Ganga rises at Gangotri.", "Rivers > Ganga\nThe Ganga rises at Gangotri."),
        ("Pass: Zoji La\nState: Ladakh", "Pass: Zoji La\nState: Ladakh"),
    ]


def test_peer_rows_or_notes() -> None:
    strategies, notes = peer_strategies(300)
    names = [s.name for s in strategies]
    if installed("langchain_text_splitters"):
        assert "langchain-headers 1000/200" in names
    else:
        assert any("LangChain" in n for n in notes)
    if installed("chonkie"):
        assert "chonkie-recursive 300" in names and "chonkie-sentence 512/102" in names
    else:
        assert any("Chonkie" in n for n in notes)
    assert all(s.uses_documents for s in strategies)
