"""The bridge without a browser: its command line, its security checks and the static routes, against the
real ``python -m satchel_web`` and a real satchel (``$SATCHEL_BINARY``)."""
from __future__ import annotations

import pathlib
import re
import subprocess
import sys
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from yarl import URL

from satchel_web.bridge import Bridge
from satchel_web.page import Backend
from satchel_web.security import CSP
from bridge_pages import cookie, get, page, post, refused_socket, token

pytestmark = pytest.mark.timeout(120)


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


def test_the_export_and_import_routes_need_the_token_and_the_own_origin(bridge):
    own = {"Origin": bridge.origin}
    evil = {"Origin": "http://evil.example"}
    for headers in ({}, own, {**cookie(bridge), **evil}, {**cookie(bridge), "Origin": "null"},
                    {**cookie(bridge), "Host": "evil.example"}):
        status, _, body = get(bridge, "/data/exports/anything", headers)
        assert status == 403, headers
        assert "Forbidden" in body
    document = b'{"format": "satchel", "version": 1}'
    for headers in ({}, own, {**cookie(bridge), **evil}, {**cookie(bridge), "Origin": "null"},
                    cookie(bridge),  # anything but GET must say where it comes from
                    {**cookie(bridge), **own, "Host": f"evil.example:{bridge.port}"}):
        status, _, body = post(bridge, "/data/imports", document, headers)
        assert status == 403, headers
        assert "Forbidden" in body
    # A form on another site posting to the bridge: the browser sends its Origin (and, the cookie being
    # SameSite=Strict, no token); with the token in the query it is still refused for the Origin.
    form = {"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"}
    assert post(bridge, "/data/imports", b"format=satchel", form)[0] == 403
    assert post(bridge, f"/data/imports?{token(bridge)}", b"format=satchel", form)[0] == 403
    assert post(bridge, f"/data/imports?{token(bridge)}", b"format=satchel",
                {"Content-Type": "text/plain", "Origin": "null"})[0] == 403
    assert not any("pass through" in line for line in bridge.stderr)  # no file was made
    assert bridge.satchel_pids() == []

    status, headers, body = post(bridge, "/data/imports", document, {**cookie(bridge), **own})
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert headers["Content-Security-Policy"] == CSP
    assert get(bridge, "/data/exports/anything", cookie(bridge))[0] == 404


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


# What a page may ask


def test_the_allowlist_holds_what_the_app_calls_and_only_methods_the_server_has():
    """Every method the static app calls is relayed (else a screen would break), and every relayed method is
    one the server or the bridge has: the list cannot drift from either."""
    from satchel_client import Satchel
    from satchel_web.assets import STATIC
    from satchel_web.security import PAGE_METHODS

    called = set()
    for script in (STATIC / "js").glob("*.js"):
        called |= set(re.findall(r"""(?:call|pagedList)\(\s*(?:rpc,\s*)?['"]([\w./]+)['"]""", script.read_text()))
    assert {"notes.create", "photos.add", "diary.update", "bridge/export", "reminders.list"} <= called
    assert called <= PAGE_METHODS, called - PAGE_METHODS
    with Satchel(memory=True) as server:
        methods = {method["name"] for method in server.call("rpc.discover")["methods"]}
    assert PAGE_METHODS - methods == {"bridge/export", "bridge/import"}
    assert not {"export", "import", "tools/call", "shutdown", "exit"} & PAGE_METHODS


def test_a_path_is_found_at_any_depth():
    from satchel_web.security import names_a_path

    assert names_a_path({"image": {"path": "/x"}})
    assert names_a_path(["text", [{"data": "", "path": "/x"}]])
    assert names_a_path({"path": None})
    assert not names_a_path({"title": "path", "content": "/etc/passwd"})
    assert not names_a_path(["path", {"paths": 1}])
    assert not names_a_path(None)
