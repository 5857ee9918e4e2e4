"""Images as bytes: uploaded in chunks by the library, read back at each size."""
from __future__ import annotations

import asyncio
import struct
import zlib

import pytest

from satchel_client import AsyncSatchel, Progress, Satchel, ValidationFailed


def phone_png(width: int = 4032, height: int = 3024) -> bytes:
    """A phone-size PNG made here, with some detail so that it is larger than a small message."""
    row = b"\x00" + bytes((x * 7 + (x >> 3)) & 0xFF for x in range(width * 3))
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * height, 1))
            + chunk(b"IEND", b""))


def test_an_image_larger_than_a_message_is_uploaded_in_chunks_with_progress_and_read_back():
    data = phone_png()
    with Satchel(memory=True, args=["--max-message-bytes", "131072"]) as s:
        assert len(data) > 131072
        reports: list[Progress] = []
        image = s.images.upload(data, progress=reports.append)
        photo = s.photos.add(image=image)
        assert (photo["image"]["width"], photo["image"]["height"]) == (4032, 3024)
        assert s.images.bytes(photo["image"]["id"]) == data
        thumbnail = s.images.bytes(photo["image"]["id"], size="thumbnail")
        assert thumbnail[:2] == b"\xff\xd8" and len(thumbnail) < len(data) // 10
        assert len(reports) > 1 and [r.progress for r in reports] == sorted(r.progress for r in reports)
        assert reports[-1].progress == reports[-1].total == len(data) and reports[-1].fraction == 1.0


def test_a_failed_upload_is_discarded_and_says_why():
    with Satchel(memory=True) as s:
        for _ in range(10):  # each is discarded: no "too many uploads"
            with pytest.raises(ValidationFailed, match="unsupportedImage"):
                s.images.upload(b"not an image at all")
        with pytest.raises(TypeError):
            s.images.upload("a path, say")  # type: ignore[arg-type]
        assert s.server.info()["counts"]["images"] == 0


def test_the_asyncio_client_uploads_and_reads_back_too():
    data = phone_png(1200, 900)

    async def main() -> None:
        async with AsyncSatchel(memory=True, args=["--max-message-bytes", "65536"]) as s:
            seen: list[int] = []

            async def note(report: Progress) -> None:
                seen.append(int(report.progress))

            post = await s.diary.create(images=[await s.images.upload(data, progress=note)])
            assert seen[-1] == len(data) and len(seen) > 1
            assert await s.images.bytes(post["images"][0]["id"]) == data
            display = await s.images.bytes(post["images"][0]["id"], size="display")
            assert display[:2] == b"\xff\xd8"

    asyncio.run(main())
