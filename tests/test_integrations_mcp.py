"""`notechunk mcp OUT`, driven by the official SDK's own client over stdio (and once over
streamable HTTP), against a real OUT of the bundled sample notes."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")
import anyio  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

import notechunk  # noqa: E402
from notechunk.cli import main  # noqa: E402
from notechunk.data import SAMPLE_DIR  # noqa: E402
from notechunk.search.engine import search  # noqa: E402

SRC_DIR = Path(__file__).resolve().parents[1] / "src"
TOOLS = ("search_notes", "read_chunk", "read_source", "list_sources", "outline")
Session = Callable[[Client], Awaitable[None]]


def server_params(*args: str) -> StdioServerParameters:
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC_DIR), os.environ.get("PYTHONPATH")]))
    }
    return StdioServerParameters(command=sys.executable, args=["-m", "notechunk", *args], env=env)


def over_stdio(session: Session, *args: str) -> None:
    """Start `notechunk ARGS` as an MCP server and run `session` with a client of it."""

    async def body() -> None:
        with anyio.fail_after(120):
            async with Client(server_params(*args), cache=None) as client:
                await session(client)

    anyio.run(body)


def chunks_of(out: Path) -> list[dict[str, Any]]:
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the sample notes and a finished run of it: (SRC, OUT)."""
    root = tmp_path_factory.mktemp("mcp")
    src = root / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = root / "out"
    assert notechunk.run(src, out).exit_code == 0
    return src, out


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """The tool's error text: an error result, one line, no traceback."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text = "".join(getattr(c, "text", "") for c in result.content)
    assert "\n" not in text and "Traceback" not in text, text
    return text


def test_tools_and_resources_are_listed_with_schemas(sample: tuple[Path, Path]) -> None:
    _, out = sample

    async def session(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {
            "search_notes",
            "read_chunk",
            "read_source",
            "list_sources",
            "outline",
        }
        for tool in tools.values():
            assert tool.description and len(tool.description) > 40
            assert tool.input_schema["type"] == "object"
            assert tool.annotations is not None and tool.annotations.read_only_hint
        k = tools["search_notes"].input_schema["properties"]["k"]
        assert (k["minimum"], k["maximum"], k["default"]) == (1, 50, 8)
        retriever = tools["search_notes"].input_schema["properties"]["retriever"]
        assert retriever["enum"] == ["bm25", "hybrid", "dense"]
        assert tools["search_notes"].input_schema["required"] == ["query"]
        hood = tools["read_chunk"].input_schema["properties"]["neighbours"]
        assert (hood["minimum"], hood["maximum"]) == (0, 3)
        templates = (await client.list_resource_templates()).resource_templates
        assert {t.uri_template for t in templates} == {
            "notechunk://chunk/{id}",
            "notechunk://source/{+path}",
        }
        listed = (await client.list_resources()).resources
        assert "notechunk://source/polity/writs.md" in {str(r.uri) for r in listed}
        assert client.instructions and "search_notes" in client.instructions

    over_stdio(session, "mcp", str(out))


def test_each_tool_answers_from_the_run(sample: tuple[Path, Path]) -> None:
    src, out = sample
    chunks = chunks_of(out)
    zojila = next(c for c in chunks if "Zoji La links Srinagar with Kargil" in c["text"])
    passes = [c for c in chunks if c["source"] == zojila["source"]]
    at = [c["id"] for c in passes].index(zojila["id"])
    writs = (src / "polity" / "writs.md").read_text(encoding="utf-8").splitlines()

    async def session(client: Client) -> None:
        found = await call(
            client, "search_notes", query="Which pass links Srinagar with Kargil and Leh?", k=3
        )
        top = found["hits"][0]
        assert top["id"] == zojila["id"] and top["rank"] == 1
        assert top["where"] == f"{zojila['source']}:{zojila['lines'][0]}-{zojila['lines'][1]}"
        assert top["context"] and top["text"] == zojila["text"] and len(found["hits"]) == 3
        # the same ranking as `notechunk search`
        same = search(out, found["query"], k=3)
        assert [h["id"] for h in found["hits"]] == [h.chunk.id for h in same.hits]
        only = await call(client, "search_notes", query="river", k=50, source="geography")
        assert only["hits"] and all(h["source"].startswith("geography/") for h in only["hits"])

        read = await call(client, "read_chunk", id=zojila["id"], neighbours=1)
        assert read["chunk"]["id"] == zojila["id"]
        assert [c["id"] for c in read["before"]] == [c["id"] for c in passes[max(0, at - 1) : at]]
        assert [c["id"] for c in read["after"]] == [c["id"] for c in passes[at + 1 : at + 2]]
        assert read["before"] or read["after"]

        lines = await call(
            client, "read_source", source="polity/writs.md", start_line=3, end_line=9
        )
        assert lines["text"].split("\n") == writs[2:9]
        assert (lines["start_line"], lines["end_line"], lines["total_lines"]) == (3, 9, len(writs))

        listed = await call(client, "list_sources")
        names = [s["source"] for s in listed["sources"]]
        assert listed["count"] == 21 and "sheets/passes.xlsx" in names
        assert names == sorted(names)
        assert (await call(client, "list_sources", under="polity"))["count"] == 4

        tree = await call(client, "outline", source="polity/writs.md")
        headings = [h["heading"] for h in tree["headings"]]
        assert "The five writs" in headings
        ids = {i for h in tree["headings"] for i in h["ids"]}
        assert ids == {c["id"] for c in chunks if c["source"] == "polity/writs.md"}
        sheet = await call(client, "outline", source="sheets/passes.xlsx")
        assert sheet["sheets"][0]["chunks"] == sum(
            c["source"] == "sheets/passes.xlsx" for c in chunks
        )

        res = await client.read_resource(f"notechunk://chunk/{zojila['id']}")
        assert zojila["text"] in res.contents[0].text  # type: ignore[union-attr]
        res = await client.read_resource("notechunk://source/polity/writs.md")
        assert res.contents[0].text.split("\n") == writs  # type: ignore[union-attr]

    over_stdio(session, "mcp", str(out))


def test_bad_arguments_are_one_line_errors_and_the_server_goes_on(
    sample: tuple[Path, Path], tmp_path: Path
) -> None:
    from mcp import MCPError

    src, out = sample
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\nzqsecret text outside the notes.\n")
    link = src / "economy" / "banking.md"
    saved = link.read_bytes()
    link.unlink()
    link.symlink_to(outside)  # after the run: a known source now leading out of SRC
    try:

        async def session(client: Client) -> None:
            assert "k: Input should be greater than or equal to 1 (got 0)" in await refused(
                client, "search_notes", query="x", k=0
            )
            assert "less than or equal to 50" in await refused(
                client, "search_notes", query="x", k=51
            )
            assert "(got 99)" in await refused(client, "search_notes", query="x", k=99)
            assert "retriever" in await refused(
                client, "search_notes", query="x", retriever="tfidf"
            )
            assert "empty" in await refused(client, "search_notes", query="  ")
            assert "no source" in await refused(client, "search_notes", query="x", source="nowhere")
            assert "no chunk 'nope'" in await refused(client, "read_chunk", id="nope")
            assert "neighbours" in await refused(client, "read_chunk", id="nope", neighbours=4)
            for bad in (
                "../secret.md",
                str(outside),
                "/etc/passwd",
                "polity/../../secret.md",
                "polity/writs.md\x00.txt",
                "polity\\writs.md",
                ".cache",
            ):
                text = await refused(client, "read_source", source=bad)
                assert "zqsecret" not in text and ("no source" in text or "refused" in text)
            assert "outside" in await refused(client, "read_source", source="economy/banking.md")
            assert "past its end" in await refused(
                client, "read_source", source="polity/writs.md", start_line=10_000
            )
            assert "workbook" in await refused(client, "read_source", source="sheets/gdp.xlsx")
            assert "before start_line" in await refused(
                client, "read_source", source="polity/writs.md", start_line=5, end_line=2
            )
            assert "Unknown tool" in await refused(client, "delete_notes")
            for uri in (
                "notechunk://chunk/nope",
                "notechunk://source/economy/banking.md",
                "notechunk://source/..%2Fsecret.md",
                "notechunk://source/%2Fetc%2Fpasswd",
            ):
                with pytest.raises(MCPError) as err:
                    await client.read_resource(uri)
                assert "zqsecret" not in str(err.value) and "\n" not in str(err.value)
            # and the server is still there
            hits = await call(client, "search_notes", query="writ of mandamus", k=1)
            assert hits["hits"]

        over_stdio(session, "mcp", str(out))
    finally:
        link.unlink()
        link.write_bytes(saved)


def test_a_newer_run_is_served_without_a_restart(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    assert notechunk.run(src, out).exit_code == 0

    async def session(client: Client) -> None:
        before = await call(client, "search_notes", query="zqnewterm", k=3)
        assert before["hits"] == []
        note = src / "polity" / "writs.md"
        note.write_text(note.read_text() + "\n## Added\n\nThe zqnewterm writ is new here.\n")
        await anyio.to_thread.run_sync(lambda: notechunk.run(src, out))
        after = await call(client, "search_notes", query="zqnewterm", k=3)
        assert after["hits"][0]["source"] == "polity/writs.md"
        assert "zqnewterm" in after["hits"][0]["text"]

    over_stdio(session, "mcp", str(out))


def test_an_out_that_cannot_be_served_is_one_line_and_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", str(tmp_path / "missing")]) == 2
    assert main(["mcp", str(tmp_path)]) == 2
    assert main(["mcp", str(tmp_path), "--http", "localhost:notaport"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 3 and "Traceback" not in err
    assert "not a finished notechunk run" in err and "HOST:PORT" in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_streamable_http_on_loopback(sample: tuple[Path, Path]) -> None:
    _, out = sample
    port = _free_port()
    params = server_params("mcp", str(out), "--http", f"127.0.0.1:{port}")
    env = {**os.environ, **(params.env or {})}
    proc = subprocess.Popen(
        [params.command, *params.args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "server never listened"
                time.sleep(0.2)

        async def body() -> None:
            with anyio.fail_after(60):
                async with Client(f"http://127.0.0.1:{port}/mcp", cache=None) as client:
                    assert len((await client.list_tools()).tools) == 5
                    hits = await call(client, "search_notes", query="monsoon Kerala", k=2)
                    assert hits["hits"][0]["source"] == "geography/monsoon.md"

        anyio.run(body)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert b"Traceback" not in err, err.decode(errors="replace")
