"""`notechunk --help` stays light: no parser, retrieval or UI library is imported for it
(the timing itself is measured by bench/bench_cli_startup.py, never asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEAVY = (
    "markdown_it", "markdown_it_pyrs", "bm25s", "numpy", "rich", "spacy", "openpyxl",
    "ray", "pyarrow",
)  # fmt: skip
PROBE = (
    "import sys\nfrom notechunk.cli import main\ntry:\n    main(['--help'])\n"
    "except SystemExit:\n    pass\nimport json\n"
    f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
)


def test_help_imports_no_heavy_module() -> None:
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    res = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(res.stdout.strip().splitlines()[-1]) == []
