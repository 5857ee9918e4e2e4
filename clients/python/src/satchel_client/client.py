"""``Satchel``: the blocking client. One server process, one reader thread, calls from any thread; a call
reads its own answer off the pipe when no other thread is reading it (``_blocking.Wire``)."""
from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from ._blocking import Wire
from ._images import ImageShelf
from ._connection import NotificationHandler
from ._feeds import ChangeFeed
from ._namespace import UNSET, MisspeltNames, Unset
from ._protocol import OnProgress, Params, merge_params
from .api import ChangesSubscribeResult, Methods
from .errors import SatchelError, ServerExited

#: What a call raises for its outcome (an error answer, no answer in time, no server): raised from the call
#: itself, so that its traceback ends at the caller's line, not in the connection's inner workings.
CALL_FAILURES = (SatchelError, TimeoutError, ServerExited)


class Satchel(MisspeltNames, Methods):
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
        self._wire = Wire(
            binary, db=db, memory=memory, args=args, env=env, timeout=timeout, on_notification=on_notification
        )

    def __del__(self) -> None:
        wire = self.__dict__.get("_wire")
        if wire is not None:
            wire.abandon(self)

    def __enter__(self) -> Satchel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        wire = self.__dict__.get("_wire")
        return f"<Satchel pid={self.pid} {wire.state() if wire else 'closed'}>"

    # What the connection is

    @property
    def timeout(self) -> float | None:
        """Seconds a call waits for its answer (``None``: for ever); past it, ``TimeoutError``."""
        return self._wire.timeout

    @timeout.setter
    def timeout(self, seconds: float | None) -> None:
        self._wire.timeout = seconds

    @property
    def on_notification(self) -> NotificationHandler | None:
        """Called with every notification that is not ``changed`` or ``resync``, on the reader thread."""
        return self._wire.on_notification

    @on_notification.setter
    def on_notification(self, handler: NotificationHandler | None) -> None:
        self._wire.on_notification = handler

    @property
    def argv(self) -> list[str]:
        """The server's command line."""
        return self._wire.argv

    @property
    def pid(self) -> int | None:
        """The server's process id."""
        wire = self.__dict__.get("_wire")
        return wire.pid if wire is not None else None

    @property
    def returncode(self) -> int | None:
        """The server's exit status once it has ended, else ``None``."""
        return self._wire.returncode

    def exited(self, when: str = "") -> ServerExited:
        """A fresh exception describing how the server ended."""
        return self._wire.exited(when)

    @cached_property
    def changes(self) -> ChangeFeed:
        return ChangeFeed(self._call, self._wire.events)

    @cached_property
    def images(self) -> ImageShelf:
        """``images.*``, and images as bytes: ``upload(data)`` in chunks, ``bytes(id, size=...)``."""
        return ImageShelf(self._call)

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
        __tracebackhide__ = True
        wire = self._wire
        if named or not (params is None or type(params) is dict):
            params = merge_params(params, named)
        try:
            return wire.request(method, params, wire.timeout if isinstance(timeout, Unset) else timeout, progress)
        except CALL_FAILURES as failure:
            raise failure.with_traceback(None)

    def _call(
        self, method: str, params: Any, progress: OnProgress | None = None, timeout: float | None | Unset = UNSET
    ) -> Any:
        __tracebackhide__ = True  # for pytest: a failed call's traceback ends at its caller's line
        wire = self._wire
        try:
            return wire.request(method, params, wire.timeout if isinstance(timeout, Unset) else timeout, progress)
        except CALL_FAILURES as failure:  # raised here, without the frames of the connection's inner workings
            raise failure.with_traceback(None)

    def notify(self, method: str, params: Params = None, /, **named: Any) -> None:
        """Sends a notification: a request without an id, which the server never answers."""
        self._wire.notify(method, params, **named)

    def batch(self, calls: Iterable[tuple[str, Params] | Sequence[Any]]) -> list[Any]:
        """Sends ``[(method, params), ...]`` as one JSON-RPC batch; answers, in order, each result or the
        ``SatchelError`` of each error (returned, not raised). An error about the batch as a whole (too many
        entries) is raised."""
        __tracebackhide__ = True
        try:
            return self._wire.batch(calls)
        except CALL_FAILURES as failure:
            raise failure.with_traceback(None)

    def subscribe(self, domains: Sequence[str] | None = None) -> ChangesSubscribeResult:
        """Deprecated: ``s.changes.subscribe(domains)``, the same call."""
        warnings.warn("s.subscribe() is s.changes.subscribe()", DeprecationWarning, stacklevel=2)
        return self.changes.subscribe(domains)

    def close(self, grace: float = 2.0) -> None:
        """Ends the server politely (``shutdown``, ``exit``, end of input); a server still running after half
        of ``grace`` seconds is terminated, and killed at ``grace``: it returns within ``grace`` seconds (and
        the moment a killed process takes to go). Waits for it, so no process is left behind. Calling it
        again does nothing."""
        self._wire.close(grace)


__all__ = ["Satchel", "ChangeFeed"]
