"""pytest plugin (entry point ``pytest11``): a live satchel server per test.

- ``satchel``: a fresh in-memory server, closed after the test.
- ``satchel_factory(**options)``: more servers, with ``Satchel``'s options (``db=...`` for a shared file);
  in-memory unless ``db`` is given. All are closed after the test.
- ``async_satchel_factory(**options)``: the same for async tests, as ``AsyncSatchel``s not yet started: the
  test starts, uses and closes them in its own event loop (``async with async_satchel_factory() as s``),
  whatever runs it (anyio's or pytest-asyncio's plugin, or ``asyncio.run``). One the test leaves open is
  reported on that test, at its teardown, with a ``ResourceWarning`` naming it and where it was made (closed
  when its event loop ended, or, still running then, ended after the test).

The binary is ``--satchel-binary`` (or the ``satchel_binary`` ini option), else as ``Satchel`` finds it.
"""
from __future__ import annotations

import os
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .aio import AsyncSatchel
from .client import Satchel


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("satchel")
    group.addoption("--satchel-binary", help="the satchel server the fixtures start")
    parser.addini("satchel_binary", "the satchel server the fixtures start")


def _options(request: pytest.FixtureRequest, options: dict[str, Any]) -> dict[str, Any]:
    """A fixture's server options: the configured binary, in memory unless a ``db`` is given."""
    options.setdefault("binary", request.config.getoption("--satchel-binary") or request.config.getini("satchel_binary") or None)
    if options.get("db") is None:
        options.setdefault("memory", True)
    return options


@pytest.fixture
def satchel_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., Satchel]]:
    """Starts servers on demand: ``satchel_factory(db=path)``, ``satchel_factory(args=["--locale", "ja"])``."""
    started: list[Satchel] = []

    def start(**options: Any) -> Satchel:
        server = Satchel(**_options(request, options))
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        server.close()


@pytest.fixture
def satchel(satchel_factory: Callable[..., Satchel]) -> Satchel:
    """A fresh in-memory satchel for this test."""
    return satchel_factory()


class _TestSatchel(AsyncSatchel):
    """An ``AsyncSatchel`` of ``async_satchel_factory``: one its event loop's end had to close is reported on the
    test, at its teardown, rather than warned about where the loop ended."""

    left_open = False

    def _left_open(self, report: str) -> None:
        self.left_open = True


@pytest.fixture
def async_satchel_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., AsyncSatchel]]:
    """``AsyncSatchel``s for an async test, not yet started: ``async with async_satchel_factory(db=path) as s``."""
    made: list[tuple[_TestSatchel, str]] = []

    def make(**options: Any) -> AsyncSatchel:
        __tracebackhide__ = True
        caller = sys._getframe(1)
        server = _TestSatchel(**_options(request, options))
        made.append((server, f"{os.path.basename(caller.f_code.co_filename)}:{caller.f_lineno}"))
        return server

    yield make
    left = []
    for server, where in made:
        if _left(server):
            left.append(f"{server!r} made at {where}, {_end(server)}")
    if left:  # one warning for them all: under -W error, it fails the test's teardown once they have all ended
        warnings.warn(ResourceWarning(
            f"{request.node.name} left {len(left)} AsyncSatchel open (close each in the test, or use "
            f"`async with async_satchel_factory() as s:`): " + "; ".join(left)
        ))


def _left(server: _TestSatchel) -> bool:
    """Whether the test left ``server`` open: its event loop's end closed it, or it still runs."""
    pid = server.pid
    return server.left_open or (pid is not None and not server._closed and _running(pid))


def _end(server: _TestSatchel) -> str:
    """Ends ``server`` if it still runs (closed in its loop if that loop is still there, else killed); how."""
    if server.left_open:
        return "closed when its event loop ended"
    loop = server._loop
    if loop is not None and not loop.is_closed() and not loop.is_running():
        loop.run_until_complete(server.close())
        return "closed after the test, in its event loop"
    pid = server.pid
    assert pid is not None  # started
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return "gone"
    deadline = time.monotonic() + 5
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return "killed (its event loop could not close it: closed without ending its async generators)"


def _running(pid: int) -> bool:
    """Whether process ``pid`` is alive (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True
