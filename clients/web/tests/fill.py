"""Large databases made fast: requests sent 500 to a JSON-RPC batch through satchel-client, in one process."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from satchel_client import Satchel


def fill(db, method: str, params: Iterable[dict[str, Any]], *, then: str | None = None) -> None:
    """Sends ``method`` once per entry of ``params`` to a satchel on ``db`` (and ``then`` after each batch,
    such as ``reminders.endEditing``); raises the first error."""
    with Satchel(db=db, timeout=120) as satchel:
        batch: list[tuple[str, dict[str, Any]]] = []
        for each in [*params, None]:
            if each is not None:
                batch.append((method, each))
            if len(batch) == 500 or each is None and batch:
                for answer in satchel.batch(batch):
                    if isinstance(answer, Exception):
                        raise answer
                batch = []
                if then:
                    satchel.call(then)
