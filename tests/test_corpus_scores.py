"""corpus.scores: self-retrieval scores: bounds, determinism, agreement with bm25s."""

from __future__ import annotations

import random
from dataclasses import replace

import bm25s
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunks import make_chunk
from notechunk.chunk import Chunk, Piece, Pieces
from notechunk.config import Config
from notechunk.corpus.dedupe import dedupe
from notechunk.corpus.scores import bm25index, retrieval_scores
from notechunk.corpus.scores import retrievability as r
from notechunk.corpus.scores.queries import Queries
from notechunk.corpus.scores.termblock import doc_range, hash_terms, term_block
from notechunk.finish import finish_file
from passes import score

CFG = Config()


def md(text: str, i: int, path: tuple[str, ...] = ("Notes",)) -> Chunk:
    """A finished chunk; every file is titled "polity", so the same text twice under the same
    path is the same fact in the same context."""
    piece = Piece(text=text, section_path=path, lines=(i, i))
    doc = Pieces(source=f"f{i}/polity.md", source_type="markdown", pieces=(piece,))
    chunks = finish_file(doc, CFG)
    return chunks[0] if chunks else make_chunk(text="", source=doc.source, source_type="markdown")


def test_empty_and_tokenless() -> None:
    assert retrieval_scores([]) == []
    bare = [make_chunk(text=t, source="x.md", source_type="markdown") for t in ("a . !", "- ?")]
    assert retrieval_scores(bare) == [0.0, 0.0]
    # with its context, a chunk of no words of its own is still found by its title
    assert retrieval_scores([md("a . !", 0), md("- ?", 1)]) == [0.5, 0.5]


def test_unique_beats_near_duplicates() -> None:
    unique = "The Zoji La pass in Ladakh links Srinagar with Leh at an altitude of 3528 metres."
    near = (
        "The Rohtang pass in Himachal links Manali with Keylong over the Pir Panjal "
        "range; snow closes it for {} months of the year."
    )
    # the variants differ only by stop words: the same terms, so they tie with each other
    variants = ("a", "an", "the", "these", "such", "their")
    chunks = [md(unique, 0)] + [md(near.format(w), k + 1) for k, w in enumerate(variants)]
    filler = [
        "Monsoon winds bring rain to Kerala in June.",
        "The Ganga rises at Gangotri glacier in Uttarakhand.",
        "Deccan plateau is made of basalt from old lava flows.",
    ]
    chunks += [md(t, 20 + k) for k, t in enumerate(filler)]
    scores = retrieval_scores(chunks)
    assert scores[0] == 1.0
    assert all(scores[0] > s for s in scores[1:7])
    assert all(0.0 <= s < 0.6 for s in scores[1:7])


