"""An MCP session with satchel, driven by the official MCP Python SDK over stdio.

Run by scripts/test (which creates the virtual environment); SATCHEL_BINARY names the server binary.
"""
import asyncio
import base64
import os
import pathlib

import mcp.types as types
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


def run(scenario, roots=None, args=()):
    """Runs `scenario(session, init)` against a new satchel (started with `args` too). With `roots` (a list
    of folders, which the scenario may change), the client declares MCP's roots capability and answers
    `roots/list` with them."""
    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=folder.as_uri(), name=folder.name) for folder in roots])

    async def main():
        params = StdioServerParameters(command=BINARY, args=["--memory", *args])
        async with stdio_client(params) as (read, write):
            callback = list_roots if roots is not None else None
            async with ClientSession(read, write, list_roots_callback=callback) as session:
                init = await session.initialize()
                return await scenario(session, init)

    return asyncio.run(main())


#: A 4x3 PNG, for photos handed over by path.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4EaABRww4OQAsNg8BoqhHXQAAAABJRU5ErkJggg==")


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

    path = run(scenario, roots=[tmp_path])
    assert pathlib.Path(path).stat().st_size > 0
    assert seen, "progress was reported"
    assert seen[-1][0] == seen[-1][1] == 30
    assert [progress for progress, _ in seen] == sorted(progress for progress, _ in seen)


def error_of(result):
    """The `data` of a tool's error result (reason and field)."""
    assert field(result, "is_error"), result
    return field(result, "structured_content")["error"]["data"]


def test_a_client_without_roots_reaches_no_files(tmp_path):
    """No roots capability: export, import and images by path are refused with a message that says how to
    get access; nothing is written or read. Data passed inline still works."""
    (tmp_path / "photo.png").write_bytes(PNG)
    (tmp_path / "old.json").write_text("kept")

    async def scenario(session, _):
        export = await session.call_tool("export", {"path": str(tmp_path / "new.json")})
        assert error_of(export) == {"reason": "noFileAccess", "field": "path"}
        assert "root" in export.content[0].text
        replace = await session.call_tool("export", {"path": str(tmp_path / "old.json"), "overwrite": True})
        assert error_of(replace)["reason"] == "noFileAccess"
        imported = await session.call_tool("import", {"path": str(tmp_path / "old.json"), "mode": "merge"})
        assert error_of(imported) == {"reason": "noFileAccess", "field": "path"}
        photo = await session.call_tool("photos_add", {"image": {"path": str(tmp_path / "photo.png")}})
        assert error_of(photo) == {"reason": "noFileAccess", "field": "image.path"}
        post = await session.call_tool("diary_create", {"text": "x", "images": [{"path": str(tmp_path / "photo.png")}]})
        assert error_of(post) == {"reason": "noFileAccess", "field": "images[0].path"}
        inline = await session.call_tool("photos_add", {"image": {"data": base64.b64encode(PNG).decode()}})
        assert not field(inline, "is_error")
        listed = await session.call_tool("diary_list", {})
        assert field(listed, "structured_content")["items"] == []

    run(scenario)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.json", "photo.png"]
    assert (tmp_path / "old.json").read_text() == "kept"


def test_a_client_with_a_root_reaches_files_inside_it_only(tmp_path):
    """Inside the declared root, files work; outside it, directly, through `..` or through a symbolic link
    inside the root that points out, they are refused, and nothing outside is written."""
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    (inside / "photo.png").write_bytes(PNG)
    (outside / "photo.png").write_bytes(PNG)
    (inside / "out").symlink_to(outside)
    escapes = [str(outside / "{}"), str(inside / ".." / "outside" / "{}"), str(inside / "out" / "{}")]

    async def scenario(session, _):
        await session.call_tool("notes_create", {"title": "kept"})
        export = await session.call_tool("export", {"path": str(inside / "all.json")})
        assert not field(export, "is_error"), export
        imported = await session.call_tool("import", {"path": str(inside / "all.json"), "mode": "merge"})
        assert not field(imported, "is_error"), imported
        photo = await session.call_tool("photos_add", {"image": {"path": str(inside / "photo.png")}})
        assert field(photo, "structured_content")["image"]["width"] == 4
        (outside / "all.json").write_bytes((inside / "all.json").read_bytes())
        for escape in escapes:
            refused = await session.call_tool("export", {"path": escape.format("new.json")})
            assert error_of(refused) == {"reason": "outsideClientRoots", "field": "path"}, escape
            refused = await session.call_tool("import", {"path": escape.format("all.json"), "mode": "replace"})
            assert error_of(refused) == {"reason": "outsideClientRoots", "field": "path"}, escape
            refused = await session.call_tool("photos_add", {"image": {"path": escape.format("photo.png")}})
            assert error_of(refused) == {"reason": "outsideClientRoots", "field": "image.path"}, escape
        photos = await session.call_tool("photos_list", {})
        assert len(field(photos, "structured_content")["items"]) == 1
        notes = await session.call_tool("notes_list", {})
        assert [note["title"] for note in field(notes, "structured_content")["items"]] == ["kept"]

    run(scenario, roots=[inside])
    assert sorted(path.name for path in outside.iterdir()) == ["all.json", "photo.png"]


def test_the_server_follows_a_change_of_roots(tmp_path):
    """`notifications/roots/list_changed`: the server asks again, and the next tool call is checked against
    the new list."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    roots = [first]

    async def scenario(session, _):
        assert not field(await session.call_tool("export", {"path": str(first / "a.json")}), "is_error")
        refused = await session.call_tool("export", {"path": str(second / "a.json")})
        assert error_of(refused)["reason"] == "outsideClientRoots"
        roots[:] = [second]
        await session.send_roots_list_changed()
        assert not field(await session.call_tool("export", {"path": str(second / "a.json")}), "is_error")
        refused = await session.call_tool("export", {"path": str(first / "b.json")})
        assert error_of(refused)["reason"] == "outsideClientRoots"

    run(scenario, roots=roots)
    assert [path.name for path in first.iterdir()] == ["a.json"]
    assert [path.name for path in second.iterdir()] == ["a.json"]


def test_export_replaces_a_file_only_when_told(tmp_path):
    (tmp_path / "thesis.txt").write_text("three years of work")

    async def scenario(session, _):
        refused = await session.call_tool("export", {"path": str(tmp_path / "thesis.txt")})
        assert error_of(refused) == {"reason": "fileExists", "field": "path"}
        assert "overwrite" in refused.content[0].text
        assert (tmp_path / "thesis.txt").read_text() == "three years of work"
        replaced = await session.call_tool("export", {"path": str(tmp_path / "thesis.txt"), "overwrite": True})
        assert not field(replaced, "is_error")

    run(scenario, roots=[tmp_path])
    assert (tmp_path / "thesis.txt").read_text().startswith("{")


def hints(tool):
    annotations = tool.annotations
    return {name: field(annotations, name) for name in
            ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")}


def test_every_tool_says_what_it_does_to_data():
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

    run(scenario)


def test_structured_results_match_their_output_schemas():
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

    run(scenario)


def test_an_image_comes_as_image_content_of_a_rendition():
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

    run(scenario)


def test_a_tool_that_waits_on_the_feed_holds_back_no_other_tool():
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
        run(scenario, args=["--messages-feed", f"http://127.0.0.1:{feed.stdout.readline().strip()}/feed"])
    finally:
        feed.kill()
        feed.wait()
