"""An ``AsyncSatchel`` still open when its event loop ends is closed then, in that loop, while it still runs.

``asyncio.run`` and ``asyncio.Runner`` (and the test runners built on them) end a loop by closing the async
generators started in it (``loop.shutdown_asyncgens()``); one, started with the client, closes the client
then. Once the loop is closed its pipes could not be closed any more, and whatever collected them later
would fail on the closed loop, far from the code that left the client open.
"""
from __future__ import annotations

import types
import weakref
from collections.abc import AsyncGenerator, Callable
from typing import Protocol, cast

# The generators of open clients, held here (not by their client) until they are finished, so that none is
# collected unfinished: the loop's finalizer would then schedule its closing on a loop that may be closed.
_OPEN: set[AsyncGenerator[None, None]] = set()


class Closable(Protocol):
    _closed: bool

    async def _loop_ending(self) -> None:
        """Its event loop ends while it is open: it closes itself."""


async def _until_the_loop_ends(connection: Callable[[], Closable | None]) -> AsyncGenerator[None, None]:
    try:
        yield
    finally:
        alive = connection()
        if alive is not None and not alive._closed:
            await alive._loop_ending()


class LoopEnd:
    """Closes ``connection`` when the running event loop ends, unless ``forget`` is called first."""

    def __init__(self, connection: Closable) -> None:
        generator = _until_the_loop_ends(weakref.ref(connection))
        self._generator = cast("types.AsyncGeneratorType[None, None]", generator)

    async def start(self) -> None:
        _OPEN.add(self._generator)
        await self._generator.asend(None)  # the loop knows it from now on

    def forget(self) -> None:
        """Done with it (the connection is closed, or its end has begun): finishes the generator at once, without
        the loop, unless it is the one running."""
        _OPEN.discard(self._generator)
        if self._generator.ag_running:
            return
        closing = self._generator.aclose()
        try:
            closing.send(None)  # the connection is closed: its `finally` awaits nothing
        except StopIteration:
            return
        closing.close()
