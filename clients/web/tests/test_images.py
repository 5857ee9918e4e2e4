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
    status, headers, body = fetch(bridge, f"/images/{image['id']}")  # no size: the display size, never the file
    assert status == 200 and headers["Content-Type"] == "image/jpeg" and headers["ETag"].endswith('-display"')
    assert fetch(bridge, f"/images/{image['id']}?size=original")[0] == 400
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


def noisy_png(path, width: int, height: int, seed: int) -> bytes:
    """A PNG of noise (it does not compress: its size is its pixels'), written to ``path``."""
    import random

    generator = random.Random(seed)
    rows = b"".join(b"\x00" + generator.randbytes(width * 3) for _ in range(height))
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b""))
    path.write_bytes(data)
    return data


def test_photos_larger_than_a_message_are_sent_as_files_with_progress_and_saved(bridge_factory, page_factory, tmp_path):
    import hashlib

    bridge = bridge_factory("--max-message-bytes", "1048576")
    page = page_factory(on=bridge)
    paths = [tmp_path / f"big-{n}.png" for n in range(4)]
    digests = [hashlib.sha256(noisy_png(path, 900, 700, n)).hexdigest() for n, path in enumerate(paths)]
    assert all(path.stat().st_size > 1_048_576 for path in paths)  # none would fit in one message
    page.open("moments")
    page.click("section[data-app='moments'] button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("Four big ones")
    page.find("dialog input[type='file']").send_keys("\n".join(str(path) for path in paths))
    page.wait_until(lambda: len(page.find_all("dialog .moment-picked-photo progress.moment-upload")) == 4,
                    message="each picked photo shows its progress")
    page.screenshot("moments-four-big-photos-picked")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog", timeout=60)
    with Satchel(db=bridge.db) as s:
        (post,) = s.diary.list()["items"]
        stored = s.diary.get(id=post["id"])
    assert [image["sha256"] for image in stored["images"]] == digests

    page.tab("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.find("section[data-app='notes'] input[type='file']").send_keys(str(paths[0]))
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo:not(.uploading)")) == 1, timeout=30)
    with Satchel(db=bridge.db) as s:
        assert [p["image"]["sha256"] for p in s.photos.list()["items"]] == digests[:1]

    fake = tmp_path / "not-a-photo.png"
    fake.write_bytes(b"just some words, not a picture")
    page.find("section[data-app='notes'] input[type='file']").send_keys(str(fake))
    error = page.wait_for("section[data-app='notes'] li.photo.refused .error")
    assert error.text == "“not-a-photo.png” is not a photo Satchel can read: it takes PNG, JPEG, GIF, WebP and HEIC."
    with Satchel(db=bridge.db) as s:
        assert len(s.photos.list()["items"]) == 1


def test_photos_sent_to_a_satchel_that_restarted_are_sent_again_by_the_next_save(bridge, page, tmp_path):
    import hashlib
    import os
    import signal

    good, cut = tmp_path / "good.png", tmp_path / "cut.png"
    digest = hashlib.sha256(noisy_png(good, 300, 200, 1)).hexdigest()
    cut.write_bytes(noisy_png(cut, 300, 200, 2)[:20_000])  # a PNG cut short: refused when the post is saved
    page.open("moments")
    page.click("section[data-app='moments'] button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("Kept through a restart")
    page.find("dialog input[type='file']").send_keys(f"{good}\n{cut}")
    page.wait_until(lambda: len(page.find_all("dialog .moment-picked-photo")) == 2)
    page.click("dialog button.moment-save")
    assert "damaged" in page.wait_for("dialog .error").text  # both were sent; the post was refused
    (pid,) = bridge.satchel_pids()
    os.kill(pid, signal.SIGKILL)  # and with it the uploads it held
    page.wait_until(lambda: page.driver.execute_script("return document.body.dataset.connection") == "ready"
                    and bridge.satchel_pids() not in ([], [pid]), timeout=15)
    page.click("dialog .moment-picked-photo:nth-child(2) .moment-remove-photo")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog", timeout=20)
    with Satchel(db=bridge.db) as s:
        (post,) = s.diary.list()["items"]
        assert [image["sha256"] for image in s.diary.get(id=post["id"])["images"]] == [digest]
    assert page.console_errors() == []


def test_a_heic_photo_shows_in_the_list_and_in_the_post(bridge, page):
    import pathlib

    heic = pathlib.Path(__file__).resolve().parents[3] / "Tests/DomainTests/Fixtures/sample.heic"
    page.open("moments")
    page.click("section[data-app='moments'] button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("From a phone")
    page.find("dialog input[type='file']").send_keys(str(heic))
    # The browser cannot draw a HEIC: its tile shows a picture's outline and the file's name, no broken image.
    placeholder = page.wait_for("dialog .moment-picked-photo .moment-undrawable")
    assert placeholder.get_attribute("role") == "img" and placeholder.get_attribute("aria-label") == "Photo 1 of 1"
    assert placeholder.text == "sample.heic"
    assert page.find_all("dialog .moment-picked-photo img") == []
    box = page.driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]",
                                     placeholder)
    assert box[0] > 60 and abs(box[0] - box[1]) < 1, box  # a square tile, as a drawn photo's
    page.screenshot("moments-heic-picked")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog", timeout=20)
    card = page.wait_for(".moment-card")
    page.wait_until(lambda: page.driver.execute_script(
        "const img = arguments[0].querySelector('img.moment-thumb'); return img.complete && img.naturalWidth > 0",
        card), message="the HEIC's thumbnail is drawn")
    card.click()
    photo = page.wait_for(".moment-photo")
    page.wait_until(lambda: page.driver.execute_script(
        "return arguments[0].complete && arguments[0].naturalWidth > 0", photo), message="its display size is drawn")
    with Satchel(db=bridge.db) as s:
        (post,) = s.diary.list()["items"]
        assert s.diary.get(id=post["id"])["images"][0]["mimeType"] == "image/heic"
    page.screenshot("moments-heic")


def located_jpeg(path, width: int = 4032, height: int = 3024) -> bytes:
    """A phone's photo as its camera writes it: a JPEG whose EXIF names the camera and where it was taken."""
    import io

    from PIL import Image

    picture = Image.new("RGB", (width, height), (40, 120, 190))
    picture.paste((230, 200, 60), (0, height // 2, width, height))
    exif = Image.Exif()
    exif[0x010F], exif[0x0110] = "Harbourphone", "Harbourphone 15 Pro"  # Make, Model
    exif[0x8825] = {1: "N", 2: (59.0, 56.0, 13.5), 3: "E", 4: (30.0, 18.0, 51.2)}  # GPS: a quay in the city
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90, exif=exif.tobytes())
    path.write_bytes(out.getvalue())
    return out.getvalue()


#: Reads what a page may have of an image, over HTTP and over its own socket: for each, whether it came and
#: whether it says where the photo was taken (the GPS tags) or with what (the camera's name).
READ_AS_A_PAGE = """
    const [id, done] = arguments;
    const told = (bytes) => {
      const text = new TextDecoder('latin1').decode(bytes);
      return { bytes: bytes.length, camera: text.includes('Harbourphone'), exif: text.includes('Exif') };
    };
    (async () => {
      const http = {};
      for (const size of ['original', 'display', 'thumbnail', '']) {
        const answer = await fetch(`/images/${id}${size ? `?size=${size}` : ''}`);
        http[size || 'none'] = { status: answer.status, ...told(new Uint8Array(await answer.arrayBuffer())) };
      }
      const socket = new WebSocket(`ws://${location.host}/ws`);
      const answers = {};
      const asked = { 1: { id }, 2: { id, size: 'original' }, 3: [id, 'original'], 4: [id], 5: { id, size: 'display' } };
      await new Promise((resolve) => socket.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        if (message.method === 'bridge/status' && message.params.state === 'ready') {
          for (const [key, params] of Object.entries(asked)) {
            socket.send(JSON.stringify({ jsonrpc: '2.0', id: Number(key), method: 'images.get', params }));
          }
        } else if (message.id in asked) {
          answers[message.id] = message.error
            ? { code: message.error.code, reason: message.error.data?.reason }
            : told(Uint8Array.from(atob(message.result.data), (c) => c.charCodeAt(0)));
          if (Object.keys(answers).length === Object.keys(asked).length) resolve();
        }
      }));
      socket.close();
      done({ http, socket: answers });
    })().catch((error) => done({ error: String(error) }));
"""


def test_no_location_leaves_through_the_bridge(bridge, page, tmp_path):
    """A phone's photo, picked and saved: the page (and anything holding its token) gets its renditions,
    which say nothing of where it was taken, never the file itself; the person's export still has it whole."""
    photo = tmp_path / "quay.jpg"
    original = located_jpeg(photo)
    page.open("moments")
    page.click("section[data-app='moments'] button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("The quay at dawn")
    page.find("dialog input[type='file']").send_keys(str(photo))
    page.wait_for("dialog .moment-picked-photo")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog", timeout=30)
    with Satchel(db=bridge.db) as s:
        (post,) = s.diary.list()["items"]
        image = s.diary.get(id=post["id"])["images"][0]
        assert base64.b64decode(s.images.get(id=image["id"])["data"]) == original  # stored as it came
    page.driver.set_script_timeout(60)
    seen = page.driver.execute_async_script(READ_AS_A_PAGE, image["id"])
    assert "error" not in seen, seen
    http, socket = seen["http"], seen["socket"]
    assert http["original"]["status"] == 400 and not http["original"]["camera"], http
    for size in ("display", "thumbnail", "none"):
        assert http[size]["status"] == 200 and http[size]["bytes"] > 1000, (size, http[size])
        assert not http[size]["camera"] and not http[size]["exif"], (size, http[size])
    for key in ("1", "2", "3", "4"):  # no size (the server's default is the original), or the original asked for
        assert socket[key] == {"code": -32602, "reason": "originalNotRelayed"}, (key, socket[key])
    assert socket["5"]["bytes"] > 1000 and not socket["5"]["camera"] and not socket["5"]["exif"]
    assert page.find("section[data-app='moments'] .moment-card").is_displayed()
