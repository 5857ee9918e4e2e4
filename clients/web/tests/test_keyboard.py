"""Keyboard use in a real Chromium: Escape in a reminder keeps the focus on its row, the colour palette is one
Tab stop moved with the arrow keys, and the photo viewer pages with ←/→ without the caption taking the keys."""
from __future__ import annotations

import base64

from selenium.webdriver.common.keys import Keys

from satchel_client import Satchel

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==")


def active(page, script: str):
    return page.driver.execute_script(f"const a = document.activeElement; return {script};")


def test_escape_in_a_reminder_title_keeps_the_focus_on_its_row(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.reminders.add(title="Milk")
        s.reminders.endEditing()
    page.open("reminders")
    page.click("section[data-app='reminders'] .rem-title")
    page.driver.switch_to.active_element.send_keys(" and bread", Keys.ESCAPE)
    page.wait_until(lambda: active(page, "a.closest('.rem-row') !== null && !a.classList.contains('rem-title')"))
    assert active(page, "a.closest('.rem-row').querySelector('.rem-title').value") == "Milk and bread"
    with Satchel(db=bridge.db) as s:
        page.wait_until(lambda: s.reminders.list()["items"][0]["title"] == "Milk and bread")


def test_the_palette_is_one_tab_stop_moved_with_the_arrow_keys(bridge, page):
    page.open("notes")
    page.click("section[data-app='notes'] .toolbar button.primary")
    page.wait_for("dialog .note-editor")
    focusable = page.driver.execute_script(
        "return [...document.querySelectorAll('dialog .palette [role=radio]')].filter((c) => c.tabIndex >= 0).length")
    assert focusable == 1
    page.driver.execute_script("document.querySelector('dialog .palette [aria-checked=true]').focus()")
    assert active(page, "a.getAttribute('aria-label')") == "White"
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    page.wait_until(lambda: active(page, "a.getAttribute('aria-label')") == "Red")
    assert active(page, "a.getAttribute('aria-checked')") == "true"
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    page.wait_until(lambda: active(page, "a.getAttribute('aria-label')") == "Custom colour")
    page.driver.switch_to.active_element.send_keys(Keys.TAB)
    assert active(page, "a.closest('.palette')") is None, "Tab leaves the group in one step"


def test_the_photo_viewer_pages_with_the_arrow_keys(bridge, page, tmp_path):
    with Satchel(db=bridge.db) as s:
        for caption in ("one", "two", "three"):
            s.photos.add(image={"data": base64.b64encode(PNG).decode()}, caption=caption)
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo")) == 3)
    page.find_all("section[data-app='notes'] li.photo button")[0].click()
    page.wait_for("dialog .viewer")
    assert active(page, "a.name") != "caption", "the caption does not take the keys on open"
    caption = lambda: page.find("dialog input[name='caption']").get_attribute("value")
    assert caption() == "one"
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    page.wait_until(lambda: caption() == "two")
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    page.wait_until(lambda: caption() == "three")


def focused_note(page):
    """The note whose open button has the focus (its id), or the focused element's tag."""
    return active(page, "a.matches('.note-open') ? a.closest('[data-id]').dataset.id : a.tagName")


def test_the_focus_returns_to_the_note_that_opened_the_editor(bridge, page):
    """Discard (and Save) close the editor with the focus back on the note that opened it, though the list was
    drawn again meanwhile (a change made elsewhere), not on the page."""
    with Satchel(db=bridge.db) as s:
        plan = s.notes.create(title="Plan", content="v1")
        s.notes.create(title="Other", content="v1")
    page.open("notes")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] .note-open")) == 2)
    page.driver.execute_script("arguments[0].focus()", page.find("section[data-app='notes'] .note-open"))
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    content = page.wait_for("dialog .note-editor textarea[name='content']")
    content.send_keys(" and more")
    with Satchel(db=bridge.db) as other:
        other.notes.create(title="Third", content="from elsewhere")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] .note-open")) == 3)
    content.send_keys(Keys.ESCAPE)
    page.wait_for("dialog .confirm")
    page.driver.switch_to.active_element.send_keys(Keys.TAB)  # from Keep editing to Discard
    assert page.driver.switch_to.active_element.text == "Discard"
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    page.wait_gone("dialog")
    page.wait_until(lambda: focused_note(page) == plan["id"], message="back on the note that opened the editor")

    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    content = page.wait_for("dialog .note-editor textarea[name='content']")
    content.send_keys(" saved")
    page.find("dialog .note-editor button[value='save']").send_keys(Keys.ENTER)
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        page.wait_until(lambda: s.notes.get(id=plan["id"])["content"] == "v1 saved")
    page.wait_until(lambda: focused_note(page) == plan["id"], message="after Save and the list drawn again")
    assert page.console_errors() == []
