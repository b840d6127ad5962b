from __future__ import annotations

import notechunk


def test_all_is_sorted_and_complete() -> None:
    names = notechunk.__all__
    assert names == sorted(names)
    for name in names:
        assert hasattr(notechunk, name), name
    public = {n for n in vars(notechunk) if not n.startswith("_") and n[0].isupper()}
    assert public <= set(names)
