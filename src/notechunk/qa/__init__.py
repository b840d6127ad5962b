"""QA pass: semantic types, retrieval scores, metrics, artifacts and the HTML report.

`finalize` is the one call the pipeline makes; `build_report` backs `notechunk report OUT`.
"""

from notechunk.qa.artifacts import finalize, neutralise_cell
from notechunk.qa.metrics import compute_metrics
from notechunk.qa.report import build_report
from notechunk.qa.retrievability import retrieval_scores
from notechunk.qa.semantic import semantic_type

__all__ = [
    "build_report",
    "compute_metrics",
    "finalize",
    "neutralise_cell",
    "retrieval_scores",
    "semantic_type",
]
