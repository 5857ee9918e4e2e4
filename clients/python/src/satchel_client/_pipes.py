"""The asyncio client's side of the server's pipes: lines in, back-pressure out, the end reported."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .aio import AsyncSatchel


class Pipes(asyncio.SubprocessProtocol):
    """Splits what the server writes into lines (stdout: messages, stderr: log lines), tracks whether its
    input pipe is full, and reports when the process and all its pipes are done."""

    def __init__(self, connection: AsyncSatchel) -> None:
        self.connection = connection
        self.partial = {1: b"", 2: b""}
        self.writable: asyncio.Future[None] | None = None
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.connection._transport = transport  # before any data arrives, or the end

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if b"\n" not in data:
            self.partial[fd] += data
            return
        *lines, self.partial[fd] = (self.partial[fd] + data).split(b"\n")
        for line in lines:
            self.connection._received(fd, line)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd in self.partial and self.partial[fd]:
            self.connection._received(fd, self.partial[fd])  # a last line without its newline
            self.partial[fd] = b""

    def pause_writing(self) -> None:
        self.writable = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self.writable is not None and not self.writable.done():
            self.writable.set_result(None)
        self.writable = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.resume_writing()
        self.connection._ended()
        if not self.finished.done():
            self.finished.set_result(None)
