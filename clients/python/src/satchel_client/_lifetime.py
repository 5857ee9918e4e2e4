"""The threads behind a blocking client (``_blocking.Wire``): reading the server's output and its stderr, and
ending its process (politely, then terminated, then killed) when it is closed or collected unclosed."""
from __future__ import annotations

import subprocess
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Protocol

from ._connection import LOG
from ._inbox import Inbox
from ._launch import log_server_line
from ._outbox import Outbox


class Output(Protocol):
    """Where the reader thread hands what the server writes: the connection (``_blocking.Wire``)."""

    def _take_available(self) -> bool:
        """Takes the lines that wait; ``False`` once the output has ended."""

    def _ended(self) -> None:
        """The output has ended: every waiter learns it."""


def left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def wait_or_kill(process: subprocess.Popen[bytes], polite: float, end: float) -> None:
    """Waits for ``process`` until ``polite``, terminates it then, and kills it at ``end``; waits for it."""
    try:
        process.wait(left(polite))
    except subprocess.TimeoutExpired:
        LOG.warning("satchel %d did not exit in time; terminating it", process.pid)
        process.terminate()
        try:
            process.wait(left(end))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def read_output(client: Callable[[], Output | None], inbox: Inbox) -> None:
    """The reader thread: what the server writes while no calling thread reads it, each line to the client
    while the client is alive (``client`` is a weak reference to it); then the end."""
    while True:
        inbox.wait()
        with inbox.lock:
            satchel = client()
            if satchel is None:
                break
            running = satchel._take_available()
            del satchel
        if not running:
            break
    satchel = client()
    if satchel is not None:
        satchel._ended()
    else:  # collected unclosed: end_collected waits for the process
        inbox.drain()
    with inbox.lock:
        inbox.close()


def read_stderr(stderr: IO[bytes], tail: deque[str]) -> None:
    """The stderr thread: every line logged, the last ones kept for ``ServerExited``."""
    for raw in iter(stderr.readline, b""):
        line = raw.decode("utf-8", "replace")
        tail.append(line.rstrip("\r\n"))
        log_server_line(line)
    stderr.close()


def end_collected(process: subprocess.Popen[bytes], outbox: Outbox, grace: float) -> None:
    """Ends the server of a client collected unclosed: end of input; after ``grace`` seconds, as ``close``."""
    started = time.monotonic()
    outbox.close(grace / 2)
    wait_or_kill(process, started + grace / 2, started + grace)
