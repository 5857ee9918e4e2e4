"""JSON-RPC 2.0 framing shared by the blocking and the asyncio client: requests out, answers sorted in."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from .errors import SatchelError, error_from

Params = Union[Mapping[str, Any], Sequence[Any], None]


@dataclass(frozen=True)
class Change:
    """One ``changed`` notification: a committed mutation, whoever made it.

    ``entity`` is the entity as it is now, ``None`` once it is deleted.
    """

    seq: int
    at: str
    domain: str
    kind: str
    id: str
    entity: Any

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Change:
        return cls(
            seq=params["seq"], at=params.get("at", ""), domain=params["domain"], kind=params["kind"],
            id=params["id"], entity=params.get("entity"),
        )


def merge_params(params: Params, named: Mapping[str, Any]) -> Any:
    """The ``params`` member of a request: a mapping or a sequence, or keyword arguments, not both."""
    if named:
        if params is not None:
            raise TypeError("pass params either as one mapping or sequence, or as keyword arguments, not both")
        return dict(named)
    if params is None or isinstance(params, Mapping):
        return params
    if isinstance(params, (str, bytes)) or not isinstance(params, Sequence):
        raise TypeError(f"params must be a mapping or a sequence, not {type(params).__name__}")
    return list(params)


def request(method: str, params: Any, id: int | None) -> dict[str, Any]:
    """One request object (a notification when ``id`` is None)."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, not {type(method).__name__}")
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if id is not None:
        message["id"] = id
    return message


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def encode(message: Any) -> bytes:
    """One line of compact JSON. Raises ``TypeError`` for what JSON cannot carry, before anything is sent."""
    try:
        text = _ENCODER.encode(message)
    except ValueError as error:  # NaN and infinities: JSON has no such numbers
        raise TypeError(f"params are not JSON-serialisable: {error}") from None
    except TypeError as error:
        raise TypeError(f"params are not JSON-serialisable: {error}") from None
    return text.encode() + b"\n"


def outcome(answer: Mapping[str, Any]) -> Any:
    """The result of one answer, or the ``SatchelError`` it carries (returned, not raised)."""
    if "error" in answer:
        return error_from(answer["error"])
    return answer.get("result")


def unwrap(value: Any) -> Any:
    """Raises what ``outcome`` returned when it is an error."""
    if isinstance(value, SatchelError):
        raise value
    return value


class Incoming:
    """What one line from the server holds, sorted: answers by id, notifications in order."""

    __slots__ = ("answers", "notifications")

    def __init__(self, line: bytes) -> None:
        self.answers: list[tuple[Any, Mapping[str, Any]]] = []
        self.notifications: list[tuple[str, Any]] = []
        message = json.loads(line)
        for item in message if isinstance(message, list) else [message]:
            if not isinstance(item, dict):
                continue
            if "method" in item:
                self.notifications.append((item["method"], item.get("params")))
            elif "result" in item or "error" in item:
                self.answers.append((item.get("id"), item))


class Ledger:
    """The requests in flight, in the order their lines were sent, and who waits for each answer.

    The server answers in request order, so an answer with ``id: null`` (a line it could not read, such
    as one over its size limit) belongs to the oldest line still unanswered. A waiter that gave up (a
    timeout) is forgotten, but its id stays on the books until its late answer arrives and is dropped.
    """

    def __init__(self) -> None:
        self._last_id = 0
        self._lines: dict[int, set[int]] = {}  # line number -> ids not answered yet, oldest line first
        self._line_of: dict[int, int] = {}
        self._waiters: dict[int, Any] = {}

    def next_id(self) -> int:
        self._last_id += 1
        return self._last_id

    def sent(self, waiters: Mapping[int, Any]) -> None:
        """Records one line carrying the requests ``waiters`` names (id -> waiter)."""
        line = min(waiters)
        self._lines[line] = set(waiters)
        for id, waiter in waiters.items():
            self._line_of[id] = line
            self._waiters[id] = waiter

    def answered(self, id: Any, answer: Mapping[str, Any]) -> list[tuple[Any, Any]]:
        """The waiters (with their outcome) that ``answer`` resolves: none when nobody waits any more."""
        if isinstance(id, int) and id in self._line_of:
            ids = [id]
        elif id is None and self._lines:
            ids = list(self._lines[next(iter(self._lines))])
        else:
            return []
        value = outcome(answer)
        resolved = []
        for each in ids:
            line = self._line_of.pop(each)
            self._lines[line].discard(each)
            if not self._lines[line]:
                del self._lines[line]
            waiter = self._waiters.pop(each, None)
            if waiter is not None:
                resolved.append((waiter, value))
        return resolved

    def in_flight(self) -> int:
        """How many requests are waiting for an answer."""
        return len(self._waiters)

    def abandon(self, id: int) -> None:
        self._waiters.pop(id, None)

    def drain(self) -> list[Any]:
        """Every waiter still waiting (the connection is gone); the books are closed."""
        waiters = list(self._waiters.values())
        self._waiters.clear()
        self._lines.clear()
        self._line_of.clear()
        return waiters
