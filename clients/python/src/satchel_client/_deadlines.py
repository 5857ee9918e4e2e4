"""The asyncio client's deadlines: each line of requests in flight has one, and one timer serves them all, set
at the earliest (a timer per call would cost a quarter of a round trip)."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

#: The outcome of a call whose time is up.
EXPIRED = object()


class Deadlines:
    """The deadlines of the lines of requests in flight. Past its deadline, each call of a line that is not
    answered is given ``EXPIRED`` and ``abandon``ed (its late answer is dropped)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, abandon: Callable[[int], None]) -> None:
        self._loop = loop
        self._abandon = abandon
        self._lines: dict[int, tuple[float, dict[int, asyncio.Future[Any]]]] = {}
        self._timer: asyncio.TimerHandle | None = None

    def watch(self, key: int, timeout: float, futures: dict[int, asyncio.Future[Any]]) -> None:
        """Keeps the deadline, ``timeout`` seconds from now, of the line ``key`` whose answers ``futures`` await."""
        deadline = self._loop.time() + timeout
        self._lines[key] = (deadline, futures)
        if self._timer is None or deadline < self._timer.when():
            self._arm(deadline)

    def extend(self, key: int, timeout: float) -> None:
        """Moves the line's deadline to ``timeout`` seconds from now (a call that shows progress is not late)."""
        entry = self._lines.get(key)
        if entry is not None:
            self._lines[key] = (self._loop.time() + timeout, entry[1])

    def forget(self, key: int) -> None:
        self._lines.pop(key, None)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, deadline: float) -> None:
        self.cancel()
        self._timer = self._loop.call_at(deadline, self._expire_due)

    def _expire_due(self) -> None:
        self._timer = None
        now = self._loop.time()
        for key, (deadline, futures) in list(self._lines.items()):
            if deadline <= now:
                del self._lines[key]
                for id, future in futures.items():
                    if not future.done():
                        self._abandon(id)
                        future.set_result(EXPIRED)
        if self._lines:
            self._arm(min(deadline for deadline, _ in self._lines.values()))
