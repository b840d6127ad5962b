"""corpus.spill: the local engine's store gives what the in-memory passes give, in output
order, whatever the records; the glossary pass expands a file with its whole definitions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from chunks import make_chunk
from notechunk.chunk import Chunk, FileError, FileResult, Piece, Pieces
from notechunk.config import Config
from notechunk.corpus import spill as spilled
from notechunk.corpus.dedupe import dedupe
from notechunk.corpus.inputs import file_inputs
from notechunk.corpus.scores import retrieval_scores
from notechunk.corpus.spill import Batch, pack, spill, store
from notechunk.finish import finish_file
from passes import gather

CFG = Config()


def stored(
    results: list[FileResult], folder: Path, cfg: Config = CFG, split: int = 1, inputs: bool = False
) -> list[Batch]:
    """The results packed and stored in `split` contiguous batches, as pool workers do."""
    step = -(-len(results) // split)
    return [
        store(
            (pack(r, file_inputs(r) if inputs else None, cfg) for r in results[lo : lo + step]),
            folder / "batches" / f"{lo:06d}",
        )
        for lo in range(0, len(results), step)
    ]


def chunk(text: str, source: str, path: tuple[str, ...], line: int = 1) -> Chunk:
    piece = Piece(text=text, section_path=path, lines=(line, line))
    (c,) = finish_file(Pieces(source=source, source_type="markdown", pieces=(piece,)), CFG)
    return c


def test_the_spill_puts_markdown_first_and_sorts_errors(tmp_path: Path) -> None:
    row = make_chunk(text="r", source="a.csv", source_type="spreadsheet", row=2)
    md = chunk("m", "b.md", ())
    results = [
        FileResult(source="a.csv", chunks=(row,)),
        FileResult(
            source="b.md", chunks=(md,), errors=(FileError(source="b.md", stage="x", reason="y"),)
        ),
    ]
    errors = [FileError(source="a.md", stage="discover", reason="z")]
    sc = spill(stored(results, tmp_path), tmp_path, CFG, errors)
    assert list(sc.chunks()) == [md, row]
    assert (sc.n_markdown, sc.n_sheets) == (1, 1)
    assert [e.source for e in sc.errors] == ["a.md", "b.md"]
    assert gather(results, errors).chunks == (md, row)  # the tests' in-memory twin agrees


@pytest.mark.parametrize("record", [8_192, 3, 1])
@pytest.mark.parametrize(("made_by_worker", "split"), [(False, 1), (True, 1), (True, 3)])
def test_the_spilled_passes_equal_the_in_memory_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: int, made_by_worker: bool, split: int
) -> None:
    """spill -> dedupe on key hashes -> scores over spilled blocks == gather, dedupe, score,
    whether a file is one spill record or cut into records of `record` chunks, and
    whether the files were stored in one batch or in several (each batch's Markdown and
    sheets apart, output order all the Markdown first)."""
    monkeypatch.setattr(spilled, "RECORD", record)
    texts = ["Doxycycline", "Article 21 protects life.", "Doxycycline", "Monsoon rain in June."]
    results = [
        FileResult(
            source=f"f{k}.md",
            chunks=tuple(chunk(t, f"f{k}.md", ("Treatment",), i) for i, t in enumerate(texts)),
        )
        for k in range(3)
    ]
    rows = tuple(Piece(text="Pass: Zoji La; State: Ladakh", sheet="p", row=k) for k in (2, 3, 4))
    sheet = finish_file(Pieces(source="p.csv", source_type="spreadsheet", pieces=rows), CFG)
    results.insert(1, FileResult(source="p.csv", chunks=sheet))
    memory = dedupe(gather(results).chunks, CFG.dedupe)
    sc = spill(stored(results, tmp_path, split=split, inputs=made_by_worker), tmp_path, CFG)
    assert list(sc.chunks()) == memory
    surviving = int(np.count_nonzero(~sc.omitted & (sc.original < 0)))
    assert surviving == sum(1 for c in memory if not c.omit)
    for size in (2, 5, 1000):
        got = [round(float(s), 4) for s in sc.scores(block_size=size)]
        assert got == retrieval_scores(memory)


@pytest.mark.parametrize(("parts", "split"), [(1, 1), (3, 1), (3, 2)])
@pytest.mark.parametrize("record", [8_192, 1])
def test_acronyms_expand_per_file_whatever_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: int, parts: int, split: int
) -> None:
    """With enrich.acronyms, a file's later chunks get the file's own definition even when
    the file is cut into several spill records (and the corpus would say otherwise), and
    whatever the segments the glossary pass is cut into and the batches the files were
    stored in (who.md in one, news.md in another); the defining chunk is left
    alone; other files get the corpus's expansion."""
    monkeypatch.setattr(spilled, "RECORD", record)
    cfg = replace(CFG, enrich=replace(CFG.enrich, acronyms=True))
    who = FileResult(
        source="who.md",
        chunks=(
            chunk("The World Health Organization (WHO) was set up in 1948.", "who.md", ("A",), 1),
            chunk("The WHO is based in Geneva and has six regional offices.", "who.md", ("B",), 3),
        ),
    )
    weekly = [
        FileResult(
            source=f"w{k}.md",
            chunks=(chunk("The Weekly Health Outlook (WHO) is out.", f"w{k}.md", ("W",), 1),),
        )
        for k in (1, 2)
    ]
    other = FileResult(
        source="news.md",
        chunks=(chunk("In 2020 the WHO declared a pandemic.", "news.md", ("C",), 1),),
    )
    given = stored([who, *weekly, other], tmp_path, cfg, split)
    sc = spill(given, tmp_path, cfg, parts=parts)
    # 4 or 5 records: a segment each part, the parts shared among the stored batches
    assert len(sc.results) == (parts if split == 1 else split * -(-parts // split))
    got = {c.text[:12]: c.acronyms for c in sc.chunks() if c.source in ("who.md", "news.md")}
    assert got == {
        "The World He": (),
        "The WHO is b": (("WHO", "World Health Organization"),),
        "In 2020 the ": (("WHO", "Weekly Health Outlook"),),
    }
    assert sc.glossary is not None and [e.acronym for e in sc.glossary.entries] == ["WHO"]


def test_the_glossary_pass_on_a_pool_equals_it_here(tmp_path: Path) -> None:
    """Segments of the glossary pass run by pool workers (`engines.local.expand_pooled`)
    give the chunks, duplicates and scores of one pass in this process."""
    from notechunk.engines.local import expand_pooled, worker_pool

    cfg = replace(CFG, enrich=replace(CFG.enrich, acronyms=True))
    texts = [
        "The Monetary Policy Committee (MPC) sets the repo rate.",
        "The MPC met in June.",
        "Inflation is above the MPC target.",
        "The MPC met in June.",
    ]
    results = [
        FileResult(
            source=f"f{k}.md",
            chunks=tuple(chunk(t, f"f{k}.md", ("Money",), i) for i, t in enumerate(texts)),
        )
        for k in range(5)
    ]
    here = spill(stored(results, tmp_path / "here", cfg), tmp_path / "here", cfg)
    with worker_pool(2) as pool:
        pooled = spill(
            stored(results, tmp_path / "pool", cfg),
            tmp_path / "pool",
            cfg,
            expand=expand_pooled(pool),
            parts=4,
        )
    assert len(pooled.results) == 4 and len(here.results) == 1
    assert list(pooled.chunks()) == list(here.chunks())
    assert any(c.acronyms for c in here.chunks())
    assert pooled.original.tolist() == here.original.tolist()
    assert pooled.scores().tolist() == here.scores().tolist()
