"""Export and import as files, so that data of any size passes without the bridge or the page holding it.

The satchel writes and reads the files itself (``export {path}``, ``import {path}``); the bridge only moves
bytes between them and the browser, through a folder of its own: made at the first use with mode 0700 in the
system's temporary folder (``$TMPDIR``), every file in it 0600, removed with everything in it when the
bridge stops.

- ``bridge/export`` (a page's request on its socket, ``params: {_meta?}``): the page's satchel exports into
  a new file of the folder, with the page's ``_meta`` (so its progress notifications reach the page); the
  answer is ``{url, name, bytes, counts}``. ``GET url`` (``/data/exports/ID``) sends the file once, as an
  attachment named ``satchel-YYYY-MM-DD.json``, and deletes it, sent or not.
- ``POST /data/imports`` with the file as the body: streamed into a new file of the folder (at most
  ``MAX_UPLOAD_BYTES``, else 413) and answered ``{upload: ID, bytes}``. ``bridge/import`` (on the socket,
  ``params: {upload: ID, mode, _meta?}``) has the page's satchel import it and deletes it, whatever the
  outcome; the answer is the satchel's (``{imported: {...}}``) or its error, in the page's language.

A file nobody asked for within ``KEPT_FOR`` seconds is deleted. IDs are random (128 bits) and used once.
"""
from __future__ import annotations

import contextlib
import datetime
import logging
import os
import pathlib
import secrets
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from satchel_client import SatchelError

LOG = logging.getLogger("satchel.web")

#: The largest file an import may send by default (``--max-import-bytes``): 4 GiB. The satchel reads it one
#: element at a time, so only the disk bounds it; the limit keeps a mistaken upload from filling the disk.
MAX_UPLOAD_BYTES = 4 * 1024 ** 3
#: Seconds an export waits for its download, and an upload for its import, before it is deleted.
KEPT_FOR = 3600.0
CHUNK_BYTES = 1024 * 1024

EXPORT = "bridge/export"
IMPORT = "bridge/import"
METHODS = frozenset({EXPORT, IMPORT})

Call = Callable[[str, Any], Awaitable[Any]]


@dataclass(frozen=True)
class Waiting:
    """A file of the folder waiting for its download (an export) or its import (an upload)."""

    path: pathlib.Path
    since: float
    name: str = ""  # an export's download name, fixed when it was made


