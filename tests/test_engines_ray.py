"""The Ray engine on a real local Ray instance (2 CPUs, one per session): the same OUT as the
local engine, byte for byte, with 1 and 2 workers; incremental re-runs through the tasks'
cache; bad input gets the same one-line errors; a task that dies is its file's error; and a
two-node cluster on this machine, joined at its address, gives the same bytes as one local
worker with the work on both nodes."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import KILL_MARKER
from notechunk.cli import main
from notechunk.config import Config
from notechunk.data import SAMPLE_DIR
from notechunk.engines import ray as engine
from notechunk.io.cache import CACHE_DIR, Cache, code_fingerprint, config_key, file_key
from published import published


def outputs(out: Path) -> dict[str, bytes]:
    """Every file of OUT's run but its cache and lock: what the engines must agree on."""
    return published(out)


def cli(
    capsys: pytest.CaptureFixture[str], src: Path, out: Path, *extra: str
) -> tuple[int, str, str]:
    code = main(["run", str(src), "--out", str(out), *extra])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_engine_ray_without_the_extra_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engine, "has_ray", lambda: False)
    code, _, err = cli(capsys, SAMPLE_DIR, tmp_path / "o", "--engine", "ray")
    assert code == 2
    assert err == (
        "notechunk: --engine ray needs ray[data], which is not installed: "
        "pip install 'notechunk[ray]'\n"
    )
    code, _, err = cli(capsys, SAMPLE_DIR, tmp_path / "o", "--ray-address", "auto")
    assert code == 2 and "--ray-address needs --engine ray" in err


@pytest.mark.usefixtures("ray_local")
def test_sample_same_bytes_as_local_with_1_and_2_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text("[output]\nparquet = true\n")
    local = cli(capsys, SAMPLE_DIR, tmp_path / "local", "--workers", "2", "--config", str(toml))
    expected = outputs(tmp_path / "local")
    assert "chunks.parquet" in expected and "chunks.jsonl.gz" in expected
    for workers in ("1", "2"):
        out = tmp_path / f"ray{workers}"
        got = cli(
            capsys, SAMPLE_DIR, out, "--engine", "ray", "--workers", workers, "--config", str(toml)
        )
        assert got == (local[0], local[1].replace("local", f"ray{workers}"), local[2])
        assert outputs(out) == expected


@pytest.mark.usefixtures("ray_local")
def test_incremental_rerun_reads_and_writes_the_cache_in_the_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    shutil.copytree(SAMPLE_DIR / "polity", src)
    assert cli(capsys, src, out, "--engine", "ray")[0] == 0
    entries = sorted((out / CACHE_DIR).rglob("*.msgpack.gz"))
    assert len(entries) == len(list(src.glob("*.md")))  # written by the tasks
    before = outputs(out)
    stamp = (out / "chunks.jsonl.gz").stat().st_mtime_ns
    assert cli(capsys, src, out, "--engine", "ray")[0] == 0  # unchanged: nothing rewritten
    assert (out / "chunks.jsonl.gz").stat().st_mtime_ns == stamp and outputs(out) == before

    # a planted cache entry for writs.md is read by a task and not believed (its seal no
    # longer holds): redone there with a note naming it, while the changed parliament.md
    # is redone and cached
    key = file_key(
        (src / "writs.md").read_bytes(), "writs.md", config_key(Config(), code_fingerprint())
    )
    entry = Cache(out / CACHE_DIR).path(key)
    planted = gzip.decompress(entry.read_bytes()).replace(b"Habeas corpus", b"Zqplanted corp")
    entry.write_bytes(gzip.compress(planted))  # same length: every record still decodes
    with (src / "parliament.md").open("a") as fh:
        fh.write("\n\nThe zqnewline sentence closes the note on Parliament.\n")
    code, _, err = cli(capsys, src, out, "--engine", "ray")
    assert code == 0
    assert f"{entry}: cache entry of writs.md not used" in err and err.count("\n") == 1
    shipped = (out / "stages" / "markdown_chunks.jsonl").read_text()
    assert "Zqplanted corp" not in shipped and "Habeas corpus" in shipped
    assert "zqnewline" in shipped
    assert len(list((out / CACHE_DIR).rglob("*.msgpack.gz"))) == len(entries) + 1


def bad_inputs(src: Path) -> None:
    from test_reliability_catalog import _far_cell

    src.mkdir()
    (src / "control.md").write_text("# Control\n\nThe Rowlatt Act zqcontrol was passed in 1919.\n")
    (src / "nul.md").write_bytes(b"Some zqnul text\x00 with a NUL.\n")
    (src / "far.xlsx").write_bytes(_far_cell())
    (src / "fake.xlsx").write_bytes(b"<html><body>not a workbook</body></html>")
    (src / "bad.csv").write_bytes(b"\xff\xfe\x00\x00garbage")


