"""The blocking client's connection: one server process, one reader thread, calls from any thread; a call
reads its own answer off the pipe when no other thread is reading it. ``Satchel`` is its public face."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ._connection import LOG, Connection
from ._inbox import Inbox
from ._lifetime import end_collected, left, read_output, read_stderr, wait_or_kill
from ._outbox import Outbox
from ._waiters import Reporting, Waiter
from ._events import Change, Resync
from ._protocol import ANSWERED_WHEN_READY, Incoming, Params, cancellation, encode, merge_params
from ._protocol import outgoing, refused_as_a_whole, request
from .errors import SatchelError, ServerExited

_GONE = object()  # put on the change queue when the server has ended
class Wire(Connection):
    """The server process and the state of the connection to it: the pipes, the books of calls in flight,
    the reader threads. Its attributes are read on every call, so it has no ``__getattr__`` (which would
    slow every one of them down); ``Satchel`` has, for the names it does not know.
    """

    def __init__(self, binary: str | os.PathLike[str] | None, **options: Any) -> None:
        """Starts the server: ``Satchel``'s arguments."""
        self._closed = True  # until the server is running: nothing for abandon to end
        super().__init__(binary, **options)
        self._lock = threading.Lock()  # the ledger and the pipe to the server
        self._changes: queue.SimpleQueue[Any] = queue.SimpleQueue()
        # A session of its own, as language clients start their servers: a terminal's Ctrl-C (sent to the
        # whole foreground process group) interrupts the caller, not the server.
        self._process = process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
            start_new_session=True,
        )
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        self._closed = False
        # The threads hold the connection weakly, so that one nobody holds is collected (and its server ended).
        self._stderr_reader = threading.Thread(
            target=read_stderr, args=(process.stderr, self._stderr_tail), name=f"satchel-stderr-{process.pid}",
            daemon=True,
        )
        self._inbox = Inbox(process.stdout)
        self._reader = threading.Thread(
            target=read_output, args=(weakref.ref(self), self._inbox), name=f"satchel-reader-{process.pid}", daemon=True
        )
        self._outbox = Outbox(process.stdin, f"satchel-writer-{process.pid}", self._lock)
        self._stderr_reader.start()
        self._reader.start()
        self._started()

    def _started(self) -> None:
        """Waits for the answer to a first ``ping``: a binary that is not a satchel server, or one that cannot
        start, fails here with ``ServerExited`` (or ``TimeoutError``) instead of at the first call."""
        try:
            self.request("ping", None, self.timeout)
        except ServerExited:
            self.close()
            raise self.exited(self._not_started(self.argv[0])) from None
        except TimeoutError:
            self.close(grace=0.5)
            raise TimeoutError(
                f"{self.argv[0]} did not answer ping within {self.timeout} s: is it a satchel server?"
            ) from None

    def abandon(self, owner: object) -> None:
        """``owner`` (the ``Satchel``) is being collected unclosed: warns, and ends the server as ``close``
        does, on a thread of its own (this may run on any thread, the reader's too)."""
        if self._closed:
            return
        self._closed = True
        warnings.warn(f"unclosed {owner!r}: close it, or use `with Satchel(...) as s:`", ResourceWarning, source=owner)
        if sys.is_finalizing():  # no thread starts now; the server ends at the end of its input, with this process
            return
        try:
            threading.Thread(target=end_collected, args=(self._process, self._outbox, 2.0), daemon=True).start()
        except RuntimeError:  # the interpreter is shutting down
            pass

    def state(self) -> str:
        return "closed" if self._closed else ("exited" if self._gone else "running")

    # Calls

    def notify(self, method: str, params: Params = None, /, **named: Any) -> None:
        """Sends a notification: a request without an id, which the server never answers."""
        line = encode(request(method, merge_params(params, named), None))
        with self._lock:
            if self._gone:
                raise self.exited()
            self._ledger.sent_notification()
            self._outbox.write(line)

    def batch(self, calls: Iterable[tuple[str, Params] | Sequence[Any]]) -> list[Any]:
        """As ``Satchel.batch``."""
        entries = [(each[0], each[1] if len(each) > 1 else None) for each in calls]
        if not entries:
            self._check_thread()
            return []
        waiters: dict[int, Waiter] = {}
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
                    waiters[id] = Waiter()
                line = encode(messages)
                self._ledger.sent(waiters)
                self._inbox.watch(not reading)
                self._outbox.write(line)
        except BaseException:
            if reading:
                self._release()
            raise
        self._wait(waiters, self.timeout, "a batch", reading)
        outcomes = [waiter.value for waiter in waiters.values()]
        if _GONE in outcomes:
            raise self.exited()
        refused = refused_as_a_whole(outcomes)
        if refused is not None:
            raise refused
        return outcomes

    def request(self, method: str, params: Any, timeout: float | None, progress: Any = None) -> Any:
        # This thread reads its answer off the pipe itself when no other thread reads it (the reader thread
        # never does: it holds the pipe while it calls on_notification), unless a progress callback is to
        # run on it while it waits.
        inbox = self._inbox
        reading = progress is None and inbox.claim()
        if not reading:
            self._check_thread()
        token = None
        try:
            with self._lock:
                if self._gone:
                    raise self.exited()
                ledger = self._ledger
                id = ledger.next_id()
                waiter: Waiter
                if progress is None:
                    line = encode(request(method, params, id))
                    waiter = Waiter()
                else:
                    line, token, callback = outgoing(method, params, id, progress, coroutines=False)
                    assert token is not None  # given for every call with progress
                    waiter = reporting = Reporting(callback)
                    self._progress[token] = reporting.report
                ledger.sent({id: waiter}, method in ANSWERED_WHEN_READY)
                if inbox.watching is reading:
                    inbox.watch(not reading)
                self._outbox.write(line)
        except BaseException:
            if reading:
                self._release()
            raise
        try:
            try:
                self._wait({id: waiter}, timeout, method, reading)
            except BaseException as error:  # a timeout, Ctrl-C: the server need not wait on its network for us
                if method in ANSWERED_WHEN_READY and not waiter.done:
                    self._cancel(id, "timeout" if isinstance(error, TimeoutError) else "interrupted")
                raise
            result = waiter.value
            if isinstance(result, SatchelError):
                raise result
            if result is _GONE:
                raise self.exited()
        finally:
            if token is not None:
                with self._lock:
                    del self._progress[token]
        if method.startswith("changes."):
            self._answered(method)
            if self._subscribed:
                with self._lock:
                    self._inbox.watch(True)
        return result

    def _cancel(self, id: int, reason: str) -> None:
        """Tells the server nobody waits for request ``id`` any more (its late answer is dropped)."""
        with self._lock:
            self._ledger.abandon(id)
            if not self._gone:
                self._ledger.sent_notification()
                self._outbox.write(cancellation(id, reason))

    def _release(self) -> None:
        """Gives up the pipe this thread claimed; the reader thread watches it from now on only if something
        may come that no calling thread would read: the answer to another call, live changes, a
        notification for the handler."""
        inbox = self._inbox
        wanted = bool(inbox.pending) or self._subscribed or self.on_notification is not None or (
            self._ledger.in_flight() > 0
        )
        if wanted is not inbox.watching:  # read without the lock: mostly, nothing changes
            with self._lock:
                inbox.watch(self._wants_watch())
        inbox.release()

    def _wants_watch(self) -> bool:
        return bool(self._inbox.pending) or self._subscribed or self.on_notification is not None or (
            self._ledger.in_flight() > 0
        )

    def _check_thread(self) -> None:
        if threading.current_thread() is self._reader:
            raise RuntimeError(
                "a call from on_notification would wait for the thread that reads its answer: "
                "hand the work to another thread (a queue, an executor)"
            )

    def _wait(self, waiters: dict[int, Waiter], timeout: float | None, what: str, reading: bool) -> None:
        """Until every answer is in, within one deadline; past it the waiters are forgotten and ``TimeoutError``
        raised. ``reading``: this thread has claimed the pipe, and reads the answers off it as far as it can."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if reading:  # lines off the pipe, until the answers are in (or as below)
            inbox = self._inbox
            try:
                while (lines := inbox.read(deadline)) is not None and self._take_answers(lines):
                    for waiter in waiters.values():
                        if not waiter.done:
                            break
                    else:
                        return
            finally:
                self._release()
        for waiter in waiters.values():
            # A call with progress blocks even when its answer is in already: its reports wait for it.
            if not waiter.done or isinstance(waiter, Reporting):
                self._block(waiters, deadline, timeout, what)
                return

    def _block(self, waiters: dict[int, Waiter], deadline: float | None, timeout: float | None, what: str) -> None:
        """Blocks until the reader thread has left every answer, or the deadline passes."""
        with self._lock:
            for waiter in waiters.values():
                waiter.prepare()
        for waiter in waiters.values():
            # Each waits, answered or not: a reporting waiter hands its queued reports to the callback first.
            if not waiter.wait(None if deadline is None else max(0.0, deadline - time.monotonic())):
                with self._lock:
                    for id in waiters:
                        self._ledger.abandon(id)
                if not all(waiter.done for waiter in waiters.values()):  # not answered while giving up
                    raise TimeoutError(f"satchel did not answer {what} within {timeout} s")
                return

    # Live changes

    def events(self, timeout: float | None) -> Iterator[Change | Resync]:
        """As ``s.changes()``; ``RuntimeError`` at once when it would wait for ever."""
        self._check_subscribed(self._changes.empty())
        return self._iterate_changes(timeout)

    def _iterate_changes(self, timeout: float | None) -> Iterator[Change | Resync]:
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

    def _take_answers(self, lines: list[bytes]) -> bool:
        """On a calling thread that has claimed the pipe: every answer in ``lines`` to its waiter and every
        change to the queue, unless a notification for ``on_notification`` comes: that line and those after
        it are left to the reader thread, which calls the handler on its own thread before it hands on the
        answers after it (``False``: the calling thread reads no further)."""
        for at, line in enumerate(lines):
            if not self._take(line, handler=False):
                self._inbox.pending = lines[at:]
                return False
        return True

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
            with self._lock:
                for id, answer in incoming.answers:
                    for waiter, value in self._ledger.answered(id, answer):
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
            for waiter in self._ledger.drain():
                waiter.set(_GONE)
        self._changes.put(_GONE)

    # Lifetime

    def close(self, grace: float = 2.0) -> None:
        """As ``Satchel.close``."""
        if self._closed:
            return
        self._closed = True
        started = time.monotonic()
        polite = started + grace / 2
        process = self._process
        if not self._gone:
            try:
                self.request("shutdown", None, grace / 2)
                self.notify("exit")
            except (SatchelError, TimeoutError, ServerExited):
                pass
        self._outbox.close(left(polite))
        wait_or_kill(process, polite, started + grace)
        self._reader.join(max(0.1, left(started + grace)))
        self._stderr_reader.join(max(0.1, left(started + grace)))
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


__all__ = ["Wire"]
