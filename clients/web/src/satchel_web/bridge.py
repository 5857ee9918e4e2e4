"""The bridge: serves the static app and gives every open page a WebSocket backed by a satchel of its own.

A page is one JSON-RPC connection. Its WebSocket carries one JSON-RPC 2.0 message per text frame: requests
from the page go to the page's satchel (each in a task of its own) and their answers come back with the page's
ids; ``changed`` and the server's other notifications go to the page. The bridge adds two notifications of
its own, ``bridge/status`` with ``{"state": "ready"}`` (the satchel is up and subscribed; the page may load
what it shows) and ``{"state": "restarting"}`` (the satchel died; the bridge is starting a new one).

What the bridge does not relay:

- ``changes.subscribe``: the bridge subscribes every page's satchel to all domains itself and forwards every
  ``changed``; the page's request is answered ``{"cursor": C}``, the feed's current cursor (from
  ``changes.since``), and its ``domains`` are ignored.
- ``changes.unsubscribe``: answered ``{"unsubscribed": false}``; the page's feed stays on.
- ``shutdown`` and ``exit``: the bridge owns the satchel's lifetime; they are ``-32601``
  (``data.reason: "bridgeOwnsLifetime"``).

Errors of the bridge's own: ``-32700``/``-32600`` for frames that are not JSON-RPC, ``-32099``
(``data.reason: "serverRestarted"``) for requests in flight when the satchel died, ``-32603`` for a failure
of the bridge itself.

Security, as Jupyter server does it: it listens on 127.0.0.1 only, and every request must carry the launch's
token (``?token=``, then an HttpOnly cookie), name the bridge in ``Host`` and, when it has an ``Origin``
(a WebSocket must), come from the app's own origin. Anything else is 403 before any route is reached.
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import pathlib
import secrets
import shutil
import signal
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from satchel_client import AsyncSatchel, SatchelError, ServerExited

LOG = logging.getLogger("satchel.web")

STATIC = pathlib.Path(__file__).resolve().parent / "static"
COOKIE = "satchel_token_{port}"  # named by port: two bridges on one machine keep a cookie each
CSP = ("default-src 'self'; img-src 'self' data: blob: http: https:; connect-src 'self'; "
       "style-src 'self' 'unsafe-inline'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".ttf": "font/ttf",
}
FALLBACK_CONTENT_TYPE = "application/octet-stream"

#: The largest frame a page may send: above the server's default line limit (32 MiB), so that the server,
#: not the socket, refuses a message that is too large, with an answer the page can show.
MAX_FRAME_BYTES = 64 * 1024 * 1024
#: Seconds between WebSocket pings: a page whose machine went away is noticed and its satchel closed.
HEARTBEAT = 30.0
#: Seconds before starting a satchel, by how many in a row failed to start or died young: a satchel that
#: keeps failing is tried less and less often.
RESTART_DELAYS = (0.0, 0.0, 0.5, 1.0, 2.0, 5.0)
#: Seconds a satchel must have run for its death to count as a fresh start, not as one more failure.
STABLE_AFTER = 10.0

RESTARTED = -32099
RESTARTED_MESSAGE = "The server stopped; it is starting again"
NOT_RELAYED = frozenset({"shutdown", "exit"})

JSON = Any


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


@dataclass(frozen=True)
class Backend:
    """How a page's satchel is started: the binary, the database every page shares (``None``: the server's
    own default) and the other flags."""

    binary: str
    db: str | None
    args: tuple[str, ...]

    def satchel(self, extra: Sequence[str] = (), **options: Any) -> AsyncSatchel:
        """A new, not yet started, ``AsyncSatchel`` on the shared database."""
        return AsyncSatchel(self.binary, db=self.db, args=[*self.args, *extra], timeout=None, **options)


# Security


@dataclass
class Guard:
    """The checks every request passes before anything else: the token, ``Host`` and ``Origin``."""

    token: str
    port: int | None = None  # known once the socket is bound; until then every request is refused

    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}

    def origins(self) -> set[str]:
        return {f"http://{host}" for host in self.hosts()}

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` is refused, or ``None`` when it may go on."""
        if self.port is None:
            return "not ready"
        if request.headers.get("Host", "").lower() not in self.hosts():
            return "unknown Host"
        origin = request.headers.get("Origin")
        if origin is None and request.path == "/ws":
            return "a WebSocket needs an Origin"
        if origin is not None and origin.lower() not in self.origins():
            return "foreign Origin"
        if not (self.matches(request.query.get("token")) or self.matches(request.cookies.get(self.cookie))):
            return "missing or wrong token"
        return None

    @property
    def cookie(self) -> str:
        """The cookie that carries the token: cookies ignore ports, so its name holds this bridge's."""
        return COOKIE.format(port=self.port)

    def matches(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is the token, compared in constant time."""
        return candidate is not None and hmac.compare_digest(candidate.encode("utf-8", "replace"), self.token.encode())


def guard_middleware(guard: Guard) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Refuses with 403 what ``guard`` refuses; keeps a token from the query in a cookie."""

    @web.middleware
    async def middleware(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                         ) -> web.StreamResponse:
        reason = guard.refusal(request)
        if reason is not None:
            LOG.warning("refused %s %s from %s: %s", request.method, request.path, request.remote, reason)
            return web.Response(status=403, text=f"403 Forbidden: {reason}\n")
        response = await handler(request)
        if guard.matches(request.query.get("token")) and not response.prepared:
            response.set_cookie(guard.cookie, guard.token, path="/", httponly=True, samesite="Strict")
        return response

    return middleware


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, refusals and errors included, says what the page may load and that types are exact."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


# Static files


def static_file(root: pathlib.Path, tail: str) -> pathlib.Path | None:
    """The file under ``root`` that ``tail`` names, or ``None``: never a folder, a hidden file or anything
    outside ``root`` (through ``..`` or a link)."""
    parts = tail.split("/")
    if not tail or "\\" in tail or "\0" in tail or any(part in ("", ".", "..") or part.startswith(".")
                                                        for part in parts):
        return None
    base = root.resolve()
    path = (base / tail).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        return None
    return path


def content_type(path: pathlib.Path) -> str:
    return CONTENT_TYPES.get(path.suffix.lower(), FALLBACK_CONTENT_TYPE)


def static_routes(root: pathlib.Path) -> list[web.RouteDef]:
    """``GET /`` (the page, never cached) and ``GET /app/{path}`` (what it loads)."""

    async def index(request: web.Request) -> web.StreamResponse:
        path = root / "index.html"
        if not path.is_file():
            raise web.HTTPNotFound(text="404 Not Found: the app is not installed\n")
        return web.FileResponse(path, headers={"Cache-Control": "no-store", "Content-Type": content_type(path)})

    async def asset(request: web.Request) -> web.StreamResponse:
        path = static_file(root, request.match_info["tail"])
        if path is None:
            raise web.HTTPNotFound(text="404 Not Found\n")
        return web.FileResponse(path, headers={"Cache-Control": "no-cache", "Content-Type": content_type(path)})

    return [web.get("/", index), web.get("/app/{tail:.*}", asset)]


# JSON-RPC messages


def notification(method: str, params: JSON) -> dict[str, JSON]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def status(state: str) -> dict[str, JSON]:
    return notification("bridge/status", {"state": state})


def result(id: JSON, value: JSON) -> dict[str, JSON]:
    return {"jsonrpc": "2.0", "id": id, "result": value}


def error(id: JSON, code: int, message: str, data: JSON = None) -> dict[str, JSON]:
    body: dict[str, JSON] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": id, "error": body}


def restarted(id: JSON) -> dict[str, JSON]:
    return error(id, RESTARTED, RESTARTED_MESSAGE, {"reason": "serverRestarted"})


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def parse_frame(text: str) -> JSON:
    """The message in a text frame; raises ``ValueError`` (with the answer to send) when it is not JSON."""
    try:
        return json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError(error(None, -32600, "Invalid request: nested too deeply", {"reason": "tooDeep"})) from None
    except ValueError as problem:
        raise ValueError(error(None, -32700, "Parse error", {"reason": "invalidJSON", "detail": str(problem)})
                         ) from None


def _valid_id(value: JSON) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


@dataclass(frozen=True)
class Call:
    """One request (``has_id``) or notification from the page."""

    method: str
    params: JSON
    id: JSON = None
    has_id: bool = False


def read_call(message: JSON) -> Call | dict[str, JSON] | None:
    """A message from the page as a ``Call``, the error answer it gets, or ``None`` (a response: ignored)."""
    if not isinstance(message, dict):
        return error(None, -32600, "Invalid request: not an object", {"reason": "notAnObject"})
    has_id = "id" in message
    id = message.get("id")
    if not _valid_id(id):
        return error(None, -32600, "Invalid request: id must be a string, an integer or null", {"reason": "invalidId"})
    if "method" not in message and ("result" in message or "error" in message):
        return None
    if message.get("jsonrpc") != "2.0":
        return error(id, -32600, 'Invalid request: jsonrpc must be "2.0"', {"reason": "invalidVersion"})
    if not isinstance(message.get("method"), str):
        return error(id, -32600, "Invalid request: method must be a string", {"reason": "invalidMethod"})
    params = message.get("params")
    if params is not None and not isinstance(params, (dict, list)):
        return error(id, -32600, "Invalid request: params must be an object or an array", {"reason": "invalidParams"})
    return Call(message["method"], params, id, has_id)


def encode(message: JSON) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# A page


class PageSession:
    """One page: its WebSocket, its satchel, and the relay between them.

    Everything sent to the page goes through one queue and one writer task, so messages leave in the order
    they were produced (``restarting`` before the errors of the requests it cut short).
    """

    def __init__(self, ws: web.WebSocketResponse, backend: Backend) -> None:
        self.ws = ws
        self.backend = backend
        self.satchel: AsyncSatchel | None = None
        self._ready = asyncio.Event()
        self._initialize: tuple[JSON] | None = None  # the params of the page's last accepted `initialize`
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._feed: asyncio.Task[None] | None = None
        self._failures = 0  # satchels in a row that did not start or died young
        self._up_since = 0.0
        self._closed = False
        self._closing: asyncio.Future[None] | None = None

    # Lifetime

    async def run(self) -> None:
        """Relays until the page goes (or the bridge closes the socket)."""
        self._spawn(self._write_loop())
        self._spawn(self._launch())
        async for frame in self.ws:
            if frame.type == WSMsgType.TEXT:
                self._received(frame.data)
            elif frame.type == WSMsgType.BINARY:
                self._emit(error(None, -32600, "Invalid request: frames are text", {"reason": "binaryFrame"}))
            elif frame.type == WSMsgType.ERROR:
                LOG.warning("page socket error: %s", self.ws.exception())
                break

    async def close(self, code: int = WSCloseCode.GOING_AWAY) -> None:
        """Ends the page: its tasks, its socket and its satchel (once, however many ask)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close(code))
        await asyncio.shield(self._closing)

    async def _close(self, code: int) -> None:
        self._closed = True
        current = asyncio.current_task()
        tasks = [task for task in (*self._tasks, self._feed) if task is not None and task is not current]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(self._close_socket(code), self._close_satchel())

    async def _close_socket(self, code: int) -> None:
        if not self.ws.closed:
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, message=b"satchel-web is closing")

    async def _close_satchel(self) -> None:
        if self.satchel is not None:
            await self.satchel.close()
            LOG.info("page gone; satchel %s closed", self.satchel.pid)

    def _spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # The satchel

    async def _launch(self) -> None:
        """Starts a satchel, replays ``initialize``, subscribes, forwards its changes; says ``ready``.
        A satchel that does not come up is tried again, less and less often."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            await asyncio.sleep(RESTART_DELAYS[min(self._failures, len(RESTART_DELAYS) - 1)])
            satchel = self.backend.satchel(on_notification=self._notified)
            self.satchel = satchel
            try:
                await self._prepare(satchel)
            except Exception as problem:  # noqa: BLE001 - whatever stops it, the page waits for the next try
                self._failures += 1
                LOG.warning("satchel did not start (%d in a row): %s", self._failures, problem,
                            exc_info=not isinstance(problem, (ServerExited, OSError)))
                await satchel.close()
                continue
            self._up_since = loop.time()
            self._feed = asyncio.ensure_future(self._forward_changes(satchel))
            self._ready.set()
            self._emit(status("ready"))
            LOG.info("page ready on satchel %s", satchel.pid)
            return

    async def _prepare(self, satchel: AsyncSatchel) -> None:
        await satchel.start()
        if self._initialize is not None:
            try:
                await satchel.call("initialize", self._initialize[0])
            except SatchelError as problem:
                LOG.warning("the page's initialize was refused on restart: %s", problem)
        await satchel.subscribe()

    async def _forward_changes(self, satchel: AsyncSatchel) -> None:
        try:
            async for change in satchel.changes():
                self._emit(notification("changed", {
                    "seq": change.seq, "at": change.at, "domain": change.domain, "kind": change.kind,
                    "id": change.id, "entity": change.entity,
                }))
        except ServerExited:
            self._exited(satchel)

    def _notified(self, method: str, params: JSON) -> None:
        """The server's notifications other than ``changed`` go to the page as they are."""
        self._emit(notification(method, params) if params is not None else {"jsonrpc": "2.0", "method": method})

    def _exited(self, satchel: AsyncSatchel) -> None:
        """``satchel`` is gone: unless the page is closing (or this was already seen), start another."""
        if self._closed or satchel is not self.satchel or not self._ready.is_set():
            return
        self._ready.clear()
        young = asyncio.get_running_loop().time() - self._up_since < STABLE_AFTER
        self._failures = self._failures + 1 if young else 0
        LOG.warning("satchel %s exited (code %s); starting it again", satchel.pid, satchel.returncode)
        self._emit(status("restarting"))
        self._spawn(self._relaunch(satchel))

    async def _relaunch(self, old: AsyncSatchel) -> None:
        await old.close()
        await self._launch()

    async def _ready_satchel(self) -> AsyncSatchel:
        """The page's satchel, once it is up (requests that arrive while it restarts wait here)."""
        await self._ready.wait()
        assert self.satchel is not None
        return self.satchel

    # From the page

    def _received(self, text: str) -> None:
        try:
            message = parse_frame(text)
        except ValueError as problem:
            self._emit(problem.args[0])
            return
        if isinstance(message, list):
            self._spawn(self._batch(message))
            return
        call = read_call(message)
        if isinstance(call, Call):
            self._spawn(self._relay(call))
        elif call is not None:
            self._emit(call)

    async def _relay(self, call: Call) -> None:
        answer = await self._answer(call)
        if answer is not None:
            self._emit(answer)

    async def _batch(self, messages: list[JSON]) -> None:
        """A batch: each entry handled as a message of its own, the answers sent together as one array."""
        if not messages:
            self._emit(error(None, -32600, "Invalid request: empty batch", {"reason": "emptyBatch"}))
            return
        calls = [read_call(message) for message in messages]
        answers = await asyncio.gather(*(self._answer(call) if isinstance(call, Call) else _settled(call)
                                         for call in calls))
        answered = [answer for answer in answers if answer is not None]
        if answered:
            self._emit(answered)

    async def _answer(self, call: Call) -> dict[str, JSON] | None:
        """The answer to one call from the page (``None`` for a notification)."""
        try:
            if call.method in NOT_RELAYED:
                return self._not_relayed(call)
            if call.method == "changes.unsubscribe":
                return result(call.id, {"unsubscribed": False}) if call.has_id else None
            if not call.has_id:
                await self._notify(call)
                return None
            if call.method == "changes.subscribe":
                return result(call.id, {"cursor": await self._cursor()})
            return result(call.id, await self._call(call))
        except SatchelError as problem:
            return error(call.id, problem.code, problem.message, problem.data) if call.has_id else None
        except _Restarted:
            return restarted(call.id) if call.has_id else None
        except TypeError as problem:  # params the server's framing cannot carry (a lone surrogate)
            detail = {"reason": "invalidJSON", "detail": str(problem)}
            return error(call.id, -32700, "Parse error", detail) if call.has_id else None
        except Exception:
            LOG.exception("relaying %s failed", call.method)
            return error(call.id, -32603, "Internal error in the bridge") if call.has_id else None

    def _not_relayed(self, call: Call) -> dict[str, JSON] | None:
        if not call.has_id:
            return None
        return error(call.id, -32601, f"Method not available through the bridge: {call.method}",
                     {"method": call.method, "reason": "bridgeOwnsLifetime"})

    async def _call(self, call: Call) -> JSON:
        satchel = await self._ready_satchel()
        remembered = self._initialize
        if call.method == "initialize":
            self._initialize = (call.params,)
        try:
            return await self._guarded(satchel, satchel.call(call.method, call.params))
        except SatchelError:
            if call.method == "initialize":
                self._initialize = remembered
            raise

    async def _notify(self, call: Call) -> None:
        satchel = await self._ready_satchel()
        await self._guarded(satchel, satchel.notify(call.method, call.params))

    async def _cursor(self) -> JSON:
        satchel = await self._ready_satchel()
        since = await self._guarded(satchel, satchel.call("changes.since", {}))
        return since.get("nextCursor") if isinstance(since, dict) else None

    async def _guarded(self, satchel: AsyncSatchel, work: Awaitable[Any]) -> Any:
        """Awaits ``work`` on ``satchel``; when the satchel dies meanwhile, starts the restart and raises
        ``_Restarted``."""
        try:
            return await work
        except ServerExited:
            self._exited(satchel)
            raise _Restarted() from None

    # To the page

    def _emit(self, message: JSON) -> None:
        if not self._closed:
            self._outbox.put_nowait(encode(message))

    async def _write_loop(self) -> None:
        while True:
            text = await self._outbox.get()
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError) as problem:
                LOG.debug("the page's socket is closing: %s", problem)
                return


class _Restarted(Exception):
    """The page's satchel died while a call was in flight."""


async def _settled(value: Any) -> Any:
    return value


# The bridge


@dataclass
class Bridge:
    """The HTTP server, its pages and their satchels."""

    backend: Backend
    static: pathlib.Path = STATIC
    guard: Guard = field(default_factory=lambda: Guard(secrets.token_urlsafe(32)))
    pages: set[PageSession] = field(default_factory=set)
    stopping: bool = False

    def app(self) -> web.Application:
        app = web.Application(middlewares=[guard_middleware(self.guard)])
        app.add_routes([*static_routes(self.static), web.get("/ws", self.websocket)])
        app.on_response_prepare.append(add_security_headers)
        app.on_shutdown.append(lambda _: self.close_pages())
        return app

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """``GET /ws``: a page's JSON-RPC connection, backed by a satchel of its own."""
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME_BYTES)
        await ws.prepare(request)
        if self.stopping:
            await ws.close(code=WSCloseCode.GOING_AWAY)
            return ws
        page = PageSession(ws, self.backend)
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
        bridge = Bridge(Backend(options.binary, db, options.args), static=options.static)
        return asyncio.run(serve(bridge, options.port, options.demo))
