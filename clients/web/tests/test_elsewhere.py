"""An item deleted or changed in another window while the person is in it, in every editor of a real Chromium
(two windows on one database, as a person has them): what was typed stays, the page says what happened in
words and offers to keep it as a new one, and the focus never lands on another item's control, so that the
next key changes nothing the person is not looking at."""
from __future__ import annotations

import base64

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from satchel_client import Satchel

from test_moments import png

REMINDERS = "section[data-app='reminders']"
ROW = f"{REMINDERS} li.rem-row"


def reminders(bridge) -> list[tuple]:
    with Satchel(db=bridge.db) as s:
        return [(item["title"], item["completed"]) for item in s.reminders.list(limit=500)["items"]]


def add_reminders(bridge, *titles: str) -> dict[str, str]:
    with Satchel(db=bridge.db) as s:
        ids = {title: s.reminders.add(title=title)["reminder"]["id"] for title in titles}
        s.reminders.endEditing()
    return ids


def row_of(page, id: str):
    return page.find(f"{ROW}[data-id='{id}']")


def focus(page) -> dict:
    """Where the focus is: the row it is in (its id) and the control's class."""
    return page.driver.execute_script(
        "const a = document.activeElement;"
        "return {row: a.closest('li.rem-row')?.dataset.id ?? null, control: a.className, tag: a.tagName};")


def dark(page, on: bool) -> None:
    features = [{"name": "prefers-color-scheme", "value": "dark"}] if on else []
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def test_a_reminder_deleted_in_another_window_while_typed_in_keeps_what_was_typed(bridge, page, page_factory):
    ids = add_reminders(bridge, "Milk", "Bread", "Eggs")
    page.open("reminders")
    page.wait_until(lambda: len(page.find_all(ROW)) == 3)
    title = row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, "input.rem-title")
    title.click()
    title.send_keys(Keys.END, " and butter")
    page.wait_until(lambda: ("Bread and butter", False) in reminders(bridge), message="what was typed is saved")

    other = page_factory().open("reminders")  # the second window deletes it
    other.wait_until(lambda: len(other.find_all(ROW)) == 3)
    other.click(f"{ROW}[data-id='{ids['Bread']}'] button.rem-delete")
    other.wait_until(lambda: len(other.find_all(ROW)) == 2)

    notice = page.wait_for(f"{ROW}[data-id='{ids['Bread']}'] .rem-gone")
    assert "deleted somewhere else" in notice.text
    assert title.get_property("value") == "Bread and butter", "what was typed stays on screen"
    assert focus(page) == {"row": ids["Bread"], "control": "rem-field rem-title", "tag": "INPUT"}, "the focus stays"

    # Typing goes on in the same field; a Space is a space, and no other reminder changes.
    ActionChains(page.driver).send_keys(" please").perform()
    assert title.get_property("value") == "Bread and butter please"
    assert reminders(bridge) == [("Milk", False), ("Eggs", False)]
    page.screenshot("elsewhere-reminder-deleted-1280")
    dark(page, True)
    page.resize(390)
    page.screenshot("elsewhere-reminder-deleted-390-dark")
    dark(page, False)
    page.resize(1280, 900)

    # Keep mine as a new one: back where it was, what was typed saved, the focus in its title.
    keep = row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, ".rem-keep")
    assert keep.text == "Keep mine as a new one"
    keep.click()
    page.wait_until(lambda: reminders(bridge) == [("Milk", False), ("Bread and butter please", False), ("Eggs", False)])
    page.wait_gone(f"{ROW} .rem-gone")
    assert page.driver.switch_to.active_element.get_property("value") == "Bread and butter please"
    other.wait_until(lambda: len(other.find_all(ROW)) == 3, message="the other window sees it back")
    assert page.console_errors() == [] and other.console_errors() == []


