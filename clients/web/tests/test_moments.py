"""Moments in a real Chromium, as the original diary's flows go: write a post with a photo from disk, see it in
the feed (date, five-line excerpt, its photos as WeChat shows them), open it, edit and save, have an empty post
refused in the session's language, delete with confirmation."""
from __future__ import annotations

import hashlib
import struct
import zlib

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from satchel_client import Satchel
from test_dates import written

APP = "section[data-app='moments']"


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    """A PNG of `colour` fading to white from left to right."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    line = bytearray()
    for x in range(width):
        line += bytes(c + (255 - c) * x // width for c in colour)
    raw = b"".join(b"\x00" + bytes(line) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def as_phone(page) -> None:
    """Shows the page as a 390 px wide phone screen does (a headless window cannot be made that narrow)."""
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    page.wait_until(lambda: page.driver.execute_script("return window.innerWidth") == 390)


def stored(bridge):
    """The posts as another process sees them: full posts, newest first."""
    with Satchel(db=bridge.db) as s:
        return [s.diary.get(id=item["id"]) for item in s.diary.list()["items"]]


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def thumbnails_loaded(page, card) -> bool:
    return page.driver.execute_script(
        "return [...arguments[0].querySelectorAll('img.moment-thumb')]"
        ".every(img => img.src.includes('/images/') && img.complete && img.naturalWidth > 0)", card)


def test_a_post_is_written_read_edited_refused_when_empty_and_deleted(page, tmp_path):
    sunrise = tmp_path / "sunrise.png"
    sunrise.write_bytes(png(120, 90, (230, 120, 40)))
    photos = []
    for name, colour in (("lake", (40, 110, 200)), ("forest", (30, 140, 70)), ("tent", (170, 60, 160))):
        path = tmp_path / f"{name}.png"
        path.write_bytes(png(90, 90, colour))
        photos.append(path)

    page.open("moments")
    page.wait_for(f"{APP} .empty")

    # Create: "+" opens the form, the text is typed, a photo is picked from disk.
    page.click(f"{APP} button[aria-label='New post']")
    page.wait_for("dialog textarea")
    assert page.driver.switch_to.active_element.tag_name == "textarea"
    page.driver.switch_to.active_element.send_keys("Sunrise over the lake")
    page.find("dialog input[type='file']").send_keys(str(sunrise))
    page.wait_for("dialog .moment-picked-photo img")
    page.screenshot("moments-create-1280")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog")

    (first,) = stored(page.bridge)
    assert first["text"] == "Sunrise over the lake"
    assert [image["sha256"] for image in first["images"]] == [digest(sunrise)]
    card = page.wait_for(f"{APP} .moment-card")
    assert card.find_element("css selector", "time").text == written(first["createdAt"], "en")[0]  # as every date
    assert card.find_element("css selector", ".moment-excerpt").text == "Sunrise over the lake"
    page.wait_until(lambda: thumbnails_loaded(page, card), message="the thumbnail shows the picked photo")

    # A long post with three photos: the feed cuts it to five lines with "…" and shows the photos side by side.
    lines = [f"Day {n}: walked along the shore and counted the boats" for n in range(1, 9)]
    page.click(f"{APP} button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("\n".join(lines))
    page.find("dialog input[type='file']").send_keys("\n".join(str(path) for path in photos))
    page.wait_until(lambda: len(page.find_all("dialog .moment-picked-photo img")) == 3)
    page.click("dialog button.moment-save")
    page.wait_gone("dialog")
    page.wait_until(lambda: len(page.find_all(f"{APP} .moment-card")) == 2)
    long_post, _ = stored(page.bridge)
    assert long_post["text"] == "\n".join(lines)
    assert [image["sha256"] for image in long_post["images"]] == [digest(path) for path in photos]
    newest = page.find_all(f"{APP} .moment-card")[0]
    assert newest.get_attribute("data-id") == long_post["id"]
    assert newest.find_element("css selector", ".moment-excerpt").text == "\n".join(lines[:5]) + "…"
    page.wait_until(lambda: len(newest.find_elements("css selector", "img.moment-thumb")) == 3)
    thumbs = newest.find_elements("css selector", "img.moment-thumb")
    assert len({thumb.location["y"] for thumb in thumbs}) == 1 and thumbs[0].location["x"] < thumbs[1].location["x"] < thumbs[2].location["x"]
    page.wait_until(lambda: thumbnails_loaded(page, newest))
    page.screenshot("moments-list-1280")

    # The detail screen: the whole text and the photo grid of `layout` (two above, one across below).
    newest.click()
    detail = page.wait_for(f"{APP} .moment-detail")
    assert page.find(f"{APP} .moments-list-view").is_displayed() is False
    assert page.find(f"{APP} .moment-detail-date").text == written(long_post["createdAt"], "en")[0]
    assert page.find(f"{APP} .moment-detail-text").text == "\n".join(lines)
    assert long_post["layout"] == [[0, 1], [2]]
    rows = detail.find_elements("css selector", ".moment-row")
    assert [len(row.find_elements("css selector", "img")) for row in rows] == [2, 1]
    top_left, top_right = rows[0].find_elements("css selector", "img")
    bottom = rows[1].find_element("css selector", "img")
    assert abs(bottom.size["width"] - (top_right.location["x"] + top_right.size["width"] - top_left.location["x"])) <= 2
    assert [img.get_attribute("data-image-id") for row in rows for img in row.find_elements("css selector", "img")] \
        == [image["id"] for image in long_post["images"]]
    page.wait_until(lambda: page.driver.execute_script(
        "return [...document.querySelectorAll('.moment-photo')].every(img => img.complete && img.naturalWidth > 0)"))
    page.screenshot("moments-detail-1280")

    # Edit: the same form, filled in; Save updates the detail and the feed.
    page.click(f"{APP} button.moments-edit")
    text = page.wait_for("dialog textarea")
    assert text.get_attribute("value") == "\n".join(lines)
    assert len(page.find_all("dialog .moment-picked-photo img")) == 3
    text.send_keys(Keys.CONTROL, "a")
    text.send_keys("Two days at the lake.\nBoats everywhere.")
    page.click("dialog button[aria-label='Remove photo 3']")
    page.wait_until(lambda: len(page.find_all("dialog .moment-picked-photo")) == 2)
    page.click("dialog button.moment-save")
    page.wait_gone("dialog")
    page.wait_until(lambda: page.find(f"{APP} .moment-detail-text").text == "Two days at the lake.\nBoats everywhere.")
    assert [len(row.find_elements("css selector", "img")) for row in page.find_all(f"{APP} .moment-row")] == [2]
    edited = stored(page.bridge)[0]
    assert edited["text"] == "Two days at the lake.\nBoats everywhere."
    assert [image["sha256"] for image in edited["images"]] == [digest(path) for path in photos[:2]]
    assert edited["revision"] == 2 and edited["createdAt"] == long_post["createdAt"]
    page.click(f"{APP} button.moments-back")
    page.wait_for(f"{APP} .moments-list-view")
    page.wait_until(lambda: page.find(f"{APP} .moment-card .moment-excerpt").text == "Two days at the lake.\nBoats everywhere.")

    # An empty post is refused with the server's message, in the form, and what was typed stays.
    page.click(f"{APP} button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("   ")
    page.click("dialog button.moment-save")
    alert = page.wait_for("dialog [role='alert']")
    assert alert.text == "A post needs some text or at least one photo"
    assert page.find("dialog textarea").get_attribute("value") == "   "
    page.click("dialog button.moment-cancel")
    page.wait_gone("dialog")

    Select(page.find("#language")).select_by_value("ru")
    page.click(f"{APP} button[aria-label='Новый пост']")
    page.wait_for("dialog textarea").send_keys("\n")
    page.click("dialog button.moment-save")
    alert = page.wait_for("dialog [role='alert']")
    assert alert.text == "В посте должен быть текст или хотя бы одна фотография"
    assert page.find("dialog textarea").get_attribute("value") == "\n"
    page.screenshot("moments-empty-refused-ru-1280")
    page.find("dialog textarea").send_keys(Keys.ESCAPE)
    page.wait_gone("dialog")
    assert len(stored(page.bridge)) == 2

    # Delete asks first: "Отмена" keeps the post, "Удалить" deletes it and returns to the feed.
    page.find_all(f"{APP} .moment-card")[1].click()
    page.wait_until(lambda: page.find(f"{APP} .moment-detail-text").text == "Sunrise over the lake")
    page.click(f"{APP} button.moments-delete")
    question = page.wait_for("dialog.sheet .confirm")
    assert "Удалить этот пост?" in question.text
    page.click("dialog.sheet .confirm button[value='no']")
    page.wait_gone("dialog")
    assert page.find(f"{APP} .moment-detail").is_displayed()
    assert len(stored(page.bridge)) == 2
    page.click(f"{APP} button.moments-delete")
    page.click("dialog.sheet .confirm button[value='yes']")
    page.wait_for(f"{APP} .moments-list-view")
    page.wait_until(lambda: len(page.find_all(f"{APP} .moment-card")) == 1)
    assert [post["id"] for post in stored(page.bridge)] == [edited["id"]]

    # A phone's width: the feed and the detail still fit.
    as_phone(page)
    assert page.driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot("moments-list-390")
    page.find(f"{APP} .moment-card").send_keys(Keys.ENTER)
    page.wait_for(f"{APP} .moment-detail")
    page.wait_until(lambda: page.driver.execute_script(
        "return [...document.querySelectorAll('.moment-photo')].every(img => img.complete && img.naturalWidth > 0)"))
    assert page.driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot("moments-detail-390")

    assert page.console_errors() == []


def test_a_preview_is_five_lines_as_drawn_at_every_width(bridge, page):
    """One long paragraph: five lines of the list's width and an ellipsis, on a desktop and on a phone."""
    paragraph = " ".join(["Rain all morning, then the sun came out over the harbour and we walked"] * 8)
    with Satchel(db=bridge.db) as s:
        s.diary.create(text=paragraph)
        s.diary.create(text="one\ntwo\nthree")
    page.open("moments")
    page.wait_until(lambda: len(page.find_all(f"{APP} .moment-excerpt")) == 2)
    measure = """
        const el = document.querySelectorAll(arguments[0])[arguments[1]];
        const line = parseFloat(getComputedStyle(el).lineHeight);
        return [el.clientHeight / line, el.scrollHeight > el.clientHeight + 1];"""
    for width in (1280, 390):
        page.resize(width)
        page.wait_until(lambda: page.driver.execute_script("return window.innerWidth") == width)
        long_lines, clamped = page.driver.execute_script(measure, f"{APP} .moment-excerpt", 1)
        assert round(long_lines) == 5 and clamped, (width, long_lines)
        short_lines, short_clamped = page.driver.execute_script(measure, f"{APP} .moment-excerpt", 0)
        assert round(short_lines) == 3 and not short_clamped, (width, short_lines)
        page.screenshot(f"moments-preview-{width}")


