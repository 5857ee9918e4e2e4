"""The bridge without a browser: its command line, its security checks, the static routes and the WebSocket
relay, against the real ``python -m satchel_web`` and a real satchel (``$SATCHEL_BINARY``)."""
from __future__ import annotations

import asyncio
import contextlib
import http.client
import http.server
import json
import os
import pathlib
import re
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from yarl import URL

from satchel_web.bridge import CSP, Backend, Bridge

pytestmark = pytest.mark.timeout(120)

Message = dict[str, Any]
CYRILLIC = re.compile("[А-Яа-яЁё]")
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


# HTTP


def get(bridge, path: str, headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, str]:
    """``GET path`` on ``bridge`` with exactly ``headers`` (``Host`` is the bridge's unless given)."""
    connection = http.client.HTTPConnection("127.0.0.1", bridge.port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{bridge.port}", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def token(bridge) -> str:
    return f"token={bridge.token}"


# WebSocket


class Socket:
    """A page's WebSocket: calls by id, and everything else the bridge sends, in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.backlog: list[Any] = []
        self.next_id = 0

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 10) -> Any:
        frame = await self.ws.receive(timeout)
        assert frame.type == aiohttp.WSMsgType.TEXT, f"the socket ended: {frame}"
        return json.loads(frame.data)

    async def wait(self, wanted: Callable[[Any], bool], timeout: float = 10) -> Any:
        """The first message (received earlier or now) that ``wanted`` accepts; the others stay."""
        for index, message in enumerate(self.backlog):
            if wanted(message):
                return self.backlog.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            message = await self.receive(max(0.01, deadline - time.monotonic()))
            if wanted(message):
                return message
            self.backlog.append(message)

    async def request(self, method: str, params: Any = None) -> Any:
        """Sends a request; its id."""
        self.next_id += 1
        message: Message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        return self.next_id

    async def answer(self, id: Any, timeout: float = 10) -> Message:
        return await self.wait(lambda m: isinstance(m, dict) and m.get("id") == id and "method" not in m, timeout)

    async def call(self, method: str, params: Any = None, timeout: float = 10) -> Message:
        """The whole answer (``result`` or ``error``) to ``method``."""
        return await self.answer(await self.request(method, params), timeout)

    async def result(self, method: str, params: Any = None) -> Any:
        answer = await self.call(method, params)
        assert "result" in answer, answer
        return answer["result"]

    async def status(self, state: str, timeout: float = 10) -> Message:
        return await self.wait(lambda m: is_status(m, state), timeout)


def is_status(message: Any, state: str) -> bool:
    return isinstance(message, dict) and message.get("method") == "bridge/status" \
        and message.get("params") == {"state": state}


def ws_headers(bridge, origin: str | None = "own", cookie: str | None = None) -> dict[str, str]:
    headers = {}
    if origin is not None:
        headers["Origin"] = bridge.origin if origin == "own" else origin
    if cookie is not None:
        headers["Cookie"] = f"satchel_token_{bridge.port}={cookie}"
    return headers


@contextlib.asynccontextmanager
async def page(bridge, *, query: str | None = "token", origin: str | None = "own", cookie: str | None = None,
               ready: bool = True) -> AsyncIterator[Socket]:
    """A page's socket on ``bridge`` (with the token in the query unless ``query`` says otherwise),
    waiting for ``ready`` unless told not to."""
    url = f"{bridge.origin}/ws" + ("" if query is None else f"?{token(bridge) if query == 'token' else query}")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        async with session.ws_connect(url, headers=ws_headers(bridge, origin, cookie)) as ws:
            socket = Socket(ws)
            if ready:
                await socket.status("ready", timeout=30)
            yield socket


async def refused_socket(bridge, **options: Any) -> int:
    """The HTTP status a WebSocket upgrade gets (it must not be accepted)."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        async with page(bridge, ready=False, **options):
            pass
    return refused.value.status


def until(condition: Callable[[], bool], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def cmdline(pid: int) -> list[str]:
    return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


@pytest.fixture
def run():
    """``run(coroutine)``: runs it on a fresh event loop."""
    return asyncio.run


# The command line


def test_it_prints_one_url_with_a_fresh_token_and_listens_on_loopback_only(bridge_factory):
    first, second = bridge_factory(), bridge_factory()
    for bridge in (first, second):
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{43}", bridge.url)
        assert bridge.port != 8765
    assert first.token != second.token
    listening = [line.split() for line in pathlib.Path("/proc/net/tcp").read_text().splitlines()[1:]]
    addresses = {local for _, local, _, state, *_ in listening if state == "0A"}  # 0A: LISTEN
    assert f"0100007F:{first.port:04X}" in addresses
    assert f"00000000:{first.port:04X}" not in addresses
    ipv6 = pathlib.Path("/proc/net/tcp6")
    if ipv6.exists():
        assert f":{first.port:04X} " not in ipv6.read_text()


def test_a_flag_satchel_refuses_stops_the_bridge_before_it_listens(tmp_path):
    done = subprocess.run([sys.executable, "-m", "satchel_web", "--port", "0", "--db", str(tmp_path / "x.sqlite"),
                           "--no-such-flag"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "no-such-flag" in done.stderr


# Security


def test_without_the_token_every_route_is_403_and_reached_nothing(bridge, run):
    wrong = "x" * len(bridge.token)
    for path in ("/", "/?token=" + wrong, "/?token=%C3%A9", "/?tokn=" + bridge.token, "/app/js/app.js",
                 "/app/js/app.js?token=", "/nowhere", "/ws"):
        status, headers, body = get(bridge, path, {"Origin": bridge.origin})
        assert status == 403, path
        assert headers["Content-Type"].startswith("text/plain")
        assert 0 < len(body) < 100 and "Forbidden" in body
        assert headers["Content-Security-Policy"] == CSP
        assert "Set-Cookie" not in headers
    status, _, _ = get(bridge, "/", {"Cookie": f"satchel_token_{bridge.port}={wrong}"})
    assert status == 403

    async def sockets() -> None:
        assert await refused_socket(bridge, query=None) == 403
        assert await refused_socket(bridge, query=f"token={wrong}") == 403
        assert await refused_socket(bridge, query=None, cookie=wrong) == 403

    run(sockets())
    assert bridge.satchel_pids() == []


def test_the_token_sets_a_cookie_that_then_suffices(bridge, run):
    status, headers, _ = get(bridge, f"/?{token(bridge)}")
    assert status != 403
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"satchel_token_{bridge.port}={bridge.token};")
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "path=/", "samesite=strict"} <= attributes

    status, headers, _ = get(bridge, "/", {"Cookie": f"satchel_token_{bridge.port}={bridge.token}"})
    assert status != 403
    assert "Set-Cookie" not in headers

    async def cookie_only() -> None:
        async with page(bridge, query=None, cookie=bridge.token) as socket:
            assert await socket.result("ping") == {}

    run(cookie_only())


def test_a_foreign_host_is_403(bridge):
    for host in ("evil.example", f"evil.example:{bridge.port}", "127.0.0.1", f"127.0.0.1:{bridge.port + 1}",
                 f"127.0.0.2:{bridge.port}", f"[::1]:{bridge.port}"):
        status, _, body = get(bridge, f"/?{token(bridge)}", {"Host": host})
        assert status == 403, host
        assert "Host" in body
    assert get(bridge, f"/?{token(bridge)}", {"Host": f"localhost:{bridge.port}"})[0] != 403


def test_a_foreign_origin_is_403_on_http_and_on_the_socket(bridge, run):
    for origin in ("http://evil.example", f"http://evil.example:{bridge.port}", "null",
                   f"https://127.0.0.1:{bridge.port}", f"http://127.0.0.1:{bridge.port + 1}"):
        status, _, body = get(bridge, f"/?{token(bridge)}", {"Origin": origin})
        assert status == 403, origin
        assert "Origin" in body
    assert get(bridge, f"/?{token(bridge)}", {"Origin": f"http://localhost:{bridge.port}"})[0] != 403

    async def sockets() -> None:
        assert await refused_socket(bridge, origin="http://evil.example") == 403
        assert await refused_socket(bridge, origin="null") == 403
        async with page(bridge, origin=f"http://localhost:{bridge.port}") as socket:
            assert await socket.result("ping") == {}

    run(sockets())


def test_a_websocket_without_origin_is_403_and_spawns_no_satchel(bridge, run):
    async def sockets() -> None:
        assert await refused_socket(bridge, origin=None) == 403
        assert await refused_socket(bridge, origin=None, cookie=bridge.token) == 403

    run(sockets())
    assert bridge.satchel_pids() == []


def test_a_refused_socket_spawns_no_satchel_and_an_accepted_one_does(bridge, run):
    async def sockets() -> None:
        await refused_socket(bridge, query="token=nope")
        await refused_socket(bridge, origin="http://evil.example")
        assert bridge.satchel_pids() == []
        async with page(bridge):
            assert len(bridge.satchel_pids()) == 1

    run(sockets())


# Static routes, in process, over a folder of the test's own


@pytest.fixture
def static_site(tmp_path, run):
    """``fetch(path, **headers) -> (status, headers, body)`` on an in-process bridge serving a folder with
    ``index.html``, ``app.css``, ``js/app.js``, a hidden file, an unknown type and a link out of the folder."""
    root = tmp_path / "static"
    (root / "js").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>t</title>")
    (root / "app.css").write_text("body{}")
    (root / "js" / "app.js").write_text("export {};")
    (root / ".secret").write_text("hidden")
    (root / "data.bin").write_bytes(b"\0\1")
    (tmp_path / "outside.txt").write_text("outside the folder")
    (root / "link.txt").symlink_to(tmp_path / "outside.txt")

    def fetch(path: str, headers: dict[str, str] | None = None) -> tuple[int, Any, str]:
        async def go() -> tuple[int, Any, str]:
            bridge = Bridge(Backend("satchel", None, ()), static=root)
            server = TestServer(bridge.app(), host="127.0.0.1")
            await server.start_server()
            bridge.guard.port = server.port
            try:
                async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
                    separator = "&" if "?" in path else "?"
                    url = URL(f"http://127.0.0.1:{server.port}{path}{separator}token={bridge.guard.token}",
                              encoded=True)
                    async with session.get(url, headers=headers or {}, allow_redirects=False) as response:
                        return response.status, response.headers, (await response.read()).decode("utf-8", "replace")
            finally:
                await server.close()

        return run(go())

    return fetch


def test_the_page_is_index_html_never_cached(static_site):
    status, headers, body = static_site("/")
    assert status == 200
    assert body.startswith("<!doctype html>")
    assert headers["Content-Type"].startswith("text/html")
    assert headers["Cache-Control"] == "no-store"
    assert headers["Content-Security-Policy"] == CSP
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_app_files_come_with_their_content_types(static_site):
    for path, kind in (("/app/js/app.js", "text/javascript"), ("/app/app.css", "text/css"),
                       ("/app/index.html", "text/html"), ("/app/data.bin", "application/octet-stream")):
        status, headers, _ = static_site(path)
        assert status == 200, path
        assert headers["Content-Type"].split(";")[0] == kind, path
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Content-Security-Policy"] == CSP


def test_app_files_never_list_a_folder_nor_leave_it(static_site):
    for path in ("/app/", "/app/js", "/app/js/", "/app/missing.js", "/app/.secret", "/app/link.txt",
                 "/app/../outside.txt", "/app/%2e%2e/outside.txt", "/app/js/..%2f..%2foutside.txt",
                 "/app/%2e%2e%2f%2e%2e%2foutside.txt", "/app//etc/passwd", "/app/js/../../outside.txt"):
        status, headers, body = static_site(path)
        assert status in (403, 404), path
        assert "outside the folder" not in body and "hidden" not in body and "app.js" not in body
        assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_real_app_folder_is_served_under_app(bridge):
    assert get(bridge, f"/app/js/?{token(bridge)}")[0] == 404
    assert get(bridge, f"/app/no-such-file.js?{token(bridge)}")[0] == 404
    assert get(bridge, f"/app/../bridge.py?{token(bridge)}")[0] == 404


# The relay


def test_calls_are_relayed_with_their_ids(bridge, run):
    async def relay() -> None:
        async with page(bridge) as socket:
            assert await socket.result("ping") == {}
            await socket.send({"jsonrpc": "2.0", "id": "text-id", "method": "ping"})
            assert await socket.answer("text-id") == {"jsonrpc": "2.0", "id": "text-id", "result": {}}
            note = await socket.result("notes.create", {"title": "Groceries"})
            assert note["title"] == "Groceries" and note["revision"] == 1
            assert (await socket.result("notes.get", {"id": note["id"]}))["title"] == "Groceries"
            missing = await socket.call("notes.get", {"id": "note_missing"})
            assert missing["error"]["code"] == -32001
            assert missing["error"]["data"] == {"reason": "notFound", "kind": "note", "id": "note_missing"}
            assert missing["error"]["message"]
            empty = await socket.call("notes.create", {"title": "   "})
            assert empty["error"]["code"] == -32002 and empty["error"]["data"]["reason"] == "emptyNote"
            unknown = await socket.call("notes.nothing")
            assert unknown["error"]["code"] == -32601

    run(relay())


def test_malformed_frames_get_errors_and_the_page_goes_on(bridge, run):
    async def malformed() -> None:
        async with page(bridge) as socket:
            (pid,) = bridge.satchel_pids()
            null_id = lambda m: isinstance(m, dict) and m.get("id") is None and "error" in m  # noqa: E731
            await socket.send("{not json")
            assert (await socket.wait(null_id))["error"]["code"] == -32700
            await socket.send('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}')
            assert (await socket.wait(null_id))["error"]["code"] == -32700
            await socket.send("[]")
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.send("42")
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": [1], "method": "ping"})
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.ws.send_bytes(b'{"jsonrpc":"2.0","id":5,"method":"ping"}')
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "1.0", "id": "v", "method": "ping"})
            assert (await socket.answer("v"))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": "m", "method": 7})
            assert (await socket.answer("m"))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": "p", "method": "ping", "params": "x"})
            assert (await socket.answer("p"))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": "s", "method": "ping", "params": {"x": "\ud800"}})
            assert (await socket.answer("s"))["error"]["code"] in (-32700, -32602)
            await socket.send({"jsonrpc": "2.0", "id": 99, "result": {}})  # a response: ignored
            assert await socket.result("ping") == {}
            assert bridge.satchel_pids() == [pid]
            assert bridge.process.poll() is None

    run(malformed())