def test_a_reminder_deleted_elsewhere_under_the_focus_never_passes_it_to_another_reminder(bridge, page):
    """The focus on a reminder's circle when another window deletes that reminder: the next Space completes
    nothing else. The row says what happened; Discard takes it away and leaves the focus on no other reminder."""
    ids = add_reminders(bridge, "Milk", "Bread", "Eggs")
    page.open("reminders")
    page.wait_until(lambda: len(page.find_all(ROW)) == 3)
    page.driver.execute_script("arguments[0].focus()", row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, ".rem-check"))
    with Satchel(db=bridge.db) as other:
        other.reminders.delete(id=ids["Bread"])
    page.wait_for(f"{ROW}[data-id='{ids['Bread']}'] .rem-gone")
    assert focus(page)["row"] == ids["Bread"]
    ActionChains(page.driver).send_keys(" ").perform()
    page.wait_until(lambda: focus(page)["row"] in (ids["Bread"], None))
    assert reminders(bridge) == [("Milk", False), ("Eggs", False)], "no other reminder completed"

    discard = row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, ".rem-theirs")
    page.driver.execute_script("arguments[0].focus()", discard)
    ActionChains(page.driver).send_keys(Keys.ENTER).perform()
    page.wait_until(lambda: len(page.find_all(ROW)) == 2)
    assert focus(page)["row"] is None, "the focus is on no reminder's control"
    ActionChains(page.driver).send_keys(" ").perform()
    assert reminders(bridge) == [("Milk", False), ("Eggs", False)]
    assert page.console_errors() == []


