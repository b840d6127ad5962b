"""Sentence segmentation: the `Segmenter` protocol and its backends, chosen by name.

default        rules.RuleSegmenter: fast rules for notes (abbreviations, lists, bullets)
fast           fast.FastSegmenter: one regex, less accurate
pysbd          pysbd_backend.PysbdSegmenter: pySBD (optional extra), slow reference
spacy:<name>   spacy_backend.SpacySegmenter: an installed spaCy pipeline;
               spacy:blank_en is a blank English pipeline with the sentencizer
"""

from __future__ import annotations

from collections.abc import Callable

from notechunk.errors import ConfigError
from notechunk.segment.base import Segmenter, Span, split
from notechunk.segment.fast import FastSegmenter
from notechunk.segment.pysbd_backend import PysbdSegmenter
from notechunk.segment.rules import RuleSegmenter
from notechunk.segment.spacy_backend import SpacySegmenter

__all__ = ["Segmenter", "Span", "available_segmenters", "get_segmenter", "split"]

_SPACY_PREFIX = "spacy:"
_REGISTRY: dict[str, Callable[[], Segmenter]] = {
    "default": RuleSegmenter,
    "fast": FastSegmenter,
    "pysbd": PysbdSegmenter,
}


def available_segmenters() -> list[str]:
    """The names `get_segmenter` accepts; `spacy:<model>` stands for any spaCy pipeline."""
    return [*_REGISTRY, f"{_SPACY_PREFIX}<model>"]


def get_segmenter(name: str) -> Segmenter:
    """The backend called `name`; ConfigError when there is none.

    Optional dependencies (spaCy, pySBD) are imported on first use, not here.
    """
    factory = _REGISTRY.get(name)
    if factory is not None:
        return factory()
    if name.startswith(_SPACY_PREFIX):
        return SpacySegmenter(name[len(_SPACY_PREFIX) :])
    raise ConfigError(
        f"unknown segmenter {name!r} (choose from default, fast, pysbd, spacy:<model>)"
    )
