"""The static app: ``GET /`` (the page) and ``GET /app/{path}`` (what it loads), from the package's
``static/`` folder, with exact content types and nothing outside that folder."""
from __future__ import annotations

import pathlib

from aiohttp import web

STATIC = pathlib.Path(__file__).resolve().parent / "static"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".ttf": "font/ttf",
}
FALLBACK_CONTENT_TYPE = "application/octet-stream"


def static_file(root: pathlib.Path, tail: str) -> pathlib.Path | None:
    """The file under ``root`` that ``tail`` names, or ``None``: never a folder, a hidden file or anything
    outside ``root`` (through ``..`` or a link)."""
    parts = tail.split("/")
    if not tail or "\\" in tail or "\0" in tail or any(part in ("", ".", "..") or part.startswith(".")
                                                        for part in parts):
        return None
    base = root.resolve()
    path = (base / tail).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        return None
    return path


def content_type(path: pathlib.Path) -> str:
    return CONTENT_TYPES.get(path.suffix.lower(), FALLBACK_CONTENT_TYPE)


def static_routes(root: pathlib.Path) -> list[web.RouteDef]:
    """``GET /`` (the page, never cached) and ``GET /app/{path}`` (what it loads)."""

    async def index(request: web.Request) -> web.StreamResponse:
        path = root / "index.html"
        if not path.is_file():
            raise web.HTTPNotFound(text="404 Not Found: the app is not installed\n")
        return web.FileResponse(path, headers={"Cache-Control": "no-store", "Content-Type": content_type(path)})

    async def asset(request: web.Request) -> web.StreamResponse:
        path = static_file(root, request.match_info["tail"])
        if path is None:
            raise web.HTTPNotFound(text="404 Not Found\n")
        return web.FileResponse(path, headers={"Cache-Control": "no-cache", "Content-Type": content_type(path)})

    return [web.get("/", index), web.get("/app/{tail:.*}", asset)]