def test_a_moments_post_deleted_in_another_window_can_be_kept_with_its_photo(bridge, page, page_factory):
    """The post is deleted elsewhere while its text is edited here: its photo goes with it on the server, yet
    Keep mine as a new one saves what was typed with the photo as it was shown."""
    with Satchel(db=bridge.db) as s:
        post = s.diary.create(text="a sunny morning", images=[{"data": base64.b64encode(png(64, 48, (30, 120, 200))).decode()}])
    page.open("moments")
    page.click("section[data-app='moments'] .moment-card")
    page.click("section[data-app='moments'] .moments-edit")
    field = page.wait_for("dialog .moment-text-input")
    page.wait_until(lambda: page.driver.execute_script(
        "const i = document.querySelector('dialog .moment-picked-photo img'); return i && i.complete && i.naturalWidth > 0"))
    field.send_keys(Keys.END, ", then rain")

    other = page_factory().open("moments")
    other.click("section[data-app='moments'] .moment-card")
    other.click("section[data-app='moments'] .moments-delete")
    other.click("dialog .confirm button[value='yes']")
    other.wait_gone("section[data-app='moments'] .moment-card")

    panel = page.wait_for("dialog .moment-form .conflict")
    assert "This post was deleted somewhere else" in panel.text
    assert field.get_attribute("value") == "a sunny morning, then rain"
    assert page.driver.execute_script("return document.activeElement.closest('dialog') !== null"), "the focus stays in the sheet"
    page.screenshot("elsewhere-post-deleted-1280")
    page.click("dialog .moment-form .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        (kept,) = [s.diary.get(id=item["id"]) for item in s.diary.list()["items"]]
    assert kept["id"] != post["id"] and kept["text"] == "a sunny morning, then rain"
    assert [(image["width"], image["height"]) for image in kept["images"]] == [(64, 48)], "the photo is kept"
    assert page.console_errors() == [] and other.console_errors() == []


def open_photo(page, bridge, caption="Sea"):
    with Satchel(db=bridge.db) as s:
        photo = s.photos.add(image={"data": base64.b64encode(png(64, 48, (200, 90, 60))).decode()}, caption=caption)
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo")) == 1)
    page.click("section[data-app='notes'] li.photo button")
    page.wait_until(lambda: page.driver.execute_script(
        "const i = document.querySelector('dialog .viewer-image'); return i.complete && i.naturalWidth > 0"))
    return photo


def test_a_photo_note_deleted_in_another_window_while_its_caption_is_typed_can_be_kept(bridge, page, page_factory):
    photo = open_photo(page, bridge)
    field = page.find("dialog input[name='caption']")
    field.click()
    field.send_keys(" at dawn")

    other = page_factory().open("notes")
    other.click("section[data-app='notes'] .segmented button:nth-child(2)")
    other.click("section[data-app='notes'] li.photo button")
    other.click("dialog .viewer .danger")
    other.click("dialog .confirm button[value='yes']")
    other.wait_until(lambda: len(other.find_all("section[data-app='notes'] li.photo")) == 0)

    panel = page.wait_for("dialog .viewer .conflict")
    assert "This photo was deleted somewhere else" in panel.text
    assert field.get_attribute("value") == "Sea at dawn"
    assert page.driver.switch_to.active_element == field, "the focus stays in the caption"
    assert not page.find("dialog .viewer button[type='submit']").is_displayed(), "a choice, not Save"
    page.screenshot("elsewhere-photo-deleted-1280")
    page.click("dialog .viewer .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        (kept,) = s.photos.list()["items"]
    assert kept["id"] != photo["id"] and kept["caption"] == "Sea at dawn"
    assert (kept["image"]["width"], kept["image"]["height"]) == (64, 48), "the photo is kept"
    page.wait_until(lambda: page.texts("section[data-app='notes'] li.photo .caption") == ["Sea at dawn"])
    assert page.console_errors() == [] and other.console_errors() == []


def test_a_caption_changed_in_another_window_while_typed_shows_both(bridge, page):
    photo = open_photo(page, bridge)
    field = page.find("dialog input[name='caption']")
    field.click()
    field.send_keys(" at dawn")
    with Satchel(db=bridge.db) as other:
        other.photos.update(id=photo["id"], caption="Sea at dusk")
    panel = page.wait_for("dialog .viewer .conflict")  # at once, before any Save
    assert "caption of this photo was changed somewhere else" in panel.text
    assert page.find("dialog .viewer .conflict-theirs .conflict-text").text == "Sea at dusk"
    assert field.get_attribute("value") == "Sea at dawn"
    page.click("dialog .viewer .conflict-keep-both")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert sorted(p["caption"] for p in s.photos.list()["items"]) == ["Sea at dawn", "Sea at dusk"]
    assert page.console_errors() == []


def test_a_board_post_deleted_in_another_window_under_the_focus_passes_it_to_no_other_post(bridge, page):
    with Satchel(db=bridge.db) as s:
        ids = {title: s.board.create(title=title)["id"] for title in ("Apple", "Banana", "Cherry")}
    page.open("board")
    page.wait_until(lambda: len(page.find_all("section[data-app='board'] li.board-post")) == 3)
    up = page.find(f"section[data-app='board'] li.board-post[data-id='{ids['Banana']}'] .board-up")
    page.driver.execute_script("arguments[0].focus()", up)
    with Satchel(db=bridge.db) as other:
        other.board.delete(id=ids["Banana"])
    notice = page.wait_for("section[data-app='board'] .board-gone")
    assert notice.text == "“Banana” was deleted somewhere else."
    assert page.driver.execute_script("return document.activeElement.closest('li.board-post')") is None
    ActionChains(page.driver).send_keys(" ").perform()  # the next key votes for nothing
    with Satchel(db=bridge.db) as s:
        assert [(p["title"], p["votes"]) for p in s.board.list(sort="title")["items"]] == [("Apple", 0), ("Cherry", 0)]
    page.screenshot("elsewhere-board-deleted-1280")
    assert page.console_errors() == []


def test_a_message_deleted_in_another_window_while_open_says_so_and_the_reply_typed_stays(bridge, page):
    with Satchel(db=bridge.db) as s:
        message = s.messages.send(text="See you at eight?")
    page.open("messages")
    page.wait_until(lambda: "See you at eight?" in page.texts("section[data-app='messages'] .chat-text"))
    compose = page.find("section[data-app='messages'] .chat-input")
    compose.send_keys("Yes, at the")
    page.click(f"section[data-app='messages'] button.chat-message[data-id='{message['id']}']")
    page.wait_for("dialog .message-detail")
    with Satchel(db=bridge.db) as other:
        other.messages.delete(id=message["id"])
        other.messages.send(text="Or nine")
    notice = page.wait_for("dialog .message-gone")
    assert notice.text == "This message was deleted somewhere else."
    assert not page.find("dialog .message-delete").is_displayed()
    assert "message-close" in page.driver.switch_to.active_element.get_attribute("class")
    page.screenshot("elsewhere-message-deleted-1280")
    ActionChains(page.driver).send_keys(Keys.ENTER).perform()  # Close
    page.wait_gone("dialog")
    page.wait_until(lambda: page.driver.switch_to.active_element == compose, message="back in the reply")
    assert compose.get_attribute("value") == "Yes, at the", "the reply typed is kept"
    page.wait_until(lambda: "Or nine" in page.texts("section[data-app='messages'] .chat-text"))
    assert "See you at eight?" not in page.texts("section[data-app='messages'] .chat-text")
    assert page.console_errors() == []


def test_a_reminder_changed_in_another_window_while_typed_in_shows_both(bridge, page, page_factory):
    """The other window retitles the reminder being typed in: what was typed stays, the other words are shown
    beside it at once, nothing is saved over either until the person chooses; Use the other, or Keep mine."""
    ids = add_reminders(bridge, "Milk", "Bread")
    page.open("reminders")
    page.wait_until(lambda: len(page.find_all(ROW)) == 2)
    title = row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, "input.rem-title")
    title.click()
    title.send_keys(Keys.END, " rolls")
    page.wait_until(lambda: ("Bread rolls", False) in reminders(bridge))

    other = page_factory().open("reminders")
    other.wait_until(lambda: len(other.find_all(ROW)) == 2)
    theirs = other.find(f"{ROW}[data-id='{ids['Bread']}'] input.rem-title")
    theirs.click()
    theirs.send_keys(Keys.END, Keys.BACKSPACE * len(" rolls"), " and butter", Keys.ESCAPE)
    other.wait_until(lambda: ("Bread and butter", False) in reminders(bridge))

    notice = page.wait_for(f"{ROW}[data-id='{ids['Bread']}'] .rem-gone")
    assert "changed somewhere else to “Bread and butter”" in notice.text
    assert title.get_property("value") == "Bread rolls"
    assert focus(page)["row"] == ids["Bread"]
    ActionChains(page.driver).send_keys(" please").perform()  # typing goes on; nothing is saved over the other
    page.screenshot("elsewhere-reminder-changed-1280")
    assert reminders(bridge) == [("Milk", False), ("Bread and butter", False)]
    row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, ".rem-keep").click()
    page.wait_until(lambda: reminders(bridge) == [("Milk", False), ("Bread rolls please", False)])
    page.wait_gone(f"{ROW} .rem-gone")
    assert focus(page) == {"row": ids["Bread"], "control": "rem-field rem-title", "tag": "INPUT"}

    # Once more, and this time the other window's words are taken.
    theirs.click()
    theirs.send_keys(Keys.END, "!", Keys.ESCAPE)
    page.wait_for(f"{ROW}[data-id='{ids['Bread']}'] .rem-gone")
    row_of(page, ids["Bread"]).find_element(By.CSS_SELECTOR, ".rem-theirs").click()
    page.wait_gone(f"{ROW} .rem-gone")
    assert title.get_property("value") == "Bread rolls please!"
    title.send_keys(Keys.ESCAPE)
    page.wait_until(lambda: "editing" not in row_of(page, ids["Bread"]).get_attribute("class"))
    assert reminders(bridge) == [("Milk", False), ("Bread rolls please!", False)]
    assert page.console_errors() == [] and other.console_errors() == []


def test_a_note_deleted_in_another_window_while_typed_in_is_kept_as_a_new_one(bridge, page, page_factory):
    with Satchel(db=bridge.db) as s:
        note = s.notes.create(title="Plan", content="v1")
    page.open("notes")
    page.click("section[data-app='notes'] .note-open")
    content = page.wait_for("dialog .note-editor textarea[name='content']")
    content.send_keys(Keys.END, " and v2")

    other = page_factory().open("notes")
    other.click("section[data-app='notes'] .note-open")
    other.click("dialog .note-editor .danger")
    other.click("dialog .confirm button[value='yes']")
    other.wait_until(lambda: other.texts("section[data-app='notes'] .note-title") == [])

    panel = page.wait_for("dialog .note-editor .conflict")
    assert "This note was deleted somewhere else" in panel.text
    assert content.get_attribute("value") == "v1 and v2"
    assert page.driver.switch_to.active_element == content, "the focus stays where it was typed in"
    page.click("dialog .note-editor .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert [(n["id"] != note["id"], n["title"], n["content"]) for n in s.notes.list()["items"]] == [(True, "Plan", "v1 and v2")]
    assert page.console_errors() == [] and other.console_errors() == []
