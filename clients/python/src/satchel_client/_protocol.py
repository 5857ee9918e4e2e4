"""JSON-RPC 2.0 framing shared by the blocking and the asyncio client: requests out, answers sorted in."""
from __future__ import annotations

import inspect
import json
import json.encoder
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from .errors import SatchelError, error_from

LOG = logging.getLogger("satchel.client")

Params = Union[Mapping[str, Any], Sequence[Any], None]


@dataclass(frozen=True)
class Progress:
    """One ``notifications/progress`` report about a call made with ``progress=``.

    ``progress`` grows with every report and ends at ``total`` (``None`` when the server cannot tell how much
    there is); ``message`` says what is being done, when the server says it.
    """

    progress: float
    total: float | None = None
    message: str | None = None

    @property
    def fraction(self) -> float | None:
        """``progress / total`` (0.0 to 1.0), or ``None`` without a total."""
        if not self.total:
            return None
        return min(1.0, self.progress / self.total)

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Progress:
        return cls(progress=params.get("progress", 0), total=params.get("total"), message=params.get("message"))


#: A ``progress=`` callback: called with each ``Progress`` report, in order, before the call returns.
OnProgress = Callable[[Progress], Any]

#: The start of every progress token this client makes (the rest is the request's id).
TOKEN_PREFIX = "satchel-client-"


def checked_progress(progress: Any, coroutines: bool) -> OnProgress | None:
    """``progress`` when it can be a callback; ``TypeError`` (before anything is sent) when not."""
    if progress is None:
        return None
    if not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    if not coroutines and inspect.iscoroutinefunction(progress):
        raise TypeError("Satchel calls progress callbacks as plain functions; a coroutine function needs AsyncSatchel")
    callback: OnProgress = progress
    return callback


def with_progress_token(params: Any, token: str) -> dict[str, Any]:
    """``params`` with ``_meta.progressToken`` set (the rest of ``params`` and of ``_meta`` kept)."""
    if params is None:
        return {"_meta": {"progressToken": token}}
    if not isinstance(params, Mapping):
        raise TypeError("progress= needs params by name (a mapping or keyword arguments), not a sequence")
    meta = params.get("_meta")
    if meta is None:
        meta = {}
    if not isinstance(meta, Mapping):
        raise TypeError(f"params' _meta must be a mapping, not {type(meta).__name__}")
    if "progressToken" in meta:
        raise TypeError("params already carry _meta.progressToken: pass progress= or a token of your own, not both")
    return {**params, "_meta": {**meta, "progressToken": token}}


#: Methods the server answers when a network answers, after the answers to requests sent later (matched by
#: id). A call of one that the caller gives up on (a timeout, a cancelled task, Ctrl-C) is cancelled on the
#: server with ``notifications/cancelled``.
ANSWERED_WHEN_READY = frozenset({"messages.loadMore", "sync.now"})


def cancellation(id: int, reason: str) -> bytes:
    """The line that tells the server its caller no longer waits for request ``id``."""
    return encode(request("notifications/cancelled", {"requestId": id, "reason": reason}, None))


def outgoing(method: str, params: Any, id: int, progress: Any, coroutines: bool) -> tuple[bytes, str | None, Any]:
    """The line of one request and, when ``progress`` is given, its token and the checked callback (``TypeError``
    before anything is sent when either is unfit)."""
    callback = None if progress is None else checked_progress(progress, coroutines)
    if callback is None:
        return encode(request(method, params, id)), None, None
    token = f"{TOKEN_PREFIX}{id}"
    return encode(request(method, with_progress_token(params, token), id)), token, callback


def report(callback: OnProgress, progress: Progress) -> Any:
    """Calls ``callback(progress)``; what it raises is logged, never passed on (the call goes on)."""
    try:
        return callback(progress)
    except Exception:
        LOG.exception("the progress callback failed on %r", progress)
        return None


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


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False)
# What _ENCODER.encode makes for every message, made once: the C encoder, where there is one.
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_ENCODE = (
    _C_ENCODER(None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, False)
    if _C_ENCODER is not None else lambda message, _: [_ENCODER.encode(message)]
)
# The C scanner, where there is one: the value at an index of a str, and where it ends (raw_decode without the
# Python frame around it).
_SCAN: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")


