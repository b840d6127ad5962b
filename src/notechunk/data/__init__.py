"""The sample corpus shipped inside the package (`notechunk demo`, the eval's default) and
its question sets."""

from pathlib import Path

SAMPLE_DIR = Path(__file__).parent / "sample"
SAMPLE_QUESTIONS = Path(__file__).parent / "sample_questions.jsonl"
