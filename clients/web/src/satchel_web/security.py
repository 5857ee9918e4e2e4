"""The bridge's security, as Jupyter server's: every request carries the launch's token (``?token=``, then an
HttpOnly cookie), names the bridge in ``Host`` and, when it has an ``Origin`` (a WebSocket and anything but
GET and HEAD must), comes from the app's own origin. Anything else is 403 before any route is reached.
Every answer carries the headers that keep the page to its own files.

What a page may ask of its satchel is an allowlist (``PAGE_METHODS``): the five apps' methods and the
session's own, nothing that reaches files (``export``, ``import``, ``tools/call``) or ends the satchel; and
no ``path`` anywhere in its params (an image by path would read any file); and ``images.get`` of its
renditions only, never an original (the file as the camera wrote it, where the photo was taken included).
A page reaches files only through the bridge's ``bridge/export`` and ``bridge/import``, which choose the
files themselves (``relay_refusal``)."""
from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

LOG = logging.getLogger("satchel.web")

COOKIE = "satchel_token_{port}"  # named by port: two bridges on one machine keep a cookie each
CSP = ("default-src 'self'; img-src 'self' data: blob: http: https:; connect-src 'self'; "
       "style-src 'self'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


@dataclass
class Guard:
    """The checks every request passes before anything else: the token, ``Host`` and ``Origin``."""

    token: str
    port: int | None = None  # known once the socket is bound; until then every request is refused

    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}

    def origins(self) -> set[str]:
        return {f"http://{host}" for host in self.hosts()}

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` is refused, or ``None`` when it may go on."""
        if self.port is None:
            return "not ready"
        if request.headers.get("Host", "").lower() not in self.hosts():
            return "unknown Host"
        origin = request.headers.get("Origin")
        if origin is None and request.path == "/ws":
            return "a WebSocket needs an Origin"
        if origin is None and request.method not in ("GET", "HEAD"):
            return f"a {request.method} needs an Origin"
        if origin is not None and origin.lower() not in self.origins():
            return "foreign Origin"
        if not (self.matches(request.query.get("token")) or self.matches(request.cookies.get(self.cookie))):
            return "missing or wrong token"
        return None

    @property
    def cookie(self) -> str:
        """The cookie that carries the token: cookies ignore ports, so its name holds this bridge's."""
        return COOKIE.format(port=self.port)

    def matches(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is the token, compared in constant time."""
        return candidate is not None and hmac.compare_digest(candidate.encode("utf-8", "replace"), self.token.encode())


def guard_middleware(guard: Guard) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Refuses with 403 what ``guard`` refuses; keeps a token from the query in a cookie."""

    @web.middleware
    async def middleware(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                         ) -> web.StreamResponse:
        reason = guard.refusal(request)
        if reason is not None:
            LOG.warning("refused %s %s from %s: %s", request.method, request.path, request.remote, reason)
            return web.Response(status=403, text=f"403 Forbidden: {reason}\n")
        response = await handler(request)
        if guard.matches(request.query.get("token")) and not response.prepared:
            response.set_cookie(guard.cookie, guard.token, path="/", httponly=True, samesite="Strict")
        return response

    return middleware


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, refusals and errors included, says what the page may load and that types are exact."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


#: The methods a page may send, by app. Everything else is refused before it reaches the satchel.
PAGE_METHODS = frozenset({
    "initialize", "notifications/initialized", "ping", "server.info", "server.describeError", "search", "images.get",
    "images.discardUpload",  # a photo the server refused: what it held of the file, let go
    "changes.subscribe", "changes.unsubscribe", "changes.since",  # the first two are answered by the bridge
    "bridge/export", "bridge/import",  # the bridge's own, through files it chooses
    *(f"notes.{verb}" for verb in ("create", "get", "list", "update", "delete", "move")),
    *(f"photos.{verb}" for verb in ("add", "get", "list", "update", "delete", "move")),
    *(f"reminders.{verb}" for verb in ("list", "get", "add", "beginEditing", "endEditing", "update", "submit",
                                       "setCompleted", "toggle", "delete", "move")),
    *(f"diary.{verb}" for verb in ("create", "get", "list", "update", "delete")),
    *(f"messages.{verb}" for verb in ("list", "loadMore", "send", "get", "delete")),
    *(f"board.{verb}" for verb in ("create", "get", "list", "delete", "vote")),
    "sync.status", "sync.now", "sync.setDeviceName",
    "sync.unlock", "sync.changePassphrase",  # end-to-end encryption: unlock, turn on, change the passphrase
    "text.merge",  # the editors merge an edit made elsewhere into what is typed, as sync does
})
#: The sizes of ``images.get`` a page may ask for: the server's renditions, which carry no metadata.
RENDITIONS = frozenset({"thumbnail", "display"})
#: Methods that end the satchel: the bridge owns its lifetime.
LIFETIME_METHODS = frozenset({"shutdown", "exit"})


def names_a_path(params: Any) -> bool:
    """Whether ``params`` hold a member named ``path`` at any depth (``{"image": {"path": ...}}``,
    ``{"images": [{"path": ...}]}``, positional params holding such objects)."""
    if isinstance(params, dict):
        return "path" in params or any(names_a_path(value) for value in params.values())
    if isinstance(params, list):
        return any(names_a_path(value) for value in params)
    return False


def relay_refusal(method: str, params: Any) -> tuple[int, str, dict[str, Any]] | None:
    """Why a page's call is not relayed, as ``(code, message, data)``; ``None`` when it may go on."""
    if method in LIFETIME_METHODS:
        return (-32601, f"Method not available through the bridge: {method}",
                {"method": method, "reason": "bridgeOwnsLifetime"})
    if method not in PAGE_METHODS:
        return (-32601, f"Method not available through the bridge: {method}",
                {"method": method, "reason": "notRelayed"})
    if names_a_path(params):
        return (-32602, f"{method} takes no file path through the bridge: pass the data itself, or use "
                        "bridge/export and bridge/import", {"field": "path", "reason": "pathNotRelayed"})
    if method == "images.get" and image_size(params) not in RENDITIONS:
        return (-32602, "images.get gives a page the thumbnail or display size only: originals, which may say "
                        "where a photo was taken, are in an export", {"field": "size", "reason": "originalNotRelayed"})
    return None


def image_size(params: Any) -> Any:
    """The ``size`` an ``images.get`` asks for, by name or by position (``None``: the server's default,
    the original)."""
    if isinstance(params, dict):
        return params.get("size")
    if isinstance(params, list) and len(params) > 1:
        return params[1]
    return None
