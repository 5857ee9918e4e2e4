"""Where an async call's progress reports wait for the task that awaits its answer (``aio.AsyncSatchel``)."""
from __future__ import annotations

import asyncio
import inspect
from collections import deque
from typing import Any

from ._connection import LOG
from ._protocol import OnProgress, Progress, report


class AsyncReports:
    """The progress reports of one call, kept by the reading side and handed to the callback by the task
    that awaits the answer: in order, a coroutine callback awaited, the last one done before the call
    returns."""

    def __init__(self, callback: OnProgress, answer: asyncio.Future[Any]) -> None:
        self.callback = callback
        self.answer = answer
        self.pending: deque[Progress] = deque()
        self.arrived: asyncio.Future[None] | None = None

    def report(self, progress: Progress) -> None:  # as the line is read
        if self.answer.done():  # read after the answer, before its task forgot the token
            LOG.debug("progress for no call in flight: %r", progress)
            return
        self.pending.append(progress)
        if self.arrived is not None and not self.arrived.done():
            self.arrived.set_result(None)

    async def hand_over(self) -> None:
        """Calls back with every report until the answer is in, and with those that came before it."""
        answer = self.answer
        loop = asyncio.get_running_loop()
        while True:
            while self.pending:
                outcome = report(self.callback, self.pending.popleft())
                if inspect.isawaitable(outcome):
                    try:
                        await outcome
                    except Exception:
                        LOG.exception("the progress callback failed")
            if answer.done():
                return
            self.arrived = loop.create_future()
            try:
                await asyncio.wait({answer, self.arrived}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                self.arrived.cancel()
                self.arrived = None
