"""Talking to a running bridge as a page does, over HTTP and its WebSocket, and looking at its processes."""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import pathlib
import re
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

Message = dict[str, Any]
CYRILLIC = re.compile("[А-Яа-яЁё]")
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


# HTTP


def get(bridge, path: str, headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, str]:
    """``GET path`` on ``bridge`` with exactly ``headers`` (``Host`` is the bridge's unless given)."""
    return send(bridge, "GET", path, headers)


def post(bridge, path: str, body: bytes, headers: dict[str, str] | None = None
         ) -> tuple[int, http.client.HTTPMessage, str]:
    """``POST path`` with ``body`` on ``bridge``, with exactly ``headers`` (and the bridge's ``Host``)."""
    return send(bridge, "POST", path, headers, body)


def send(bridge, method: str, path: str, headers: dict[str, str] | None = None, body: bytes | None = None
         ) -> tuple[int, http.client.HTTPMessage, str]:
    connection = http.client.HTTPConnection("127.0.0.1", bridge.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers={"Host": f"127.0.0.1:{bridge.port}", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def token(bridge) -> str:
    return f"token={bridge.token}"


def cookie(bridge) -> dict[str, str]:
    """The header that carries the token as the page's cookie."""
    return {"Cookie": f"satchel_token_{bridge.port}={bridge.token}"}


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
    if not (isinstance(message, dict) and message.get("method") == "bridge/status"):
        return False
    params = message.get("params")
    if state == "ready":  # names the page for its HTTP routes: a key of its own, nothing else
        return set(params) == {"state", "page"} and params["state"] == "ready" and len(params["page"]) >= 16
    return params == {"state": state}


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