def test_exact_duplicate_inherits_original_score() -> None:
    text = "Article 21 protects life and personal liberty of every person in India."
    chunks = dedupe(
        [
            md(text, 0),
            md("Article 19 grants six freedoms to citizens, including speech and assembly.", 1),
            md(text, 2),
        ],
        CFG.dedupe,
    )
    assert chunks[2].duplicate_of == chunks[0].id
    scores = retrieval_scores(chunks)
    assert scores[2] == scores[0] == 1.0  # the copy is not in the index


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_rank_matches_bm25s_scores(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rank equals 1 + documents bm25s scores at least as high, for any query; terms
    of one chunk (each text's own `u` word), which the index's vocabulary leaves out, are
    weighed as df 1."""
    monkeypatch.setattr(bm25index, "MAX_DF_SHARE", 1.0)  # every term usable: the whole index
    rng = random.Random(seed)
    vocab = [f"t{k}" for k in range(60)]
    texts = [" ".join(rng.choices(vocab, k=rng.randint(3, 25))) + f" u{k}" for k in range(80)]
    chunks = [make_chunk(text=t, source="x.md", source_type="markdown") for t in texts]
    block = term_block(chunks)
    stats = bm25index.CorpusStats.of_block(block).without_singles()
    index = bm25index.build_index([block], stats)
    loc = bm25index.localise(block, stats)
    assert loc.n_terms >= len(stats.terms) + 80
    tids = loc.doc_tid
    doc_tokens = [tids[block.doc_of == d].tolist() for d in range(len(texts))]
    model = bm25s.BM25()
    model.index(
        (doc_tokens, {str(k): k for k in range(loc.n_terms)}),
        create_empty_token=False,
        show_progress=False,
    )
    q_doc = [rng.randrange(80) for _ in range(200)]
    q_terms = [sorted(set(rng.sample(doc_tokens[d], k=min(3, len(doc_tokens[d]))))) for d in q_doc]
    queries = Queries(
        doc=np.asarray(q_doc, dtype=np.int64),
        size=np.asarray([len(t) for t in q_terms], dtype=np.int64),
        pair_q=np.repeat(np.arange(200), [len(t) for t in q_terms]).astype(np.int64),
        pair_tid=np.asarray([t for ts in q_terms for t in ts], dtype=np.int64),
    )
    ranks = r.rank_queries(index, loc, bm25index.term_view(index, loc), queries, 0)
    for d, terms, rank in zip(q_doc, q_terms, ranks, strict=True):
        s = model.get_scores(terms).astype(np.float64)
        # bm25s sums in float32; compare with a tolerance that never flips a strict winner
        own = s[d]
        higher = int(np.sum(s > own + 1e-4))
        close = int(np.sum(np.abs(s - own) <= 1e-4)) - 1
        assert higher + 1 <= rank <= higher + close + 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 60))
def test_a_weight_is_found_by_keys_or_by_term_runs_alike(seed: int, n_docs: int) -> None:
    """`weights_at` by the small index's keys and by binary search in each term's run
    (a large index has no keys) give every (term, doc) pair its posting's weight, 0 for a
    pair the index does not hold, on lookups in any order with repeats."""
    rng = random.Random(seed)
    vocab = [f"w{k}" for k in range(rng.randint(2, 40))]
    texts = [" ".join(rng.choices(vocab, k=rng.randint(1, 12))) for _ in range(n_docs)]
    block = term_block([make_chunk(text=t, source="x.md", source_type="markdown") for t in texts])
    index = bm25index.build_index([block], bm25index.CorpusStats.of_block(block))
    assert index.keys is not None  # small: keyed
    held = {
        (t, int(d)): float(w)
        for t in range(len(index.indptr) - 1)
        for d, w in zip(
            index.docs[index.indptr[t] : index.indptr[t + 1]],
            index.weights[index.indptr[t] : index.indptr[t + 1]],
            strict=True,
        )
    }
    v = max(len(index.indptr) - 1, 1)
    pairs = [(rng.randrange(v), rng.randrange(n_docs)) for _ in range(200)]
    pairs += rng.sample(sorted(held), k=min(len(held), 50)) * 2
    rng.shuffle(pairs)
    tid = np.asarray([t for t, _ in pairs], dtype=np.int64)
    doc = np.asarray([d for _, d in pairs], dtype=np.int64)
    expected = [held.get(pair, 0.0) for pair in pairs]
    assert bm25index.weights_at(index, tid, doc).tolist() == expected
    assert bm25index.weights_at(replace(index, keys=None), tid, doc).tolist() == expected


def test_an_index_without_keys_gives_the_same_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bm25index, "MAX_DF_SHARE", 1.0)  # every term usable: postings to find
    chunks = [md(f"alpha beta gamma{k % 7} delta{k % 11} epsilon{k}", k) for k in range(120)]
    block = term_block(chunks)
    keyed = bm25index.build_index([block], bm25index.CorpusStats.of_block(block))
    assert keyed.keys is not None and len(keyed.keys) > 500
    whole = retrieval_scores(chunks)
    monkeypatch.setattr(bm25index, "KEYED_POSTINGS", 500)
    assert bm25index.build_index([block], bm25index.CorpusStats.of_block(block)).keys is None
    assert retrieval_scores(chunks) == whole


def test_a_vocabulary_without_single_terms_scores_alike() -> None:
    """The index over the terms of 2+ chunks (`without_singles`: each chunk's own id and
    number left out) ranks every block's queries as the whole vocabulary does, bit for bit,
    and its arrays are that much shorter."""
    chunks = [md(f"alpha beta gamma{k % 7} delta{k % 11} epsilon{k} row {k}", k) for k in range(90)]
    block = term_block(chunks)
    whole = bm25index.CorpusStats.of_block(block)
    shared = whole.without_singles()
    assert len(shared.terms) < len(whole.terms) - 80 and (shared.df >= 2).all()
    full_index = bm25index.build_index([block], whole)
    small_index = bm25index.build_index([block], shared)
    assert len(small_index.idf) == len(shared.terms)
    for lo, hi in ((0, 90), (0, 30), (30, 90)):
        part = doc_range(block, lo, hi)
        expected = r.score_block(part, full_index, lo)
        assert np.array_equal(r.score_block(part, small_index, lo), expected)
    assert r.score_block(block, small_index, 0).max() > 0


def test_blocks_and_batches_give_the_same_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = [md(f"alpha beta gamma{k % 7} delta{k % 11} epsilon{k}", k) for k in range(120)]
    whole = retrieval_scores(chunks)
    assert retrieval_scores(chunks, block_size=7) == whole
    monkeypatch.setattr(r, "_BATCH_LOOKUPS", 50)
    assert retrieval_scores(chunks) == whole


def test_stats_merge_in_any_order() -> None:
    chunks = [md(f"alpha beta gamma{k % 7} delta{k % 11} epsilon{k}", k) for k in range(60)]
    parts = [bm25index.CorpusStats.of_block(term_block(chunks[k : k + 9])) for k in range(0, 60, 9)]
    whole = bm25index.CorpusStats.of_block(term_block(chunks))
    for merged in (bm25index.merge_stats(parts), bm25index.merge_stats(reversed(parts))):
        assert merged.n_docs == whole.n_docs and merged.total_len == whole.total_len
        assert np.array_equal(merged.terms, whole.terms) and np.array_equal(merged.df, whole.df)


def test_stats_merge_by_hash_range_equals_the_whole() -> None:
    """Terms at and around every range boundary, in blocks given in any order: the merge
    equals one count over everything, and without singles drops exactly df-1 terms."""
    rng = np.random.default_rng(7)
    edges = np.arange(1 << bm25index.RANGE_BITS, dtype=np.uint64) << np.uint64(
        64 - bm25index.RANGE_BITS
    )
    pool = np.unique(
        np.concatenate([edges, edges - np.uint64(1), rng.integers(0, 2**63, 500, dtype=np.uint64)])
    )
    parts = []
    for _ in range(9):
        terms = np.unique(rng.choice(pool, 120))
        parts.append(bm25index.CorpusStats(3, 40, terms, rng.integers(1, 3, len(terms))))
    all_terms = np.concatenate([p.terms for p in parts])
    all_df = np.concatenate([p.df for p in parts])
    terms = np.unique(all_terms)
    df = np.array([all_df[all_terms == t].sum() for t in terms])
    for merged in (bm25index.merge_stats(parts), bm25index.merge_stats(reversed(parts))):
        assert merged.n_docs == 27 and merged.total_len == 360
        assert np.array_equal(merged.terms, terms) and np.array_equal(merged.df, df)
    shared = bm25index.merge_stats(iter(parts), singles=False)
    assert np.array_equal(shared.terms, terms[df >= 2]) and np.array_equal(shared.df, df[df >= 2])
    assert len(bm25index.merge_stats([]).terms) == 0


def test_blocks_of_nothing() -> None:
    block = term_block([])
    assert block.n_docs == 0 and len(block.q_terms) == len(block.doc_terms) == 0
    bare = term_block([make_chunk(text="- ?", source="x.md", source_type="markdown")])
    assert bare.n_docs == 1 and len(bare.q_terms) == 0


def test_term_hashes_are_stable() -> None:
    a = hash_terms(["zoji", "la", "zoji", "x" * 300, "été"])
    assert a[0] == a[2] and len(set(a.tolist())) == 4
    assert hash_terms(["été", "zoji"]).tolist() == [a[4], a[0]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abcdefg .\n", min_size=0, max_size=60), max_size=25))
def test_scores_in_bounds_and_deterministic(texts: list[str]) -> None:
    chunks = dedupe([md(t, k) for k, t in enumerate(texts)], CFG.dedupe)
    first = retrieval_scores(chunks)
    assert len(first) == len(chunks)
    assert all(0.0 <= s <= 1.0 for s in first)
    assert retrieval_scores(chunks) == first


def test_score_retrievability_sets_field() -> None:
    chunks = score([md("Lok Sabha has 543 elected seats.", 0)])
    assert chunks[0].retrieval_score == 1.0
    assert replace(chunks[0], retrieval_score=None) == md("Lok Sabha has 543 elected seats.", 0)


def test_a_block_made_in_slices_is_the_block_made_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from notechunk.corpus.scores import termblock

    chunks = [md(f"alpha beta. Gamma{k % 7}; delta{k % 11}\nepsilon{k}", k) for k in range(50)]
    chunks[3] = replace(chunks[3], embed_text="something else entirely")  # indexed apart
    whole = term_block(chunks)
    monkeypatch.setattr(termblock, "_SLICE", 8)
    sliced = term_block(chunks)
    assert sliced.n_docs == whole.n_docs == 50
    for name in ("doc_terms", "doc_of", "q_terms", "q_doc", "q_seg"):
        assert np.array_equal(getattr(sliced, name), getattr(whole, name)), name


@given(st.lists(st.booleans(), min_size=1, max_size=12), st.integers(0, 5))
@settings(max_examples=60, deadline=None)
def test_a_block_patched_where_embed_text_changed_is_the_block_made_again(
    changes: list[bool], extra: int
) -> None:
    """The glossary pass rewrites some chunks' embed_text: `reindexed` patches their
    indexed documents and equals the block made from scratch."""
    from notechunk.corpus.scores.termblock import reindexed

    chunks = [md(f"alpha beta. Gamma{k % 3}; RBI rate{k}\nline{k}", k) for k in range(len(changes))]
    if extra < len(chunks):  # one chunk already indexed apart before the pass
        chunks[extra] = replace(chunks[extra], embed_text=f"before zq{extra} {chunks[extra].text}")
    old = term_block(chunks)
    new = [
        replace(c, embed_text=f"{c.embed_text} RBI (Reserve Bank of India) zq{k}") if flip else c
        for k, (c, flip) in enumerate(zip(chunks, changes, strict=True))
    ]
    patched = reindexed(old, new, [k for k, flip in enumerate(changes) if flip])
    whole = term_block(new)
    for name in ("n_docs", "doc_terms", "doc_of", "q_terms", "q_doc", "q_seg"):
        assert np.array_equal(getattr(patched, name), getattr(whole, name)), name


def test_score_sets_every_score() -> None:
    out = score([md("Lok Sabha has 543 elected seats.", 0)])
    assert out[0].retrieval_score == 1.0
