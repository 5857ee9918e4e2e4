"""Export and import as files without a browser: ``bridge/export`` and ``GET /data/exports/ID``,
``POST /data/imports`` and ``bridge/import``, their progress notifications, the private folder the files
pass through and what is left in it, against the real ``python -m satchel_web`` and a real satchel."""
from __future__ import annotations

import datetime
import json
import pathlib
import re
import stat
from typing import Any

import aiohttp
import pytest

from satchel_client import Satchel

from bridge_pages import CYRILLIC, cookie, get, page, post, until

pytestmark = pytest.mark.timeout(120)


def folder(bridge) -> pathlib.Path:
    """The bridge's exchange folder, as its log names it once it is made."""
    assert until(lambda: any("pass through" in line for line in bridge.stderr))
    (line,) = [line for line in bridge.stderr if "pass through" in line]
    return pathlib.Path(re.search(r"pass through (\S+)", line).group(1))


def own(bridge) -> dict[str, str]:
    """What the page's own requests carry: the cookie and its Origin."""
    return {**cookie(bridge), "Origin": bridge.origin}


async def until_answered(socket, id: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The progress notifications the socket receives before the answer to ``id``, and the answer."""
    progress = []
    while True:
        message = await socket.receive(30)
        if message.get("method") == "notifications/progress":
            progress.append(message["params"])
        elif message.get("id") == id and "method" not in message:
            return progress, message


def exported(bridge) -> Any:
    """Everything in the bridge's database, as another process exports it (a page cannot call `export`)."""
    with Satchel(db=str(bridge.db)) as server:
        return server.call("export")


def assert_progress(progress: list[dict[str, Any]], token: Any, total: int) -> None:
    assert progress, "no progress before the answer"
    assert {each["progressToken"] for each in progress} == {token}
    assert [each["progress"] for each in progress] == sorted(each["progress"] for each in progress)
    assert progress[-1]["progress"] == progress[-1]["total"] == total


def test_an_export_is_written_privately_sent_once_and_deleted(bridge_factory, run):
    bridge = bridge_factory("--demo")
    seen: dict[str, Any] = {}

    async def export() -> None:
        async with page(bridge) as socket:
            seen["document"] = exported(bridge)
            id = await socket.request("bridge/export", {"_meta": {"progressToken": "export-1"}})
            progress, answer = await until_answered(socket, id)
            seen["progress"], seen["answer"] = progress, answer["result"]
            files = list(folder(bridge).iterdir())
            seen["modes"] = [stat.S_IMODE(path.stat().st_mode) for path in files]

    run(export())
    answer, document = seen["answer"], seen["document"]
    assert answer["name"] == f"satchel-{datetime.date.today().isoformat()}.json"
    assert answer["counts"] == {kind: len(document[kind]) for kind in answer["counts"]}
    assert answer["counts"]["notes"] > 0
    assert_progress(seen["progress"], "export-1", sum(answer["counts"].values()))
    exchange = folder(bridge)
    assert stat.S_IMODE(exchange.stat().st_mode) == 0o700
    assert seen["modes"] == [0o600]

    status, headers, body = get(bridge, answer["url"], own(bridge))
    assert status == 200
    assert headers["Content-Disposition"] == f'attachment; filename="{answer["name"]}"'
    assert headers["Content-Type"].startswith("application/json")
    assert int(headers["Content-Length"]) == answer["bytes"] == len(body.encode())
    assert json.loads(body) == document
    assert until(lambda: list(exchange.iterdir()) == [])  # deleted once sent
    assert get(bridge, answer["url"], own(bridge))[0] == 404  # once
    bridge.stop()
    assert not exchange.exists()


def test_an_upload_is_imported_with_progress_then_deleted(bridge_factory, run, tmp_path):
    demo, empty = bridge_factory("--demo"), bridge_factory()
    seen: dict[str, Any] = {}

    seen["document"] = exported(demo)
    body = json.dumps(seen["document"]).encode()
    status, _, text = post(empty, "/data/imports", body, {**own(empty), "Content-Type": "application/json"})
    assert status == 200
    upload = json.loads(text)
    assert upload["bytes"] == len(body)
    exchange = folder(empty)
    assert [stat.S_IMODE(path.stat().st_mode) for path in exchange.iterdir()] == [0o600]

    async def imported() -> None:
        async with page(empty) as socket:
            id = await socket.request("bridge/import", {"upload": upload["upload"], "mode": "merge",
                                                        "_meta": {"progressToken": 7}})
            seen["progress"], answer = await until_answered(socket, id)
            seen["imported"] = answer["result"]["imported"]
            assert list(exchange.iterdir()) == []
            again = await socket.call("bridge/import", {"upload": upload["upload"], "mode": "merge"})
            assert again["error"]["code"] == -32602 and again["error"]["data"]["reason"] == "unknownUpload"
            seen["after"] = exported(empty)

    run(imported())
    counts = seen["imported"]
    assert counts["notes"] == len(seen["document"]["notes"]) > 0
    assert_progress(seen["progress"], 7, sum(counts.values()))
    assert seen["after"]["notes"] == seen["document"]["notes"]


def test_a_bad_upload_is_refused_in_the_pages_language_changes_nothing_and_is_deleted(bridge, run):
    async def refused() -> None:
        async with page(bridge) as socket:
            await socket.result("initialize", {"locale": "ru"})
            note = await socket.result("notes.create", {"title": "kept"})
            before = exported(bridge)
            for body, field in ((b'{"format": "satchel", "version": 1, "notes": [{"title": ', None),
                                (json.dumps({**before, "notes": [{**note, "title": 5}]}).encode(),
                                 "document.notes[0].title")):
                status, _, text = post(bridge, "/data/imports", body, own(bridge))
                assert status == 200
                answer = await socket.call("bridge/import", {"upload": json.loads(text)["upload"],
                                                            "mode": "replace"})
                error = answer["error"]
                assert error["code"] == -32002 and error["data"]["reason"] == "invalidDocument"
                assert CYRILLIC.search(error["message"])
                if field:
                    assert error["data"]["field"] == field
                assert list(folder(bridge).iterdir()) == []
            assert exported(bridge) == before

    run(refused())


def test_an_upload_past_the_limit_is_413_and_leaves_no_file(bridge_factory, run):
    bridge = bridge_factory("--max-import-bytes", "100")
    status, headers, text = post(bridge, "/data/imports", b"x" * 101, own(bridge))
    assert status == 413
    assert json.loads(text) == {"reason": "tooLarge", "limit": 100}

    async def chunked() -> int:  # no Content-Length: counted while it streams
        async def body():
            for _ in range(4):
                yield b"x" * 40

        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            async with session.post(f"{bridge.origin}/data/imports", data=body(), headers=own(bridge)) as answer:
                return answer.status

    assert run(chunked()) == 413
    assert list(folder(bridge).iterdir()) == []
    status, _, text = post(bridge, "/data/imports", b"x" * 100, own(bridge))
    assert status == 200 and json.loads(text)["bytes"] == 100


def test_a_page_cannot_name_a_file_for_the_server_to_read_or_write(bridge_factory, run, tmp_path):
    """Only the apps' methods are relayed, and none with a `path` anywhere in its params: export, import and
    tools/call never reach the satchel, nor does an image named by path, by name or by position. Only
    bridge/export and bridge/import, which choose their own files, reach the file system."""
    bridge = bridge_factory("--demo")
    target = tmp_path / "stolen.json"
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\n not really")
    not_relayed: list[Any] = []
    with_paths: list[Any] = []

    async def attempt() -> None:
        async with page(bridge) as socket:
            photos = await socket.result("photos.list")
            not_relayed.append(await socket.call("export", {"path": str(target)}))
            not_relayed.append(await socket.call("export", [str(target)]))
            not_relayed.append(await socket.call("export", {}))
            not_relayed.append(await socket.call("import", {"path": "/etc/hostname", "mode": "merge"}))
            not_relayed.append(await socket.call("tools/call", {"name": "export", "arguments": {"path": str(target)}}))
            not_relayed.append(await socket.call("tools/list"))
            with_paths.append(await socket.call("photos.add", {"image": {"path": str(secret)}}))
            with_paths.append(await socket.call("diary.create", {"text": "x", "images": [{"path": str(secret)}]}))
            with_paths.append(await socket.call("diary.create", ["x", [{"path": str(secret)}]]))
            with_paths.append(await socket.call("diary.update", {"id": "x", "images": [{"data": "", "path": "/"}]}))
            assert await socket.result("photos.list") == photos

    run(attempt())
    for answer in not_relayed:
        assert answer["error"]["code"] == -32601, answer
        assert answer["error"]["data"]["reason"] == "notRelayed"
    for answer in with_paths:
        assert answer["error"]["code"] == -32602, answer
        assert answer["error"]["data"] == {"field": "path", "reason": "pathNotRelayed"}
    assert not target.exists()
