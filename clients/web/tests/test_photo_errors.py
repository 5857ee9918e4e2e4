"""Photos the server refuses, as a person meets them: several picked at once in ENotes › Photos (every good
one added, each bad one named with its reason on its tile), a post's photos refused at Save (named on their
tiles), and never a wire name (`uploadId`, `images[0]`) on the page, in English, Russian and Japanese."""
from __future__ import annotations

import hashlib
import io

from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

NOTES = "section[data-app='notes']"

#: Every text the page shows a person (visible elements' text, and the names and hints assistive technology
#: reads), except what the person typed: the wire names in it, camelCase (`uploadId`) or indexed (`images[0]`).
WIRE_NAMES = r"""
    const wire = /\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Za-z_]+\[\d+\]/g;
    const found = [];
    const look = (text, where) => { for (const name of text.match(wire) ?? []) found.push(`${name} in ${where}: ${text}`); };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent?.checkVisibility() && !parent.closest('textarea, input')) look(node.data, parent.tagName);
    }
    for (const element of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
      if (!element.checkVisibility()) continue;
      for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
        if (element.hasAttribute(name)) look(element.getAttribute(name), `${element.tagName}[${name}]`);
      }
    }
    return found;
"""


def wire_names(page) -> list[str]:
    return page.driver.execute_script(WIRE_NAMES)


def phone_jpeg(path, shade: int) -> bytes:
    """A phone's photo (4032 x 3024, a JPEG from a camera's gradients), written to ``path``."""
    from PIL import Image

    width, height = 4032, 3024
    across = Image.linear_gradient("L").rotate(90).resize((width, height))
    down = Image.linear_gradient("L").resize((width, height))
    picture = Image.merge("RGB", (across, down, Image.new("L", (width, height), shade)))
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=85)
    path.write_bytes(out.getvalue())
    return out.getvalue()


