"""qa/enrichment.json: what enrichment knows and could not do, for a person to review.

`glossary`: every acronym with its expansion, where it was defined (a file, or the
glossary file), how many surviving chunks use it and the other long forms the corpus
gave it; `undefined`: acronyms used but defined nowhere, most used first (a list to
write a glossary file from); `dangling`: the surviving chunks whose opening reference
found no antecedent, with the phrases (`dangling:<phrase>` flags). Pure: data in, data out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from notechunk.chunk import Chunk
from notechunk.enrich.glossary import Glossary
from notechunk.qa.metrics import Metrics, dangling_phrases, location, snippet


def dangling_row(c: Chunk) -> dict[str, Any] | None:
    """The `dangling` entry of a surviving chunk, or None when it has no dangling phrase."""
    phrases = dangling_phrases(c)
    if c.omit or not phrases:
        return None
    return {"id": c.id, "location": location(c), "phrases": phrases, "text": snippet(c.text, 160)}


def enrichment_json(
    glossary: Glossary | None, dangling: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The file's content from the glossary and the `dangling_row`s in output order."""
    entries = glossary.entries if glossary else ()
    return {
        "glossary": [
            {
                "acronym": e.acronym,
                "expansion": e.expansion,
                "origin": e.origin,
                "uses": e.uses,
                "alternatives": list(e.alternatives),
            }
            for e in entries
        ],
        "undefined": [
            {"acronym": a, "uses": n} for a, n in (glossary.undefined if glossary else ())
        ],
        "dangling": list(dangling),
    }


def enrichment_markdown(metrics: Metrics, data: dict[str, Any], listed: int = 20) -> list[str]:
    """The summary.md section: the counts, the most used undefined acronyms, the most
    frequent dangling phrases."""
    e = metrics.enrichment
    lines = [
        "## Enrichment",
        "",
        "| figure | value |",
        "| --- | --- |",
        f"| merged tiny sections (chunks) | {e.merged_sections} |",
        f"| references resolved (chunks) | {e.references_resolved} ({e.chunks_resolved}) |",
        f"| references dangling (chunks) | {e.dangling} ({e.chunks_dangling}) |",
        f"| acronyms defined | {e.acronyms_defined} |",
        f"| acronyms expanded (chunks) | {e.acronyms_expanded} ({e.chunks_expanded}) |",
        f"| acronyms used but undefined | {e.acronyms_undefined} |",
        "",
    ]
    undefined = data["undefined"][:listed]
    if undefined:
        shown = ", ".join(f"{u['acronym']} ({u['uses']})" for u in undefined)
        lines += [f"Undefined acronyms, most used first: {shown}.", ""]
    phrases = list(e.dangling_by_phrase.items())[:listed]
    if phrases:
        shown = ", ".join(f'"{p}" ({n})' for p, n in phrases)
        lines += [f"Dangling references: {shown}. The chunks are in enrichment.json.", ""]
    return lines
