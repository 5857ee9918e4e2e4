"""Which files an MCP client's tools reach: the roots a handshake-era client declares (`roots/list`), and
for a client without roots (every 2026-07-28 client) the folders of `--files-root`; with neither, none.
"""
import base64

import pytest

from mcp_session import HANDSHAKE_MODES, PNG, error_of, field, run


def test_a_client_without_roots_reaches_no_files(mode, tmp_path):
    """No roots capability and no `--files-root`: export, import and images by path are refused with a
    message that says how to get access; nothing is written or read. Data passed inline still works."""
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

    run(scenario, mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.json", "photo.png"]
    assert (tmp_path / "old.json").read_text() == "kept"


def folders(tmp_path):
    """`inside/` and `outside/`, each with photo.png, and `inside/out`, a link to `outside`; the ways out of
    `inside` (each a path pattern for a file name): directly, through `..`, through the link."""
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    for folder in (inside, outside):
        folder.mkdir()
        (folder / "photo.png").write_bytes(PNG)
    (inside / "out").symlink_to(outside)
    return inside, outside, [str(outside / "{}"), str(inside / ".." / "outside" / "{}"), str(inside / "out" / "{}")]


def confined_to(inside, outside, escapes, reason):
    """A scenario: inside `inside`, export, import and a photo by path work; every way out is refused with
    `reason`, and nothing outside is written (the caller checks `outside`)."""
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
            assert error_of(refused) == {"reason": reason, "field": "path"}, escape
            refused = await session.call_tool("import", {"path": escape.format("all.json"), "mode": "replace"})
            assert error_of(refused) == {"reason": reason, "field": "path"}, escape
            refused = await session.call_tool("photos_add", {"image": {"path": escape.format("photo.png")}})
            assert error_of(refused) == {"reason": reason, "field": "image.path"}, escape
        photos = await session.call_tool("photos_list", {})
        assert len(field(photos, "structured_content")["items"]) == 1
        notes = await session.call_tool("notes_list", {})
        assert [note["title"] for note in field(notes, "structured_content")["items"]] == ["kept"]

    return scenario


def test_a_client_with_a_root_reaches_files_inside_it_only(mode, tmp_path):
    """Inside the declared root, files work; outside it, directly, through `..` or through a symbolic link
    inside the root that points out, they are refused, and nothing outside is written."""
    if mode not in HANDSHAKE_MODES:
        pytest.skip("2026-07-28 has no roots")
    inside, outside, escapes = folders(tmp_path)
    run(confined_to(inside, outside, escapes, "outsideClientRoots"), mode, roots=[inside])
    assert sorted(path.name for path in outside.iterdir()) == ["all.json", "photo.png"]


def test_a_client_without_roots_reaches_the_files_root(mode, tmp_path):
    """A client without roots (every 2026-07-28 client) reaches the folders of `--files-root`, and nothing
    outside them, however the path goes."""
    inside, outside, escapes = folders(tmp_path)
    run(confined_to(inside, outside, escapes, "outsideFilesRoot"), mode, args=["--files-root", str(inside)])
    assert sorted(path.name for path in outside.iterdir()) == ["all.json", "photo.png"]


def test_roots_and_the_files_root_confine_together(mode, tmp_path):
    """A client's roots do not widen `--files-root`: a root outside it reaches nothing."""
    if mode not in HANDSHAKE_MODES:
        pytest.skip("2026-07-28 has no roots")
    inside, outside, _ = folders(tmp_path)

    async def scenario(session, _):
        assert not field(await session.call_tool("export", {"path": str(inside / "a.json")}), "is_error")
        refused = await session.call_tool("export", {"path": str(outside / "a.json")})
        assert error_of(refused) == {"reason": "outsideFilesRoot", "field": "path"}

    run(scenario, mode, roots=[inside, outside], args=["--files-root", str(inside)])
    assert sorted(path.name for path in outside.iterdir()) == ["photo.png"]


@pytest.mark.filterwarnings("ignore:The roots capability is deprecated")
def test_the_server_follows_a_change_of_roots(mode, tmp_path):
    """`notifications/roots/list_changed`: the server asks again, and the next tool call is checked against
    the new list. (Roots belong to the handshake versions: SDK 2.x warns that 2026-07-28 deprecates them.)"""
    if mode not in HANDSHAKE_MODES:
        pytest.skip("2026-07-28 has no roots")
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

    run(scenario, mode, roots=roots)
    assert [path.name for path in first.iterdir()] == ["a.json"]
    assert [path.name for path in second.iterdir()] == ["a.json"]


def test_export_replaces_a_file_only_when_told(mode, tmp_path):
    (tmp_path / "thesis.txt").write_text("three years of work")

    async def scenario(session, _):
        refused = await session.call_tool("export", {"path": str(tmp_path / "thesis.txt")})
        assert error_of(refused) == {"reason": "fileExists", "field": "path"}
        assert "overwrite" in refused.content[0].text
        assert (tmp_path / "thesis.txt").read_text() == "three years of work"
        replaced = await session.call_tool("export", {"path": str(tmp_path / "thesis.txt"), "overwrite": True})
        assert not field(replaced, "is_error")

    run(scenario, mode, args=["--files-root", str(tmp_path)])
    assert (tmp_path / "thesis.txt").read_text().startswith("{")
