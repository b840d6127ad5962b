"""watch: a run now, a run after every change; a file that breaks never costs its chunks;
Ctrl-C leaves OUT whole. The end-to-end cases go through `notechunk mcp OUT --watch
NOTES` and the SDK's stdio client, as an assistant would see them."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("watchfiles", reason="the mcp extra is not installed")

from notechunk.chunk import FileError
from notechunk.config import Config
from notechunk.data import SAMPLE_DIR
from notechunk.integrations.watch import (
    HeldRun,
    _Guard,
    hold_regressions,
    notes_filter,
    previously_good,
)
from notechunk.io.publish import outputs_intact, read_manifest

SRC_DIR = Path(__file__).resolve().parents[1] / "src"
WAIT_S = 60.0  # bound on edit-to-searchable here (2 shared cores); typically a few seconds


def _env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(SRC_DIR), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def test_the_filter_keeps_notes_folders_and_config_never_out_or_hidden(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    out = src / "out"
    (src / "a").mkdir(parents=True)
    keep = notes_filter(src, out)
    assert keep(None, str(src / "a" / "x.md"))
    assert keep(None, str(src / "t.xlsx")) and keep(None, str(src / "t.csv"))
    assert keep(None, str(src / "a")) and keep(None, str(src / "notechunk.toml"))
    assert not keep(None, str(out / "chunks.jsonl.gz"))
    assert not keep(None, str(out / "qa" / "errors.json"))
    assert not keep(None, str(src / ".obsidian" / "x.md"))
    assert not keep(None, str(src / "a" / ".x.md.swp"))
    assert not keep(None, str(src / "a" / "image.png"))


def test_a_file_that_read_cleanly_and_now_fails_holds_the_run(tmp_path: Path) -> None:
    import notechunk

    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    assert notechunk.run(src, out).exit_code == 0
    good = previously_good(out)
    assert "sheets/passes.xlsx" in good and "polity/writs.md" in good
    guard = _Guard(lambda _: None)
    check = hold_regressions(out, guard, src)
    check((FileError(source="new/broken.xlsx", stage="read", reason="not a workbook"),))
    assert guard.writing  # a file that never read cleanly holds nothing back
    guard.writing = False
    with pytest.raises(HeldRun, match="sheets/passes.xlsx: truncated"):
        check((FileError(source="sheets/passes.xlsx", stage="read", reason="truncated"),))
    assert not guard.writing
    (src / "polity" / "writs.md").unlink()  # gone while the run read it: a deletion
    check((FileError(source="polity/writs.md", stage="read", reason="cannot read file"),))
    assert guard.writing


def test_ctrl_c_waits_for_a_publish_but_not_for_the_work_before_it() -> None:
    said: list[str] = []
    guard = _Guard(said.append)
    with pytest.raises(KeyboardInterrupt):
        guard.handle(signal.SIGINT, None)  # nothing written yet: stop now
    guard.writing = True
    guard.handle(signal.SIGINT, None)  # writing: deferred, said once
    assert guard.deferred and "finishing the publish" in said[0]
    with pytest.raises(KeyboardInterrupt):
        guard.handle(signal.SIGINT, None)  # the second Ctrl-C stops anyway
    with pytest.raises(KeyboardInterrupt), guard.installed():
        pass  # the deferred interrupt is raised once the run is done


def test_watch_runs_at_once_and_ctrl_c_leaves_out_whole(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "notechunk", "watch", str(src), "--out", str(out)]
    proc = subprocess.Popen(cmd, env=_env(), stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + WAIT_S
    for line in proc.stderr:
        lines.append(line)
        if "watching" in line or time.monotonic() > deadline:
            break
    assert any("published" in line for line in lines), lines
    proc.send_signal(signal.SIGINT)
    rest = proc.communicate(timeout=WAIT_S)[1]
    assert proc.returncode == 130, rest
    assert "Traceback" not in "".join(lines) + rest
    assert outputs_intact(out, read_manifest(out))
    assert not (out / ".staging").exists()


# --- end to end: `notechunk mcp OUT --watch NOTES` through the SDK client ---------------


def _xlsx(rows: list[list[str]]) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for row in rows:
        ws.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_edits_deletes_and_new_sheets_are_searchable_within_a_bounded_wait(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mcp", reason="the mcp extra is not installed")
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    env = {"PYTHONPATH": _env()["PYTHONPATH"]}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "notechunk", "mcp", str(out), "--watch", str(src), "--debounce-ms", "100"],
        env=env,
    )
    waits: dict[str, float] = {}

    async def answer(client: Client, query: str) -> dict[str, Any]:
        result = await client.call_tool("search_notes", {"query": query, "k": 5})
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return result.structured_content

    async def search(client: Client, query: str) -> list[dict[str, Any]]:
        hits: list[dict[str, Any]] = (await answer(client, query))["hits"]
        return hits

    async def until(
        client: Client, name: str, query: str, ok: Any, published: bool = False
    ) -> list[dict[str, Any]]:
        """Ask until `ok(hits)`; with `published`, until the run is published too."""
        started = time.monotonic()
        while True:
            got = await answer(client, query)
            if ok(got["hits"]) and not (published and "provisional" in got):
                waits[name] = time.monotonic() - started
                return list(got["hits"])
            assert time.monotonic() - started < WAIT_S, f"{name}: not seen in {WAIT_S} s"
            await anyio.sleep(0.1)

    async def session(client: Client) -> None:
        # the first run happens in the server's process; the first question waits for it
        first = await until(client, "first run", "writ of mandamus", bool)
        assert first[0]["source"] == "polity/writs.md"

        note = src / "polity" / "writs.md"
        note.write_text(note.read_text() + "\n## Added\n\nThe zqedited writ arrived today.\n")
        hits = await until(client, "edit", "zqedited", bool)
        assert hits[0]["source"] == "polity/writs.md" and "zqedited" in hits[0]["text"]
        await until(client, "edit published", "zqedited", bool, published=True)

        gone = src / "history" / "indus-valley.md"
        assert any(
            h["source"] == gone.relative_to(src).as_posix()
            for h in await search(client, "Harappa Mohenjo-daro")
        )
        gone.unlink()
        await until(
            client,
            "delete",
            "Harappa Mohenjo-daro",
            lambda hs: all(h["source"] != "history/indus-valley.md" for h in hs),
        )

        sheet = src / "sheets" / "zqpeaks.xlsx"
        sheet.write_bytes(
            _xlsx([["Peak", "Range", "Height"], ["Zqkangch Peak", "Zqhimal range", "8586 m"]])
        )
        hits = await until(client, "new sheet", "Zqkangch", bool)
        assert hits[0]["source"] == "sheets/zqpeaks.xlsx" and hits[0]["row"] == 2
        await until(client, "new sheet published", "Zqkangch", bool, published=True)

        # a good workbook caught broken: reported, and its rows stay searchable
        sheet.write_bytes(b"PK\x03\x04 half a zip")
        await anyio.sleep(3.0)  # the run that refuses to publish
        hits = await search(client, "Zqkangch")
        assert hits and hits[0]["source"] == "sheets/zqpeaks.xlsx"

    errlog = tmp_path / "server.log"
    with open(errlog, "w") as fh:

        async def body() -> None:
            with anyio.fail_after(6 * WAIT_S):
                async with Client(stdio_client(params, errlog=fh), cache=None) as client:
                    await session(client)

        anyio.run(body)
    log = errlog.read_text()
    assert "Traceback" not in log, log
    assert "zqpeaks.xlsx" in log and "OUT keeps the previous run" in log, log
    print(json.dumps({k: round(v, 2) for k, v in waits.items()}))


def test_a_run_updates_the_search_index_vectors_and_lancedb_by_id(tmp_path: Path) -> None:
    pytest.importorskip("lancedb", reason="the index extra is not installed")
    import gzip

    import notechunk
    from notechunk.integrations.watch import WatchPlan, run_once
    from notechunk.search import engine
    from notechunk.search.lance import build_index, search_db
    from test_search_engine import HashEmbedder

    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    assert notechunk.run(src, out).exit_code == 0
    engine.search(out, "monsoon", retriever="dense", embedder=HashEmbedder)  # vectors exist
    db = out / "lancedb"
    build_index(out, db, embedder=HashEmbedder)
    note = src / "polity" / "writs.md"
    note.write_text(note.read_text() + "\n## Added\n\nThe zqlance writ is new.\n")
    (src / "history" / "indus-valley.md").unlink()
    said: list[str] = []
    plan = WatchPlan(src=src, out=out, config=lambda: Config.from_toml(src / "notechunk.toml"))
    assert run_once(plan, say=said.append, embedder=HashEmbedder) == 0
    assert any("LanceDB: " in s and "deleted" in s for s in said), said
    hits = search_db(db, "zqlance", k=1, retriever="bm25", out=out)
    assert hits.hits[0].chunk.source == "polity/writs.md" and not hits.notes
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        ids = {json.loads(line)["id"] for line in fh}
    import lancedb

    table = lancedb.connect(str(db)).open_table("chunks")
    assert set(table.to_arrow().column("id").to_pylist()) == ids
    # the search index and the vectors are this run's: nothing left to build
    again = engine.search(out, "zqlance writ", retriever="hybrid", embedder=HashEmbedder)
    assert again.built == {"bm25": False, "dense": False}
    assert again.hits[0].chunk.source == "polity/writs.md"