@pytest.mark.usefixtures("ray_local")
def test_bad_input_gives_the_same_lines_codes_and_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    bad_inputs(src)
    local = cli(capsys, src, tmp_path / "local")
    ray = cli(capsys, src, tmp_path / "ray", "--engine", "ray")
    assert local[0] == ray[0] == 1
    assert ray[2] == local[2] and "Traceback" not in ray[2]  # the same one-line errors
    assert outputs(tmp_path / "ray") == outputs(tmp_path / "local")
    errors = json.loads((tmp_path / "ray" / "qa" / "errors.json").read_text())
    assert {e["source"] for e in errors} >= {"nul.md", "fake.xlsx"}


@pytest.mark.usefixtures("ray_local")
def test_a_task_that_dies_is_that_files_error_not_the_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    shutil.copytree(SAMPLE_DIR / "polity", src)
    cli(capsys, src, tmp_path / "without")
    (src / "kill.md").write_text(f"# Kill\n\nThis note {KILL_MARKER} kills its worker.\n")
    code, _, err = cli(capsys, src, tmp_path / "ray", "--engine", "ray", "--workers", "2")
    assert code == 1
    assert err == f"notechunk: kill.md: {engine.DIED}\n"
    errors = json.loads((tmp_path / "ray" / "qa" / "errors.json").read_text())
    assert errors == [{"source": "kill.md", "stage": "chunk", "reason": engine.DIED}]
    got, expected = outputs(tmp_path / "ray"), outputs(tmp_path / "without")
    assert got["chunks.jsonl.gz"] == expected["chunks.jsonl.gz"]  # the other files, whole
    assert got["stages/markdown_chunks.jsonl"] == expected["stages/markdown_chunks.jsonl"]


@pytest.mark.usefixtures("ray_local")
def test_acronyms_expanded_on_ray_as_on_this_machine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The glossary is counted in the tasks, merged, and the chunks expanded on Ray before
    dedupe and the passes: the same bytes as the local engine's spill passes."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "who.md").write_text(
        "# Health bodies\n\nThe World Health Organization (WHO) was founded in 1948 in "
        "Geneva. The International Monetary Fund (IMF) lends to member states.\n"
    )
    (src / "outbreaks.md").write_text(
        "# Outbreaks\n\nIn 2020 the WHO declared a pandemic and asked every member state "
        "to report cases weekly.\n\n## Money\n\nThe IMF set up emergency loans for "
        "countries hit by the pandemic in 2020.\n"
    )
    (src / "gloss.txt").write_text("NGO: non-governmental organisation\n")
    (src / "ngo.md").write_text("# Aid\n\nEvery NGO working in the camps reports its funds.\n")
    toml = tmp_path / "c.toml"
    toml.write_text(
        f'[output]\nparquet = true\n[enrich]\nacronyms = true\nglossary = "{src / "gloss.txt"}"\n'
    )
    local = cli(capsys, src, tmp_path / "local", "--config", str(toml))
    expected = outputs(tmp_path / "local")
    lines = [json.loads(x) for x in expected["stages/markdown_chunks.jsonl"].splitlines()]
    expanded = {a for c in lines for a in c["acronyms"]}
    assert expanded == {"WHO", "IMF", "NGO"}  # from another file, or the glossary file
    got = cli(
        capsys, src, tmp_path / "ray", "--engine", "ray", "--workers", "2", "--config", str(toml)
    )
    assert got == (local[0], local[1].replace("local", "ray"), local[2])
    assert outputs(tmp_path / "ray") == expected


