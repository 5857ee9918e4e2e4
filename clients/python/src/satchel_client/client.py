"""``Satchel``: the blocking client. One server process, one reader thread, calls from any thread; a call
reads its own answer off the pipe when no other thread is reading it."""
from __future__ import annotations

import _thread
import os
import queue
import subprocess
import sys
import threading
import time
import warnings
import weakref
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import IO, Any, cast

from ._connection import LOG, Connection, NotificationHandler
from ._inbox import Inbox
from ._launch import log_server_line
from ._namespace import UNSET, Unset, named
from ._outbox import Outbox
from ._protocol import Change, Incoming, OnProgress, Params, Progress, encode, merge_params, outgoing, report
from ._protocol import refused_as_a_whole, request
from .api import Changes, ChangesSubscribeResult, Methods
from .errors import SatchelError, ServerExited

_GONE = object()  # put on the change queue when the server has ended
_ANSWERED = object()  # the last item on a reporting waiter's queue


class _Waiter:
    """Where the reader thread leaves one answer for the thread that waits for it: a bare lock, held until the
    answer is in (a ``threading.Event`` costs a condition and a second lock on each side of every call)."""

    __slots__ = ("lock", "done", "value")

    def __init__(self) -> None:
        self.lock = _thread.allocate_lock()
        self.lock.acquire()
        self.done = False
        self.value: Any = None

    def set(self, value: Any) -> None:
        if not self.done:
            self.value = value
            self.done = True
            self.lock.release()

    def wait(self, timeout: float | None) -> bool:
        if not self.done and self.lock.acquire(True, -1 if timeout is None else timeout):
            self.lock.release()  # for any later wait
        return self.done


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
        if self.done:  # read after the answer, before the caller forgot the token
            LOG.debug("progress for no call in flight: %r", progress)
            return
        self.reports.put(progress)

    def set(self, value: Any) -> None:
        super().set(value)
        self.reports.put(_ANSWERED)

    def wait(self, timeout: float | None) -> bool:
        """Waits for the answer; each report restarts the ``timeout``: a call that shows progress is not late."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                item = self.reports.get(timeout=left)
            except queue.Empty:
                return self.done
            if item is _ANSWERED:
                return True
            if timeout is not None:
                deadline = time.monotonic() + timeout
            report(self.callback, item)


class ChangeFeed(Changes):
    """``s.changes.since(...)`` and the other ``changes.*`` methods; ``s.changes()`` iterates the live feed."""

    def __init__(self, connection: Satchel) -> None:
        super().__init__(connection._call)
        self._connection = connection

    def subscribe(
        self,
        domains: Sequence[str] | None | Unset = UNSET,
        *,
        progress: OnProgress | None = None,
        timeout: float | None | Unset = UNSET,
    ) -> ChangesSubscribeResult:
        """From now on, a ``changed`` notification for every committed change (in ``domains``, or every app),
        whoever makes it; read them with ``changes()``. Answers ``{"cursor": str}``: the place in the feed
        now, for ``changes.since(cursor=...)``."""
        wanted = UNSET if domains is None or isinstance(domains, Unset) else list(domains)
        return cast('ChangesSubscribeResult', self._call("changes.subscribe", named(domains=wanted), progress, timeout))

    def __call__(self, timeout: float | None = None) -> Iterator[Change]:
        """The ``changed`` events, in order, as they arrive (after ``subscribe``).

        With a ``timeout``, the iteration ends after that many seconds without an event; without, it ends
        only with ``ServerExited`` when the server goes. ``RuntimeError`` when the connection is not
        subscribed and no event waits (it would wait for ever).
        """
        connection = self._connection
        if not connection._subscribed and connection._changes.empty():
            raise connection._not_subscribed()
        return connection._iterate_changes(timeout)


class Satchel(Connection, Methods):
    """A ``satchel`` server process and a blocking JSON-RPC connection to it.

    ``binary``: the executable (else ``$SATCHEL_BINARY``, ``satchel`` on ``PATH``, or a checkout's build).
    ``db`` or ``memory=True`` choose the database; ``args`` are more command-line flags; ``env`` is laid over
    this process's environment; ``timeout`` is how long a call waits (seconds, ``None`` for ever).

    Calls may come from several threads at once. Use it as a context manager, or call ``close()``.
    """

    def __init__(
        self,
        binary: str | os.PathLike[str] | None = None,
        *,
        db: str | os.PathLike[str] | None = None,
        memory: bool = False,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        timeout: float | None = 10.0,
        on_notification: NotificationHandler | None = None,
    ) -> None:
        self._closed = True  # until the server is running: nothing for __del__ to end
        super().__init__(
            binary, db=db, memory=memory, args=args, env=env, timeout=timeout, on_notification=on_notification
        )
        self._lock = threading.Lock()  # the ledger and the pipe to the server
        self._changes: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._process = process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env
        )
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        self._closed = False
        # The threads hold the client weakly, so that a client nobody holds is collected (and ends its server).
        self._stderr_reader = threading.Thread(
            target=_read_stderr, args=(process.stderr, self._stderr_tail), name=f"satchel-stderr-{process.pid}",
            daemon=True,
        )
        self._inbox = Inbox(process.stdout)
        self._reader = threading.Thread(
            target=_read, args=(weakref.ref(self), self._inbox), name=f"satchel-reader-{process.pid}", daemon=True
        )
        self._outbox = Outbox(process.stdin, f"satchel-writer-{process.pid}")
        self._stderr_reader.start()
        self._reader.start()
        self._started()

    def _started(self) -> None:
        """Waits for the answer to a first ``ping``: a binary that is not a satchel server, or one that cannot
        start, fails here with ``ServerExited`` (or ``TimeoutError``) instead of at the first call."""
        try:
            self._request("ping", None, self.timeout)
        except ServerExited:
            self.close()
            raise self.exited(self._not_started(self.argv[0])) from None
        except TimeoutError:
            self.close(grace=0.5)
            raise TimeoutError(
                f"{self.argv[0]} did not answer ping within {self.timeout} s: is it a satchel server?"
            ) from None

    def __del__(self) -> None:
        if getattr(self, "_closed", True):
            return
        self._closed = True
        warnings.warn(f"unclosed {self!r}: close it, or use `with Satchel(...) as s:`", ResourceWarning, source=self)
        if sys.is_finalizing():  # no thread starts now; the server ends at the end of its input, with this process
            return
        try:  # end it the way close() does, on a thread of its own: this may run on any thread, the reader's too
            threading.Thread(target=_end, args=(self._process, self._outbox, 2.0), daemon=True).start()
        except RuntimeError:  # the interpreter is shutting down
            pass

    def __enter__(self) -> Satchel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("exited" if self._gone else "running")
        return f"<Satchel pid={self.pid} {state}>"

    @cached_property
    def changes(self) -> ChangeFeed:
        return ChangeFeed(self)

    # Calls

    def call(
        self,
        method: str,
        params: Params = None,
        /,
        *,
        progress: OnProgress | None = None,
        timeout: float | None | Unset = UNSET,
        **named: Any,
    ) -> Any:
        """Sends ``method`` with ``params`` (a mapping or a sequence) or keyword arguments; returns its result.

        ``progress``: a callable given each ``Progress`` the server reports about this call (the request
        carries ``_meta.progressToken``); it runs on this thread while the call waits, and what it raises
        is logged. ``timeout``: seconds to wait for this answer (``None``: for ever; default ``self.timeout``);
        each progress report restarts it. Parameters of the method called ``progress`` or ``timeout`` go in
        ``params``.

        Raises the ``SatchelError`` subclass of an error answer, ``TimeoutError`` past the timeout (the
        connection stays usable), ``ServerExited`` when the server is gone, ``TypeError`` for params that
        JSON cannot carry (nothing is sent then).
        """
        return self._request(
            method, merge_params(params, named), self.timeout if isinstance(timeout, Unset) else timeout, progress
        )

    def _call(
        self, method: str, params: Any, progress: OnProgress | None = None, timeout: float | None | Unset = UNSET
    ) -> Any:
        return self._request(method, params, self.timeout if isinstance(timeout, Unset) else timeout, progress)

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
        entries = [(each[0], each[1] if len(each) > 1 else None) for each in calls]
        if not entries:
            self._check_thread()
            return []
        waiters: dict[int, _Waiter] = {}
        reading = self._inbox.claim()
        if not reading:
            self._check_thread()
        try:
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
        except BaseException:
            if reading:
                self._inbox.release()
            raise
        outcomes = self._wait(waiters, self.timeout, "a batch", reading)
        refused = refused_as_a_whole(outcomes)
        if refused is not None:
            raise refused
        return outcomes

    def _request(self, method: str, params: Any, timeout: float | None, progress: Any = None) -> Any:
        # This thread reads its answer off the pipe itself when no other thread reads it (the reader thread
        # never does: it holds the pipe while it calls on_notification), unless a progress callback is to
        # run on it while it waits.
        reading = progress is None and self._inbox.claim()
        if not reading:
            self._check_thread()
        try:
            with self._lock:
                if self._gone:
                    raise self.exited()
                id = self._ledger.next_id()
                line, token, callback = outgoing(method, params, id, progress, coroutines=False)
                waiter: _Waiter
                if token is None:
                    waiter = _Waiter()
                else:
                    waiter = reporting = _Reporting(callback)
                    self._progress[token] = reporting.report
                self._ledger.sent({id: waiter})
                self._outbox.write(line)
        except BaseException:
            if reading:
                self._inbox.release()
            raise
        try:
            result = self._wait({id: waiter}, timeout, method, reading)[0]
            if isinstance(result, SatchelError):
                raise result
        finally:
            if token is not None:
                with self._lock:
                    del self._progress[token]
        if method.startswith("changes."):
            self._answered(method)
        return result

    def _check_thread(self) -> None:
        if threading.current_thread() is self._reader:
            raise RuntimeError(
                "a call from on_notification would wait for the thread that reads its answer: "
                "hand the work to another thread (a queue, an executor)"
            )

    def _wait(self, waiters: dict[int, _Waiter], timeout: float | None, what: str, reading: bool) -> list[Any]:
        """Every answer, within one deadline; past it the waiters are forgotten and ``TimeoutError`` raised.
        ``reading``: this thread has claimed the pipe, and reads the answers off it as far as it can."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if reading:
            try:
                self._read_answers(waiters, deadline)
            finally:
                self._inbox.release()
        for waiter in waiters.values():
            if not waiter.done and not waiter.wait(None if deadline is None else max(0.0, deadline - time.monotonic())):
                with self._lock:
                    for id in waiters:
                        self._ledger.abandon(id)
                if not all(waiter.done for waiter in waiters.values()):  # not answered while giving up
                    raise TimeoutError(f"satchel did not answer {what} within {timeout} s")
                break
        values = [waiter.value for waiter in waiters.values()]
        if _GONE in values:
            raise self.exited()
        return values

    # Live changes

    def subscribe(self, domains: Sequence[str] | None = None) -> ChangesSubscribeResult:
        """Deprecated: ``s.changes.subscribe(domains)``, the same call."""
        warnings.warn("s.subscribe() is s.changes.subscribe()", DeprecationWarning, stacklevel=2)
        return self.changes.subscribe(domains)

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

    # What the server writes

    def _read_answers(self, waiters: dict[int, _Waiter], deadline: float | None) -> None:
        """On a calling thread that has claimed the pipe: takes lines off it, every answer to its waiter and
        every change to the queue, until ``waiters`` have their answers or the deadline passes, the output
        ends, or a notification for ``on_notification`` comes: that line and those after it are left to the
        reader thread, which calls the handler on its own thread before it hands on the answers after it."""
        inbox = self._inbox
        while True:
            lines = inbox.read(deadline)
            if lines is None:
                return
            for at, line in enumerate(lines):
                if not self._take(line, handler=False):
                    inbox.pending = lines[at:]
                    return
            for waiter in waiters.values():
                if not waiter.done:
                    break
            else:
                return

    def _take_available(self) -> bool:
        """On the reader thread: the lines a calling thread left, then what the pipe holds now; ``False``
        once the output has ended."""
        inbox = self._inbox
        left, inbox.pending = inbox.pending, []
        for line in left:
            self._take(line)
        lines = inbox.read_now()
        if lines is None:
            return False
        for line in lines:
            self._take(line)
        return True

    def _take(self, line: bytes, handler: bool = True) -> bool:
        """One line from the server: answers to their callers, changes to the queue, other notifications on.
        Without ``handler`` (not on the reader thread), a line with a notification for ``on_notification``
        is not taken: ``False``."""
        try:
            incoming = Incoming(line)
        except ValueError:
            LOG.warning("not JSON on the server's stdout: %r", line[:200])
            return True
        notifications = incoming.notifications
        if not handler and notifications and any(self._for_handler(method, params) for method, params in notifications):
            return False
        if incoming.answers:
            resolved = []
            with self._lock:
                for id, answer in incoming.answers:
                    resolved += self._ledger.answered(id, answer)
            for waiter, value in resolved:
                waiter.set(value)
        for method, params in notifications:
            change = self._route(method, params)
            if change is not None:
                self._changes.put(change)
        return True

    def _ended(self) -> None:
        """The server's output has ended: every waiter, and every reader of changes, learns it."""
        self._returncode = self._process.wait()
        self._stderr_reader.join(1.0)  # so that the report carries the server's last words
        with self._lock:
            self._gone = True
            waiters = self._ledger.drain()
        for waiter in waiters:
            waiter.set(_GONE)
        self._changes.put(_GONE)

    # Lifetime

    def close(self, grace: float = 2.0) -> None:
        """Ends the server politely (``shutdown``, ``exit``, end of input); a server still running after half
        of ``grace`` seconds is terminated, and killed at ``grace``: it returns within ``grace`` seconds (and
        the moment a killed process takes to go). Waits for it, so no process is left behind. Calling it
        again does nothing."""
        if self._closed:
            return
        self._closed = True
        started = time.monotonic()
        polite = started + grace / 2
        process = self._process
        if not self._gone:
            try:
                self._request("shutdown", None, grace / 2)
                self.notify("exit")
            except (SatchelError, TimeoutError, ServerExited):
                pass
        self._outbox.close(_left(polite))
        _wait_or_kill(process, polite, started + grace)
        self._reader.join(max(0.1, _left(started + grace)))
        self._stderr_reader.join(max(0.1, _left(started + grace)))
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def _wait_or_kill(process: subprocess.Popen[bytes], polite: float, end: float) -> None:
    """Waits for ``process`` until ``polite``, terminates it then, and kills it at ``end``; waits for it."""
    try:
        process.wait(_left(polite))
    except subprocess.TimeoutExpired:
        LOG.warning("satchel %d did not exit in time; terminating it", process.pid)
        process.terminate()
        try:
            process.wait(_left(end))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _read(client: weakref.ReferenceType[Satchel], inbox: Inbox) -> None:
    """The reader thread: what the server writes while no calling thread reads it, each line to the client
    while the client is alive; then the end."""
    while True:
        inbox.wait()
        with inbox.lock:
            satchel = client()
            if satchel is None:
                break
            running = satchel._take_available()
            del satchel
        if not running:
            break
    satchel = client()
    if satchel is not None:
        satchel._ended()
    else:  # collected unclosed: _end waits for the process
        inbox.drain()
    with inbox.lock:
        inbox.close()


def _read_stderr(stderr: IO[bytes], tail: deque[str]) -> None:
    """The stderr thread: every line logged, the last ones kept for ``ServerExited``."""
    for raw in iter(stderr.readline, b""):
        line = raw.decode("utf-8", "replace")
        tail.append(line.rstrip("\r\n"))
        log_server_line(line)
    stderr.close()


def _end(process: subprocess.Popen[bytes], outbox: Outbox, grace: float) -> None:
    """Ends the server of a client collected unclosed: end of input; after ``grace`` seconds, as ``close``."""
    started = time.monotonic()
    outbox.close(grace / 2)
    _wait_or_kill(process, started + grace / 2, started + grace)


__all__ = ["Satchel", "ChangeFeed"]
