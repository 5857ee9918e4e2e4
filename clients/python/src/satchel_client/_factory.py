"""The types of the pytest plugin's factories: ``SatchelFactory`` (``satchel_factory``) and
``AsyncSatchelFactory`` (``async_satchel_factory``)."""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from ._connection import NotificationHandler
from .aio import AsyncSatchel
from .client import Satchel

Server = TypeVar("Server", covariant=True)


class ServerFactory(Protocol[Server]):
    """Starts (or, for ``AsyncSatchel``, makes) a server with ``Satchel``'s options, in memory unless ``db`` is
    given; the plugin ends it after the test."""

    def __call__(
        self,
        binary: str | os.PathLike[str] | None = None,
        *,
        db: str | os.PathLike[str] | None = None,
        memory: bool = False,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        timeout: float | None = 10.0,
        on_notification: NotificationHandler | None = None,
    ) -> Server: ...


#: The type of the fixture ``satchel_factory``: started ``Satchel``s, closed after the test.
SatchelFactory = ServerFactory[Satchel]

#: The type of the fixture ``async_satchel_factory``: ``AsyncSatchel``s not yet started, which the test starts
#: and closes in its own event loop.
AsyncSatchelFactory = ServerFactory[AsyncSatchel]
