"""A run killed at any moment leaves OUT whole: the previous complete outputs, or the new
ones, never a half-written file; a re-run resumes from the cache and completes.

Two ways to kill: SIGKILL at several moments of a `python -m notechunk run` on a generated
corpus that takes a few seconds, and a deterministic death (`os._exit`) just before each
`os.replace` the run makes (cache entries, staged files, the publish moves, the manifest),
which lands in windows too short to hit with a timer.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import notechunk.segment
from conftest import make_corpus

SRC_DIR = Path(__file__).resolve().parents[1] / "src"
OUTPUTS = ("chunks.jsonl.gz", "stages", "qa", "report.html", "sources", "manifest.json")

pytestmark = pytest.mark.skipif(
    not hasattr(notechunk.segment, "get_segmenter"),
    reason="segmenter not merged yet",
)

DIE_BEFORE_REPLACE = """
import os, sys
from notechunk.cli import main
limit = int(sys.argv[1])
calls = [0]
real = os.replace
def replace(a, b, **kw):
    calls[0] += 1
    if calls[0] == limit:
        os._exit(137)
    return real(a, b, **kw)
os.replace = replace
code = main(sys.argv[2:])
print(f"REPLACES={calls[0]}", file=sys.stderr)
raise SystemExit(code)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC_DIR), env.get("PYTHONPATH")]))
    return env


def _cmd(src: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]


def snapshot(out: Path) -> dict[str, str]:
    """sha256 of every published output file (the cache, staging and hidden files waiting
    beside their targets are not outputs)."""
    files: dict[str, str] = {}
    for name in OUTPUTS:
        base = out / name
        for p in [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []:
            if p.is_file() and not p.name.startswith("."):
                files[p.relative_to(out).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return files


def assert_whole(out: Path, versions: list[dict[str, str]]) -> None:
    """Every output parses; each file is one complete version; a manifest means one run."""
    now = snapshot(out)
    for rel in now:
        path = out / rel
        if rel.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                for line in fh:
                    json.loads(line)
        elif rel.endswith(".jsonl"):
            for line in path.read_text(encoding="utf-8").splitlines():
                json.loads(line)
        elif rel.endswith(".json"):
            json.loads(path.read_text(encoding="utf-8"))
        assert any(v.get(rel) == now[rel] for v in versions), f"{rel} is from no complete run"
    if "manifest.json" in now:
        match = [v for v in versions if all(now.get(k) == h for k, h in v.items())]
        assert match, "manifest present but the outputs are not one complete run"
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        for rel, info in manifest["files"].items():
            assert now[rel] == info["sha256"], rel


def assert_clean(out: Path) -> None:
    """After a completed run: no staging folder, no temporary file beside the outputs."""
    assert not (out / ".staging").exists()
    for folder in (out, out / "qa", out / "stages"):
        assert not [p.name for p in folder.iterdir() if ".tmp" in p.name or ".publish" in p.name]


def _prepare(tmp_path: Path, files: int, sentences: int) -> tuple[Path, dict[str, str]]:
    """SRC at version 2, with the reference outputs of v1 and v2 (clean runs)."""
    src = tmp_path / "src"
    make_corpus(src, files, seed=1, sentences=sentences)
    v1 = tmp_path / "ref1"
    subprocess.run(_cmd(src, v1), env=_env(), check=True, capture_output=True)
    _edit(src)
    v2 = tmp_path / "ref2"
    subprocess.run(_cmd(src, v2), env=_env(), check=True, capture_output=True)
    return src, {"v1": json.dumps(snapshot(v1)), "v2": json.dumps(snapshot(v2))}


def _edit(src: Path) -> None:
    for k, path in enumerate(sorted(src.rglob("*.md"))):
        if k % 3 == 0:
            path.write_text(path.read_text() + "\nAn added zqedit sentence for this test.\n")


def _previous(tmp_path: Path, src: Path, name: str) -> Path:
    """An OUT holding the complete v1 outputs (copied from the v1 reference run)."""
    import shutil

    out = tmp_path / name
    shutil.copytree(tmp_path / "ref1", out)
    return out


@pytest.mark.slow
def test_sigkill_at_several_moments(tmp_path: Path) -> None:
    src, refs = _prepare(tmp_path, files=150, sentences=120)
    v1, v2 = json.loads(refs["v1"]), json.loads(refs["v2"])
    start = time.monotonic()
    subprocess.run(_cmd(src, tmp_path / "timing"), env=_env(), check=True, capture_output=True)
    full = time.monotonic() - start
    assert full > 1.0, "corpus too small to kill mid-run"
    for k, fraction in enumerate([0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99, 1.02]):
        out = _previous(tmp_path, src, f"out{k}")
        proc = subprocess.Popen(
            _cmd(src, out), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(full * fraction)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert_whole(out, [v1, v2])
        done = subprocess.run(_cmd(src, out), env=_env(), capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert snapshot(out) == v2
        assert_clean(out)


@pytest.mark.parametrize("previous", [False, True], ids=["fresh-out", "over-previous"])
def test_death_before_every_replace(tmp_path: Path, previous: bool) -> None:
    src, refs = _prepare(tmp_path, files=6, sentences=40)
    v1, v2 = json.loads(refs["v1"]), json.loads(refs["v2"])
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            DIE_BEFORE_REPLACE,
            "0",
            "run",
            str(src),
            "--workers",
            "1",  # every os.replace in this process, so the count is the same each time
            "--out",
            str(_previous(tmp_path, src, "p") if previous else tmp_path / "p"),
        ],
        env=_env(),
        capture_output=True,
        text=True,
    )
    assert probe.returncode == 0, probe.stderr
    total = int(probe.stderr.rsplit("REPLACES=", 1)[1])
    assert total >= 10  # cache entries, staged files, publish moves, manifest
    for n in range(1, total + 1):
        out = _previous(tmp_path, src, f"o{n}") if previous else tmp_path / f"o{n}"
        died = subprocess.run(
            [
                *(sys.executable, "-c", DIE_BEFORE_REPLACE, str(n), "run", str(src)),
                *("--workers", "1", "--out", str(out)),
            ],
            env=_env(),
            capture_output=True,
        )
        assert died.returncode == 137
        assert_whole(out, [v1, v2] if previous else [v2])
        cached = (
            len(list((out / ".cache").rglob("*.msgpack.gz"))) if (out / ".cache").exists() else 0
        )
        done = subprocess.run(_cmd(src, out), env=_env(), capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert snapshot(out) == v2, f"re-run after death #{n} differs from a clean run"
        assert_clean(out)
        if not previous:  # the first replaces are the six cache entries: kept for the re-run
            assert cached == min(n - 1, 6)


def test_second_run_on_the_same_out_is_refused(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from notechunk.cli import main

    src = tmp_path / "src"
    make_corpus(src, 200, seed=3, sentences=150)
    out = tmp_path / "out"
    first = subprocess.Popen(
        _cmd(src, out), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while not (out / ".lock").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    assert first.poll() is None, "first run ended too soon to overlap"
    assert main(["run", str(src), "--out", str(out)]) == 2
    err = capfd.readouterr().err
    assert "another notechunk run" in err and "Traceback" not in err
    _, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    assert_whole(out, [snapshot(out)])
    assert (out / "manifest.json").exists()
    assert main(["run", str(src), "--out", str(out)]) == 0  # the lock was released
