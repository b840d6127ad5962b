"""Enrichment: passes that make a chunk stand alone in its `embed_text`.

sections     tiny sibling sections merged under their parent (a window pass, per file)
references   "the Act", "he", "these rights" resolved from the file (a chunk pass, per file)
acronyms     acronym definitions and uses found in text (pure detection, false friends)
glossary     the corpus glossary: statistics per file or block, merged, then a map
compose      how a meaning is written into `embed_text` (once, after the phrase)
names        antecedent candidates by rules (the default backend) and the NameFinder protocol
spacy_names  antecedent candidates from a spaCy pipeline's entities (optional backend)

`text` never changes (except that merged sections carry their sub-headings); every
addition is recorded on the chunk (`resolved`, `acronyms`, flags), so nothing is hidden.
"""

from __future__ import annotations

from notechunk.enrich.names import NameFinder, RuleNames
from notechunk.errors import ConfigError

__all__ = ["get_finder"]


def get_finder(backend: str) -> NameFinder:
    """The antecedent backend called `backend`: "rules" or "spacy:<pipeline>"."""
    if backend == "rules":
        return RuleNames()
    if backend.startswith("spacy:"):
        from notechunk.enrich.spacy_names import SpacyNames

        return SpacyNames(backend.removeprefix("spacy:"))
    raise ConfigError(f'unknown references backend {backend!r} (choose "rules" or "spacy:<model>")')
