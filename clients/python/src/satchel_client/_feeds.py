"""The live change feed, ``s.changes``: the ``changes.*`` methods, and the ``changed`` events (and ``resync``
when the feed fell far behind) as they arrive, for the blocking and the async client."""
from __future__ import annotations

from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from ._namespace import UNSET, Unset, named
from ._protocol import Change, OnProgress, Resync
from .api import AsyncChanges, Changes, ChangesSubscribeResult

if TYPE_CHECKING:
    from .aio import AsyncSatchel
    from .client import Satchel


class ChangeFeed(Changes):
    """``s.changes.since(...)`` and the other ``changes.*`` methods; ``s.changes()`` iterates the live feed."""

    def __init__(self, satchel: Satchel) -> None:
        super().__init__(satchel._call)
        self._connection = satchel._wire

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
        connection = self._connection
        if not connection._subscribed and connection._changes.empty():
            raise connection._not_subscribed()
        return connection._iterate_changes(timeout)


class AsyncChangeFeed(AsyncChanges):
    """``await s.changes.since(...)`` and the other ``changes.*`` methods; ``async for e in s.changes()``."""

    def __init__(self, connection: AsyncSatchel) -> None:
        super().__init__(connection._call)
        self._connection = connection

    def subscribe(
        self,
        domains: Sequence[str] | None | Unset = UNSET,
        *,
        progress: OnProgress | None = None,
        timeout: float | None | Unset = UNSET,
    ) -> Coroutine[Any, Any, ChangesSubscribeResult]:
        """From now on, a ``changed`` notification for every committed change (in ``domains``, or every app),
        whoever makes it; read them with ``changes()``. Answers ``{"cursor": str}``: the place in the feed
        now, for ``changes.since(cursor=...)``."""
        wanted = UNSET if domains is None or isinstance(domains, Unset) else list(domains)
        return cast('Coroutine[Any, Any, ChangesSubscribeResult]', self._call("changes.subscribe", named(domains=wanted), progress, timeout))

    def __call__(self, timeout: float | None = None) -> AsyncIterator[Change | Resync]:
        """The ``changed`` events as they arrive, as ``Change`` (a ``Resync`` when the feed fell far behind
        and skipped them: read again); with a ``timeout``, ends after that many quiet seconds.
        ``RuntimeError`` when the connection is not subscribed and no event waits."""
        connection = self._connection
        connection._check_running()
        if not connection._subscribed and connection._changes.empty():
            raise connection._not_subscribed()
        return connection._iterate_changes(timeout)
