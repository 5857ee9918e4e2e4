"""pytest plugin (entry point ``pytest11``): a live satchel server per test.

- ``satchel``: a fresh in-memory server, closed after the test.
- ``satchel_factory(**options)``: more servers, with ``Satchel``'s options (``db=...`` for a shared file);
  in-memory unless ``db`` is given. All are closed after the test.
- ``async_satchel_factory(**options)``: the same for async tests, as ``AsyncSatchel``s not yet started: the
  test starts, uses and closes them in its own event loop (``async with async_satchel_factory() as s``),
  whatever runs it (anyio's or pytest-asyncio's plugin, or ``asyncio.run``). One left running is killed
  after the test, with a ``ResourceWarning``.

The binary is ``--satchel-binary`` (or the ``satchel_binary`` ini option), else as ``Satchel`` finds it.
"""
from __future__ import annotations

import os
import signal
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


@pytest.fixture
def async_satchel_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., AsyncSatchel]]:
    """``AsyncSatchel``s for an async test, not yet started: ``async with async_satchel_factory(db=path) as s``."""
    made: list[AsyncSatchel] = []

    def make(**options: Any) -> AsyncSatchel:
        server = AsyncSatchel(**_options(request, options))
        made.append(server)
        return server

    yield make
    for server in made:
        pid = server.pid
        if pid is None or not _running(pid):
            continue
        warnings.warn(ResourceWarning(f"an AsyncSatchel (pid {pid}) was left running by the test; killed"))
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + 5
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.01)


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
