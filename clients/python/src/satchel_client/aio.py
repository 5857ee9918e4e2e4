"""``AsyncSatchel``: the asyncio client. The same surface as ``Satchel``, awaited; many calls in flight.

The server's output is read by a reader callback of the event loop: an answer resolves its caller's future in
the same turn of the loop that reads it, with no reader task in between (two turns a call: that one, and
the caller's).
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import warnings
from collections.abc import AsyncIterator, Iterable, Sequence
from functools import cached_property
from typing import Any

from ._connection import LOG, Connection
from ._deadlines import EXPIRED, Deadlines
from ._images import AsyncImageShelf
from ._launch import log_server_line
from ._loop_end import LoopEnd
from ._namespace import UNSET, MisspeltNames, Unset
from ._pipes import Pipes
from ._feeds import AsyncChangeFeed
from ._reports import AsyncReports
from ._events import Change, Resync
from ._protocol import Incoming, OnProgress, Params, Progress, encode, merge_params, outgoing
from ._protocol import ANSWERED_WHEN_READY, cancellation, refused_as_a_whole, request
from .api import AsyncMethods, ChangesSubscribeResult
from .errors import SatchelError, ServerExited

_GONE = object()  # the outcome of every call in flight when the server ends


class AsyncSatchel(MisspeltNames, Connection, AsyncMethods):
    """A ``satchel`` server process and an asyncio JSON-RPC connection to it.

    Takes the options of ``Satchel``. Start it with ``async with AsyncSatchel(...) as s`` or
    ``s = await AsyncSatchel(...).start()``; end it with ``await s.close()``. Every method of ``Satchel``
    is a coroutine here; calls from many tasks are in flight together and matched by id. Requests sent
    while others wait for their answers go out together, one write per turn of the event loop.
    """

    _transport: asyncio.SubprocessTransport | None = None
    _spawning: asyncio.Future[None] | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _loop_end: LoopEnd | None = None  # closes it if its event loop ends while it is open

    @cached_property
    def changes(self) -> AsyncChangeFeed:
        return AsyncChangeFeed(self._call, self._events)

    @cached_property
    def images(self) -> AsyncImageShelf:
        """``images.*``, and images as bytes: ``await upload(data)`` in chunks, ``await bytes(id, size=...)``."""
        return AsyncImageShelf(self._call)

    @property
    def pid(self) -> int | None:
        return self._transport.get_pid() if self._transport is not None else None

    async def start(self) -> AsyncSatchel:
        """Spawns the server (once, however many tasks ask) and waits for its answer to a first ``ping``: a
        binary that is not a satchel server, or one that cannot start, fails here with ``ServerExited``."""
        if self._spawning is None:
            self._loop = asyncio.get_running_loop()
            self._spawning = asyncio.ensure_future(self._spawn())
        self._check_loop()
        await asyncio.shield(self._spawning)
        return self

    async def _spawn(self) -> None:
        self._changes: asyncio.Queue[Any] = asyncio.Queue()
        self._outbox: list[bytes] = []
        loop = asyncio.get_running_loop()
        self._deadlines = Deadlines(loop, self._ledger.abandon)
        output, child_output = os.pipe()
        try:
            transport, self._pipes = await loop.subprocess_exec(
                lambda: Pipes(self, output), *self.argv, stdin=-1, stdout=child_output, stderr=-1, env=self.env,
                start_new_session=True,  # a terminal's Ctrl-C interrupts the caller, not the server (as Satchel)
            )
        except BaseException:
            os.close(output)
            raise
        finally:
            os.close(child_output)
        self._pipes.read_output()
        self._transport = transport
        stdin = transport.get_pipe_transport(0)
        assert isinstance(stdin, asyncio.WriteTransport)
        self._stdin: asyncio.WriteTransport = stdin
        self._loop_end = LoopEnd(self)
        await self._loop_end.start()
        try:
            await self._request("ping", None, self.timeout)
        except ServerExited:
            await self.close()
            raise self.exited(self._not_started(self.argv[0])) from None
        except TimeoutError:
            await self.close(grace=0.5)
            raise TimeoutError(
                f"{self.argv[0]} did not answer ping within {self.timeout} s: is it a satchel server?"
            ) from None

    def _check_loop(self) -> None:
        __tracebackhide__ = True
        if asyncio.get_running_loop() is not self._loop:
            raise RuntimeError(
                "this AsyncSatchel was started in another event loop; its pipes belong to that loop: use it only "
                "there, or start an AsyncSatchel of its own in this one"
            )

    async def __aenter__(self) -> AsyncSatchel:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        state = "new" if self._transport is None else "closed" if self._closed else "exited" if self._gone else "running"
        return f"<AsyncSatchel pid={self.pid} {state}>"

    # Calls

    async def call(
        self,
        method: str,
        params: Params = None,
        /,
        *,
        progress: OnProgress | None = None,
        timeout: float | None | Unset = UNSET,
        **named: Any,
    ) -> Any:
        """Sends ``method`` and awaits its result; raises as ``Satchel.call`` does.

        ``progress``: called with each ``Progress`` the server reports, in the task awaiting this call; a
        coroutine function is awaited (in order: the call returns once the last report is handled).
        ``timeout``: as ``Satchel.call``'s."""
        __tracebackhide__ = True
        if named or not (params is None or type(params) is dict):
            params = merge_params(params, named)
        return await self._request(method, params, self.timeout if isinstance(timeout, Unset) else timeout, progress)

    def _call(
        self, method: str, params: Any, progress: OnProgress | None = None, timeout: float | None | Unset = UNSET
    ) -> Any:
        return self._request(method, params, self.timeout if isinstance(timeout, Unset) else timeout, progress)

    async def notify(self, method: str, params: Params = None, /, **named: Any) -> None:
        """Sends a notification (never answered)."""
        line = encode(request(method, merge_params(params, named), None))
        self._check_running()
        self._ledger.sent_notification()
        self._send(line)
        writable = self._pipes.writable
        if writable is not None:  # the pipe is full: wait until the server reads, as long as a call would
            try:
                await asyncio.wait_for(asyncio.shield(writable), self.timeout)
            except asyncio.TimeoutError:
                raise TimeoutError(f"satchel did not read its input within {self.timeout} s") from None

    async def batch(self, calls: Iterable[tuple[str, Params] | Sequence[Any]]) -> list[Any]:
        """One JSON-RPC batch; answers each result or ``SatchelError``, in order (see ``Satchel.batch``)."""
        __tracebackhide__ = True
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
        key = self._exchange(futures, encode(messages), self.timeout)
        try:
            outcomes = [await future for future in futures.values()]
        finally:
            self._forget(key, futures)
        self._check_outcomes(outcomes, self.timeout, "a batch")
        refused = refused_as_a_whole(outcomes)
        if refused is not None:
            raise refused
        return outcomes

    async def _request(self, method: str, params: Any, timeout: float | None, progress: Any = None) -> Any:
        __tracebackhide__ = True  # for pytest: a failed call's traceback ends at its caller's line
        self._check_running()
        id = self._ledger.next_id()
        loop = self._loop
        assert loop is not None
        answer = loop.create_future()
        unordered = method in ANSWERED_WHEN_READY
        if progress is None:
            futures = {id: answer}
            key = self._exchange(futures, encode(request(method, params, id)), timeout, unordered)
            try:
                value = await answer
            finally:
                self._forget(key, futures, unordered)
            if value is EXPIRED or value is _GONE:
                self._check_outcomes([value], timeout, method)
        else:
            line, token, callback = outgoing(method, params, id, progress, coroutines=True)
            assert token is not None  # given for every call with progress
            reports = AsyncReports(callback, answer)

            def deliver(progress: Progress) -> None:
                reports.report(progress)
                if timeout is not None:  # a call that shows progress is not late
                    self._deadlines.extend(id, timeout)

            self._progress[token] = deliver
            futures = {id: answer}
            key = self._exchange(futures, line, timeout, unordered)
            try:
                await reports.hand_over()
                value = await answer
            finally:
                self._forget(key, futures, unordered)
                del self._progress[token]
            self._check_outcomes([value], timeout, method)
        if isinstance(value, SatchelError):
            raise value
        if method.startswith("changes."):
            self._answered(method)
        return value

    def _check_running(self) -> None:
        __tracebackhide__ = True
        if self._transport is None:
            raise RuntimeError("the server is not started: use `async with AsyncSatchel(...)` or `await s.start()`")
        self._check_loop()
        if self._gone:
            raise self.exited()

    def _send(self, line: bytes) -> None:
        """Writes ``line`` at once when nothing else is in flight; otherwise queues it, and what the tasks of
        one turn of the event loop send goes in one write (the server reads, and commits, it together).
        Never waits: a caller waits for its answer, within its deadline, and so holds one line at most."""
        if self._outbox:
            self._outbox.append(line)
        elif self._ledger.in_flight() > 1:
            self._outbox.append(line)
            asyncio.get_running_loop().call_soon(self._flush)
        else:
            self._write(line)

    def _flush(self) -> None:
        lines, self._outbox = self._outbox, []
        self._write(b"".join(lines))

    def _write(self, data: bytes) -> None:
        if self._stdin.is_closing():
            LOG.debug("the server's input is closed")  # the server's end answers every waiter
            return
        self._stdin.write(data)

    def _exchange(
        self, futures: dict[int, asyncio.Future[Any]], line: bytes, timeout: float | None, unordered: bool = False
    ) -> int:
        """Sends one line of requests, whose answers ``futures`` await, and keeps its deadline; the line's key
        for ``_forget``, which the caller calls once it has awaited them (or given up). ``unordered``: one
        request the server answers when its network answers."""
        self._ledger.sent(futures, unordered)
        key = min(futures)
        if timeout is not None:
            self._deadlines.watch(key, timeout, futures)
        self._send(line)
        return key

    def _forget(self, key: int, futures: dict[int, asyncio.Future[Any]], unordered: bool = False) -> None:
        """The line's deadline, and its calls that are not answered (a late answer is dropped); one that waits
        on the server's network (``unordered``) is cancelled there, so it waits no more."""
        self._deadlines.forget(key)
        for id, future in futures.items():
            given_up = not future.done() or future.cancelled() or (
                future.exception() is None and future.result() is EXPIRED)
            if not future.done() or future.cancelled():
                self._ledger.abandon(id)
            if unordered and given_up and not self._gone:
                self._ledger.sent_notification()
                self._send(cancellation(id, "timeout" if future.done() and not future.cancelled() else "cancelled"))

    def _check_outcomes(self, values: list[Any], timeout: float | None, what: str) -> None:
        """``TimeoutError`` past the deadline, ``ServerExited`` when the server has gone."""
        __tracebackhide__ = True
        if EXPIRED in values:
            raise TimeoutError(f"satchel did not answer {what} within {timeout} s")
        if _GONE in values:
            raise self.exited()

    # Live changes

    async def subscribe(self, domains: Sequence[str] | None = None) -> ChangesSubscribeResult:
        """Deprecated: ``await s.changes.subscribe(domains)``, the same call."""
        warnings.warn("s.subscribe() is s.changes.subscribe()", DeprecationWarning, stacklevel=2)
        return await self.changes.subscribe(domains)

    def _events(self, timeout: float | None) -> AsyncIterator[Change | Resync]:
        """As ``s.changes()``; ``RuntimeError`` at once when it would wait for ever."""
        self._check_running()
        self._check_subscribed(self._changes.empty())
        return self._iterate_changes(timeout)

    async def _iterate_changes(self, timeout: float | None) -> AsyncIterator[Change | Resync]:
        while True:
            try:
                item = await asyncio.wait_for(self._changes.get(), timeout)
            except asyncio.TimeoutError:
                return
            if item is _GONE:
                self._changes.put_nowait(_GONE)
                raise self.exited()
            yield item

    # What the pipes bring

    def _received(self, fd: int, line: bytes) -> None:
        if fd == 2:
            text = line.decode("utf-8", "replace")
            self._keep_stderr(text)
            log_server_line(text)
            return
        try:
            incoming = Incoming(line)
        except ValueError:
            if line.strip():
                LOG.warning("not JSON on the server's stdout: %r", line[:200])
            return
        for id, answer in incoming.answers:
            for future, value in self._ledger.answered(id, answer):
                if not future.done():
                    future.set_result(value)
        for method, params in incoming.notifications:
            change = self._route(method, params)
            if change is not None:
                self._changes.put_nowait(change)

    def _ended(self, returncode: int | None) -> None:
        """The process has exited and its pipes are closed: every waiter learns it."""
        self._returncode = returncode
        self._gone = True
        for future in self._ledger.drain():
            if not future.done():
                future.set_result(_GONE)
        self._changes.put_nowait(_GONE)

    # Lifetime

    def __del__(self) -> None:
        # Dropped without `close`: its server is ended here (as a dropped Satchel's is), and a ResourceWarning
        # names it.
        transport = self._transport
        if transport is None or getattr(self, "_closed", True):
            return
        report = f"unclosed {self!r}: close it, or use `async with AsyncSatchel(...) as s:`"
        self._closed = True
        if self._loop_end is not None:
            self._loop_end.forget()
        warnings.warn(report, ResourceWarning, source=self)
        with contextlib.suppress(Exception):
            self._pipes.close_output()
        with contextlib.suppress(Exception):
            transport.close()  # kills the process while it runs

    async def _loop_ending(self) -> None:
        """Its event loop ends while it is open (``LoopEnd``): closed now, while the loop still runs; reported."""
        report = (f"{self!r} was still open when its event loop ended: closed then; close it, or use "
                  "`async with AsyncSatchel(...) as s:`")
        await self.close()
        self._left_open(report)

    def _left_open(self, report: str) -> None:
        """Reports a client its event loop's end had to close: a ``ResourceWarning``."""
        warnings.warn(report, ResourceWarning, source=self)

    async def close(self, grace: float = 2.0) -> None:
        """Ends the server politely; terminates it after half of ``grace`` seconds and kills it at ``grace``, so
        it returns within ``grace`` seconds; waits for it. Even when the closing task is cancelled, the server
        does not outlive it."""
        if self._spawning is not None and not self._spawning.done():
            self._check_loop()
            if asyncio.current_task() is not self._spawning:  # not the start's own cleanup
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._spawning)
        if self._closed or self._transport is None:
            return
        self._check_loop()
        self._closed = True
        if self._loop_end is not None:
            self._loop_end.forget()
            self._loop_end = None
        transport = self._transport
        finished = self._pipes.finished
        loop = asyncio.get_running_loop()
        started = loop.time()

        def left(share: float) -> float:
            return max(0.0, started + grace * share - loop.time())

        try:
            if not self._gone:
                with contextlib.suppress(SatchelError, TimeoutError, ServerExited):
                    await self._request("shutdown", None, grace / 2)
                    self._ledger.sent_notification()
                    self._send(encode(request("exit", None, None)))
            self._stdin.close()
            try:
                await asyncio.wait_for(asyncio.shield(finished), left(0.5))
            except asyncio.TimeoutError:
                LOG.warning("satchel %d did not exit in time; terminating it", self.pid)
                with contextlib.suppress(ProcessLookupError):
                    transport.terminate()
                try:
                    await asyncio.wait_for(asyncio.shield(finished), left(1.0))
                except asyncio.TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        transport.kill()
                    await finished
        finally:
            if not finished.done():  # interrupted: kill it rather than leave it behind
                with contextlib.suppress(ProcessLookupError):
                    transport.kill()
            self._deadlines.cancel()
            transport.close()
            self._pipes.close_output()
