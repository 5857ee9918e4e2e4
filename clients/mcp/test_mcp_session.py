"""An MCP session with satchel, driven by the official MCP Python SDK over stdio: its tools, in each way the
SDK connects (mcp_session.MODES).

Run by scripts/test (which creates the virtual environments); SATCHEL_BINARY names the server binary.
"""
import asyncio
import base64
import pathlib
import re

import mcp.types as types

from mcp_session import MODES, PNG, ROOT, error_of, field, run


def test_every_domain_method_is_a_tool_with_its_input_schema(mode):
    async def scenario(session, _):
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in ["notes_create", "notes_get", "reminders_submit", "diary_list", "board_vote", "search"]:
            assert name in tools, name
        schema = field(tools["notes_create"], "input_schema")
        assert schema["type"] == "object"
        assert "title" in schema["properties"]
        assert "initialize" not in tools and "ping" not in tools

    run(scenario, mode)


def test_create_and_read_a_note_through_tools(mode):
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

    run(scenario, mode)


def test_a_validation_error_is_an_error_result(mode):
    async def scenario(session, _):
        result = await session.call_tool("notes_create", {"title": "   "})
        assert field(result, "is_error")
        assert field(result, "structured_content")["error"]["data"]["reason"] == "emptyNote"
        assert "title" in result.content[0].text.lower() or "note" in result.content[0].text.lower()

    run(scenario, mode)


def test_an_unknown_tool_is_a_protocol_error(mode):
    async def scenario(session, _):
        try:
            await session.call_tool("no_such_tool", {})
        except Exception as error:  # the SDK raises McpError (1.x) or MCPError (2.x) for JSON-RPC errors
            assert "-32602" in repr(error) or "tool" in str(error).lower()
            return
        raise AssertionError("an unknown tool was accepted")

    run(scenario, mode)


def test_search_finds_what_a_tool_wrote(mode):
    async def scenario(session, _):
        await session.call_tool("notes_create", {"title": "Поездка в Киото", "content": "京都で紅葉を見る"})
        russian = await session.call_tool("search", {"query": "Киот"})
        japanese = await session.call_tool("search", {"query": "紅葉"})
        assert len(field(russian, "structured_content")["hits"]) == 1
        assert len(field(japanese, "structured_content")["hits"]) == 1
        assert "**" in field(japanese, "structured_content")["hits"][0]["snippet"]

    run(scenario, mode)


def test_a_long_tool_reports_progress(mode, tmp_path):
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

    path = run(scenario, mode, args=["--files-root", str(tmp_path)])
    assert pathlib.Path(path).stat().st_size > 0
    assert seen, "progress was reported"
    assert seen[-1][0] == seen[-1][1] == 30
    assert [progress for progress, _ in seen] == sorted(progress for progress, _ in seen)


