"""pytest plugin (entry point ``pytest11``): a live satchel server per test.

- ``satchel``: a fresh in-memory server, closed after the test.
- ``satchel_factory(**options)``: more servers, with ``Satchel``'s options (``db=...`` for a shared file);
  in-memory unless ``db`` is given. All are closed after the test.

The binary is ``--satchel-binary`` (or the ``satchel_binary`` ini option), else as ``Satchel`` finds it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .client import Satchel


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("satchel")
    group.addoption("--satchel-binary", help="the satchel server the fixtures start")
    parser.addini("satchel_binary", "the satchel server the fixtures start")


@pytest.fixture
def satchel_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., Satchel]]:
    """Starts servers on demand: ``satchel_factory(db=path)``, ``satchel_factory(args=["--locale", "ja"])``."""
    binary = request.config.getoption("--satchel-binary") or request.config.getini("satchel_binary") or None
    started: list[Satchel] = []

    def start(**options: Any) -> Satchel:
        options.setdefault("binary", binary)
        if options.get("db") is None:
            options.setdefault("memory", True)
        server = Satchel(**options)
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        server.close()


@pytest.fixture
def satchel(satchel_factory: Callable[..., Satchel]) -> Satchel:
    """A fresh in-memory satchel for this test."""
    return satchel_factory()
