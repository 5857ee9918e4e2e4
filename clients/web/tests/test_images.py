"""Stored images as images: the bridge's ``GET /images/ID?size=`` and the pages that use it."""
from __future__ import annotations

import base64
import struct
import urllib.error
import urllib.request
import zlib

from satchel_client import Satchel


def phone_png(width: int = 4032, height: int = 3024) -> bytes:
    """A phone-size PNG made here (a picture: left half red, right half blue), no library needed."""
    red, blue = bytes([220, 30, 20]), bytes([20, 30, 220])
    row = b"\x00" + red * (width // 2) + blue * (width - width // 2)
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * height, 1))
            + chunk(b"IEND", b""))


def fetch(bridge, path: str, headers: dict[str, str] | None = None, token: bool = True):
    """``GET path`` from the bridge (with the launch's token unless told not to): status, headers, body."""
    separator = "&" if "?" in path else "?"
    url = f"{bridge.origin}{path}{separator}token={bridge.token}" if token else f"{bridge.origin}{path}"
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_a_photo_is_served_at_its_sizes_with_immutable_caching(bridge, page):
    page.open("moments")  # a page's satchel serves the bytes
    with Satchel(db=bridge.db) as s:
        post = s.diary.create(text="Sea", images=[{"data": base64.b64encode(phone_png()).decode()}])
    image = post["images"][0]
    assert (image["width"], image["height"]) == (4032, 3024)
    status, headers, body = fetch(bridge, f"/images/{image['id']}?size=thumbnail")
    assert status == 200 and headers["Content-Type"] == "image/jpeg" and body[:2] == b"\xff\xd8"
    assert "immutable" in headers["Cache-Control"] and headers["ETag"] == f'"{image["sha256"]}-thumbnail"'
    assert len(body) < 30_000
    again, _, empty = fetch(bridge, f"/images/{image['id']}?size=thumbnail", {"If-None-Match": headers["ETag"]})
    assert again == 304 and empty == b""
    status, headers, body = fetch(bridge, f"/images/{image['id']}")
    assert status == 200 and headers["Content-Type"] == "image/png" and body == phone_png()
    assert fetch(bridge, f"/images/{image['id']}?size=huge")[0] == 400
    assert fetch(bridge, "/images/img_nothing?size=thumbnail")[0] == 404
    assert fetch(bridge, f"/images/{image['id']}?size=thumbnail", token=False)[0] == 403


def test_moments_lists_thumbnails_and_the_post_shows_the_display_size_loaded_lazily(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.diary.create(text="Two photos", images=[{"data": base64.b64encode(phone_png()).decode()}] * 2)
    page.open("moments")
    card = page.wait_for(".moment-card")
    thumbs = card.find_elements("css selector", "img.moment-thumb")
    assert len(thumbs) == 2
    for img in thumbs:
        assert img.get_attribute("loading") == "lazy" and img.get_attribute("decoding") == "async"
        assert (img.get_dom_attribute("width"), img.get_dom_attribute("height")) == ("4032", "3024")  # its box from the start
        assert "size=thumbnail" in img.get_attribute("src")
    page.wait_until(lambda: page.driver.execute_script(
        "return [...arguments[0].querySelectorAll('img')].every(img => img.complete && img.naturalWidth === 320)",
        card), message="thumbnails of 320 px drawn")
    card.click()
    photo = page.wait_for(".moment-photo")
    assert "size=display" in photo.get_attribute("src")
    page.wait_until(lambda: page.driver.execute_script(
        "return arguments[0].complete && arguments[0].naturalWidth === 1600", photo), message="display size drawn")
    shot = page.shots / "moments-photos.png"
    page.driver.save_screenshot(str(shot))