def encode(message: Any) -> bytes:
    """One line of compact JSON. Raises ``TypeError`` for what JSON cannot carry, before anything is sent."""
    try:
        text = "".join(_ENCODE(message, 0))
    except ValueError as error:  # NaN and infinities: JSON has no such numbers
        raise TypeError(f"params are not JSON-serialisable: {error}") from None
    except TypeError as error:
        raise TypeError(f"params are not JSON-serialisable: {error}") from None
    except RecursionError:
        raise TypeError("params are not JSON-serialisable: nested too deeply (or a container holds itself)") from None
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError as error:  # a lone surrogate: not a character, so not UTF-8
        raise TypeError(f"params are not JSON-serialisable: {error}") from None


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
        text = line.decode().strip()  # UTF-8: json.loads would guess
        try:
            message, end = _SCAN(text, 0)
        except StopIteration:
            raise ValueError("not JSON") from None
        if end != len(text):
            raise ValueError(f"not JSON: more after {end} characters")
        for item in message if isinstance(message, list) else [message]:
            if not isinstance(item, dict):
                continue
            if "method" in item:
                self.notifications.append((item["method"], item.get("params")))
            elif "result" in item or "error" in item:
                self.answers.append((item.get("id"), item))


_NOTIFICATION = object()  # a line of the ledger that carries only notifications


class Ledger:
    """The lines sent and not yet answered, oldest first, and who waits for each answer.

    The server answers in request order, so an answer with ``id: null`` (a line it could not read, such
    as one over its size limit) belongs to the oldest line still unanswered — leaving out the requests it
    answers when a network answers (``ANSWERED_WHEN_READY``: sent ``unordered``), which are kept apart and
    matched by id alone. A notification's line is kept
    too, until a later answer shows it was read (a notification is answered only when it was unreadable).
    A waiter that gave up (a timeout) is forgotten, but its id stays on the books until its late answer
    arrives and is dropped. A line of one request is numbered by its id and holds that id; a batch's line
    is numbered by its first id and holds the set of its ids (each found through ``_line_of``).
    """

    def __init__(self) -> None:
        self._last = 0  # ids and line numbers, from one counter
        self._lines: dict[int, Any] = {}  # line -> its request's id, its batch's ids not answered yet, or _NOTIFICATION
        self._line_of: dict[int, int] = {}  # id -> line, for the requests of a batch
        self._waiters: dict[int, Any] = {}
        self._unordered: set[int] = set()  # ids of requests answered whenever their network answers

    def next_id(self) -> int:
        self._last += 1
        return self._last

    def sent(self, waiters: Mapping[int, Any], unordered: bool = False) -> None:
        """Records one line carrying the requests ``waiters`` names (id -> waiter); ``unordered``: a single
        request the server may answer after later ones."""
        if unordered:
            for id, waiter in waiters.items():
                self._unordered.add(id)
                self._waiters[id] = waiter
            return
        if len(waiters) == 1:
            for id, waiter in waiters.items():
                self._lines[id] = id
                self._waiters[id] = waiter
            return
        line = min(waiters)
        self._lines[line] = set(waiters)
        for id, waiter in waiters.items():
            self._line_of[id] = line
            self._waiters[id] = waiter

    def sent_notification(self) -> None:
        """Records one line carrying only notifications."""
        self._lines[self.next_id()] = _NOTIFICATION

    def answered(self, id: Any, answer: Mapping[str, Any]) -> list[tuple[Any, Any]]:
        """The waiters (with their outcome) that ``answer`` resolves: none when nobody waits any more."""
        lines = self._lines
        if id in self._unordered:
            self._unordered.discard(id)
            waiter = self._waiters.pop(id, None)
            return [] if waiter is None else [(waiter, outcome(answer))]
        if type(id) is int:
            line = self._line_of.get(id, id)
            waiting = lines.get(line)
            if waiting != id and not (isinstance(waiting, set) and id in waiting):
                return []
            if next(iter(lines)) != line:  # notifications before this line: read without an answer
                read_silently = []
                for key, each in lines.items():  # oldest first; answers come in order: this is short
                    if key >= line:
                        break
                    if each is _NOTIFICATION:
                        read_silently.append(key)
                for key in read_silently:
                    del lines[key]
            ids = [id]
        elif id is None and lines:
            line = next(iter(lines))
            waiting = lines[line]
            if waiting is _NOTIFICATION:
                del lines[line]
                error = outcome(answer)
                LOG.warning("the server could not read a notification: %s", error)
                return []
            ids = list(waiting) if isinstance(waiting, set) else [waiting]
        else:
            return []
        value = outcome(answer)
        if id is None and isinstance(value, SatchelError):
            value.whole_line = True
        resolved = []
        for each in ids:
            line = self._line_of.pop(each, each)
            waiting = lines[line]
            if isinstance(waiting, set):
                waiting.discard(each)
                if waiting:
                    line = -1
            if line != -1:
                del lines[line]
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
        self._unordered.clear()
        return waiters


def refused_as_a_whole(outcomes: list[Any]) -> SatchelError | None:
    """The error the server answered a whole batch line with (too many entries, too deep), if any."""
    for value in outcomes:
        if isinstance(value, SatchelError) and value.whole_line:
            return value
    return None
