"""Shared helpers: a slow upstream feed (to hold a call in flight) and stand-in servers for the few
behaviours the real binary never shows (a notification other than ``changed``, a server that ignores
``shutdown``). Every other test runs the real ``satchel`` ($SATCHEL_BINARY, else the checkout's build)."""
from __future__ import annotations

import http.server
import json
import pathlib
import sys
import textwrap
import threading
import time

import pytest

pytest_plugins = ["pytester"]


class SlowFeed(http.server.ThreadingHTTPServer):
    """An upstream chat feed on 127.0.0.1 that answers each request after ``delay`` seconds."""

    daemon_threads = True

    def __init__(self, delay: float) -> None:
        self.delay = delay
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                time.sleep(server.delay)
                body = json.dumps({"result": ["one", "two"]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # the server asking was killed or gave up: nothing to report

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/history"


@pytest.fixture
def slow_feed():
    """``slow_feed(delay)`` starts a feed whose answers take ``delay`` seconds; its URL is ``.url``."""
    started = []

    def start(delay: float) -> SlowFeed:
        feed = SlowFeed(delay)
        threading.Thread(target=feed.serve_forever, daemon=True).start()
        started.append(feed)
        return feed

    yield start
    for feed in started:
        feed.shutdown()
        feed.server_close()


@pytest.fixture
def stand_in(tmp_path: pathlib.Path):
    """``stand_in(body)`` writes an executable Python server whose main loop is ``body`` (with ``answer``
    and ``send`` defined), and returns its path."""

    def write(body: str) -> str:
        path = tmp_path / "stand-in-server"
        path.write_text(
            f"#!{sys.executable}\n"
            "import json, sys, time, signal\n"
            "def send(message):\n"
            "    sys.stdout.write(json.dumps(message) + '\\n'); sys.stdout.flush()\n"
            "def answer(request, result):\n"
            "    send({'jsonrpc': '2.0', 'id': request['id'], 'result': result})\n"
            + textwrap.dedent(body)
        )
        path.chmod(0o755)
        return str(path)

    return write


