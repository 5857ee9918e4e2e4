"""The blocking client's pipe from the server: watched by the reader thread, and read by a calling thread
while it waits for its own answer."""
from __future__ import annotations

import os
import select
import threading
import time
from typing import Any


class Inbox:
    """The server's output, read by one thread at a time: whoever holds ``lock``.

    A calling thread that finds the pipe free ``claim``s it and reads its own answer straight off it, while
    the reader thread's watch on the pipe is paused (``watch(False)``: an ``epoll`` that wakes only for the
    end of the output): the answer wakes the one thread that waits for it, instead of a reader thread that
    would then have to wake it. The client keeps the watch paused between calls too, while nothing can
    arrive that only the reader thread would take (no other call waits, no live changes, no notification
    handler), so a call costs no system call to pause or resume it. Without ``epoll`` (not Linux) no
    calling thread claims the pipe, and the reader thread reads everything.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._fd = fd = stream.fileno()
        os.set_blocking(fd, False)
        self.lock = threading.Lock()
        #: Whole lines a calling thread read and left to the reader thread (a notification for the handler
        #: and those after it); the reader thread takes them first.
        self.pending: list[bytes] = []
        self._partial = b""
        self._ready = select.poll()  # for the claiming thread: waits for the pipe within a deadline
        self._ready.register(fd, select.POLLIN)
        self._wake, self._poke = os.pipe()  # wakes the reader thread for the pending lines
        os.set_blocking(self._wake, False)
        os.set_blocking(self._poke, False)
        self._epoll = hasattr(select, "epoll")
        self._watch: Any = select.epoll() if self._epoll else select.poll()
        self._watch.register(fd, select.POLLIN)
        self._watch.register(self._wake, select.POLLIN)
        #: Whether the reader thread's watch includes the pipe (changed with the client's lock held).
        self.watching = True
        self._closed = False

    # The reader thread

    def wait(self) -> None:
        """Until the server writes or ends, or a calling thread leaves lines for the reader thread (or, once
        in a while, for nothing: then reading finds nothing)."""
        self._watch.poll()
        try:
            os.read(self._wake, 4096)
        except BlockingIOError:
            pass

    def read_now(self) -> list[bytes] | None:
        """The whole lines the pipe holds, without waiting (a last line without its newline at the end):
        ``None`` once the output has ended."""
        try:
            chunk = os.read(self._fd, 1 << 16)
        except BlockingIOError:
            return []
        if not chunk:
            last, self._partial = self._partial, b""
            return [last] if last else None
        lines = (self._partial + chunk).split(b"\n")
        self._partial = lines.pop()
        return lines

    def drain(self) -> None:
        """Reads, and drops, everything until the end of the output; then closes the pipe."""
        while self.read_now() is not None:
            self.wait()
        self._stream.close()

    def close(self) -> None:
        """Closes the watch: no thread claims the pipe from now on (with ``lock`` held)."""
        self._closed = True
        if self._epoll:
            self._watch.close()
        os.close(self._wake)
        os.close(self._poke)

    # A calling thread

    def claim(self) -> bool:
        """Takes ``lock`` if no other thread reads the pipe (then pause the watch before sending)."""
        if not self._epoll or not self.lock.acquire(False):
            return False
        if self._closed or self.pending:
            self.lock.release()
            return False
        return True

    def watch(self, on: bool) -> None:
        """Resumes or pauses the reader thread's watch on the pipe (the end of the output wakes it either
        way). Called with the client's lock held, so that the last word is the one that counts."""
        if on != self.watching and self._epoll and not self._closed:
            try:
                self._watch.modify(self._fd, select.POLLIN if on else 0)
            except (ValueError, OSError):  # closed meanwhile: the output has ended
                return
            self.watching = on

    def read(self, deadline: float | None) -> list[bytes] | None:
        """The whole lines that come next, once some do, at most until ``deadline`` (of ``time.monotonic()``):
        ``None`` past it and at the end of the output."""
        while True:
            if deadline is None:
                self._ready.poll()
            else:
                left = deadline - time.monotonic()
                if left <= 0 or not self._ready.poll(int(left * 1000) + 1):  # ms: an int is read faster
                    return None
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:  # closed under it
                return None
            if not chunk:
                return None
            if chunk.find(b"\n") >= 0:  # (`in` would first try the bytes as a number: a TypeError made and dropped)
                lines = (self._partial + chunk).split(b"\n")
                self._partial = lines.pop()
                return lines
            self._partial += chunk

    def release(self) -> None:
        """Gives up the pipe; the reader thread is woken for ``pending`` lines (its watch resumed before)."""
        try:
            if self.pending:
                os.write(self._poke, b"x")
        except BlockingIOError:  # woken already
            pass
        finally:
            self.lock.release()
