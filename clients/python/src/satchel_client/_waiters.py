"""Where a blocking call's answer is left for the thread that waits for it (``_blocking.Wire``)."""
from __future__ import annotations

import _thread
import queue
import time
from typing import Any

from ._connection import LOG
from ._protocol import OnProgress, Progress, report

_ANSWERED = object()  # the last item on a reporting waiter's queue


class Waiter:
    """Where one answer is left for the thread that waits for it, with the client's lock held. A thread that
    reads its own answer off the pipe never blocks on it; the lock that a waiting thread blocks on (a bare
    lock: a ``threading.Event`` costs a condition and a second lock) is made only when one has to wait."""

    __slots__ = ("lock", "done", "value")

    def __init__(self) -> None:
        self.lock: Any = None
        self.done = False
        self.value: Any = None

    def set(self, value: Any) -> None:
        """With the client's lock held."""
        if not self.done:
            self.value = value
            self.done = True
            if self.lock is not None:
                self.lock.release()

    def prepare(self) -> None:
        """With the client's lock held, before ``wait``: the lock to wait on, held until ``set``."""
        if not self.done and self.lock is None:
            self.lock = _thread.allocate_lock()
            self.lock.acquire()

    def wait(self, timeout: float | None) -> bool:
        """After ``prepare``: waits until ``set`` or the ``timeout``; whether the answer is in."""
        if not self.done and self.lock.acquire(True, -1 if timeout is None else timeout):
            self.lock.release()  # for any later wait
        return self.done


class Reporting(Waiter):
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
        if not self.done:
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