def test_a_batch_is_answered_as_one_array(bridge, run):
    async def batch() -> None:
        async with page(bridge) as socket:
            await socket.send([{"jsonrpc": "2.0", "id": "a", "method": "ping"},
                               {"jsonrpc": "2.0", "method": "notifications/initialized"},
                               {"jsonrpc": "2.0", "id": "b", "method": "notes.get", "params": {"id": "note_x"}},
                               {"jsonrpc": "2.0", "id": "c"}])
            answers = await socket.wait(lambda m: isinstance(m, list))
            assert [answer["id"] for answer in answers] == ["a", "b", "c"]
            assert answers[0]["result"] == {}
            assert answers[1]["error"]["code"] == -32001
            assert answers[2]["error"]["code"] == -32600

    run(batch())


def test_the_feed_and_the_lifetime_stay_the_bridges(bridge, run):
    async def kept() -> None:
        async with page(bridge) as socket:
            (pid,) = bridge.satchel_pids()
            cursor = await socket.result("changes.subscribe", {"domains": ["board"]})
            assert isinstance(cursor["cursor"], str)
            assert await socket.result("changes.unsubscribe") == {"unsubscribed": False}
            for method in ("shutdown", "exit"):
                refused = await socket.call(method)
                assert refused["error"]["code"] == -32601
                assert refused["error"]["data"]["reason"] == "bridgeOwnsLifetime"
            await socket.send({"jsonrpc": "2.0", "method": "exit"})
            note = await socket.result("notes.create", {"title": "still subscribed"})
            change = await socket.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed")
            assert change["params"]["id"] == note["id"]
            assert await socket.result("ping") == {}
            assert bridge.satchel_pids() == [pid]

    run(kept())


