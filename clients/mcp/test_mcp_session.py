"""An MCP session with satchel, driven by the official MCP Python SDK over stdio.

Run by scripts/test (which creates the virtual environment); SATCHEL_BINARY names the server binary.
"""
import asyncio
import os
import pathlib

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SATCHEL_BINARY", str(ROOT / ".build" / "debug" / "satchel"))


def field(model, name):
    """Reads a field of an MCP SDK model by its snake_case name (as in SDK 2.x), or by its camelCase name in SDK 1.x."""
    if name in type(model).model_fields:
        return getattr(model, name)
    first, *rest = name.split("_")
    return getattr(model, first + "".join(word.capitalize() for word in rest))


def run(scenario):
    async def main():
        params = StdioServerParameters(command=BINARY, args=["--memory"])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                return await scenario(session, init)

    return asyncio.run(main())


def test_initialize_answers_as_an_mcp_server():
    async def scenario(session, init):
        assert field(init, "server_info").name == "satchel"
        assert init.capabilities.tools is not None
        assert field(init, "protocol_version") in ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")

    run(scenario)


def test_every_domain_method_is_a_tool_with_its_input_schema():
    async def scenario(session, _):
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in ["notes_create", "notes_get", "reminders_submit", "diary_list", "board_vote", "search"]:
            assert name in tools, name
        schema = field(tools["notes_create"], "input_schema")
        assert schema["type"] == "object"
        assert "title" in schema["properties"]
        assert "initialize" not in tools and "ping" not in tools

    run(scenario)


def test_create_and_read_a_note_through_tools():
    async def scenario(session, _):
        created = await session.call_tool("notes_create", {"title": "Groceries", "content": "milk"})
        assert not field(created, "is_error")
        note = field(created, "structured_content")
        assert note["title"] == "Groceries"
        assert note["color"]["hex"] == "#FFFFFF"
        assert '"Groceries"' in created.content[0].text
        read = await session.call_tool("notes_get", {"id": note["id"]})
        assert not field(read, "is_error")
        assert field(read, "structured_content") == note
        listed = await session.call_tool("notes_list", {})
        assert [item["id"] for item in field(listed, "structured_content")["items"]] == [note["id"]]

    run(scenario)


def test_a_validation_error_is_an_error_result():
    async def scenario(session, _):
        result = await session.call_tool("notes_create", {"title": "   "})
        assert field(result, "is_error")
        assert field(result, "structured_content")["error"]["data"]["reason"] == "emptyNote"
        assert "title" in result.content[0].text.lower() or "note" in result.content[0].text.lower()

    run(scenario)


def test_an_unknown_tool_is_a_protocol_error():
    async def scenario(session, _):
        try:
            await session.call_tool("no_such_tool", {})
        except Exception as error:  # the SDK raises McpError (1.x) or MCPError (2.x) for JSON-RPC errors
            assert "-32602" in repr(error) or "tool" in str(error).lower()
            return
        raise AssertionError("an unknown tool was accepted")

    run(scenario)


def test_search_finds_what_a_tool_wrote():
    async def scenario(session, _):
        await session.call_tool("notes_create", {"title": "Поездка в Киото", "content": "京都で紅葉を見る"})
        russian = await session.call_tool("search", {"query": "Киот"})
        japanese = await session.call_tool("search", {"query": "紅葉"})
        assert len(field(russian, "structured_content")["hits"]) == 1
        assert len(field(japanese, "structured_content")["hits"]) == 1
        assert "**" in field(japanese, "structured_content")["hits"][0]["snippet"]

    run(scenario)


def test_a_long_tool_reports_progress(tmp_path):
    """`export` to a file through tools/call, with the SDK's progress callback: the token the SDK puts in
    `_meta` comes back on `notifications/progress`, ending at the total."""
    seen = []

    async def on_progress(progress, total, message):
        seen.append((progress, total))

    async def scenario(session, _):
        for index in range(30):
            await session.call_tool("notes_create", {"title": f"note {index}"})
        path = str(tmp_path / "everything.json")
        result = await session.call_tool("export", {"path": path}, progress_callback=on_progress)
        assert not field(result, "is_error")
        assert field(result, "structured_content")["counts"]["notes"] == 30
        return path

    path = run(scenario)
    assert pathlib.Path(path).stat().st_size > 0
    assert seen, "progress was reported"
    assert seen[-1][0] == seen[-1][1] == 30
    assert [progress for progress, _ in seen] == sorted(progress for progress, _ in seen)
