"""The spaCy backend, `spacy:<pipeline>`: any installed pipeline's `senter` or parser.

`spacy:blank_en` is `spacy.blank("en")` with the rule-based `sentencizer` (no download
needed; the tests use it). spaCy is imported when the first text is split, never at import
time. spaCy's sentence offsets are trimmed to keep the `notechunk.segment.base` invariants.
"""

from __future__ import annotations

from typing import Any

from notechunk.errors import ConfigError
from notechunk.segment.base import Span, trim_span

BLANK = "blank_en"


def _load(pipeline: str) -> Any:
    try:
        import spacy
    except ImportError:
        raise ConfigError(
            f"segmenter 'spacy:{pipeline}' needs spaCy: pip install 'notechunk[spacy]'"
        ) from None
    if pipeline == BLANK:
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        return nlp
    try:
        nlp = spacy.load(pipeline, exclude=["ner", "lemmatizer", "textcat"])
    except OSError:
        raise ConfigError(
            f"spaCy pipeline '{pipeline}' is not installed: python -m spacy download {pipeline}"
        ) from None
    # Trained pipelines ship the senter disabled and let the parser set boundaries; use
    # the senter only when there is no parser.
    if "parser" not in nlp.pipe_names and "senter" in nlp.component_names:
        nlp.enable_pipe("senter")
    if not {"parser", "senter", "sentencizer"} & set(nlp.pipe_names):
        raise ConfigError(f"spaCy pipeline '{pipeline}' has no senter, parser or sentencizer")
    return nlp


class SpacySegmenter:
    """Sentences from `doc.sents` of an installed spaCy pipeline, loaded on first use."""

    def __init__(self, pipeline: str) -> None:
        if not pipeline:
            raise ConfigError("segmenter 'spacy:' needs a pipeline name, e.g. spacy:en_core_web_sm")
        self.pipeline = pipeline
        self.name = f"spacy:{pipeline}"
        self._nlp: Any = None

    def load(self) -> None:
        """Load the pipeline now (raises ConfigError when spaCy or the model is missing)."""
        if self._nlp is None:
            self._nlp = _load(self.pipeline)

    def spans(self, text: str) -> list[Span]:
        """Sentence spans of `text`, from spaCy's sentence boundaries."""
        self.load()
        if self._nlp.max_length < len(text):
            self._nlp.max_length = len(text) + 1
        out: list[Span] = []
        for sent in self._nlp(text).sents:
            span = trim_span(text, sent.start_char, sent.end_char)
            if span is not None:
                out.append(span)
        return out
