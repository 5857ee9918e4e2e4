"""The blocking client's pipe to the server, written from any thread without blocking it."""
from __future__ import annotations

import os
import select
import threading
from typing import Any

from ._connection import LOG


class Outbox:
    """The pipe to the server, written without ever blocking a caller: what the pipe cannot take at once
    waits in a backlog that a thread of its own writes out, so a server that stops reading makes calls time
    out (and ``close`` end it) instead of hanging them."""

    def __init__(self, stream: Any, name: str, lock: threading.Lock) -> None:
        self._stream = stream
        self._fd = stream.fileno()
        os.set_blocking(self._fd, False)
        self._backlog = bytearray()
        self._ready = threading.Condition(lock)
        self._closing = False
        self._broken = False
        self._thread = threading.Thread(target=self._write_backlog, name=name, daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        """Writes ``data`` after everything written before it, with ``lock`` held (the client's: the lock that
        orders its lines). A broken pipe is left to the reader, which answers every waiter when the server's
        output ends."""
        if self._broken or self._closing:
            return
        if not self._backlog:
            try:
                written = os.write(self._fd, data)
            except BlockingIOError:
                written = 0
            except OSError:
                self._broken = True
                return
            if written == len(data):
                return
            data = data[written:]
        self._backlog += data
        self._ready.notify_all()

    def _write_backlog(self) -> None:
        while True:
            with self._ready:
                while not self._backlog and not self._closing:
                    self._ready.wait()
                if not self._backlog:
                    return
                chunk = bytes(self._backlog[: 1 << 16])
            select.select([], [self._fd], [], 0.1)
            try:
                written = os.write(self._fd, chunk)
            except BlockingIOError:
                continue
            except OSError:
                written = len(chunk)
                with self._ready:
                    self._broken = True
                    self._backlog.clear()
            with self._ready:
                del self._backlog[:written]
                if not self._backlog:
                    self._ready.notify_all()

    def close(self, timeout: float) -> None:
        """Writes out the backlog (for at most ``timeout`` seconds), then closes the pipe: end of input."""
        with self._ready:
            self._closing = True
            self._ready.notify_all()
            if not self._ready.wait_for(lambda: not self._backlog, timeout):
                LOG.warning("the server did not read %d bytes within %s s; they are dropped", len(self._backlog), timeout)
                self._broken = True
                self._backlog.clear()
        self._thread.join()
        try:
            self._stream.close()
        except OSError:
            pass
