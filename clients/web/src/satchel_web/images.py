"""Stored images as images: ``GET /images/<id>?size=thumbnail|display|original``.

A page shows a photo with ``<img src="/images/ID?size=thumbnail" loading="lazy">``: the browser fetches,
decodes and caches it as it does any image, and only when it comes near the screen, instead of a base64
string inside a JSON answer decoded at full size. The bytes come from ``images.get`` of a page's satchel
(every page's satchel opens the same database). An image's bytes never change for its id (content
decides the id), so an answer is ``Cache-Control: immutable`` with an ``ETag`` of the image's SHA-256 and
size; a revalidation that matches is ``304``. The token, ``Host`` and ``Origin`` checks of every request
apply (``security``)."""
from __future__ import annotations

import base64
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from aiohttp import web
from satchel_client import NotFound, SatchelError, ServerExited

if TYPE_CHECKING:
    from .page import PageSession

LOG = logging.getLogger("satchel.web")

SIZES = ("thumbnail", "display", "original")
CACHE = "private, max-age=31536000, immutable"


class Images:
    """The ``/images/`` route, answered by whichever page's satchel is up."""

    def __init__(self, pages: Callable[[], Iterable[PageSession]]) -> None:
        self.pages = pages

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/images/{id}", self.get)]

    async def get(self, request: web.Request) -> web.StreamResponse:
        image_id = request.match_info["id"]
        size = request.query.get("size", "original")
        if size not in SIZES:
            return web.Response(status=400, text=f"400 Bad Request: size is one of {', '.join(SIZES)}\n")
        satchels = [page.satchel for page in self.pages() if page.satchel is not None and page.ready]
        if not satchels:
            return web.Response(status=503, text="503 Service Unavailable: no satchel is running\n",
                                headers={"Retry-After": "1"})
        for satchel in satchels:
            try:
                answer = await satchel.images.get(id=image_id, size=size)  # type: ignore[arg-type]
            except NotFound:
                continue  # with --memory, each page's satchel holds its own images
            except (SatchelError, ServerExited) as failure:
                LOG.warning("images.get %s (%s) failed: %s", image_id, size, failure)
                return web.Response(status=502, text=f"502 Bad Gateway: {failure}\n")
            etag = f'"{answer["image"]["sha256"]}-{size}"'
            headers = {"ETag": etag, "Cache-Control": CACHE}
            if etag in request.headers.get("If-None-Match", ""):
                return web.Response(status=304, headers=headers)
            return web.Response(body=base64.b64decode(answer["data"]),
                                content_type=answer["rendition"]["mimeType"], headers=headers)
        return web.Response(status=404, text="404 Not Found: no such image\n")
