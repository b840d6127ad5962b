"""Same inputs, byte-identical outputs: whatever the worker count, hash seed, time zone,
directory creation order or OUT location; chunk ids stay put when other files change."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import notechunk.segment
from conftest import make_corpus
from notechunk.cli import main

SRC_DIR = Path(__file__).resolve().parents[1] / "src"
OUTPUTS = ("chunks.jsonl.gz", "stages", "qa", "report.html", "sources", "manifest.json")

pytestmark = pytest.mark.skipif(
    not hasattr(notechunk.segment, "get_segmenter"), reason="segmenter not merged yet"
)


def snapshot(out: Path) -> dict[str, str]:
    files: dict[str, str] = {}
    for name in OUTPUTS:
        base = out / name
        paths = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
        for p in paths:
            if p.is_file():
                files[p.relative_to(out).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return files


def chunks(out: Path) -> list[dict[str, object]]:
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _corpus(root: Path, reverse: bool = False) -> Path:
    """Generated notes plus a few awkward ones, created in forward or reverse order."""
    src = root / "src"
    tmp = root / "gen"
    make_corpus(tmp, 40, seed=7, sentences=50)
    extra = {
        "ünï/café notes.md": "# Café\n\nUnicode zqu name. Repeated line.\n\nRepeated line.\n",
        "-dash.md": "# Dash\n\nLeading dash zqd file.\n",
        "dup-a.md": "# Same\n\nIdentical text in two files for duplicate detection here.\n",
        "dup-b.md": "# Same\n\nIdentical text in two files for duplicate detection here.\n",
    }
    files = {p.relative_to(tmp).as_posix(): p.read_bytes() for p in sorted(tmp.rglob("*.md"))}
    files.update({k: v.encode() for k, v in extra.items()})
    for rel in sorted(files, reverse=reverse):
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[rel])
    return src


def _subprocess_run(src: Path, out: Path, **env: str) -> None:
    full = dict(os.environ, **env)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC_DIR), full.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
    done = subprocess.run(cmd, env=full, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_workers_do_not_change_outputs(tmp_path: Path) -> None:
    src = _corpus(tmp_path)
    snaps = []
    for workers in (1, 2, 3):
        out = tmp_path / f"w{workers}"
        assert main(["run", str(src), "--out", str(out), "--workers", str(workers)]) == 0
        snaps.append(snapshot(out))
    assert snaps[0] == snaps[1] == snaps[2]
    assert "chunks.jsonl.gz" in snaps[0]


def test_hash_seed_time_zone_and_order_do_not_change_outputs(tmp_path: Path) -> None:
    src = _corpus(tmp_path / "a")
    reversed_src = _corpus(tmp_path / "b", reverse=True)
    _subprocess_run(src, tmp_path / "o1", PYTHONHASHSEED="0", TZ="UTC")
    _subprocess_run(src, tmp_path / "o2", PYTHONHASHSEED="4242", TZ="Asia/Kolkata")
    _subprocess_run(reversed_src, tmp_path / "o3", PYTHONHASHSEED="random", TZ="America/Nuuk")
    first = snapshot(tmp_path / "o1")
    assert first == snapshot(tmp_path / "o2") == snapshot(tmp_path / "o3")


def test_ids_stable_unique_and_independent_of_other_files(tmp_path: Path) -> None:
    src = _corpus(tmp_path)
    assert main(["run", str(src), "--out", str(tmp_path / "o1")]) == 0
    before = chunks(tmp_path / "o1")
    ids = [c["id"] for c in before]
    assert len(ids) == len(set(ids)) and all(ids)
    # another file changes, one is added: every other file's ids are unchanged
    victim = sorted(src.rglob("note-0001.md"))[0]
    victim.write_text(victim.read_text() + "\nA new sentence zqnew arrives here today.\n")
    (src / "added.md").write_text("# Added\n\nA brand new file zqadd with some text.\n")
    assert main(["run", str(src), "--out", str(tmp_path / "o2")]) == 0
    after = chunks(tmp_path / "o2")
    changed = {victim.relative_to(src).as_posix(), "added.md"}
    keep = [(c["source"], c["id"]) for c in before if c["source"] not in changed]
    again = [(c["source"], c["id"]) for c in after if c["source"] not in changed]
    assert keep == again
    # and OUT's own location never leaks into the outputs
    moved = tmp_path / "elsewhere" / "deeper"
    assert main(["run", str(src), "--out", str(moved)]) == 0
    assert snapshot(moved) == snapshot(tmp_path / "o2")