def test_a_slow_request_does_not_hold_up_the_bridge(bridge_factory, slow_feed, run):
    bridge = bridge_factory("--messages-feed", slow_feed.url, "--feed-timeout", "60")

    async def slow() -> None:
        async with page(bridge) as socket:
            loading = await socket.request("messages.loadMore", {"limit": 5})
            assert slow_feed.asked.wait(10)
            # answered by the bridge itself while the satchel still waits for the feed
            answer = await socket.call("changes.unsubscribe", timeout=2)
            assert answer["result"] == {"unsubscribed": False}
            slow_feed.release.set()
            assert "result" in await socket.answer(loading, timeout=20)

    run(slow())


# Pages


def test_a_change_on_one_page_reaches_the_other(bridge, run):
    async def two_pages() -> None:
        async with page(bridge) as writer, page(bridge) as reader:
            note = await writer.result("notes.create", {"title": "From the first window"})
            change = await reader.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed"
                                       and m["params"]["id"] == note["id"], timeout=5)
            params = change["params"]
            assert set(params) == {"seq", "at", "domain", "kind", "id", "entity"}
            assert (params["domain"], params["kind"]) == ("notes", "created")
            assert params["entity"]["title"] == "From the first window"
            await writer.result("notes.delete", {"id": note["id"]})
            gone = await reader.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed"
                                     and m["params"]["kind"] == "deleted", timeout=5)
            assert gone["params"]["entity"] is None

    run(two_pages())


