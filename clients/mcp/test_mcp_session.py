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
        assert init.serverInfo.name == "satchel"
        assert init.capabilities.tools is not None
        assert init.protocolVersion in ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")

    run(scenario)


def test_every_domain_method_is_a_tool_with_its_input_schema():
    async def scenario(session, _):
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in ["notes_create", "notes_get", "reminders_submit", "diary_list", "board_vote", "search"]:
            assert name in tools, name
        schema = tools["notes_create"].inputSchema
        assert schema["type"] == "object"
        assert "title" in schema["properties"]
        assert "initialize" not in tools and "ping" not in tools

    run(scenario)


def test_create_and_read_a_note_through_tools():
    async def scenario(session, _):
        created = await session.call_tool("notes_create", {"title": "Groceries", "content": "milk"})
        assert not created.isError
        note = created.structuredContent
        assert note["title"] == "Groceries"
        assert note["color"]["hex"] == "#FFFFFF"
        assert '"Groceries"' in created.content[0].text
        read = await session.call_tool("notes_get", {"id": note["id"]})
        assert not read.isError
        assert read.structuredContent == note
        listed = await session.call_tool("notes_list", {})
        assert [item["id"] for item in listed.structuredContent["items"]] == [note["id"]]

    run(scenario)


def test_a_validation_error_is_an_error_result():
    async def scenario(session, _):
        result = await session.call_tool("notes_create", {"title": "   "})
        assert result.isError
        assert result.structuredContent["error"]["data"]["reason"] == "emptyNote"
        assert "title" in result.content[0].text.lower() or "note" in result.content[0].text.lower()

    run(scenario)


def test_an_unknown_tool_is_a_protocol_error():
    async def scenario(session, _):
        try:
            await session.call_tool("no_such_tool", {})
        except Exception as error:  # the SDK raises McpError for JSON-RPC errors
            assert "-32602" in repr(error) or "tool" in str(error).lower()
            return
        raise AssertionError("an unknown tool was accepted")

    run(scenario)


def test_search_finds_what_a_tool_wrote():
    async def scenario(session, _):
        await session.call_tool("notes_create", {"title": "Поездка в Киото", "content": "京都で紅葉を見る"})
        russian = await session.call_tool("search", {"query": "Киот"})
        japanese = await session.call_tool("search", {"query": "紅葉"})
        assert len(russian.structuredContent["hits"]) == 1
        assert len(japanese.structuredContent["hits"]) == 1
        assert "**" in japanese.structuredContent["hits"][0]["snippet"]

    run(scenario)
