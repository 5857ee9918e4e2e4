"""The live change feed, ``s.changes``: the ``changes.*`` methods, and the ``changed`` events (and ``resync``
when the feed fell far behind) as they arrive, for the blocking and the async client."""
from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, cast

from ._namespace import UNSET, Unset, named
from ._events import Change, Resync
from ._protocol import OnProgress
from .api import AsyncChanges, Changes, ChangesSubscribeResult

#: For pytest: a failed call's traceback ends at its caller's line, not in these methods.
__tracebackhide__ = True


class ChangeFeed(Changes):
    """``s.changes.since(...)`` and the other ``changes.*`` methods; ``s.changes()`` iterates the live feed.

    ``call`` makes the calls; ``events(timeout)`` answers the iterator of the connection's events (and raises
    ``RuntimeError`` at once when it has not subscribed and no event waits)."""

    def __init__(self, call: Callable[..., Any], events: Callable[[float | None], Iterator[Change | Resync]]) -> None:
        super().__init__(call)
        self._events = events

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

    def __call__(self, timeout: float | None = None) -> Iterator[Change | Resync]:
        """The ``changed`` events, in order, as they arrive (after ``subscribe``), as ``Change``.

        A ``Resync`` instead of a run of events says the feed fell more than 500 changes behind (a large
        import elsewhere) and they were skipped: read again what you show, or walk
        ``changes.since(cursor=resync.since)`` up to ``resync.cursor``; the events after it follow on.

        With a ``timeout``, the iteration ends after that many seconds without an event; without, it ends
        only with ``ServerExited`` when the server goes. ``RuntimeError`` when the connection is not
        subscribed and no event waits (it would wait for ever).
        """
        return self._events(timeout)


class AsyncChangeFeed(AsyncChanges):
    """``await s.changes.since(...)`` and the other ``changes.*`` methods; ``async for e in s.changes()``.

    As ``ChangeFeed``: ``events(timeout)`` answers the connection's events, as an async iterator."""

    def __init__(
        self, call: Callable[..., Any], events: Callable[[float | None], AsyncIterator[Change | Resync]]
    ) -> None:
        super().__init__(call)
        self._events = events

    async def subscribe(
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
        answer = await self._call("changes.subscribe", named(domains=wanted), progress, timeout)
        return cast(ChangesSubscribeResult, answer)

    def __call__(self, timeout: float | None = None) -> AsyncIterator[Change | Resync]:
        """The ``changed`` events as they arrive, as ``Change`` (a ``Resync`` when the feed fell far behind
        and skipped them: read again); with a ``timeout``, ends after that many quiet seconds.
        ``RuntimeError`` when the connection is not subscribed and no event waits."""
        return self._events(timeout)