def test_each_page_has_a_satchel_and_a_language_of_its_own_that_end_with_it(bridge, run):
    async def pages() -> None:
        async with page(bridge) as russian:
            (first,) = bridge.satchel_pids()
            await russian.result("initialize", {"locale": "ru"})
            async with page(bridge) as english:
                pids = bridge.satchel_pids()
                assert len(pids) == 2 and first in pids
                message = (await english.call("notes.get", {"id": "note_x"}))["error"]["message"]
                assert not CYRILLIC.search(message)
                assert CYRILLIC.search((await russian.call("notes.get", {"id": "note_x"}))["error"]["message"])
            assert until(lambda: bridge.satchel_pids() == [first])
        assert until(lambda: bridge.satchel_pids() == [])

    run(pages())


def test_satchel_flags_go_to_every_page_and_demo_only_to_the_first_satchel(bridge_factory, run):
    bridge = bridge_factory("--demo", "--locale", "ja")

    async def seeded() -> None:
        async with page(bridge) as socket:
            info = await socket.result("server.info")
            assert info["database"] == str(bridge.db)
            assert info["counts"]["board"] == 20
            assert JAPANESE.search((await socket.call("notes.get", {"id": "note_x"}))["error"]["message"])
            (pid,) = bridge.satchel_pids()
            argv = cmdline(pid)
            assert "--demo" not in argv
            assert argv[argv.index("--locale") + 1] == "ja"
            assert argv[argv.index("--db") + 1] == str(bridge.db)

    run(seeded())


