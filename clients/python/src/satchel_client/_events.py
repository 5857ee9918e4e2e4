"""What the live change feed yields: ``Change`` for each ``changed`` notification, ``Resync`` for a ``resync``."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Union

from .api import BoardPost, DiaryPost, Image, Message, Note, Photo, Reminder

#: The entity a ``Change`` carries: what its domain's ``get`` answers (for ``images``, the image's metadata).
#: Tell them apart by ``Change.domain``.
Entity = Union[Note, Photo, Image, Reminder, DiaryPost, Message, BoardPost]


@dataclass(frozen=True)
class Change:
    """One ``changed`` notification: a committed mutation, whoever made it.

    ``at`` is when it was committed (an aware ``datetime``, UTC); ``entity`` is the entity as it is now (the
    dict its ``get`` answers), ``None`` once it is deleted.
    """

    seq: int
    at: datetime
    domain: str
    kind: str
    id: str
    entity: Entity | None

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Change:
        """``KeyError`` for a field that is missing, ``ValueError`` for an ``at`` that is not a time."""
        return cls(
            seq=params["seq"], at=timestamp(params["at"]), domain=params["domain"], kind=params["kind"],
            id=params["id"], entity=params.get("entity"),
        )


@dataclass(frozen=True)
class Resync:
    """One ``resync`` notification: the subscription fell more than 500 changes behind (another process
    imported a large document, say), so the server skipped them instead of sending each as a ``Change``.

    What you hold may be out of date: read it again (a list's first page), or walk
    ``changes.since(cursor=since)`` up to the event whose ``seq`` is this one's. The ``Change`` events that
    follow come after ``cursor``.
    """

    since: str
    cursor: str
    #: The sequence number of the last change this resync stands for.
    seq: int

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Resync:
        return cls(since=params["since"], cursor=params["cursor"], seq=int(params["seq"]))


def timestamp(text: Any) -> datetime:
    """An RFC 3339 time of the server (``2026-11-25T21:25:00.504Z``) as an aware ``datetime``; ``ValueError``
    for anything else (a time without its offset too)."""
    if not isinstance(text, str):
        raise ValueError(f"not a time: {text!r}")
    at = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    if at.tzinfo is None:
        raise ValueError(f"a time without its offset: {text!r}")
    return at
