"""satchel-client: embed Satchel, the five-app JSON-RPC backend, from Python.

>>> from satchel_client import Satchel
>>> with Satchel(memory=True) as s:
...     note = s.notes.create(title="Groceries")
"""
from ._factory import AsyncSatchelFactory, SatchelFactory
from ._launch import find_binary
from ._namespace import UNSET
from ._events import Change, Entity, Resync
from ._protocol import Progress
from .aio import AsyncSatchel
from .client import Satchel
from .errors import (
    BinaryNotFound,
    ErrorData,
    FreeLimitReached,
    InternalError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NotFound,
    ParseError,
    RequestCancelled,
    RevisionConflict,
    SatchelError,
    ServerExited,
    ShuttingDown,
    StorageFailure,
    UpstreamUnavailable,
    ValidationFailed,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncSatchel", "AsyncSatchelFactory", "BinaryNotFound", "Change", "Entity", "ErrorData", "FreeLimitReached",
    "InternalError", "InvalidParams", "InvalidRequest", "MethodNotFound", "NotFound", "ParseError", "Progress",
    "RequestCancelled", "Resync", "RevisionConflict", "Satchel", "SatchelError", "SatchelFactory", "ServerExited",
    "ShuttingDown", "StorageFailure", "UNSET", "UpstreamUnavailable", "ValidationFailed", "find_binary",
]
