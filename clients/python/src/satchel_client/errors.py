"""Exceptions: one class per JSON-RPC error code the server answers with, plus the connection's own."""
from __future__ import annotations

from typing import Any, TypedDict


class ErrorData(TypedDict, total=False):
    """The ``data`` of an error answer: the fields its code carries (the protocol reference's error table)."""

    reason: str  # the stable name of what went wrong: every domain error (-32001...-32007, -32800), -32700, -32600
    field: str  # -32002, -32602: the parameter (a dotted path for a nested member, "document.notes[3].title")
    expected: str  # -32602: what would have been accepted
    limit: int  # -32002 for a limit broken, -32003 the free edition's, -32600 a line's size or depth
    kind: str  # -32001: what was not found ("note")
    id: str  # -32001: its id
    current: int  # -32006: the revision it is at now
    status: int  # -32004 httpStatus: what the feed answered
    method: str  # -32601: the method there is none of
    detail: str  # -32700: where the line stopped being JSON, for people reading logs


class SatchelError(Exception):
    """An error answer from the server: ``code``, ``message`` (in the session's language) and ``data`` (the
    fields its code carries, ``None`` for an error with none: -32603).

    ``reason`` is ``data["reason"]`` when the server gave one; unlike the message, it never changes.
    """

    code: int = 0
    #: True when the server answered a whole line with this error (``id: null``: unreadable, too large).
    whole_line: bool = False
    data: ErrorData | None

    def __init__(self, code: int, message: str, data: ErrorData | None = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data

    @property
    def reason(self) -> str | None:
        return self.data.get("reason") if isinstance(self.data, dict) else None

    def __str__(self) -> str:
        detail = f" ({self.reason})" if self.reason else ""
        return f"{self.message}{detail} [{self.code}]"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code}, message={self.message!r}, data={self.data!r})"


class ParseError(SatchelError):
    code = -32700


class InvalidRequest(SatchelError):
    code = -32600


class MethodNotFound(SatchelError):
    code = -32601


class InvalidParams(SatchelError):
    code = -32602


class InternalError(SatchelError):
    code = -32603


class NotFound(SatchelError):
    code = -32001


class ValidationFailed(SatchelError):
    code = -32002


class FreeLimitReached(SatchelError):
    code = -32003


class UpstreamUnavailable(SatchelError):
    code = -32004


class StorageFailure(SatchelError):
    code = -32005


class RevisionConflict(SatchelError):
    code = -32006


class ShuttingDown(SatchelError):
    code = -32007


class RequestCancelled(SatchelError):
    """A call that waited on the server's network was cancelled (``notifications/cancelled``)."""

    code = -32800


ERRORS_BY_CODE: dict[int, type[SatchelError]] = {
    cls.code: cls
    for cls in (
        ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError, NotFound,
        ValidationFailed, FreeLimitReached, UpstreamUnavailable, StorageFailure, RevisionConflict,
        ShuttingDown, RequestCancelled,
    )
}


def error_from(error: Any) -> SatchelError:
    """The exception for a JSON-RPC ``error`` member: its code's class, or ``SatchelError`` for others."""
    if not isinstance(error, dict):
        return SatchelError(0, f"malformed error answer: {error!r}")
    code = error.get("code")
    code = code if isinstance(code, int) else 0
    return ERRORS_BY_CODE.get(code, SatchelError)(code, str(error.get("message", "")), error.get("data"))


class ServerExited(ConnectionError):
    """The server process ended: raised for the call in flight and every later one.

    ``returncode`` is its exit status (negative: killed by that signal), ``stderr`` its last lines.
    """

    def __init__(self, returncode: int | None, stderr: list[str], when: str = "") -> None:
        self.returncode = returncode
        self.stderr = list(stderr)
        tail = "".join(f"\n  {line}" for line in self.stderr)
        how = "is gone" if returncode is None else f"exited with code {returncode}"
        super().__init__(f"the satchel server {how}{when}" + (f"; its last stderr lines:{tail}" if tail else ""))


class BinaryNotFound(FileNotFoundError):
    """No ``satchel`` executable was found in any of the places the client looks."""