# A satchel that dies


@pytest.fixture
def slow_feed() -> Iterator[Any]:
    """A messages feed that answers only once ``release`` is set; ``asked`` is set when it is asked."""

    class Feed(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            feed.asked.set()
            feed.release.wait(60)
            body = json.dumps({"result": ["one", "two"]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feed)
    server.daemon_threads = True
    feed = type("SlowFeed", (), {})()
    feed.asked, feed.release = threading.Event(), threading.Event()
    feed.url = f"http://127.0.0.1:{server.server_port}/history"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield feed
    feed.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def slow_start(tmp_path) -> Iterator[Any]:
    """``binary``: a satchel that takes a second to start while the file ``hold`` exists, and fails to
    start while ``fail`` exists."""
    real = os.environ.get("SATCHEL_BINARY") or "satchel"
    wrapper = tmp_path / "satchel"
    hold, fail = tmp_path / "hold", tmp_path / "fail"
    wrapper.write_text(f'#!/bin/sh\nif [ -e "{fail}" ]; then echo "not today" >&2; exit 3; fi\n'
                       f'if [ -e "{hold}" ]; then sleep 1; fi\nexec "{real}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    yield type("SlowStart", (), {"binary": str(wrapper), "hold": hold, "fail": fail})()


def test_kill_9_restarts_the_pages_satchel_and_keeps_its_language(bridge_factory, slow_feed, slow_start, run):
    bridge = bridge_factory("--binary", slow_start.binary, "--messages-feed", slow_feed.url, "--feed-timeout", "60")

    async def killed() -> None:
        async with page(bridge) as socket:
            await socket.result("initialize", {"locale": "ru"})
            loading = await socket.request("messages.loadMore", {"limit": 5})
            assert slow_feed.asked.wait(10)
            behind = await socket.request("ping")  # in flight too: the satchel answers in order
            (pid,) = bridge.satchel_pids()
            slow_start.hold.touch()
            os.kill(pid, signal.SIGKILL)

            order = [await socket.receive()]
            assert is_status(order[0], "restarting")
            waiting = await socket.request("ping")  # while the new satchel starts
            for id in (loading, behind):
                answer = await socket.answer(id)
                assert answer["error"] == {"code": -32099, "message": "The server stopped; it is starting again",
                                           "data": {"reason": "serverRestarted"}}
            slow_start.hold.unlink()
            while not is_status(message := await socket.receive(), "ready"):
                order.append(message)
            assert not any(isinstance(m, dict) and m.get("id") == waiting for m in order)
            assert await socket.answer(waiting) == {"jsonrpc": "2.0", "id": waiting, "result": {}}

            (new,) = bridge.satchel_pids()
            assert new != pid
            assert await socket.result("ping") == {}
            message = (await socket.call("notes.get", {"id": "note_x"}))["error"]["message"]
            assert CYRILLIC.search(message), message
            note = await socket.result("notes.create", {"title": "after the restart"})
            change = await socket.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed")
            assert change["params"]["id"] == note["id"]

    run(killed())


# Databases and the end


def test_memory_shares_one_temporary_database_and_removes_it_at_exit(bridge_factory, run):
    bridge = bridge_factory("--memory", db=None)
    databases: list[pathlib.Path] = []

    async def shared() -> None:
        async with page(bridge) as first, page(bridge) as second:
            for socket in (first, second):
                databases.append(pathlib.Path((await socket.result("server.info"))["database"]))
            note = await first.result("notes.create", {"title": "shared"})
            items = (await second.result("notes.list"))["items"]
            assert [item["id"] for item in items] == [note["id"]]

    run(shared())
    path = databases[0]
    assert databases == [path, path]
    assert path.is_file()
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    bridge.stop()
    assert bridge.process.returncode == 0
    assert not path.exists() and not path.parent.exists()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_closes_every_satchel_and_exits_0(bridge_factory, run, signum):
    bridge = bridge_factory()
    pids: list[int] = []

    async def open_pages() -> None:
        async with page(bridge) as first, page(bridge) as second:
            pids.extend(bridge.satchel_pids())
            assert len(pids) == 2
            bridge.process.send_signal(signum)
            for socket in (first, second):
                frame = await socket.ws.receive(10)
                assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED)
            assert bridge.process.wait(20) == 0

    run(open_pages())
    assert [pid for pid in pids if alive(pid)] == []


def test_a_satchel_that_does_not_start_again_is_tried_until_it_does(bridge_factory, slow_start, run):
    bridge = bridge_factory("--binary", slow_start.binary)

    async def retried() -> None:
        async with page(bridge) as socket:
            (pid,) = bridge.satchel_pids()
            slow_start.fail.touch()
            os.kill(pid, signal.SIGKILL)
            await socket.status("restarting")
            waiting = await socket.request("ping")
            await asyncio.sleep(2)
            assert not any(is_status(m, "ready") or m.get("id") == waiting for m in socket.backlog)
            with pytest.raises(asyncio.TimeoutError):
                await socket.receive(timeout=0.5)
            slow_start.fail.unlink()
            await socket.status("ready", timeout=15)
            assert await socket.answer(waiting) == {"jsonrpc": "2.0", "id": waiting, "result": {}}
            assert bridge.process.poll() is None

    run(retried())
