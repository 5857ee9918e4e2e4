"""The JSON-RPC 2.0 messages a page's WebSocket carries: reading the page's frames, and the answers and
notifications the bridge writes."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

JSON = Any

RESTARTED = -32099
RESTARTED_MESSAGE = "The server stopped; it is starting again"


def notification(method: str, params: JSON) -> dict[str, JSON]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def status(state: str, **more: JSON) -> dict[str, JSON]:
    return notification("bridge/status", {"state": state, **more})


def result(id: JSON, value: JSON) -> dict[str, JSON]:
    return {"jsonrpc": "2.0", "id": id, "result": value}


def error(id: JSON, code: int, message: str, data: JSON = None) -> dict[str, JSON]:
    body: dict[str, JSON] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": id, "error": body}


def restarted(id: JSON) -> dict[str, JSON]:
    return error(id, RESTARTED, RESTARTED_MESSAGE, {"reason": "serverRestarted"})


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def parse_frame(text: str) -> JSON:
    """The message in a text frame; raises ``ValueError`` (with the answer to send) when it is not JSON."""
    try:
        return json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError(error(None, -32600, "Invalid request: nested too deeply", {"reason": "tooDeep"})) from None
    except ValueError as problem:
        raise ValueError(error(None, -32700, "Parse error", {"reason": "invalidJSON", "detail": str(problem)})
                         ) from None


def _valid_id(value: JSON) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


@dataclass(frozen=True)
class Call:
    """One request (``has_id``) or notification from the page."""

    method: str
    params: JSON
    id: JSON = None
    has_id: bool = False


def read_call(message: JSON) -> Call | dict[str, JSON] | None:
    """A message from the page as a ``Call``, the error answer it gets, or ``None`` (a response: ignored)."""
    if not isinstance(message, dict):
        return error(None, -32600, "Invalid request: not an object", {"reason": "notAnObject"})
    has_id = "id" in message
    id = message.get("id")
    if not _valid_id(id):
        return error(None, -32600, "Invalid request: id must be a string, an integer or null", {"reason": "invalidId"})
    if "method" not in message and ("result" in message or "error" in message):
        return None
    if message.get("jsonrpc") != "2.0":
        return error(id, -32600, 'Invalid request: jsonrpc must be "2.0"', {"reason": "invalidVersion"})
    if not isinstance(message.get("method"), str):
        return error(id, -32600, "Invalid request: method must be a string", {"reason": "invalidMethod"})
    params = message.get("params")
    if params is not None and not isinstance(params, (dict, list)):
        return error(id, -32600, "Invalid request: params must be an object or an array", {"reason": "invalidParams"})
    return Call(message["method"], params, id, has_id)


def encode(message: JSON) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