def hints(tool):
    annotations = tool.annotations
    return {name: field(annotations, name) for name in
            ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")}


def test_every_tool_says_what_it_does_to_data(mode):
    """MCP tool annotations on every tool: reads are read-only, deletes and the file tools destructive, the
    message feed and PostgreSQL (sync) the only open world; and an output schema for the structured content."""
    async def scenario(session, _):
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name, tool in tools.items():
            assert tool.annotations is not None, name
            assert all(isinstance(value, bool) for value in hints(tool).values()), name
            assert field(tool, "output_schema")["type"] == "object", name
            assert hints(tool)["open_world_hint"] == (name in ("messages_load_more", "sync_now", "sync_unlock", "sync_change_passphrase")), name
            reads = name.endswith(("_get", "_list")) or name in ("search", "server_info", "server_describe_error",
                                                                 "changes_since", "sync_status", "text_merge")
            assert hints(tool)["read_only_hint"] == reads, name
            if reads:
                assert not hints(tool)["destructive_hint"] and hints(tool)["idempotent_hint"], name
        for name in ("notes_delete", "photos_delete", "diary_delete", "board_delete", "reminders_delete",
                     "messages_delete", "import", "export", "notes_update", "diary_update"):
            assert hints(tools[name])["destructive_hint"], name
        for name in ("notes_create", "photos_add", "diary_create", "board_create", "messages_send",
                     "reminders_add", "notes_move", "reminders_set_completed"):
            assert not hints(tools[name])["destructive_hint"], name
        assert not hints(tools["notes_create"])["idempotent_hint"]
        assert hints(tools["notes_delete"])["idempotent_hint"]
        assert hints(tools["reminders_set_completed"])["idempotent_hint"]
        assert not hints(tools["reminders_toggle"])["idempotent_hint"]

    run(scenario, mode)


def test_structured_results_match_their_output_schemas(mode):
    """The SDK checks every successful result against the tool's output schema (a mismatch raises): one
    call of each kind of tool, with data in every app."""
    async def scenario(session, _):
        note = field(await session.call_tool("notes_create", {"title": "a", "deadline": "2026-12-01T10:00:00Z"}),
                     "structured_content")
        photo = field(await session.call_tool("photos_add", {"image": {"data": base64.b64encode(PNG).decode()},
                                                              "caption": "c"}), "structured_content")
        post = field(await session.call_tool("diary_create", {"text": "t", "images": [{"imageId": photo["image"]["id"]}]}),
                     "structured_content")
        reminder = field(await session.call_tool("reminders_add", {}), "structured_content")["reminder"]
        board = field(await session.call_tool("board_create", {"title": "b"}), "structured_content")
        await session.call_tool("messages_send", {"text": "hi"})
        calls = [
            ("notes_get", {"id": note["id"]}), ("notes_list", {}), ("notes_move", {"id": note["id"], "toIndex": 0}),
            ("notes_update", {"id": note["id"], "content": "more"}), ("photos_get", {"id": photo["id"]}),
            ("photos_list", {}), ("images_get", {"id": photo["image"]["id"]}), ("diary_get", {"id": post["id"]}),
            ("diary_list", {}), ("reminders_list", {}), ("reminders_update", {"id": reminder["id"], "title": "r"}),
            ("reminders_submit", {"id": reminder["id"]}), ("reminders_toggle", {"id": reminder["id"]}),
            ("reminders_end_editing", {}), ("messages_list", {}), ("messages_load_more", {}),
            ("board_vote", {"id": board["id"], "direction": "up"}), ("board_list", {}), ("board_get", {"id": board["id"]}),
            ("changes_since", {}), ("search", {"query": "more"}), ("server_info", {}), ("export", {}),
            ("board_delete", {"id": board["id"]}),
        ]
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            assert not field(result, "is_error"), (name, result)

    run(scenario, mode)


def test_an_image_comes_as_image_content_of_a_rendition(mode):
    """images_get: the SDK gets an image block (the display rendition, a JPEG of the PNG that was added) and
    the metadata as structured content, checked against the output schema, without the bytes."""
    async def scenario(session, _):
        photo = await session.call_tool("photos_add", {"image": {"data": base64.b64encode(PNG).decode()}})
        image_id = field(photo, "structured_content")["image"]["id"]
        result = await session.call_tool("images_get", {"id": image_id})
        assert not field(result, "is_error"), result
        image = result.content[0]
        assert isinstance(image, types.ImageContent)
        assert field(image, "mime_type") == "image/jpeg"
        assert base64.b64decode(image.data).startswith(b"\xff\xd8\xff")
        structured = field(result, "structured_content")
        assert "data" not in structured
        assert structured["rendition"]["size"] == "display" and structured["image"]["mimeType"] == "image/png"
        thumbnail = await session.call_tool("images_get", {"id": image_id, "size": "thumbnail"})
        assert field(thumbnail, "structured_content")["rendition"]["size"] == "thumbnail"
        original = await session.call_tool("images_get", {"id": image_id, "size": "original"})
        assert error_of(original)["field"] == "size"

    run(scenario, mode)


def test_a_tool_that_waits_on_the_feed_holds_back_no_other_tool(mode):
    import subprocess
    import sys

    script = ROOT / "Tests" / "ServerTests" / "Support" / "feed_server.py"
    feed = subprocess.Popen([sys.executable, str(script), "10", "--delay", "2"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    async def scenario(session, _):
        load = asyncio.ensure_future(session.call_tool("messages_load_more", {"limit": 2}))
        await asyncio.sleep(0.3)
        created = await asyncio.wait_for(session.call_tool("notes_create", {"title": "meanwhile"}), 1.5)
        assert field(created, "structured_content")["title"] == "meanwhile"
        assert not load.done()  # the load still waits on the feed
        loaded = await load
        assert not field(loaded, "is_error")
        assert [m["text"] for m in field(loaded, "structured_content")["items"]] == ["message 0", "message 1"]

    try:
        run(scenario, mode, args=["--messages-feed", f"http://127.0.0.1:{feed.stdout.readline().strip()}/feed"])
    finally:
        feed.kill()
        feed.wait()


def test_the_readme_names_every_tool():
    """clients/mcp/README.md lists the tools by app: none is missing from it."""
    readme = (pathlib.Path(__file__).parent / "README.md").read_text()

    async def scenario(session, _):
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert names - set(re.findall(r"`(\w+)`", readme)) == set()

    run(scenario, MODES[0])
