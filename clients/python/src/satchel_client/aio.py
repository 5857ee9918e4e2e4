"""``AsyncSatchel``: the asyncio client. The same surface as ``Satchel``, awaited; many calls in flight."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable, Sequence
from functools import cached_property
from typing import Any

from ._connection import LOG, Connection
from ._launch import log_server_line
from ._protocol import Change, Incoming, Params, encode, merge_params, request, unwrap
from .api import Changes
from .errors import SatchelError, ServerExited

_GONE = object()
STREAM_LIMIT = 1 << 30  # the longest line read from the server; its own limit on answers is far lower


class AsyncChangeFeed(Changes):
    """``await s.changes.since(...)`` and the other ``changes.*`` methods; ``async for e in s.changes()``."""

    def __init__(self, connection: AsyncSatchel) -> None:
        super().__init__(connection._call)
        self._connection = connection

    def __call__(self, timeout: float | None = None) -> AsyncIterator[Change]:
        """The ``changed`` events as they arrive; with a ``timeout``, ends after that many quiet seconds."""
        return self._connection._iterate_changes(timeout)


class AsyncSatchel(Connection):
    """A ``satchel`` server process and an asyncio JSON-RPC connection to it.

    Takes the options of ``Satchel``. Start it with ``async with AsyncSatchel(...) as s`` or
    ``s = await AsyncSatchel(...).start()``; end it with ``await s.close()``. Every method of ``Satchel``
    is a coroutine here; calls from many tasks are in flight together and matched by id.
    """

    _process: asyncio.subprocess.Process | None = None

    @cached_property
    def changes(self) -> AsyncChangeFeed:  # type: ignore[override]
        return AsyncChangeFeed(self)

    async def start(self) -> AsyncSatchel:
        """Spawns the server (once)."""
        if self._process is None:
            self._changes: asyncio.Queue[Any] = asyncio.Queue()
            self._process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self.env,
                limit=STREAM_LIMIT,
            )
            self._stderr_task = asyncio.create_task(self._read_stderr(), name=f"satchel-stderr-{self.pid}")
            self._reader = asyncio.create_task(self._read(), name=f"satchel-reader-{self.pid}")
        return self

    async def __aenter__(self) -> AsyncSatchel:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        state = "new" if self._process is None else "closed" if self._closed else "exited" if self._gone else "running"
        return f"<AsyncSatchel pid={self.pid} {state}>"

    # Calls

    async def call(self, method: str, params: Params = None, /, **named: Any) -> Any:
        """Sends ``method`` and awaits its result; raises as ``Satchel.call`` does."""
        return await self._request(method, merge_params(params, named), self.timeout)

    def _call(self, method: str, params: Any) -> Any:
        return self._request(method, params, self.timeout)

    async def notify(self, method: str, params: Params = None, /, **named: Any) -> None:
        """Sends a notification (never answered)."""
        line = encode(request(method, merge_params(params, named), None))
        await self._send(line)

    async def batch(self, calls: Iterable[tuple[str, Params] | Sequence[Any]]) -> list[Any]:
        """One JSON-RPC batch; answers each result or ``SatchelError``, in order (see ``Satchel.batch``)."""
        entries = [(each[0], each[1] if len(each) > 1 else None) for each in calls]
        if not entries:
            return []
        self._check_running()
        loop = asyncio.get_running_loop()
        futures: dict[int, asyncio.Future[Any]] = {}
        messages = []
        for method, params in entries:
            id = self._ledger.next_id()
            messages.append(request(method, merge_params(params, {}), id))
            futures[id] = loop.create_future()
        outcomes = await self._exchange(futures, encode(messages), self.timeout, "a batch")
        if len(outcomes) > 1 and all(value is outcomes[0] for value in outcomes) and isinstance(outcomes[0], SatchelError):
            raise outcomes[0]
        return outcomes

    async def _request(self, method: str, params: Any, timeout: float | None) -> Any:
        self._check_running()
        id = self._ledger.next_id()
        line = encode(request(method, params, id))
        (value,) = await self._exchange({id: asyncio.get_running_loop().create_future()}, line, timeout, method)
        return unwrap(value)

    def _check_running(self) -> None:
        if self._process is None:
            raise RuntimeError("the server is not started: use `async with AsyncSatchel(...)` or `await s.start()`")
        if self._gone:
            raise self.exited()

    async def _send(self, line: bytes) -> None:
        self._check_running()
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line)
            await self._process.stdin.drain()
        except (ConnectionError, RuntimeError):
            LOG.debug("the server's input is closed")  # the reader answers every waiter when it ends

    async def _exchange(
        self, futures: dict[int, asyncio.Future[Any]], line: bytes, timeout: float | None, what: str
    ) -> list[Any]:
        """Sends one line of requests and awaits every answer; a waiter that gives up is forgotten."""
        self._ledger.sent(futures)
        try:
            await self._send(line)
            values = await asyncio.wait_for(asyncio.gather(*futures.values()), timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"satchel did not answer {what} within {timeout} s") from None
        finally:
            for id, future in futures.items():
                if not future.done() or future.cancelled():
                    self._ledger.abandon(id)
        if any(value is _GONE for value in values):
            raise self.exited()
        return values

    # Live changes

    async def subscribe(self, domains: Sequence[str] | None = None) -> Any:
        """Asks for ``changed`` notifications (in ``domains``, or all); read them with ``changes()``."""
        return await self._call("changes.subscribe", None if domains is None else {"domains": list(domains)})

    async def _iterate_changes(self, timeout: float | None) -> AsyncIterator[Change]:
        self._check_started()
        while True:
            try:
                item = await asyncio.wait_for(self._changes.get(), timeout)
            except asyncio.TimeoutError:
                return
            if item is _GONE:
                self._changes.put_nowait(_GONE)
                raise self.exited()
            yield item

    def _check_started(self) -> None:
        if self._process is None:
            raise RuntimeError("the server is not started: use `async with AsyncSatchel(...)` or `await s.start()`")

    # The two reading tasks

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout
        while line := await stdout.readline():
            try:
                incoming = Incoming(line)
            except ValueError:
                LOG.warning("not JSON on the server's stdout: %r", line[:200])
                continue
            for id, answer in incoming.answers:
                for future, value in self._ledger.answered(id, answer):
                    if not future.done():
                        future.set_result(value)
            for method, params in incoming.notifications:
                change = self._route(method, params)
                if change is not None:
                    self._changes.put_nowait(change)
        self._returncode = await self._process.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
        self._gone = True
        for future in self._ledger.drain():
            if not future.done():
                future.set_result(_GONE)
        self._changes.put_nowait(_GONE)

    async def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        while raw := await self._process.stderr.readline():
            line = raw.decode("utf-8", "replace")
            self._keep_stderr(line)
            log_server_line(line)

    # Lifetime

    async def close(self, grace: float = 2.0) -> None:
        """Ends the server politely, then terminates and kills it after ``grace`` seconds; waits for it."""
        if self._closed or self._process is None:
            return
        self._closed = True
        process = self._process
        if not self._gone:
            with contextlib.suppress(SatchelError, TimeoutError, ServerExited):
                await self._request("shutdown", None, grace)
                await self.notify("exit")
        assert process.stdin is not None
        with contextlib.suppress(ConnectionError, RuntimeError):
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), grace)
        except asyncio.TimeoutError:
            LOG.warning("satchel %d did not exit within %s s; terminating it", process.pid, grace)
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), grace)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
        await asyncio.gather(self._reader, self._stderr_task, return_exceptions=True)