def corrupt(path, whole: bytes) -> None:
    """A photo cut short (a copy that stopped at a third): a JPEG by its first bytes, that cannot be drawn."""
    path.write_bytes(whole[: len(whole) // 3])


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tile_texts(page) -> list[str]:
    return page.texts(f"{NOTES} li.photo.refused .error")


def refusals_aside(errors: list[str]) -> list[str]:
    """The browser's console errors but its note of each upload the bridge refused (those the test made)."""
    return [error for error in errors if "/uploads?page=" not in error or "status of 400" not in error]


def language(page, code: str) -> None:
    Select(page.find("#language")).select_by_value(code)
    page.wait_until(lambda: page.driver.execute_script("return document.documentElement.lang") == code)


def test_photos_picked_at_once_are_all_added_but_the_bad_ones_each_named_on_its_tile(bridge, page, tmp_path):
    good = [tmp_path / f"IMG_{n}.jpg" for n in (4101, 4102, 4103)]
    wholes = [phone_jpeg(path, 60 * n) for n, path in enumerate(good)]
    broken, words = tmp_path / "corrupt.jpg", tmp_path / "notes.jpg"
    corrupt(broken, wholes[0])
    words.write_bytes(b"Shopping: milk, bread, a new phone case\n")
    picked = [good[0], broken, good[1], words, good[2]]  # a bad one between good ones, twice
    page.open("notes")
    page.click(f"{NOTES} .segmented button:nth-child(2)")
    page.find(f"{NOTES} input[type='file']").send_keys("\n".join(str(path) for path in picked))
    page.wait_until(lambda: len(page.find_all(f"{NOTES} li.photo:not(.uploading):not(.refused)")) == 3
                    and len(tile_texts(page)) == 2, timeout=60, message="every good photo added, each bad one named")
    with Satchel(db=bridge.db) as s:
        assert [photo["image"]["sha256"] for photo in s.photos.list()["items"]] == [digest(path) for path in good]
    assert tile_texts(page) == [
        "“corrupt.jpg” can't be read: the file is damaged or cut short.",
        "“notes.jpg” is not a photo Satchel can read: it takes PNG, JPEG, GIF, WebP and HEIC.",
    ]
    assert page.find(f"{NOTES} li.photo.refused .dismiss").get_attribute("aria-label") == "Dismiss: corrupt.jpg"
    assert wire_names(page) == []
    page.screenshot("photo-errors-notes-en-1280")

    # In the person's words in every language, the file named as it is.
    language(page, "ru")
    page.wait_until(lambda: tile_texts(page)[0] == "Не удаётся прочитать «corrupt.jpg»: файл повреждён или обрезан.")
    assert tile_texts(page)[1].startswith("«notes.jpg» — не фотография")
    assert wire_names(page) == []
    page.resize(390)
    page.screenshot("photo-errors-notes-ru-390")
    language(page, "ja")
    page.wait_until(lambda: tile_texts(page)[0].startswith("「corrupt.jpg」を読み込めません"))
    assert tile_texts(page)[1].startswith("「notes.jpg」は Satchel で読める写真ではありません")
    assert wire_names(page) == []
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.screenshot("photo-errors-notes-ja-390-dark")

    # A tile stays until dismissed; dismissing it changes no photo, and the focus goes back to adding one.
    language(page, "en")
    page.resize(1280)
    page.click(f"{NOTES} li.photo.refused .dismiss")
    page.wait_until(lambda: len(tile_texts(page)) == 1)
    assert page.driver.switch_to.active_element.get_attribute("aria-label") == "Add photo"
    assert len(page.find_all(f"{NOTES} li.photo:not(.refused)")) == 3
    assert refusals_aside(page.console_errors()) == []


def test_each_of_many_refused_photos_is_named_for_what_it_is(bridge, page, tmp_path):
    """What the satchel held of each refused file is let go: the ninth bad photo in a row is named as damaged,
    not refused because too many files seem to be on their way."""
    whole = phone_jpeg(tmp_path / "whole.jpg", 90)
    paths = []
    for n in range(9):
        path = tmp_path / f"cut-{n}.jpg"
        path.write_bytes(whole[: len(whole) // 3 + n])
        paths.append(path)
    page.open("notes")
    page.click(f"{NOTES} .segmented button:nth-child(2)")
    page.find(f"{NOTES} input[type='file']").send_keys("\n".join(str(path) for path in paths[:5]))
    page.wait_until(lambda: len(tile_texts(page)) == 5, timeout=60)
    page.find(f"{NOTES} input[type='file']").send_keys("\n".join(str(path) for path in paths[5:]))
    page.wait_until(lambda: len(tile_texts(page)) == 9, timeout=60)
    assert tile_texts(page) == [f"“{path.name}” can't be read: the file is damaged or cut short." for path in paths]
    with Satchel(db=bridge.db) as s:
        assert s.photos.list()["items"] == []


def test_a_posts_refused_photos_are_named_on_their_tiles_in_the_persons_words(bridge, page, tmp_path):
    good = tmp_path / "IMG_5001.jpg"
    whole = phone_jpeg(good, 200)
    broken, words = tmp_path / "corrupt.jpg", tmp_path / "notes.jpg"
    corrupt(broken, whole)
    words.write_bytes(b"not a photo at all")
    page.open("moments")
    page.click("section[data-app='moments'] button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("At the market")
    page.find("dialog input[type='file']").send_keys(f"{good}\n{broken}\n{words}")
    page.wait_until(lambda: len(page.find_all("dialog .moment-picked-photo")) == 3)
    problems = lambda: page.texts("dialog .moment-picked-photo .error")  # noqa: E731

    page.click("dialog button.moment-save")  # the third is not sent: it is not a photo
    page.wait_until(lambda: problems() == [
        "“notes.jpg” is not a photo Satchel can read: it takes PNG, JPEG, GIF, WebP and HEIC."])
    tiles = page.find_all("dialog .moment-picked-photo")
    assert "refused" in tiles[2].get_attribute("class") and tiles[2].find_element("css selector", ".error").is_displayed()
    assert wire_names(page) == []
    page.screenshot("photo-errors-moments-unsupported-1280")

    page.click("dialog button[aria-label='Remove photo 3']")
    page.click("dialog button.moment-save")  # sent, and refused when saved: it cannot be drawn
    page.wait_until(lambda: problems() == ["“corrupt.jpg” can't be read: the file is damaged or cut short."])
    assert "refused" in page.find_all("dialog .moment-picked-photo")[1].get_attribute("class")
    assert wire_names(page) == []
    language(page, "ja")
    page.wait_until(lambda: problems() == ["「corrupt.jpg」を読み込めません。ファイルが壊れているか、途中で切れています。"])
    assert wire_names(page) == []
    page.resize(390)
    page.screenshot("photo-errors-moments-damaged-ja-390")
    language(page, "ru")
    page.wait_until(lambda: problems() == ["Не удаётся прочитать «corrupt.jpg»: файл повреждён или обрезан."])
    assert wire_names(page) == []
    with Satchel(db=bridge.db) as s:
        assert s.diary.list()["items"] == []

    page.click("dialog .moment-picked-photo:nth-child(2) .moment-remove-photo")
    page.click("dialog button.moment-save")
    page.wait_gone("dialog", timeout=30)
    with Satchel(db=bridge.db) as s:
        (post,) = s.diary.list()["items"]
        assert [image["sha256"] for image in s.diary.get(id=post["id"])["images"]] == [digest(good)]
    assert refusals_aside(page.console_errors()) == []


def test_no_screen_shows_a_wire_name_in_any_language(bridge_factory, page_factory):
    page = page_factory(on=bridge_factory("--demo")).open()
    for code in ("en", "ru", "ja"):
        language(page, code)
        for app in ("moments", "reminders", "messages", "notes", "board"):
            page.tab(app)
            page.wait_until(lambda: page.find(f"section[data-app='{app}']").text.strip() != "")
            assert wire_names(page) == [], (code, app)
        page.tab("notes")
        page.click(f"{NOTES} .segmented button:nth-child(2)")
        page.wait_for(f"{NOTES} li.photo")
        assert wire_names(page) == [], (code, "photos")
        page.click(f"{NOTES} .segmented button:nth-child(1)")
