"""The `pysbd` backend: pySBD's rule-based English segmenter, as a reference.

Accurate on the Golden Rules but about 50x slower than "default". pySBD is an optional
dependency (`pip install 'notechunk[peers]'`), imported on first use.
"""

from __future__ import annotations

from typing import Any

from notechunk.errors import ConfigError
from notechunk.segment.base import Span, spans_from_cuts


class PysbdSegmenter:
    """pySBD with `char_span=True`; its sentence ends become cuts."""

    name = "pysbd"

    def __init__(self) -> None:
        self._seg: Any = None

    def spans(self, text: str) -> list[Span]:
        """Sentence spans of `text` from pySBD."""
        if self._seg is None:
            try:
                import pysbd
            except ImportError:
                raise ConfigError(
                    "segmenter 'pysbd' needs pySBD: pip install 'notechunk[peers]'"
                ) from None
            self._seg = pysbd.Segmenter(language="en", clean=False, char_span=True)
        # pySBD's offsets can overlap or skip text; only its sentence ends are used, as
        # cuts, so the spans stay disjoint and cover every character.
        cuts: list[int] = []
        for piece in self._seg.segment(text):
            if not cuts or piece.end > cuts[-1]:
                cuts.append(piece.end)
        return spans_from_cuts(text, cuts)