def test_a_post_opened_low_in_the_list_opens_in_view_and_back_returns_there(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.batch([("diary.create", {"text": f"day {n}\nsecond line\nthird line"}) for n in range(30)])
    page.open("moments")
    page.wait_until(lambda: len(page.find_all(f"{APP} .moment-card")) == 30)
    last = page.find_all(f"{APP} .moment-card")[-1]
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", last)
    scrolled = page.driver.execute_script("return window.scrollY")
    assert scrolled > 500
    last.click()
    page.wait_for(f"{APP} .moments-back")
    tabs_bottom = page.driver.execute_script("return document.querySelector('.tabs').getBoundingClientRect().bottom")
    for control in (".moments-back", ".moments-edit", ".moments-delete"):
        box = page.driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom]",
                                         page.find(f"{APP} {control}"))
        viewport = page.driver.execute_script("return window.innerHeight")
        assert tabs_bottom <= box[0] and box[1] <= viewport, (control, box, tabs_bottom)
    page.click(f"{APP} .moments-back")
    page.wait_for(f"{APP} .moment-card")
    assert abs(page.driver.execute_script("return window.scrollY") - scrolled) < 5, "back where the list was"


def test_five_photos_picked_at_once_keep_four_and_say_why(page, tmp_path):
    paths = []
    for index in range(5):
        path = tmp_path / f"photo-{index}.png"
        path.write_bytes(png(40 + index, 40, (40 * index, 90, 160)))
        paths.append(path)
    page.open("moments")
    page.click(f"{APP} button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("five at once")
    page.find("dialog input[type='file']").send_keys("\n".join(str(path) for path in paths))
    page.wait_until(lambda: len(page.find_all("dialog .moment-picked-photo img")) == 4)
    assert "at most 4 photos" in page.wait_for("dialog [role='alert']").text
    assert not page.find_all("dialog .moment-picked-add"), "no room left to pick more"
    page.click("dialog button.moment-save")
    page.wait_gone("dialog")
    (post,) = stored(page.bridge)
    assert [image["sha256"] for image in post["images"]] == [digest(path) for path in paths[:4]]


def phone_photo(path, width: int, height: int, band: tuple[int, int, int]) -> bytes:
    """A photo at a phone's size: a grey gradient under a coloured band across its top quarter (a crop that
    cuts the top off shows no band), written to ``path``."""
    import io

    from PIL import Image

    picture = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    picture.paste(band, (0, 0, width, max(1, height // 4)))
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=85)
    path.write_bytes(out.getvalue())
    return out.getvalue()


#: Each photo of a card: its box (x, y, width, height) and what is drawn in it.
PHOTO_BOXES = """
    return [...arguments[0].querySelectorAll('img')].map((img) => {
      const r = img.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, src: img.currentSrc,
               natural: [img.naturalWidth, img.naturalHeight], fit: getComputedStyle(img).objectFit };
    });
"""


def test_the_feed_shows_photos_as_wechat_does(bridge, page, tmp_path):
    """One photo at its own shape, its longer side about two-thirds of the column (at most 360 px), from the
    display size; two to four as squares of a three-column grid (four as two by two), from the thumbnails."""
    import base64

    portrait = tmp_path / "portrait.jpg"
    phone_photo(portrait, 3024, 4032, (220, 40, 40))
    sizes = {"landscape": (4032, 3024), "pixel": (1, 1), "two": (4032, 3024), "three": (3024, 4032), "four": (4032, 3024)}
    made = {name: base64.b64encode(phone_photo(tmp_path / f"{name}.jpg", *size, (40, 40, 220))).decode()
            for name, size in sizes.items()}
    with Satchel(db=bridge.db) as s:
        s.diary.create(text="four", images=[{"data": made["four"]}, {"data": made["three"]}, {"data": made["two"]},
                                            {"data": made["landscape"]}])
        s.diary.create(text="three", images=[{"data": made["three"]}, {"data": made["two"]}, {"data": made["four"]}])
        s.diary.create(text="two", images=[{"data": made["two"]}, {"data": made["three"]}])
        s.diary.create(text="a pixel", images=[{"data": made["pixel"]}])
        s.diary.create(text="landscape", images=[{"data": made["landscape"]}])
    page.open("moments")
    page.click(f"{APP} button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("portrait")
    page.find("dialog input[type='file']").send_keys(str(portrait))
    page.wait_for("dialog .moment-picked-photo img")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog", timeout=30)
    page.wait_until(lambda: len(page.find_all(f"{APP} .moment-card")) == 6)

    def cards() -> dict[str, list[dict]]:
        page.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")  # every photo comes near
        found = {}
        for card in page.find_all(f"{APP} .moment-card"):
            found[card.find_element("css selector", ".moment-excerpt").text] = page.driver.execute_script(PHOTO_BOXES, card)
        return found

    def drawn() -> bool:
        return page.driver.execute_script(
            "return [...document.querySelectorAll('.moment-card img')].every(img => img.complete && img.naturalWidth > 0)")

    for width in (1280, 390):
        page.resize(width)
        page.wait_until(lambda: page.driver.execute_script("return window.innerWidth") == width)
        page.wait_until(lambda: len(cards()["four"]) == 4 and drawn(), timeout=20, message="every photo drawn")
        column = page.driver.execute_script(
            "const s = getComputedStyle(arguments[0]); return arguments[0].clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)",
            page.find(f"{APP} .moment-card"))
        boxes = cards()
        for name, (w, h) in (("portrait", (3024, 4032)), ("landscape", (4032, 3024)), ("a pixel", (1, 1))):
            (one,) = boxes[name]
            assert "size=display" in one["src"], (name, one)
            longer = max(one["width"], one["height"])
            assert abs(longer - min(column * 2 / 3, 360 if h > w else column * 2 / 3, 360 * max(w / h, 1))) <= 1.5, (name, width, one, column)
            assert abs(one["width"] / one["height"] - w / h) < 0.01, (name, one)  # its own shape: nothing cut off
            if w > 1:
                assert one["natural"] == ([1600, 1200] if w > h else [1200, 1600]), (name, one)  # the display size
        cell = (column - 8) / 3
        for name, rows in (("two", [2]), ("three", [3]), ("four", [2, 2])):
            photos = boxes[name]
            assert all("size=thumbnail" in photo["src"] and photo["fit"] == "cover" for photo in photos), name
            assert all(abs(photo["width"] - cell) <= 1 and abs(photo["height"] - cell) <= 1 for photo in photos), (name, photos, cell)
            tops = sorted({round(photo["y"]) for photo in photos})
            assert [sum(1 for photo in photos if round(photo["y"]) == top) for top in tops] == rows, (name, photos)
        assert page.driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        page.driver.execute_script("window.scrollTo(0, 0)")
        page.screenshot(f"moments-feed-wechat-{width}")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    page.screenshot("moments-feed-wechat-390-dark-end")
    assert page.console_errors() == []
