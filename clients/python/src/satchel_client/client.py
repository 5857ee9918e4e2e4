"""``Satchel``: the blocking client. One server process, one reader thread, calls from any thread."""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any

from ._connection import LOG, Connection
from ._launch import log_server_line
from ._outbox import Outbox
from ._protocol import Change, Incoming, OnProgress, Params, Progress, encode, merge_params, outgoing, report
from ._protocol import refused_as_a_whole, request, unwrap
from .api import Changes
from .errors import SatchelError, ServerExited

_GONE = object()  # put on the change queue when the server has ended
_ANSWERED = object()  # the last item on a reporting waiter's queue


class _Waiter:
    __slots__ = ("event", "value")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.value: Any = None

    def set(self, value: Any) -> None:
        self.value = value
        self.event.set()

    def wait(self, timeout: float | None) -> bool:
        return self.event.wait(timeout)


class _Reporting(_Waiter):
    """The waiter of a call made with ``progress=``: the reader queues the call's progress reports, and the
    waiting thread hands them to the callback as it waits, so the callback runs on the caller's thread, in
    order, and the last one has returned before the call does."""

    __slots__ = ("callback", "reports")

    def __init__(self, callback: OnProgress) -> None:
        super().__init__()
        self.callback = callback
        self.reports: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def report(self, progress: Progress) -> None:  # on the reader thread
        if self.event.is_set():  # read after the answer, before the caller forgot the token
            LOG.debug("progress for no call in flight: %r", progress)
            return
        self.reports.put(progress)

    def set(self, value: Any) -> None:
        super().set(value)
        self.reports.put(_ANSWERED)

    def wait(self, timeout: float | None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                item = self.reports.get(timeout=left)
            except queue.Empty:
                return self.event.is_set()
            if item is _ANSWERED:
                return True
            report(self.callback, item)


class ChangeFeed(Changes):
    """``s.changes.since(...)`` and the other ``changes.*`` methods; ``s.changes()`` iterates the live feed."""

    def __init__(self, connection: Satchel) -> None:
        super().__init__(connection._call)
        self._connection = connection

    def __call__(self, timeout: float | None = None) -> Iterator[Change]:
        """The ``changed`` events, in order, as they arrive (after ``subscribe``).

        With a ``timeout``, the iteration ends after that many seconds without an event; without, it ends
        only with ``ServerExited`` when the server goes.
        """
        return self._connection._iterate_changes(timeout)


class Satchel(Connection):
    """A ``satchel`` server process and a blocking JSON-RPC connection to it.

    ``binary``: the executable (else ``$SATCHEL_BINARY``, ``satchel`` on ``PATH``, or a checkout's build).
    ``db`` or ``memory=True`` choose the database; ``args`` are more command-line flags; ``env`` is laid over
    this process's environment; ``timeout`` is how long a call waits (seconds, ``None`` for ever).

    Calls may come from several threads at once. Use it as a context manager, or call ``close()``.
    """

    def __init__(
        self,
        binary: Any = None,
        *,
        db: Any = None,
        memory: bool = False,
        args: Sequence[str] = (),
        env: Any = None,
        timeout: float | None = 10.0,
        on_notification: Any = None,
    ) -> None:
        super().__init__(
            binary, db=db, memory=memory, args=args, env=env, timeout=timeout, on_notification=on_notification
        )
        self._lock = threading.Lock()  # the ledger and the pipe to the server
        self._changes: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env
        )
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, name=f"satchel-stderr-{self._process.pid}", daemon=True
        )
        self._reader = threading.Thread(target=self._read, name=f"satchel-reader-{self._process.pid}", daemon=True)
        self._outbox = Outbox(self._process.stdin, f"satchel-writer-{self._process.pid}")
        self._stderr_reader.start()
        self._reader.start()

    def __enter__(self) -> Satchel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("exited" if self._gone else "running")
        return f"<Satchel pid={self.pid} {state}>"

    @cached_property
    def changes(self) -> ChangeFeed:  # type: ignore[override]
        return ChangeFeed(self)

    # Calls

    def call(
        self, method: str, params: Params = None, /, *, progress: OnProgress | None = None, **named: Any
    ) -> Any:
        """Sends ``method`` with ``params`` (a mapping or a sequence) or keyword arguments; returns its result.

        ``progress``: a callable given each ``Progress`` the server reports about this call (the request
        carries ``_meta.progressToken``); it runs on this thread while the call waits, and what it raises
        is logged. A parameter of the method that is itself called ``progress`` goes in ``params``.

        Raises the ``SatchelError`` subclass of an error answer, ``TimeoutError`` past ``self.timeout`` (the
        connection stays usable), ``ServerExited`` when the server is gone, ``TypeError`` for params that
        JSON cannot carry (nothing is sent then).
        """
        return self._request(method, merge_params(params, named), self.timeout, progress)

    def _call(self, method: str, params: Any, progress: OnProgress | None = None) -> Any:
        return self._request(method, params, self.timeout, progress)

    def notify(self, method: str, params: Params = None, /, **named: Any) -> None:
        """Sends a notification: a request without an id, which the server never answers."""
        line = encode(request(method, merge_params(params, named), None))
        with self._lock:
            if self._gone:
                raise self.exited()
            self._ledger.sent_notification()
            self._outbox.write(line)

    def batch(self, calls: Iterable[tuple[str, Params] | Sequence[Any]]) -> list[Any]:
        """Sends ``[(method, params), ...]`` as one JSON-RPC batch; answers, in order, each result or the
        ``SatchelError`` of each error (returned, not raised). An error about the batch as a whole (too many
        entries) is raised."""
        self._check_thread()
        entries = [(each[0], each[1] if len(each) > 1 else None) for each in calls]
        if not entries:
            return []
        waiters: dict[int, _Waiter] = {}
        with self._lock:
            if self._gone:
                raise self.exited()
            messages = []
            for method, params in entries:
                id = self._ledger.next_id()
                messages.append(request(method, merge_params(params, {}), id))
                waiters[id] = _Waiter()
            line = encode(messages)
            self._ledger.sent(waiters)
            self._outbox.write(line)
        outcomes = self._wait(waiters, self.timeout, "a batch")
        refused = refused_as_a_whole(outcomes)
        if refused is not None:
            raise refused
        return outcomes

    def _request(self, method: str, params: Any, timeout: float | None, progress: Any = None) -> Any:
        self._check_thread()
        with self._lock:
            if self._gone:
                raise self.exited()
            id = self._ledger.next_id()
            line, token, callback = outgoing(method, params, id, progress, coroutines=False)
            waiter = _Waiter() if callback is None else _Reporting(callback)
            if token is not None:
                self._progress[token] = waiter.report
            self._ledger.sent({id: waiter})
            self._outbox.write(line)
        try:
            return unwrap(self._wait({id: waiter}, timeout, method)[0])
        finally:
            if token is not None:
                with self._lock:
                    del self._progress[token]

    def _check_thread(self) -> None:
        if threading.current_thread() is self._reader:
            raise RuntimeError(
                "a call from on_notification would wait for the thread that reads its answer: "
                "hand the work to another thread (a queue, an executor)"
            )

    def _wait(self, waiters: dict[int, _Waiter], timeout: float | None, what: str) -> list[Any]:
        """Every answer, within one deadline; past it the waiters are forgotten and ``TimeoutError`` raised."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for waiter in waiters.values():
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not waiter.wait(left):
                break
        else:
            return self._values(waiters)
        with self._lock:
            for id in waiters:
                self._ledger.abandon(id)
        if all(waiter.event.is_set() for waiter in waiters.values()):  # answered while giving up
            return self._values(waiters)
        raise TimeoutError(f"satchel did not answer {what} within {timeout} s")

    def _values(self, waiters: dict[int, _Waiter]) -> list[Any]:
        values = [waiter.value for waiter in waiters.values()]
        if any(value is _GONE for value in values):
            raise self.exited()
        return values

    # Live changes

    def subscribe(self, domains: Sequence[str] | None = None) -> Any:
        """Asks for a ``changed`` notification for every committed change (in ``domains``, or all); the
        events are then read with ``changes()``. Answers ``{cursor}``."""
        return self._call("changes.subscribe", None if domains is None else {"domains": list(domains)})

    def _iterate_changes(self, timeout: float | None) -> Iterator[Change]:
        while True:
            try:
                item = self._changes.get(timeout=timeout)
            except queue.Empty:
                return
            if item is _GONE:
                self._changes.put(_GONE)  # for every other iterator, too
                raise self.exited()
            yield item

    # The two reading threads

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        for line in iter(stdout.readline, b""):
            try:
                incoming = Incoming(line)
            except ValueError:
                LOG.warning("not JSON on the server's stdout: %r", line[:200])
                continue
            if incoming.answers:
                with self._lock:
                    resolved = [pair for id, answer in incoming.answers for pair in self._ledger.answered(id, answer)]
                for waiter, value in resolved:
                    waiter.set(value)
            for method, params in incoming.notifications:
                change = self._route(method, params)
                if change is not None:
                    self._changes.put(change)
        self._returncode = self._process.wait()
        self._stderr_reader.join(1.0)  # so that the report carries the server's last words
        with self._lock:
            self._gone = True
            waiters = self._ledger.drain()
        for waiter in waiters:
            waiter.set(_GONE)
        self._changes.put(_GONE)

    def _read_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        for raw in iter(stderr.readline, b""):
            line = raw.decode("utf-8", "replace")
            self._keep_stderr(line)
            log_server_line(line)

    # Lifetime

    def close(self, grace: float = 2.0) -> None:
        """Ends the server politely (``shutdown``, ``exit``, end of input); after ``grace`` seconds it is
        terminated, then killed. Waits for it, so no process is left behind. Calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        if not self._gone:
            try:
                self._request("shutdown", None, grace)
                self.notify("exit")
            except (SatchelError, TimeoutError, ServerExited):
                pass
        self._outbox.close(grace)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            LOG.warning("satchel %d did not exit within %s s; terminating it", process.pid, grace)
            process.terminate()
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._reader.join(grace)
        self._stderr_reader.join(grace)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


__all__ = ["Satchel", "ChangeFeed"]