@pytest.mark.usefixtures("ray_local")
def test_a_relative_out_keeps_its_cache_under_out_not_where_the_workers_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray's workers run in the directory Ray was started from (on a cluster, where
    `ray start` ran), so a relative OUT must reach the tasks as an absolute path."""
    src, here = tmp_path / "src", tmp_path / "here"
    shutil.copytree(SAMPLE_DIR / "polity", src)
    here.mkdir()
    monkeypatch.chdir(here)  # the driver moves; the local instance's workers do not
    assert cli(capsys, src, Path("out"), "--engine", "ray")[0] == 0
    entries = list((here / "out" / CACHE_DIR).rglob("*.msgpack.gz"))
    assert len(entries) == len(list(src.glob("*.md")))
    stamp = (here / "out" / "chunks.jsonl.gz").stat().st_mtime_ns
    assert cli(capsys, src, Path("out"), "--engine", "ray")[0] == 0  # unchanged: recognised
    assert (here / "out" / "chunks.jsonl.gz").stat().st_mtime_ns == stamp


def test_a_cluster_that_cannot_be_joined_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray's ConnectionError is an OSError: it must not read as the outputs' failure."""
    ray = pytest.importorskip("ray", reason="Ray is not installed here")

    def refuse(address: str, **_: object) -> None:
        raise ConnectionError(f"Failed to connect to Ray cluster at {address}")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    code, _, err = cli(
        capsys, SAMPLE_DIR, tmp_path / "o", "--engine", "ray", "--ray-address", "head.invalid:6379"
    )
    assert code == 2
    assert err == (
        "notechunk: cannot join the Ray cluster at head.invalid:6379: "
        "Failed to connect to Ray cluster at head.invalid:6379\n"
    )
    assert not (tmp_path / "o" / "chunks.jsonl.gz").exists()


# On the two-node cluster's workers only (a sitecustomize on their PYTHONPATH): each file a
# worker processes is written down under the node it ran on, so the test sees both work.
_WHERE = """
import os
try:
    import notechunk.perfile as _perfile
except ImportError:
    _perfile = None
if _perfile is not None and os.environ.get("ZQ_NODE_MARKS"):
    _original = _perfile.file_parts

    def _marking(f, *args, **kwargs):
        import ray

        node = ray.get_runtime_context().get_node_id()
        mark = os.path.join(os.environ["ZQ_NODE_MARKS"], f"{node}.{os.getpid()}")
        with open(mark, "a", encoding="utf-8") as fh:
            fh.write(f.rel + "\\n")
        return _original(f, *args, **kwargs)

    _perfile.file_parts = _marking
"""


def test_a_two_node_cluster_gives_the_same_bytes_as_one_local_worker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two Ray nodes on this machine (`ray.cluster_utils.Cluster`, one CPU each) joined at
    their address with `--ray-address`, the way a real cluster is: the sample's notes and
    sheets give the same OUT, byte for byte, as the local engine with one worker, and the
    files were processed on both nodes. The driver is a child process (this one may hold
    the session's local instance; a process joins one Ray at a time); the cluster, which
    the run did not start, is still up after it."""
    pytest.importorskip("ray", reason="Ray is not installed here (pip install 'notechunk[ray]')")
    from ray.cluster_utils import Cluster

    import notechunk

    src = tmp_path / "src"
    shutil.copytree(SAMPLE_DIR, src)
    toml = tmp_path / "c.toml"
    toml.write_text("[output]\nparquet = true\n")
    local = cli(capsys, src, tmp_path / "local", "--workers", "1", "--config", str(toml))
    assert local[0] == 0
    expected = outputs(tmp_path / "local")
    assert {"chunks.jsonl.gz", "stages/markdown_chunks.jsonl", "stages/excel_chunks.jsonl"} <= set(
        expected
    )
    assert any(name.startswith("qa/") for name in expected)

    hook, marks = tmp_path / "hook", tmp_path / "marks"
    hook.mkdir()
    marks.mkdir()
    (hook / "sitecustomize.py").write_text(_WHERE)
    code_dir = Path(notechunk.__file__).parents[1]  # the driver and the workers import this
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join((str(hook), str(code_dir))))
    monkeypatch.setenv("ZQ_NODE_MARKS", str(marks))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        nodes = {n["NodeID"] for n in cluster.global_state.node_table() if n["Alive"]}
        assert len(nodes) == 2
        out = tmp_path / "ray"
        argv = ["run", str(src), "--out", str(out), "--config", str(toml)]
        ray_argv = [*argv, "--engine", "ray", "--ray-address", cluster.address]
        got = subprocess.run(
            [sys.executable, "-m", "notechunk", *ray_argv],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert (got.returncode, got.stdout, got.stderr) == (
            local[0],
            local[1].replace(str(tmp_path / "local"), str(out)),
            local[2],
        )
        assert outputs(out) == expected
        ran = {p.name.split(".")[0] for p in marks.iterdir()}
        assert ran == nodes  # the work was shared by both nodes
        done = {line for p in marks.iterdir() for line in p.read_text().splitlines()}
        assert len(done) == len(list(src.rglob("*.md"))) + len(list((src / "sheets").iterdir()))
        alive = {n["NodeID"] for n in cluster.global_state.node_table() if n["Alive"]}
        assert alive == nodes  # the run left the cluster it joined running
    finally:
        cluster.shutdown()
