"""What the blocking and the asyncio client share: options, notification routing, the exit report."""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._launch import command, environment
from ._events import Change, Resync
from ._protocol import LOG, TOKEN_PREFIX, Ledger, Progress
from .errors import ServerExited

__all__ = ["LOG", "Connection", "NotificationHandler"]

#: A handler for notifications other than ``changed`` and ``resync``: ``handler(method, params)``, on the
#: reading thread (blocking client) or the event loop (asyncio client).
NotificationHandler = Callable[[str, Any], None]

STDERR_LINES_KEPT = 20


class Connection:
    """One server process and the state both clients keep about it."""

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
        self.argv = command(binary, db, memory, args)
        self.env = environment(env)
        #: Seconds a call waits for its answer (``None``: for ever); past it, ``TimeoutError``.
        self.timeout = timeout
        #: Called with every notification that is not ``changed`` or ``resync``.
        self.on_notification = on_notification
        self._ledger = Ledger()
        self._progress: dict[str, Callable[[Progress], None]] = {}  # token -> where its reports go
        self._stderr_tail: deque[str] = deque(maxlen=STDERR_LINES_KEPT)
        self._returncode: int | None = None
        self._gone = False
        self._closed = False
        self._subscribed = False  # changes.subscribe answered, and no changes.unsubscribe since

    @property
    def pid(self) -> int | None:
        """The server's process id."""
        process = getattr(self, "_process", None)
        return process.pid if process is not None else None

    @property
    def returncode(self) -> int | None:
        """The server's exit status once it has ended, else ``None``."""
        return self._returncode

    def exited(self, when: str = "") -> ServerExited:
        """A fresh exception describing how the server ended (one per raise: tracebacks stay apart)."""
        return ServerExited(self._returncode, list(self._stderr_tail), when)

    def _answered(self, method: str) -> None:
        """Keeps track of the subscription, whichever way it was asked for."""
        if method == "changes.subscribe":
            self._subscribed = True
        elif method == "changes.unsubscribe":
            self._subscribed = False

    def _check_subscribed(self, nothing_waits: bool) -> None:
        """``changes()`` would wait for ever: not subscribed, and no event waits (``nothing_waits``)."""
        if nothing_waits and not self._subscribed:
            raise RuntimeError(
                "changes() waits for `changed` notifications, and this connection has not asked for them: call "
                "s.changes.subscribe() first (or, after changes.unsubscribe, again)"
            )

    def _not_started(self, argv0: str) -> str:
        """How a server that ended before its first answer is described (its stderr says why, if anything)."""
        hint = "" if self._stderr_tail else f" (is {argv0} a satchel server?)"
        return f" before answering its first request{hint}"

    def _for_handler(self, method: str, params: Any) -> bool:
        """Whether ``_route`` passes this notification to ``on_notification``: there is a handler, and it is
        neither ``changed``/``resync`` nor progress about a call made with ``progress=``."""
        if self.on_notification is None or not isinstance(params, dict):
            return self.on_notification is not None
        if method in ("changed", "resync"):
            return False
        token = params.get("progressToken") if method == "notifications/progress" else None
        return not (isinstance(token, str) and token.startswith(TOKEN_PREFIX))

    def _route(self, method: str, params: Any) -> Change | Resync | None:
        """A ``changed`` notification as a ``Change``, a ``resync`` as a ``Resync`` (both for the change
        queue); progress for a call made with ``progress=`` to that call; any other goes to the handler here."""
        if method == "changed" and isinstance(params, dict):
            try:
                return Change.from_params(params)
            except (KeyError, ValueError):
                LOG.warning("a changed notification without its fields (or its time): %r", params)
                return None
        if method == "resync" and isinstance(params, dict):
            try:
                return Resync.from_params(params)
            except KeyError:
                LOG.warning("a resync notification without its fields: %r", params)
                return None
        if method == "notifications/progress" and isinstance(params, dict):
            token = params.get("progressToken")
            if isinstance(token, str) and token.startswith(TOKEN_PREFIX):
                deliver = self._progress.get(token)
                if deliver is None:  # its call has been answered, or gave up waiting
                    LOG.debug("progress for no call in flight: %r", params)
                else:
                    deliver(Progress.from_params(params))
                return None
        if self.on_notification is None:
            LOG.debug("notification %s: %r", method, params)
            return None
        try:
            self.on_notification(method, params)
        except Exception:  # a broken handler must not stop the reader
            LOG.exception("the notification handler failed on %s", method)
        return None

    def _keep_stderr(self, line: str) -> None:
        self._stderr_tail.append(line.rstrip("\r\n"))
