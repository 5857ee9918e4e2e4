"""``s.images``: the generated ``images.*`` methods, and images as bytes both ways.

``s.images.upload(data)`` sends an image of any size (up to the server's ``--max-image-bytes``) in chunks
that each fit in a message, and answers the image input to pass where an image goes:
``s.photos.add(image=s.images.upload(data))``. ``s.images.bytes(id, size="thumbnail")`` answers an image's
bytes (``original``: byte for byte; ``display`` and ``thumbnail``: the server's upright copies)."""
from __future__ import annotations

import base64
from collections.abc import Coroutine
from typing import Any, Literal

from ._namespace import UNSET, Unset
from ._protocol import OnProgress, Progress, report
from .api import AsyncImages, ImageFromUploadId, Images
from .errors import SatchelError

Size = Literal["thumbnail", "display", "original"]

#: For pytest: a failed call's traceback ends at its caller's line, not in these methods.
__tracebackhide__ = True


def _checked(data: bytes | bytearray | memoryview) -> bytes:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"an image is bytes, not {type(data).__name__}")
    if not data:
        raise ValueError("an image of no bytes")
    return bytes(data)


class ImageShelf(Images):
    """``s.images`` of a ``Satchel``."""

    def upload(
        self, data: bytes | bytearray | memoryview, *, progress: OnProgress | None = None,
        timeout: float | None | Unset = UNSET,
    ) -> ImageFromUploadId:
        """Uploads ``data`` in chunks; answers ``{"uploadId": ...}`` to pass where an image goes. ``progress``
        is called with each ``Progress`` (bytes sent of all). An upload that fails is discarded."""
        whole = _checked(data)
        begun = self.beginUpload(byteSize=len(whole), timeout=timeout)
        upload, chunk = begun["uploadId"], begun["chunkBytes"]
        try:
            for offset in range(0, len(whole), chunk):
                piece = base64.b64encode(whole[offset:offset + chunk]).decode()
                sent = self.appendUpload(uploadId=upload, offset=offset, data=piece, timeout=timeout)
                if progress is not None:
                    report(progress, Progress(progress=sent["received"], total=len(whole), message=None))
            self.finishUpload(uploadId=upload, timeout=timeout)
        except BaseException:
            try:
                self.discardUpload(uploadId=upload, timeout=timeout)
            except SatchelError:
                pass  # discarded already (a finish that refused it), or the server is gone
            raise
        return {"uploadId": upload}

    def bytes(self, id: str, size: Size = "original", *, timeout: float | None | Unset = UNSET) -> bytes:
        """The image's bytes at ``size``."""
        return base64.b64decode(self.get(id=id, size=size, timeout=timeout)["data"])


class AsyncImageShelf(AsyncImages):
    """``s.images`` of an ``AsyncSatchel``: as ``ImageShelf``'s, awaited."""

    async def upload(
        self, data: bytes | bytearray | memoryview, *, progress: OnProgress | None = None,
        timeout: float | None | Unset = UNSET,
    ) -> ImageFromUploadId:
        """As ``Satchel``'s ``s.images.upload``; a coroutine ``progress`` is awaited."""
        whole = _checked(data)
        begun = await self.beginUpload(byteSize=len(whole), timeout=timeout)
        upload, chunk = begun["uploadId"], begun["chunkBytes"]
        try:
            for offset in range(0, len(whole), chunk):
                piece = base64.b64encode(whole[offset:offset + chunk]).decode()
                sent = await self.appendUpload(uploadId=upload, offset=offset, data=piece, timeout=timeout)
                if progress is not None:
                    outcome: Any = report(progress, Progress(progress=sent["received"], total=len(whole)))
                    if isinstance(outcome, Coroutine):
                        await outcome
            await self.finishUpload(uploadId=upload, timeout=timeout)
        except BaseException:
            try:
                await self.discardUpload(uploadId=upload, timeout=timeout)
            except SatchelError:
                pass
            raise
        return {"uploadId": upload}

    async def bytes(self, id: str, size: Size = "original", *, timeout: float | None | Unset = UNSET) -> bytes:
        """The image's bytes at ``size``."""
        return base64.b64decode((await self.get(id=id, size=size, timeout=timeout))["data"])
