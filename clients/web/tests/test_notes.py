"""ENotes in a real Chromium: notes with exact HSB colours and deadlines, reordering, the free-edition limit,
photo notes in an adaptive grid, and a change from another process showing up live."""
from __future__ import annotations

import base64

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser import drag
from satchel_client import Satchel

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
)
OTHER_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGNgWMDAwPAfAAQmAaAxVng8AAAAAElFTkSuQmCC"


def set_value(page, css, value):
    """Sets an input's value as a user's edit does (an `input` event follows)."""
    page.driver.execute_script(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('input', {bubbles: true}));", css, value)


def notes_in(bridge):
    with Satchel(db=bridge.db) as s:
        return s.notes.list()["items"]


def test_a_note_keeps_its_exact_colour_and_deadline_and_the_list_its_order(bridge, page):
    page.open("notes")
    page.wait_for("section[data-app='notes'] .empty")
    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    assert page.driver.switch_to.active_element.get_attribute("name") == "title"
    page.driver.switch_to.active_element.send_keys("Groceries")
    content = page.find("dialog textarea[name='content']")
    before = content.size["height"]
    content.send_keys("milk", Keys.ENTER, "bread", Keys.ENTER, "eggs", Keys.ENTER, "apples", Keys.ENTER, "tea")
    assert content.size["height"] > before  # the field grows with its text
    set_value(page, "dialog input[name='deadline']", "2026-12-24T18:00")
    assert page.find("dialog .palette [data-colour='White']").get_attribute("aria-checked") == "true"
    page.click("dialog .palette .cell.custom")
    page.find("dialog input[name='hue']").send_keys(Keys.END)  # hue 1, the far end
    page.find("dialog input[name='saturation']").send_keys(Keys.HOME)  # saturation 0
    set_value(page, "dialog input[name='brightness']", "0.5")
    page.screenshot("notes-editor-1280")
    page.click("dialog button[type='submit']")
    page.wait_gone("dialog")
    page.wait_for("section[data-app='notes'] li.note")
    row = page.find("section[data-app='notes'] li.note")
    assert "Groceries" in row.text and "Dec" in row.text
    (note,) = notes_in(page.bridge)
    assert note["color"] == {"hue": 1.0, "saturation": 0.0, "brightness": 0.5, "hex": "#808080"}
    assert note["content"] == "milk\nbread\neggs\napples\ntea"
    assert note["deadline"] is not None

    page.click("section[data-app='notes'] li.note button")  # the picker reopens where it was left
    page.wait_for("dialog .hsb")
    values = page.driver.execute_script(
        "return ['hue','saturation','brightness'].map(n => Number(document.querySelector(`dialog input[name=${n}]`).value))")
    assert values == [1, 0, 0.5]
    assert page.find("dialog .palette .cell.custom").get_attribute("aria-checked") == "true"
    page.find("dialog input[name='title']").send_keys(Keys.ESCAPE)
    page.wait_gone("dialog")

    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    page.driver.switch_to.active_element.send_keys("Second", Keys.ENTER)
    page.wait_gone("dialog")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.note")) == 2)
    assert notes_in(page.bridge)[1]["color"]["hex"] == "#FFFFFF"  # white by default

    page.find_all("section[data-app='notes'] li.note button")[1].send_keys(Keys.ALT, Keys.ARROW_UP)
    page.wait_until(lambda: [n["title"] for n in notes_in(page.bridge)] == ["Second", "Groceries"])
    page.wait_until(lambda: page.texts("section[data-app='notes'] .note-title") == ["Second", "Groceries"])
    page.screenshot("notes-list-1280")
    assert page.console_errors() == []


