"""A page's connection: its WebSocket and the satchel behind it, started again when it dies."""
from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import secrets
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from satchel_client import AsyncSatchel, Resync, SatchelError, ServerExited

from . import exchange
from .exchange import Exchange
from .frames import JSON, Call, encode, error, notification, parse_frame, read_call, restarted, result, status
from .security import relay_refusal

LOG = logging.getLogger("satchel.web")

#: Seconds before starting a satchel, by how many in a row failed to start or died young: a satchel that
#: keeps failing is tried less and less often.
RESTART_DELAYS = (0.0, 0.0, 0.5, 1.0, 2.0, 5.0)
#: Seconds a satchel must have run for its death to count as a fresh start, not as one more failure.
STABLE_AFTER = 10.0

#: ``changed`` notifications that may wait for a page that reads them slower than they come (a busy tab, a
#: large import): past it, only the newest change of each domain is kept until the page has read the rest.
BACKLOG = 1000


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


class PageSession:
    """One page: its WebSocket, its satchel, and the relay between them.

    Everything sent to the page goes through one queue and one writer task, so messages leave in the order
    they were produced (``restarting`` before the errors of the requests it cut short). The changes in that
    queue are at most ``BACKLOG``: a burst of any size costs the bridge bounded memory (``_relay_change``).
    """

    def __init__(self, ws: web.WebSocketResponse, backend: Backend, files: Exchange) -> None:
        self.ws = ws
        self.backend = backend
        self.files = files  # the bridge's folder for export and import files
        self.satchel: AsyncSatchel | None = None
        #: Names this page to the bridge's HTTP routes (``POST /uploads?page=``): sent with ``ready``.
        self.key = secrets.token_urlsafe(16)
        self._ready = asyncio.Event()
        self._initialize: tuple[JSON] | None = None  # the params of the page's last accepted `initialize`
        self._outbox: asyncio.Queue[tuple[str, bool]] = asyncio.Queue()  # (text, whether it is a change)
        self._backlog = 0  # changes in the outbox
        self._held: dict[str, dict[str, Any]] = {}  # past BACKLOG: domain -> its newest change, to send once caught up
        self._tasks: set[asyncio.Task[Any]] = set()
        self._relaying: dict[str | int, asyncio.Task[Any]] = {}  # the page's request id -> the task relaying it
        self._feed: asyncio.Task[None] | None = None
        self._failures = 0  # satchels in a row that did not start or died young
        self._up_since = 0.0
        self._closed = False
        self._closing: asyncio.Future[None] | None = None

    @property
    def ready(self) -> bool:
        """Whether the page's satchel is up (started, subscribed) and not being replaced."""
        return self._ready.is_set()

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
            self._emit(status("ready", page=self.key))
            LOG.info("page ready on satchel %s", satchel.pid)
            return

    async def _prepare(self, satchel: AsyncSatchel) -> None:
        await satchel.start()
        if self._initialize is not None:
            try:
                await satchel.call("initialize", self._initialize[0])
            except SatchelError as problem:
                LOG.warning("the page's initialize was refused on restart: %s", problem)
        await satchel.changes.subscribe()

    async def _forward_changes(self, satchel: AsyncSatchel) -> None:
        try:
            async for change in satchel.changes():
                if isinstance(change, Resync):
                    self._relay_resync(change)
                    continue
                self._relay_change({
                    "seq": change.seq, "at": _wire_time(change.at), "domain": change.domain, "kind": change.kind,
                    "id": change.id, "entity": change.entity,
                })
        except ServerExited:
            self._exited(satchel)

    def _relay_change(self, params: dict[str, Any]) -> None:
        """Sends a change to the page while fewer than ``BACKLOG`` wait for it. Past that, the page is behind
        (an import of a million notes is a million changes): each domain's newest change is kept instead, with
        ``skipped``, how many of that domain's changes before it the page will not see, and sent when the page
        has read what was waiting. The page refreshes a domain on any change of it, so it ends showing the
        newest data, and nothing is held per change."""
        if self._held or self._backlog >= BACKLOG:
            before = self._held.get(params["domain"])
            self._held[params["domain"]] = {**params, "skipped": before["skipped"] + 1 if before else 0}
        else:
            self._emit(notification("changed", params), change=True)

    def _relay_resync(self, resync: Resync) -> None:
        """The satchel fell more than 500 changes behind (a large import, here or in another process) and sent
        one ``resync`` instead of them: the page is told so, and reads again what it shows. The changes held
        for the page (at most one a domain) came before it, so they go first: the page sees the feed in order,
        every change sent, counted in a ``skipped`` or between the resync's ``since`` and ``cursor``."""
        self._release_held()
        self._emit(notification("resync", {"since": resync.since, "cursor": resync.cursor, "seq": resync.seq}))

    def _release_held(self) -> None:
        """The changes held past ``BACKLOG``, oldest first, to the page."""
        held, self._held = self._held, {}
        for params in sorted(held.values(), key=lambda each: each["seq"]):
            self._emit(notification("changed", params), change=True)

    def _notified(self, method: str, params: JSON) -> None:
        """The server's notifications other than ``changed`` and ``resync`` go to the page as they are."""
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
        if isinstance(call, Call) and call.method == "notifications/cancelled" and not call.has_id:
            self._cancel(call.params)
        elif isinstance(call, Call):
            task = self._spawn(self._relay(call))
            if call.has_id and isinstance(call.id, (str, int)):
                key = call.id
                self._relaying[key] = task
                task.add_done_callback(lambda done: self._relaying.pop(key) if self._relaying.get(key) is done else None)
        elif call is not None:
            self._emit(call)

    def _cancel(self, params: JSON) -> None:
        """The page's ``notifications/cancelled``: the call it names is cancelled here, and so (by satchel-client,
        whose ids the satchel knows) on the satchel; the page gets ``-32800`` for it."""
        requested = params.get("requestId") if isinstance(params, dict) else None
        task = self._relaying.get(requested) if isinstance(requested, (str, int)) else None
        if task is not None:
            task.cancel()

    async def _relay(self, call: Call) -> None:
        try:
            answer = await self._answer(call)
        except asyncio.CancelledError:
            if self._closed:
                raise
            answer = error(call.id, -32800, "The request was cancelled", {"reason": "cancelled"})
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
            refusal = relay_refusal(call.method, call.params)
            if refusal is not None:
                LOG.info("refused a page's %s: %s", call.method, refusal[2]["reason"])
                return error(call.id, *refusal) if call.has_id else None
            if call.method == "changes.unsubscribe":
                return result(call.id, {"unsubscribed": False}) if call.has_id else None
            if call.method in exchange.METHODS:
                return result(call.id, await self._exchange(call)) if call.has_id else None
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

    async def _exchange(self, call: Call) -> JSON:
        """``bridge/export`` and ``bridge/import``: files the page's satchel writes or reads (``exchange``)."""
        satchel = await self._ready_satchel()

        async def run(method: str, params: JSON) -> JSON:
            return await self._guarded(satchel, satchel.call(method, params))

        if call.method == exchange.EXPORT:
            return await self.files.export(call.params, run)
        return await self.files.import_(call.params, run)

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

    def _emit(self, message: JSON, change: bool = False) -> None:
        if not self._closed:
            self._backlog += change
            self._outbox.put_nowait((encode(message), change))

    async def _write_loop(self) -> None:
        while True:
            text, change = await self._outbox.get()
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError) as problem:
                LOG.debug("the page's socket is closing: %s", problem)
                return
            self._backlog -= change
            if change and not self._backlog and self._held:
                self._release_held()


def _wire_time(at: datetime.datetime | None) -> str | None:
    """A change's time as the server writes it (``2026-11-25T21:25:00.504Z``), for the page."""
    return at.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z") if at else None


class _Restarted(Exception):
    """The page's satchel died while a call was in flight."""


async def _settled(value: Any) -> Any:
    return value
