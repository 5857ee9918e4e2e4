"""The asyncio client's side of the server's pipes: lines in, back-pressure out, the end reported."""
from __future__ import annotations

import asyncio
import os
import weakref
from typing import Protocol


class Listener(Protocol):
    """Where the pipes hand what the server writes: the connection (``aio.AsyncSatchel``)."""

    def _received(self, fd: int, line: bytes) -> None:
        """One line of the server's stdout (``fd`` 1) or stderr (2)."""

    def _ended(self, returncode: int | None) -> None:
        """The process has exited and its output is all read."""


class Pipes(asyncio.SubprocessProtocol):
    """Splits what the server writes into lines (stdout: messages, stderr: log lines), tracks whether its
    input pipe is full, and reports the end once the process has exited and its output is all read.

    The server's stdout is a pipe of its own, read by a reader callback of the event loop: an answer
    resolves its caller's future in the turn of the loop that sees it arrive (a subprocess transport's pipe
    would hand it on to the next turn)."""

    def __init__(self, connection: Listener, output: int) -> None:
        # Held weakly: the event loop holds this protocol while the server runs, and a client nobody holds
        # any more must still be collected (and its server ended, with a ResourceWarning).
        self.connection = weakref.ref(connection)
        self.transport: asyncio.SubprocessTransport | None = None
        self.loop = asyncio.get_running_loop()
        self.output: int | None = output  # the read end of the server's stdout, until its end
        self.partial = {1: b"", 2: b""}
        self.writable: asyncio.Future[None] | None = None
        self.finished: asyncio.Future[None] = self.loop.create_future()
        self.exited = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.transport = transport

    def read_output(self) -> None:
        """Starts reading the server's stdout (once the process has it)."""
        assert self.output is not None
        os.set_blocking(self.output, False)
        self.loop.add_reader(self.output, self._readable)

    def _readable(self) -> None:
        assert self.output is not None
        try:
            data = os.read(self.output, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self.pipe_data_received(1, data)
        else:
            self.close_output()

    def close_output(self) -> None:
        """The end of the server's stdout (or of reading it): its last line, then the end if it has exited."""
        if self.output is None:
            return
        self.loop.remove_reader(self.output)
        os.close(self.output)
        self.output = None
        self.pipe_connection_lost(1, None)
        self._finish()

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if data.find(b"\n") < 0:  # (not `in`: it would first try the bytes as a number)
            self.partial[fd] += data
            return
        *lines, self.partial[fd] = (self.partial[fd] + data).split(b"\n")
        connection = self.connection()
        if connection is not None:
            for line in lines:
                connection._received(fd, line)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        connection = self.connection()
        if fd in self.partial and self.partial[fd] and connection is not None:
            connection._received(fd, self.partial[fd])  # a last line without its newline
        self.partial[fd] = b""

    def pause_writing(self) -> None:
        self.writable = self.loop.create_future()

    def resume_writing(self) -> None:
        if self.writable is not None and not self.writable.done():
            self.writable.set_result(None)
        self.writable = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.exited = True
        self.resume_writing()
        self._finish()

    def _finish(self) -> None:
        if self.exited and self.output is None and not self.finished.done():
            connection = self.connection()
            if connection is not None:
                assert self.transport is not None  # made before any pipe could end
                connection._ended(self.transport.get_returncode())
            self.finished.set_result(None)
