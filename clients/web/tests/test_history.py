"""The browser's Back and Forward in a real Chromium (the History API): switching apps, opening a post, a sheet
or a search make entries; Back closes what is open (as Escape does: a sheet holding something typed asks
first, and keeps it when the person keeps editing), then returns to the previous app; Forward goes to the next
app and opens again the post or note Back closed. The address shows `#app` only, never the token again."""
from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from satchel_client import Satchel


def shown(page) -> str:
    """The app (or search) on screen, as the address says it too."""
    app = page.driver.execute_script(
        "return document.querySelector('main > section:not([hidden])')?.dataset.app ?? null")
    assert page.driver.current_url.endswith(f"#{app}") and "token=" not in page.driver.current_url
    return app


def back(page, then: str) -> None:
    page.driver.back()
    page.wait_until(lambda: shown(page) == then, message=f"back to {then}")


def forward(page, then: str) -> None:
    page.driver.forward()
    page.wait_until(lambda: shown(page) == then, message=f"forward to {then}")


def test_back_returns_through_the_apps_and_forward_comes_again(bridge_factory, page_factory):
    page = page_factory(on=bridge_factory("--demo")).open("notes")
    page.tab("board")
    page.tab("messages")
    assert shown(page) == "messages"
    back(page, "board")
    back(page, "notes")
    back(page, "moments")
    forward(page, "notes")
    forward(page, "board")
    forward(page, "messages")
    # The keyboard's tabs too; a search is a place of its own.
    back(page, "board")
    page.find("[role='tab'][data-app='board']").send_keys(Keys.ARROW_LEFT)
    page.wait_until(lambda: shown(page) == "notes")
    page.find("#search-input").send_keys("Mango", Keys.ENTER)
    page.wait_until(lambda: shown(page) == "search" and page.find_all("section[data-app='search'] .hit"))
    back(page, "notes")
    forward(page, "search")
    page.wait_for("section[data-app='search'] .hit")
    back(page, "notes")
    back(page, "board")
    assert page.console_errors() == []


def test_back_closes_an_opened_post_and_forward_opens_it_again(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.diary.create(text="Older")
        post = s.diary.create(text="Lake day")
    page.open("notes")
    page.tab("moments")
    page.click(f"section[data-app='moments'] li[data-id='{post['id']}'] .moment-card")
    page.wait_for("section[data-app='moments'] .moments-detail-view")
    assert page.find("section[data-app='moments'] .moment-detail-text").text == "Lake day"
    page.screenshot("history-post-open")
    page.driver.back()
    page.wait_for("section[data-app='moments'] .moments-list-view")
    assert shown(page) == "moments"
    assert page.find_all("section[data-app='moments'] .moments-detail-view:not([hidden])") == []
    page.driver.forward()
    page.wait_for("section[data-app='moments'] .moments-detail-view")
    assert page.find("section[data-app='moments'] .moment-detail-text").text == "Lake day"
    # Closed by its own Back button, the post leaves no entry behind: the browser's Back goes to the last app.
    page.click("section[data-app='moments'] .moments-back")
    page.wait_for("section[data-app='moments'] .moments-list-view")
    back(page, "notes")
    assert page.console_errors() == []


def test_back_closes_a_sheet_as_escape_does_and_keeps_what_was_typed(bridge, page):
    with Satchel(db=bridge.db) as s:
        note = s.notes.create(title="Plan", content="Train at nine")
    page.open("board")
    page.tab("notes")
    page.click("section[data-app='notes'] .note-open")
    content = page.wait_for("dialog .note-editor textarea[name='content']")
    content.send_keys(Keys.END, ", coffee first")

    # Back asks before dropping what was typed; keeping it keeps the sheet, its words and its entry.
    page.driver.back()
    page.wait_for("dialog .confirm")
    page.screenshot("history-sheet-asks")
    page.click("dialog .confirm button[value='no']")
    page.wait_gone("dialog .confirm")
    assert page.find("dialog .note-editor textarea[name='content']").get_attribute("value") == "Train at nine, coffee first"
    assert shown(page) == "notes"
    page.driver.back()
    page.wait_for("dialog .confirm")
    page.click("dialog .confirm button[value='yes']")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "Train at nine"
    # One Back per thing open: the next returns to the app before.
    back(page, "board")
    forward(page, "notes")

    # Nothing typed: Back closes at once, Forward opens the same note again.
    page.click("section[data-app='notes'] .note-open")
    page.wait_for("dialog .note-editor")
    page.driver.back()
    page.wait_gone("dialog")
    assert shown(page) == "notes"
    page.driver.forward()
    title = page.wait_for("dialog .note-editor input[name='title']")
    assert title.get_attribute("value") == "Plan"
    # Saved, the sheet leaves no entry: Back goes to the board.
    page.click("dialog .note-editor button[value='save']")
    page.wait_gone("dialog")
    back(page, "board")

    # The board's new post, a message's detail: Back closes them too.
    page.click("section[data-app='board'] .board-new")
    page.wait_for("dialog .board-compose")
    page.driver.back()
    page.wait_gone("dialog")
    assert shown(page) == "board"
    assert page.console_errors() == []


def test_a_search_hit_opens_its_item_and_back_returns_to_the_results(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.notes.create(title="Kyoto trip", content="maple leaves")
    page.open("board")
    page.find("#search-input").send_keys("kyoto", Keys.ENTER)
    page.click("section[data-app='search'] .hit")
    page.wait_for("dialog .note-editor")
    assert shown(page) == "notes"
    page.driver.back()
    page.wait_gone("dialog")
    back(page, "search")
    page.wait_for("section[data-app='search'] .hit")
    back(page, "board")
    assert page.console_errors() == []
