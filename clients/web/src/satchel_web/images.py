"""Stored images as images: ``GET /images/<id>?size=thumbnail|display``; and photos sent as files:
``POST /uploads?page=KEY``.

A page shows a photo with ``<img src="/images/ID?size=thumbnail" loading="lazy">``: the browser fetches,
decodes and caches it as it does any image, and only when it comes near the screen, instead of a base64
string inside a JSON answer decoded at full size. The bytes come from ``images.get`` of a page's satchel
(every page's satchel opens the same database). An image's bytes never change for its id (content
decides the id), so an answer is ``Cache-Control: immutable`` with an ``ETag`` of the image's SHA-256 and
size; a revalidation that matches is ``304``.

Only the server's renditions leave through the bridge (``display`` when no size is asked), never an original:
an original is the file as the camera wrote it, where the photo was taken and with what included, and the
page shows nothing a rendition does not (they carry no metadata). ``size=original`` is ``400``; the person
who wants the originals has them from the Data panel's export.

A photo the person picks is sent as the file it is (``POST /uploads?page=KEY``, the body the file's bytes,
``KEY`` the page's, from its ``ready`` status), so the page can show its progress and no JSON message has
to carry it: the bridge streams it to the page's satchel in chunks (``images.beginUpload``,
``appendUpload``, ``finishUpload``) and answers ``{"uploadId", "mimeType"}``, which the page then passes
as the image (``{"uploadId": ...}``). A refusal is ``{"error": {code, message, data}}`` in the server's
words (too large, not an image). The token, ``Host`` and ``Origin`` checks of every request apply
(``security``)."""
from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from aiohttp import web
from satchel_client import AsyncSatchel, NotFound, SatchelError, ServerExited

if TYPE_CHECKING:
    from .page import PageSession

LOG = logging.getLogger("satchel.web")

#: The sizes the bridge serves: the server's renditions, which carry no metadata (no location, no camera).
SIZES = ("thumbnail", "display")
CACHE = "private, max-age=31536000, immutable"


class Images:
    """The ``/images/`` route, answered by whichever page's satchel is up."""

    def __init__(self, pages: Callable[[], Iterable[PageSession]]) -> None:
        self.pages = pages

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/images/{id}", self.get), web.post("/uploads", self.upload)]

    async def get(self, request: web.Request) -> web.StreamResponse:
        image_id = request.match_info["id"]
        size = request.query.get("size", "display")
        if size not in SIZES:
            return web.Response(status=400, text=f"400 Bad Request: size is {' or '.join(SIZES)}; originals, "
                                                 "which may say where a photo was taken, are in an export\n")
        satchels = [page.satchel for page in self.pages() if page.satchel is not None and page.ready]
        if not satchels:
            return web.Response(status=503, text="503 Service Unavailable: no satchel is running\n",
                                headers={"Retry-After": "1"})
        try:  # every page's satchel opens the same database: any one of them will do
            answer = await satchels[0].images.get(id=image_id, size=size)  # type: ignore[arg-type]
        except NotFound:
            return web.Response(status=404, text="404 Not Found: no such image\n")
        except (SatchelError, ServerExited) as failure:
            LOG.warning("images.get %s (%s) failed: %s", image_id, size, failure)
            return web.Response(status=502, text=f"502 Bad Gateway: {failure}\n")
        etag = f'"{answer["image"]["sha256"]}-{size}"'
        headers = {"ETag": etag, "Cache-Control": CACHE}
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        return web.Response(body=base64.b64decode(answer["data"]),
                            content_type=answer["rendition"]["mimeType"], headers=headers)

    async def upload(self, request: web.Request) -> web.StreamResponse:
        page = next((each for each in self.pages() if each.key == request.query.get("page")), None)
        if page is None or page.satchel is None or not page.ready:
            return _refusal(409, -32099, "This page's connection to Satchel is not ready: try again.", "notReady")
        size = request.content_length
        if not size:
            return _refusal(411, -32602, "An upload says its length (Content-Length).", "lengthRequired")
        satchel = page.satchel
        try:
            begun = await satchel.images.beginUpload(byteSize=size)
        except SatchelError as refused:
            return _refused(refused)
        upload, chunk = begun["uploadId"], begun["chunkBytes"]
        try:
            pending = bytearray()
            offset = 0
            async for data in request.content.iter_chunked(1 << 16):
                pending += data
                while len(pending) >= chunk or (pending and offset + len(pending) == size):
                    piece, pending = bytes(pending[:chunk]), pending[chunk:]
                    await satchel.images.appendUpload(
                        uploadId=upload, offset=offset, data=base64.b64encode(piece).decode())
                    offset += len(piece)
            finished = await satchel.images.finishUpload(uploadId=upload)
        except SatchelError as refused:
            await _discard(satchel, upload)
            return _refused(refused)
        except (ConnectionError, asyncio.CancelledError):  # the page went away mid-file
            await _discard(satchel, upload)
            raise
        return web.json_response({"uploadId": upload, "mimeType": finished.get("mimeType")})


async def _discard(satchel: AsyncSatchel, upload: str) -> None:
    with contextlib.suppress(SatchelError, ServerExited):
        await satchel.images.discardUpload(uploadId=upload)


def _refused(error: SatchelError) -> web.Response:
    """The server's refusal, in its words, for the page to show."""
    return web.json_response({"error": {"code": error.code, "message": error.message, "data": error.data}},
                             status=413 if error.reason == "imageTooLarge" else 400)


def _refusal(status: int, code: int, message: str, reason: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message, "data": {"reason": reason}}},
                             status=status)
