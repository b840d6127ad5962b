"""The spaCy backend for antecedents, `references_backend = "spacy:<pipeline>"`.

Names are the rule backend's plus the pipeline's entities: PERSON entities are people
(a one-word "Ashoka" the rules cannot tell from a place), LAW, ORG, EVENT, FAC, GPE,
NORP, PRODUCT and WORK_OF_ART entities are named things with their last word as head.
`spacy:blank_en` is `spacy.blank("en")` (no entities: the rules alone; the tests use it
and add an entity ruler). spaCy is imported on first use, never at import time.
"""

from __future__ import annotations

from typing import Any

from notechunk.enrich.names import Name, RuleNames, head_key
from notechunk.errors import ConfigError

BLANK = "blank_en"
NAMED_LABELS = frozenset(
    {"LAW", "ORG", "EVENT", "FAC", "GPE", "NORP", "PRODUCT", "WORK_OF_ART", "LOC"}
)


def load_pipeline(pipeline: str) -> Any:
    """The spaCy pipeline called `pipeline` (ConfigError when spaCy or it is missing)."""
    try:
        import spacy
    except ImportError:
        raise ConfigError(
            f"references backend 'spacy:{pipeline}' needs spaCy: pip install 'notechunk[spacy]'"
        ) from None
    if pipeline == BLANK:
        return spacy.blank("en")
    try:
        return spacy.load(pipeline, exclude=["lemmatizer", "textcat"])
    except OSError:
        raise ConfigError(
            f"spaCy pipeline '{pipeline}' is not installed: python -m spacy download {pipeline}"
        ) from None


class SpacyNames:
    """Rule names plus a spaCy pipeline's entities; the pipeline loads on first use
    (or is given, e.g. a blank pipeline with an entity ruler)."""

    def __init__(self, pipeline: str, nlp: Any = None) -> None:
        if not pipeline:
            raise ConfigError("references backend 'spacy:' needs a pipeline name")
        self.pipeline = pipeline
        self.name = f"spacy:{pipeline}"
        self._nlp: Any = nlp
        self._rules = RuleNames()

    def load(self) -> None:
        if self._nlp is None:
            self._nlp = load_pipeline(self.pipeline)

    def names(self, text: str) -> list[Name]:
        self.load()
        if self._nlp.max_length < len(text):
            self._nlp.max_length = len(text) + 1
        out = self._rules.names(text)
        seen = {(n.start, n.person) for n in out}
        for ent in self._nlp(text).ents:
            person = ent.label_ == "PERSON"
            if not person and ent.label_ not in NAMED_LABELS:
                continue
            if (ent.start_char, person) in seen:
                continue
            words = ent.text.split()
            head = "" if person else head_key(words[-1])
            out.append(Name(text=" ".join(words), start=ent.start_char, head=head, person=person))
        return sorted(out, key=lambda n: n.start)