class Exchange:
    """The bridge's folder for exports and uploads, and the files waiting in it."""

    def __init__(self, limit: int = MAX_UPLOAD_BYTES, kept_for: float = KEPT_FOR) -> None:
        self.limit = limit
        self.kept_for = kept_for
        self._folder: pathlib.Path | None = None
        self.exports: dict[str, Waiting] = {}
        self.uploads: dict[str, Waiting] = {}

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/data/exports/{id}", self.download, allow_head=False),  # a HEAD must not use it up
                web.post("/data/imports", self.upload)]

    def folder(self) -> pathlib.Path:
        """The private folder (0700), made at the first use."""
        if self._folder is None:
            self._folder = pathlib.Path(tempfile.mkdtemp(prefix="satchel-web-exchange-"))
            os.chmod(self._folder, 0o700)
            LOG.info("export and import files pass through %s", self._folder)
        return self._folder

    def close(self) -> None:
        """Deletes the folder and everything in it."""
        self.exports.clear()
        self.uploads.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            LOG.info("removed the exchange folder %s", self._folder)
            self._folder = None

    def _new_file(self, kind: str) -> tuple[str, pathlib.Path]:
        """A fresh id and the path of its file (not made yet); files kept too long are deleted first."""
        self._sweep()
        id = secrets.token_urlsafe(16)
        return id, self.folder() / f"{kind}-{id}.json"

    def _sweep(self) -> None:
        oldest = time.monotonic() - self.kept_for
        for waiting in (self.exports, self.uploads):
            for id, entry in list(waiting.items()):
                if entry.since < oldest:
                    del waiting[id]
                    entry.path.unlink(missing_ok=True)
                    LOG.info("deleted %s: nobody asked for it", entry.path.name)

    # On a page's socket

    async def export(self, params: Any, call: Call) -> dict[str, Any]:
        """``bridge/export``: the page's satchel writes the file; the answer says where to download it."""
        params = _object(params, "params")
        id, path = self._new_file("export")
        try:
            answer = await call("export", {**_meta(params), "path": str(path)})
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        name = download_name()
        self.exports[id] = Waiting(path, time.monotonic(), name)
        return {"url": f"/data/exports/{id}", "name": name, "bytes": answer["bytes"], "counts": answer["counts"]}

    async def import_(self, params: Any, call: Call) -> Any:
        """``bridge/import``: the page's satchel imports an upload, which is then deleted."""
        params = _object(params, "params")
        upload = params.get("upload")
        waiting = self.uploads.pop(upload, None) if isinstance(upload, str) else None
        if waiting is None:
            raise SatchelError(-32602, "Invalid params: upload must name a file just uploaded to /data/imports",
                               {"field": "upload", "reason": "unknownUpload"})
        rest = {name: value for name, value in params.items() if name not in ("upload", "document")}
        try:
            return await call("import", {**rest, "path": str(waiting.path)})
        finally:
            waiting.path.unlink(missing_ok=True)

    # HTTP

    async def download(self, request: web.Request) -> web.StreamResponse:
        """``GET /data/exports/{id}``: the export as an attachment, once; the file is deleted after."""
        waiting = self.exports.pop(request.match_info["id"], None)
        if waiting is None or not waiting.path.is_file():
            raise web.HTTPNotFound(text="404 Not Found: no such export (each is downloaded once)\n")
        return _SentOnce(waiting.path, headers={
            "Content-Type": "application/json",
            "Content-Disposition": f'attachment; filename="{waiting.name}"',
            "Cache-Control": "no-store",
        })

    async def upload(self, request: web.Request) -> web.StreamResponse:
        """``POST /data/imports``: the body into a private file, ``{upload, bytes}``; 413 past the limit."""
        if request.content_length is not None and request.content_length > self.limit:
            return self._too_large()
        id, path = self._new_file("import")
        size = 0
        try:
            with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
                async for chunk in request.content.iter_chunked(CHUNK_BYTES):
                    size += len(chunk)
                    if size > self.limit:
                        path.unlink()
                        return self._too_large()
                    file.write(chunk)
        except BaseException:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            raise
        self.uploads[id] = Waiting(path, time.monotonic())
        LOG.info("received an upload of %d bytes", size)
        return web.json_response({"upload": id, "bytes": size})

    def _too_large(self) -> web.Response:
        return web.json_response({"reason": "tooLarge", "limit": self.limit}, status=413)


class _SentOnce(web.FileResponse):
    """A file sent (by ``sendfile``, never read into memory) and then deleted, even when the browser goes
    away halfway."""

    def __init__(self, path: pathlib.Path, **options: Any) -> None:
        super().__init__(path, **options)
        self.sent_path = path

    async def prepare(self, request: web.BaseRequest) -> Any:
        try:
            return await super().prepare(request)
        finally:
            self.sent_path.unlink(missing_ok=True)


def download_name(today: datetime.date | None = None) -> str:
    """``satchel-YYYY-MM-DD.json``, with today's local date."""
    return f"satchel-{(today or datetime.date.today()).isoformat()}.json"


def _object(params: Any, field: str) -> dict[str, Any]:
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise SatchelError(-32602, f"Invalid params: {field} must be an object", {"field": field})
    return params


def _meta(params: dict[str, Any]) -> dict[str, Any]:
    """The page's ``_meta`` (its progress token), the only param of ``bridge/export``."""
    return {"_meta": params["_meta"]} if "_meta" in params else {}