def test_an_empty_note_is_refused_in_the_sessions_language_and_keeps_what_was_typed(bridge, page):
    page.open("notes")
    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    page.find("dialog textarea[name='content']").send_keys("   ")
    page.click("dialog button[type='submit']")
    english = page.wait_for("dialog .error").text
    assert english and "note" in english.lower()
    assert page.find("dialog textarea[name='content']").get_attribute("value") == "   "
    page.click("dialog .actions button:not(.primary)")
    page.wait_gone("dialog")
    Select(page.find("#language")).select_by_value("ru")
    page.wait_until(lambda: page.find("[role='tab'][data-app='moments']").text == "Моменты")
    page.click("section[data-app='notes'] .toolbar button.primary")
    page.wait_for("dialog .note-editor")
    page.click("dialog button[type='submit']")
    russian = page.wait_for("dialog .error").text
    assert russian != english and any("а" <= ch <= "я" for ch in russian.lower())
    assert page.console_errors() == []


def test_delete_asks_first(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.notes.create(title="Keep"), s.notes.create(title="Drop")
    page.open("notes")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.note")) == 2)
    page.find_all("section[data-app='notes'] li.note button")[1].click()
    page.click("dialog .note-editor button.danger")
    page.click("dialog .confirm button[value='no']")
    page.click("dialog .note-editor button.danger")
    page.click("dialog .confirm button[value='yes']")
    page.wait_until(lambda: page.texts("section[data-app='notes'] .note-title") == ["Keep"])
    assert [n["title"] for n in notes_in(bridge)] == ["Keep"]


def test_the_free_edition_limit_is_shown_when_the_server_refuses(bridge_factory, page_factory):
    limited = bridge_factory("--free-limit", "1")
    page = page_factory(on=limited).open("notes")
    for title in ("First", "Second"):
        page.click("section[data-app='notes'] button[aria-label='New note']")
        page.wait_for("dialog .note-editor")
        page.driver.switch_to.active_element.send_keys(title, Keys.ENTER)
    notice = page.wait_for("dialog .free-limit")
    assert "1" in notice.text
    page.screenshot("notes-free-limit-1280")
    assert [n["title"] for n in notes_in(limited)] == ["First"]
    assert page.find("dialog .note-editor input[name='title']").get_attribute("value") == "Second"


def test_photo_notes_grid_viewer_and_caption(bridge, page_factory, tmp_path):
    photo = tmp_path / "cat.png"
    photo.write_bytes(PNG)
    page = page_factory(width=1280).open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.wait_for("section[data-app='notes'] .photo-grid .empty")
    for count in range(1, 4):  # one pick after another (ChromeDriver adds a file to a picker still holding one)
        page.find("section[data-app='notes'] input[type='file']").send_keys(str(photo))
        page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo:not(.uploading)")) == count)
    columns = "return getComputedStyle(document.querySelector('.photo-grid')).gridTemplateColumns.split(' ').length"
    wide = page.driver.execute_script(columns)
    page.resize(390, 844)
    page.wait_until(lambda: page.driver.execute_script(columns) == 2)
    assert wide > 2
    page.screenshot("notes-photos-390")
    page.find_all("section[data-app='notes'] li.photo button")[0].click()
    page.wait_for("dialog .viewer img[src*='size=display']")
    page.find("dialog input[name='caption']").send_keys("Sleepy", Keys.ENTER)
    page.wait_gone("dialog")
    page.wait_until(lambda: "Sleepy" in page.find("section[data-app='notes'] li.photo").text)
    with Satchel(db=bridge.db) as s:
        assert [p["caption"] for p in s.photos.list()["items"]] == ["Sleepy", None, None]
    assert page.console_errors() == []


def test_photo_tiles_are_one_size_with_a_caption_or_without(bridge, page_factory):
    """Photos of every shape, some captioned (one caption long), tile the grid as squares of one size, at both
    widths and in dark too; a caption is drawn on its photo, readable, and whole in the tile's name."""
    from test_accessibility import CONTRAST_JS
    from test_moments import png

    long = "A caption long enough to wrap onto a second line, and a third, in a tile this narrow"
    shapes = [(400, 300, "Sleepy"), (300, 400, None), (300, 300, None), (500, 200, long), (200, 500, None), (320, 320, "Sofa")]
    with Satchel(db=bridge.db) as s:
        for index, (width, height, caption) in enumerate(shapes):
            s.photos.add(image={"data": base64.b64encode(png(width, height, (40 * index, 120, 200))).decode()},
                         caption=caption)
    tiles = """return [...document.querySelectorAll('section[data-app="notes"] li.photo')].map((tile) => {
      const box = tile.getBoundingClientRect(), img = tile.querySelector('img').getBoundingClientRect();
      return [Math.round(box.width), Math.round(box.height), Math.round(img.width), Math.round(img.height)]; })"""
    for width, scheme in ((1280, "light"), (390, "dark")):
        page = page_factory(width=width, height=900 if width > 600 else 844)
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        page.open("notes")
        page.click("section[data-app='notes'] .segmented button:nth-child(2)")
        page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo img")) == len(shapes))
        sizes = page.driver.execute_script(tiles)
        assert len({tuple(size) for size in sizes}) == 1, sizes
        tile_width, tile_height, image_width, image_height = sizes[0]
        assert tile_width == tile_height == image_width == image_height, sizes[0]
        captions = page.find_all("section[data-app='notes'] li.photo .caption")
        assert [caption.text.split("\n")[0][:6] for caption in captions] == ["Sleepy", long[:6], "Sofa"]
        assert page.driver.execute_script(  # two lines at most, no third peeking out below them
            "return [...document.querySelectorAll('li.photo .caption')].every((c) => { const s = getComputedStyle(c);"
            " return c.clientHeight <= 2 * parseFloat(s.lineHeight) + parseFloat(s.paddingTop) + 1; })")
        names = [button.accessible_name for button in page.find_all("section[data-app='notes'] li.photo button")]
        assert names[0] == "Sleepy" and names[3] == long
        # White words on a dark band: readable over a white photo as over a black one.
        ratio = page.driver.execute_script(CONTRAST_JS + """
            const caption = document.querySelector('section[data-app="notes"] li.photo .caption');
            const style = getComputedStyle(caption);
            const [r, g, b, a] = style.backgroundColor.match(/[\\d.]+/g).map(Number);
            const over = (base) => `rgb(${[r, g, b].map((c) => c * a + base * (1 - a)).join(',')})`;
            return Math.min(ratio(style.color, over(255)), ratio(style.color, over(0)));""")
        assert ratio >= 4.5, ratio
        page.screenshot(f"notes-photo-tiles-{width}-{scheme}")
        assert page.console_errors() == []


def test_a_change_from_another_process_shows_up_live_at_both_widths(bridge, page_factory):
    wide = page_factory(width=1280).open("notes")
    narrow = page_factory(width=390, height=844).open("notes")
    with Satchel(db=bridge.db) as other:
        other.notes.create(title="From the editor", color={"hue": 0.6, "saturation": 0.5, "brightness": 1})
    for page in (wide, narrow):
        page.wait_until(lambda p=page: "From the editor" in p.texts("section[data-app='notes'] .note-title"), timeout=3)
    wide.screenshot("notes-1280")
    narrow.screenshot("notes-390")
    assert wide.console_errors() == [] and narrow.console_errors() == []


def test_drag_a_note_to_reorder(bridge, page):
    with Satchel(db=bridge.db) as s:
        for title in ("one", "two", "three"):
            s.notes.create(title=title)
    page.open("notes")
    page.wait_until(lambda: page.texts("section[data-app='notes'] .note-title") == ["one", "two", "three"])
    rows = page.find_all("section[data-app='notes'] li.note")
    drag(page, rows[2], rows[0], above=True)
    page.wait_until(lambda: page.texts("section[data-app='notes'] .note-title") == ["three", "one", "two"])
    assert [n["title"] for n in notes_in(bridge)] == ["three", "one", "two"]
    assert page.console_errors() == []


def test_the_viewer_saves_the_photo_it_shows_while_another_process_reorders(bridge, page, tmp_path):
    with Satchel(db=bridge.db) as s:
        first = s.photos.add(image={"data": base64.b64encode(PNG).decode()}, caption="first")
        s.photos.add(image={"data": OTHER_PNG}, caption="second")
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo")) == 2)
    page.find_all("section[data-app='notes'] li.photo button")[0].click()
    page.wait_for("dialog .viewer")
    with Satchel(db=bridge.db) as other:
        other.photos.move(id=first["id"], toIndex=1)
    page.wait_until(lambda: page.texts("section[data-app='notes'] li.photo .caption") == ["second", "first"])
    field = page.find("dialog input[name='caption']")
    field.clear()
    field.send_keys("still the first", Keys.ENTER)
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.photos.get(id=first["id"])["caption"] == "still the first"
        assert [p["caption"] for p in s.photos.list()["items"]] == ["second", "still the first"]


def test_a_caption_changed_elsewhere_is_not_overwritten_unseen(bridge, page):
    """Changed elsewhere before anything is typed here, the caption in the viewer follows it; typed over then,
    having seen it, Save keeps what was typed. (Changed while typed: test_elsewhere.py.)"""
    with Satchel(db=bridge.db) as s:
        photo = s.photos.add(image={"data": base64.b64encode(PNG).decode()}, caption="mine")
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo")) == 1)
    page.find("section[data-app='notes'] li.photo button").click()
    field = page.wait_for("dialog input[name='caption']")
    with Satchel(db=bridge.db) as other:
        other.photos.update(id=photo["id"], caption="theirs")
    page.wait_until(lambda: field.get_attribute("value") == "theirs", message="the viewer shows the other caption")
    field.clear()
    field.send_keys("typed here", Keys.ENTER)
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.photos.get(id=photo["id"])["caption"] == "typed here"


def test_several_photos_picked_at_once_become_photo_notes(bridge, page, tmp_path):
    paths = []
    for index in range(3):
        path = tmp_path / f"photo-{index}.png"
        path.write_bytes(base64.b64decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="))
        paths.append(path)
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    assert page.find("section[data-app='notes'] input[type='file']").get_attribute("multiple") is not None
    page.find("section[data-app='notes'] input[type='file']").send_keys("\n".join(str(path) for path in paths))
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo:not(.uploading)")) == 3)
    with Satchel(db=bridge.db) as s:
        assert len(s.photos.list()["items"]) == 3


def test_an_error_on_screen_changes_language_with_the_page(bridge, page):
    page.open("notes")
    page.click("section[data-app='notes'] .toolbar button.primary")
    page.wait_for("dialog .note-editor")
    page.click("dialog button[type='submit']")
    english = page.wait_for("dialog .error").text
    assert "note" in english.lower()
    for language, check in (("ru", lambda text: any("а" <= ch <= "я" for ch in text.lower())),
                            ("ja", lambda text: "ノート" in text and "メモ" not in text)):
        page.driver.execute_script(
            "const s = document.getElementById('language'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change'))", language)
        page.wait_until(lambda: check(page.find("dialog .error").text), message=language)
    assert page.console_errors() == []


def test_an_image_that_failed_to_load_is_asked_for_again(bridge, page, tmp_path):
    """A failed load is not kept: an image asked for before it existed (here: an id that arrives later by
    import; in life, a request cut by a restart) loads when it is asked for again."""
    with Satchel(memory=True) as source:
        source.photos.add(image={"data": base64.b64encode(PNG).decode()})
        document = source.export()
    wanted = "img_01arrivedlaterbyimport00"
    document["images"][0]["id"] = wanted
    document["photos"][0]["imageId"] = wanted
    page.open("notes")
    script = """
        const done = arguments[arguments.length - 1];
        const { imageURL } = await import('./app/js/ui.js');
        const answer = await fetch(imageURL(arguments[0], 'thumbnail'));
        done([answer.status, answer.headers.get('Content-Type')]);"""
    page.driver.set_script_timeout(20)
    first = page.driver.execute_async_script("(async () => {" + script + "})()", wanted)
    assert first[0] == 404
    with Satchel(db=bridge.db) as s:
        s.import_(document=document, mode="merge")
    second = page.driver.execute_async_script("(async () => {" + script + "})()", wanted)
    assert second == [200, "image/jpeg"]
