"""The bridge: serves the static app and gives every open page a WebSocket backed by a satchel of its own.

A page is one JSON-RPC connection. Its WebSocket carries one JSON-RPC 2.0 message per text frame: requests
from the page go to the page's satchel (each in a task of its own) and their answers come back with the page's
ids; ``changed`` and the server's other notifications go to the page. The bridge adds two notifications of
its own, ``bridge/status`` with ``{"state": "ready", "page": KEY}`` (the satchel is up and subscribed; the
page may load what it shows; ``KEY`` names the page to ``POST /uploads``) and ``{"state": "restarting"}``
(the satchel died; the bridge is starting a new one).

What the bridge does not relay (``security.relay_refusal``): any method outside ``security.PAGE_METHODS``
(the five apps' and the session's: never ``export``, ``import``, ``tools/call``), ``-32601`` with
``data.reason: "notRelayed"``; and any params that hold a ``path`` at any depth, ``-32602`` with
``data.reason: "pathNotRelayed"``. Of the methods it allows, it answers these itself:

- ``changes.subscribe``: the bridge subscribes every page's satchel to all domains itself and forwards every
  ``changed``; the page's request is answered ``{"cursor": C}``, the feed's current cursor (from
  ``changes.since``), and its ``domains`` are ignored.
- ``changes.unsubscribe``: answered ``{"unsubscribed": false}``; the page's feed stays on.
- ``shutdown`` and ``exit``: the bridge owns the satchel's lifetime; they are ``-32601``
  (``data.reason: "bridgeOwnsLifetime"``).

What the bridge adds: ``bridge/export`` and ``bridge/import``, the page's satchel exporting into and
importing from a private file that the page downloads from ``GET /data/exports/ID`` and uploads to
``POST /data/imports`` (``exchange``); stored images at ``GET /images/ID?size=``, and picked photos sent as
files to ``POST /uploads?page=KEY`` (``images``). The server's ``notifications/progress`` for a request that
carried ``_meta.progressToken`` reach the page like every other notification.

Errors of the bridge's own: ``-32700``/``-32600`` for frames that are not JSON-RPC, ``-32099``
(``data.reason: "serverRestarted"``) for requests in flight when the satchel died, ``-32603`` for a failure
of the bridge itself.

It listens on 127.0.0.1 only; ``security`` checks every request first, ``assets`` serves the static app,
``page`` runs each page's socket and satchel, ``exchange`` moves export and import files, ``images``
serves stored images at ``GET /images/ID?size=`` as images, and ``frames`` reads and writes the socket's
messages.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pathlib
import secrets
import shutil
import signal
import tempfile
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSCloseCode, web
from satchel_client import ServerExited

from .assets import STATIC, static_routes
from .exchange import MAX_UPLOAD_BYTES, Exchange
from .images import Images
from .page import Backend, PageSession
from .security import Guard, add_security_headers, guard_middleware

LOG = logging.getLogger("satchel.web")


#: The largest frame a page may send: above the server's default line limit (32 MiB), so that the server,
#: not the socket, refuses a message that is too large, with an answer the page can show.
MAX_FRAME_BYTES = 64 * 1024 * 1024
#: Seconds between WebSocket pings: a page whose machine went away is noticed and its satchel closed.
HEARTBEAT = 30.0



# Configuration


@dataclass(frozen=True)
class Options:
    """What the command line asks for. ``args`` are the flags every satchel gets (without ``--db``,
    ``--memory`` and ``--demo``, which the bridge handles)."""

    binary: str
    port: int = 8765
    db: str | None = None
    memory: bool = False
    demo: bool = False
    args: tuple[str, ...] = ()
    static: pathlib.Path = STATIC
    max_import_bytes: int = MAX_UPLOAD_BYTES


# The bridge


@dataclass
class Bridge:
    """The HTTP server, its pages and their satchels."""

    backend: Backend
    static: pathlib.Path = STATIC
    guard: Guard = field(default_factory=lambda: Guard(secrets.token_urlsafe(32)))
    pages: set[PageSession] = field(default_factory=set)
    files: Exchange = field(default_factory=Exchange)
    stopping: bool = False

    def app(self) -> web.Application:
        app = web.Application(middlewares=[guard_middleware(self.guard)])
        images = Images(lambda: list(self.pages))
        app.add_routes([*static_routes(self.static), *self.files.routes(), *images.routes(),
                        web.get("/ws", self.websocket)])
        app.on_response_prepare.append(add_security_headers)
        app.on_shutdown.append(lambda _: self.close_pages())
        app.on_cleanup.append(self._remove_files)
        return app

    async def _remove_files(self, _: web.Application) -> None:
        self.files.close()

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """``GET /ws``: a page's JSON-RPC connection, backed by a satchel of its own."""
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME_BYTES)
        await ws.prepare(request)
        if self.stopping:
            await ws.close(code=WSCloseCode.GOING_AWAY)
            return ws
        page = PageSession(ws, self.backend, self.files)
        self.pages.add(page)
        LOG.info("page connected from %s", request.remote)
        try:
            await page.run()
        finally:
            self.pages.discard(page)
            await page.close()
        return ws

    async def close_pages(self) -> None:
        """Closes every page's socket and satchel."""
        self.stopping = True
        await asyncio.gather(*(page.close() for page in list(self.pages)), return_exceptions=True)

    def url(self) -> str:
        return f"http://127.0.0.1:{self.guard.port}/?token={self.guard.token}"


async def check_backend(backend: Backend, demo: bool) -> None:
    """Starts one satchel with the flags every page will get (and ``--demo``, which fills an empty database
    once), pings it and closes it: a wrong binary or flag is reported now, not on the first page."""
    satchel = backend.satchel(["--demo"] if demo else [])
    try:
        await satchel.start()
        await asyncio.wait_for(satchel.ping(), 60)
    finally:
        await satchel.close()


async def serve(bridge: Bridge, port: int, demo: bool) -> int:
    """Checks the backend, listens, prints the URL and serves until SIGINT or SIGTERM; the exit code."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await check_backend(bridge.backend, demo)
    except (ServerExited, OSError, asyncio.TimeoutError) as problem:
        LOG.error("satchel does not start with these flags: %s", problem)
        return 2
    if stop.is_set():
        return 0
    runner = web.AppRunner(bridge.app(), shutdown_timeout=5.0, access_log=None)
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, "127.0.0.1", port).start()
        except OSError as problem:
            LOG.error("cannot listen on 127.0.0.1:%d: %s (--port 0 takes any free port)", port, problem)
            return 1
        bridge.guard.port = runner.addresses[0][1]
        print(f"Satchel web: {bridge.url()}", flush=True)
        LOG.info("serving %s on port %d", bridge.static, bridge.guard.port)
        await stop.wait()
        LOG.info("stopping")
    finally:
        await bridge.close_pages()
        await runner.cleanup()
    return 0


@contextlib.contextmanager
def database(options: Options) -> Any:
    """The database every page shares: ``--db``, a temporary file for ``--memory`` (removed with its
    folder at the end), or ``None`` for the server's own default."""
    if not options.memory:
        yield options.db
        return
    folder = tempfile.mkdtemp(prefix="satchel-web-")
    try:
        yield os.path.join(folder, "satchel.sqlite")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        LOG.info("removed the temporary database %s", folder)


def run(options: Options) -> int:
    """Runs the bridge until SIGINT or SIGTERM; the process's exit code."""
    with database(options) as db:
        bridge = Bridge(Backend(options.binary, db, options.args), static=options.static,
                        files=Exchange(options.max_import_bytes))
        return asyncio.run(serve(bridge, options.port, options.demo))
